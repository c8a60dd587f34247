//! PyTorch's quantization functions: quantized tensors (`quantize_per_tensor`,
//! `quantize_per_channel`, their accessors and methods, quantized max pooling
//! and batch norm) and dense fake quantization. The math is in
//! tensor/quantized and nn/quantized; this file binds it.

use super::Builtin;
use crate::error::{Error, Result, type_err, value_err};
use crate::interp::convert;
use crate::interp::value::Value;
use crate::nn::conv::Pool;
use crate::nn::quantized as nq;
use crate::op;
use crate::tensor::ops::scalar::{item_f64, item_i64};
use crate::tensor::quantized::fake::{self, Range};
use crate::tensor::quantized::{self as q, QDType, QTensor};
use crate::tensor::{DType, Tensor};

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "quantize_per_tensor(Any input, Any scale, Any zero_point, ScalarType dtype) -> Any",
        "Quantize: zero_point + round(x / scale), clamped to the dtype (scale, zero_point: numbers or 0-d tensors; or a list of tensors with one of each per tensor).",
        "torch.quantize_per_tensor(tensor([-1., 0., 1., 2.]), 0.1, 10, torch.quint8)",
        |input: Value, scale: Value, zero_point: Value, dtype: QDType| {
            quantize_per_tensor(&input, &scale, &zero_point, dtype)
        }
    ),
    op!(
        Function,
        "quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, ScalarType dtype) -> Any",
        "Quantize with one scale and zero point per index along axis.",
        "torch.quantize_per_channel(tensor([[-1., 0.], [1., 2.]]), tensor([0.1, 0.01]), tensor([10, 0]), 0, torch.quint8)",
        |input: Tensor, scales: Tensor, zero_points: Tensor, axis: i64, dtype: QDType| {
            q::quantize_per_channel(&input, &scales, &zero_points, axis, dtype)
        }
    ),
    op!(
        Function,
        "quantize_per_tensor_dynamic(Tensor input, Any dtype, bool reduce_range) -> Any",
        "Quantize with the scale and zero point that fit the tensor's range (PyTorch's choose_qparams); torch.float16 just converts.",
        "torch.quantize_per_tensor_dynamic(tensor([-1., 0., 1., 2.]), torch.quint8, False)",
        |input: Tensor, dtype: Value, reduce_range: bool| {
            quantize_dynamic(&input, &dtype, reduce_range)
        }
    ),
    op!(
        Both,
        "dequantize(Any input) -> Any",
        "The floats a quantized tensor stands for, (q - zero_point) * scale (a list of them: each); a dense tensor as float32.",
        "torch.quantize_per_tensor(tensor([-1., 0., 1.]), 0.1, 10, torch.quint8).dequantize()",
        |input: Value| dequantize(&input)
    ),
    op!(
        Function,
        "int_repr(Tensor input) -> Tensor",
        "A quantized tensor's integers, as a uint8, int8 or int32 tensor.",
        "torch.quantize_per_tensor(tensor([-1., 0., 1.]), 0.1, 10, torch.quint8).int_repr()",
        |input: QTensor| Ok::<_, Error>(input.int_repr().clone())
    ),
    op!(
        Function,
        "q_scale(Tensor input) -> float",
        "A per-tensor quantized tensor's scale.",
        "torch.quantize_per_tensor(tensor([1.]), 0.1, 10, torch.quint8).q_scale()",
        |input: QTensor| input.per_tensor().map(|(scale, _)| scale)
    ),
    op!(
        Function,
        "q_zero_point(Tensor input) -> int",
        "A per-tensor quantized tensor's zero point.",
        "torch.quantize_per_tensor(tensor([1.]), 0.1, 10, torch.quint8).q_zero_point()",
        |input: QTensor| input.per_tensor().map(|(_, zero_point)| zero_point)
    ),
    op!(
        Function,
        "q_per_channel_scales(Tensor input) -> Tensor",
        "A per-channel quantized tensor's scales (float64).",
        "torch.quantize_per_channel(tensor([[1.], [2.]]), tensor([0.1, 0.2]), tensor([0, 1]), 0, torch.qint8).q_per_channel_scales()",
        |input: QTensor| input.per_channel().map(|(s, _, _)| s.clone())
    ),
    op!(
        Function,
        "q_per_channel_zero_points(Tensor input) -> Tensor",
        "A per-channel quantized tensor's zero points (int64).",
        "torch.quantize_per_channel(tensor([[1.], [2.]]), tensor([0.1, 0.2]), tensor([0, 1]), 0, torch.qint8).q_per_channel_zero_points()",
        |input: QTensor| input.per_channel().map(|(_, z, _)| z.clone())
    ),
    op!(
        Function,
        "q_per_channel_axis(Tensor input) -> int",
        "The axis a per-channel quantized tensor's parameters run along.",
        "torch.quantize_per_channel(tensor([[1.], [2.]]), tensor([0.1, 0.2]), tensor([0, 1]), 0, torch.qint8).q_per_channel_axis()",
        |input: QTensor| input.per_channel().map(|(_, _, axis)| axis as i64)
    ),
    op!(
        Function,
        "fake_quantize_per_tensor_affine(Tensor input, Any scale, Any zero_point, int quant_min, int quant_max) -> Tensor",
        "Quantize and dequantize in one float op (scale, zero_point: numbers or 0-d tensors); the gradient passes where the value fits [quant_min, quant_max].",
        "torch.fake_quantize_per_tensor_affine(tensor([0.33, 1.26, 30.]), 0.1, 0, 0, 255)",
        |input: Tensor, scale: Value, zero_point: Value, quant_min: i64, quant_max: i64| {
            fake_per_tensor(
                &input,
                &scale,
                &zero_point,
                Range {
                    quant_min,
                    quant_max,
                },
            )
        }
    ),
    op!(
        Function,
        "fake_quantize_per_channel_affine(Tensor input, Tensor scale, Tensor zero_point, int axis, int quant_min, int quant_max) -> Tensor",
        "Fake quantization with one float32 scale and int32 zero point per index along axis.",
        "torch.fake_quantize_per_channel_affine(tensor([[0.33, 1.26]]), tensor([0.1]), tensor([0], dtype=torch.int32), 0, 0, 255)",
        |input: Tensor,
         scale: Tensor,
         zero_point: Tensor,
         axis: i64,
         quant_min: i64,
         quant_max: i64| {
            fake::fake_quantize_per_channel(
                &input,
                &scale,
                &zero_point,
                axis,
                Range {
                    quant_min,
                    quant_max,
                },
            )
        }
    ),
    op!(
        Function,
        "quantized_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor mean, Tensor var, float eps, float output_scale, int output_zero_point) -> Tensor",
        "Batch norm (evaluation mode) of a quantized (N, C, ...) tensor, requantized with output_scale and output_zero_point.",
        "torch.quantized_batch_norm(torch.quantize_per_tensor(ones(1, 2, 2), 0.5, 3, torch.quint8), ones(2), zeros(2), zeros(2), ones(2), 1e-5, 0.2, 2)",
        |input: QTensor,
         weight: Option<Tensor>,
         bias: Option<Tensor>,
         mean: Tensor,
         var: Tensor,
         eps: f64,
         output_scale: f64,
         output_zero_point: i64| {
            let weight = weight.ok_or_else(|| value_err("Weight must be provided"))?;
            let bias = bias.ok_or_else(|| value_err("Bias must be provided"))?;
            let p = nq::BatchNormParams {
                weight: &weight,
                bias: &bias,
                mean: &mean,
                var: &var,
                eps,
            };
            nq::batch_norm_q(&input, &p, output_scale, output_zero_point)
        }
    ),
    op!(
        Function,
        "quantized_max_pool1d(Tensor input, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor",
        "Max pooling of a quantized (C, L) or (N, C, L) tensor; scale and zero point are kept.",
        "torch.quantized_max_pool1d(torch.quantize_per_tensor(tensor([[1., 3., 2., 0.]]), 0.5, 3, torch.quint8), [2])",
        |input: QTensor,
         kernel_size: Vec<i64>,
         stride: Vec<i64>,
         padding: Vec<i64>,
         dilation: Vec<i64>,
         ceil_mode: bool| {
            let p = pool(&[kernel_size, stride, padding, dilation], 1, ceil_mode)?;
            nq::max_pool1d_q(
                &input,
                p.kernel[1],
                p.stride[1],
                p.padding[1],
                p.dilation[1],
                ceil_mode,
            )
        }
    ),
    op!(
        Function,
        "quantized_max_pool2d(Tensor input, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
        "Max pooling of a quantized (C, H, W) or (N, C, H, W) tensor; scale and zero point are kept.",
        "torch.quantized_max_pool2d(torch.quantize_per_tensor(arange(16.).reshape(1, 4, 4), 0.5, 3, torch.quint8), [2, 2])",
        |input: QTensor,
         kernel_size: Vec<i64>,
         stride: Vec<i64>,
         padding: Vec<i64>,
         dilation: Vec<i64>,
         ceil_mode: bool| {
            let p = pool(&[kernel_size, stride, padding, dilation], 2, ceil_mode)?;
            nq::max_pool2d_q(&input, &p)
        }
    ),
];

/// A number, or a one-element tensor read as a double (a float32 tensor's
/// 0.1 is 0.10000000149011612, as in PyTorch).
fn scale_of(v: &Value, what: &str) -> Result<f64> {
    match v {
        Value::Tensor(t) => item_f64(&one_element(t)?),
        v => convert::to_float(v, what, "scale"),
    }
}

fn zero_point_of(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Tensor(t) => item_i64(&one_element(t)?.to_dtype(DType::I64)?),
        v => convert::to_int(v, what, "zero_point"),
    }
}

fn one_element(t: &Tensor) -> Result<Tensor> {
    if t.numel() != 1 {
        return Err(value_err(format!(
            "a Tensor with {} elements cannot be converted to Scalar",
            t.numel()
        )));
    }
    Ok(t.clone())
}

fn quantize_per_tensor(
    input: &Value,
    scale: &Value,
    zero_point: &Value,
    dtype: QDType,
) -> Result<Value> {
    const WHAT: &str = "quantize_per_tensor";
    if let Value::List(_) | Value::Tuple(_) = input {
        return quantize_list(input, scale, zero_point, dtype);
    }
    let x = convert::to_tensor_arg(input, WHAT, "input")?;
    let (scale, zero_point) = (scale_of(scale, WHAT)?, zero_point_of(zero_point, WHAT)?);
    q::quantize_per_tensor(&x, scale, zero_point, dtype).map(Value::QTensor)
}

/// The list form: tensor i quantized with scales[i] and zero_points[i].
fn quantize_list(
    inputs: &Value,
    scales: &Value,
    zero_points: &Value,
    dtype: QDType,
) -> Result<Value> {
    const WHAT: &str = "quantize_per_tensor";
    let xs = inputs.iter_items()?;
    let (Value::Tensor(scales), Value::Tensor(zero_points)) = (scales, zero_points) else {
        return Err(type_err(
            "quantize_per_tensor of a list of tensors takes tensors of scales and zero points",
        ));
    };
    if scales.numel() != xs.len() || zero_points.numel() != xs.len() {
        return Err(value_err(format!(
            "quantize_per_tensor: {} tensors need as many scales and zero points, got {} and {}",
            xs.len(),
            scales.numel(),
            zero_points.numel()
        )));
    }
    // The parameters are read as numbers, one per tensor.
    let scales = scales.to_host_f64()?;
    let zero_points = zero_points.to_host_i64()?;
    let mut out = Vec::with_capacity(xs.len());
    for (i, x) in xs.iter().enumerate() {
        let x = convert::to_tensor_arg(x, WHAT, "tensors")?;
        out.push(Value::QTensor(q::quantize_per_tensor(
            &x,
            scales[i],
            zero_points[i],
            dtype,
        )?));
    }
    Ok(Value::tuple(out))
}

fn quantize_dynamic(input: &Tensor, dtype: &Value, reduce_range: bool) -> Result<Value> {
    match dtype {
        Value::QDType(d) => {
            q::quantize_per_tensor_dynamic(input, *d, reduce_range).map(Value::QTensor)
        }
        // PyTorch's dynamic quantization to float16 is a plain conversion.
        Value::DType(DType::F16) => input.to_dtype(DType::F16).map(Value::Tensor),
        Value::DType(d) => Err(value_err(format!(
            "dtype {}not supported",
            d.torch_scalar_name()
        ))),
        other => Err(type_err(format!(
            "quantize_per_tensor_dynamic(): argument 'dtype' must be torch.dtype, not {}",
            other.type_name()
        ))),
    }
}

fn dequantize(input: &Value) -> Result<Value> {
    match input {
        Value::QTensor(q) => q.dequantize().map(Value::Tensor),
        Value::List(_) | Value::Tuple(_) => {
            let items = input.iter_items()?;
            let out = items.iter().map(dequantize).collect::<Result<Vec<_>>>()?;
            Ok(Value::tuple(out))
        }
        v => {
            let t = convert::to_tensor_arg(v, "dequantize", "input")?;
            t.to_dtype(DType::F32).map(Value::Tensor)
        }
    }
}

fn fake_per_tensor(x: &Tensor, scale: &Value, zero_point: &Value, range: Range) -> Result<Tensor> {
    const WHAT: &str = "fake_quantize_per_tensor_affine";
    let tensors = matches!(scale, Value::Tensor(_)) || matches!(zero_point, Value::Tensor(_));
    if !tensors && matches!(zero_point, Value::Float(_)) {
        return Err(type_err(format!(
            "{WHAT}(): argument 'zero_point' must be int, not float"
        )));
    }
    let (s, z) = (scale_of(scale, WHAT)?, zero_point_of(zero_point, WHAT)?);
    fake::fake_quantize_per_tensor(x, s, z, range, tensors)
}

/// A pooling window from PyTorch's int lists: one number stands for every
/// dim, and an empty stride means the kernel size.
fn pool(lists: &[Vec<i64>; 4], dims: usize, ceil_mode: bool) -> Result<Pool> {
    let mut out = [[0usize; 2]; 4];
    for (i, list) in lists.iter().enumerate() {
        let list = if i == 1 && list.is_empty() {
            &lists[0]
        } else {
            list
        };
        let values: Vec<usize> = match list.as_slice() {
            [x] if *x >= 0 => vec![*x as usize; dims],
            xs if xs.len() == dims && xs.iter().all(|&x| x >= 0) => {
                xs.iter().map(|&x| x as usize).collect()
            }
            _ => {
                return Err(value_err(format!(
                    "quantized_max_pool{dims}d: each of kernel_size, stride, padding and dilation takes {dims} non-negative int(s)"
                )));
            }
        };
        // The 1-d pool reads the second of each pair (its width).
        out[i] = if dims == 1 {
            [0, values[0]]
        } else {
            [values[0], values[1]]
        };
    }
    Ok(Pool {
        kernel: out[0],
        stride: out[1],
        padding: out[2],
        dilation: out[3],
        ceil_mode,
    })
}
