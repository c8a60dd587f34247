//! Fake quantization (quantization-aware training): quantize and dequantize
//! again in one dense op, so a float tensor carries the rounding error of its
//! quantized form. The gradient passes straight through where the rounded value
//! lands inside [quant_min, quant_max] and is zero outside (PyTorch's
//! `*_cachemask_backward`: the gradient times the saved mask).

use crate::autograd::record;
use crate::autograd::rules::rule;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, div, mul, num, sub, un, where_};
use crate::tensor::ops::elementwise::{clamp, predicate};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::scalar::item_f64;
use crate::tensor::ops::view::reshape;
use crate::tensor::{DType, Tensor};

/// The range a fake quantization rounds into, and the zero point it checks.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub quant_min: i64,
    pub quant_max: i64,
}

/// `fake_quantize_per_tensor_affine`: `tensor_qparams` says the scale and zero
/// point came as tensors (PyTorch then names the node differently and does not
/// check the zero point against the range).
pub fn fake_quantize_per_tensor(
    x: &Tensor,
    scale: f64,
    zero_point: i64,
    range: Range,
    tensor_qparams: bool,
) -> Result<Tensor> {
    check_input(x, "fake_quantize_tensor_cachemask_kernel_type_handling")?;
    check_range(range)?;
    if !tensor_qparams {
        check_zero_point(zero_point as f64, zero_point as f64, range)?;
    }
    let xs = x.detached().to_dtype(compute_dtype(x))?;
    let (out, mask) = crate::autograd::no_grad(|| -> Result<(Tensor, Tensor)> {
        // PyTorch's kernel: the float32 reciprocal, zero_point + nearbyint(x * inv),
        // clamped with fmin/fmax (so NaN goes to quant_min), then
        // (q - zero_point) * scale in float32.
        let inv_scale = 1.0f32 / scale as f32;
        let zp = num(zero_point as f64);
        let q = add(
            &un(UnaryOp::Round, &mul(&xs, &num(inv_scale as f64))?)?,
            &zp,
        )?;
        let mask = inside(&q, range)?;
        let nan = predicate(PredicateOp::IsNan, &q)?;
        let clamped = where_(&nan, &num(range.quant_min as f64), &bounded(&q, range)?)?;
        let levels = sub(&clamped, &zp)?.to_dtype(DType::F32)?;
        let out = mul(&levels, &num(scale as f32 as f64))?.to_dtype(x.dtype())?;
        Ok((out, mask))
    })?;
    let name = if tensor_qparams {
        "FakeQuantizePerTensorAffineCachemaskTensorQparamsBackward0"
    } else {
        "FakeQuantizePerTensorAffineCachemaskBackward0"
    };
    Ok(straight_through(x, out, mask, name))
}

/// `fake_quantize_per_channel_affine`: one float32 scale and one zero point
/// (int32, or float for learnable zero points) per index along `axis`.
pub fn fake_quantize_per_channel(
    x: &Tensor,
    scales: &Tensor,
    zero_points: &Tensor,
    axis: i64,
    range: Range,
) -> Result<Tensor> {
    check_input(x, "fake_quantize_channel_cachemask_cpu_type_handling")?;
    check_channel_params(scales, zero_points)?;
    let axis = crate::tensor::shape::existing_dim(axis, x.ndim())?;
    if scales.numel() != x.shape()[axis] || zero_points.numel() != scales.numel() {
        return Err(crate::error::shape_err(
            "dimensions of scale and zero-point are not consistent with input tensor",
        ));
    }
    check_range(range)?;
    if zero_points.numel() > 0 {
        let zmin = item_f64(&reduce(zero_points, ReduceOp::Min, None, false)?)?;
        let zmax = item_f64(&reduce(zero_points, ReduceOp::Max, None, false)?)?;
        check_zero_point(zmin, zmax, range)?;
    }
    let device = x.device();
    let shape = crate::tensor::quantized::channel_shape(x.ndim(), axis, scales.numel());
    let line_up = |t: &Tensor| reshape(&t.detached().to_device(device)?, &shape);
    let (scales, zero_points) = (line_up(scales)?, line_up(zero_points)?);
    let xs = x.detached().to_dtype(compute_dtype(x))?;
    let float_zp = zero_points.dtype().is_float();
    let (out, mask) = crate::autograd::no_grad(|| -> Result<(Tensor, Tensor)> {
        let scales = scales.to_dtype(DType::F32)?;
        let inv_scales = div(&num(1.0), &scales)?;
        let zp = zero_points.to_dtype(DType::F32)?;
        let scaled = mul(&xs, &inv_scales)?;
        // Learnable (float) zero points are added before rounding, integer ones after.
        let q = if float_zp {
            un(UnaryOp::Round, &add(&scaled, &zp)?)?
        } else {
            add(&un(UnaryOp::Round, &scaled)?, &zp)?
        };
        let mask = inside(&q, range)?;
        // The clamped level minus the zero point, times the scale, all in double.
        let wide = |t: &Tensor| t.to_dtype(DType::F64);
        let levels = sub(&wide(&as_int64(&q, range)?)?, &wide(&zp)?)?;
        let out = mul(&levels, &wide(&scales)?)?;
        Ok((out.to_dtype(x.dtype())?, mask))
    })?;
    Ok(straight_through(
        x,
        out,
        mask,
        "FakeQuantizePerChannelAffineCachemaskBackward0",
    ))
}

/// Record `out` as a node whose gradient is the incoming one where `mask` holds.
fn straight_through(x: &Tensor, out: Tensor, mask: Tensor, name: &'static str) -> Tensor {
    record(out, name, &[x], true, move || {
        rule(move |g| Ok(vec![Some(mul(g, &mask.to_dtype(g.dtype())?)?)]))
    })
}

/// float64 inputs are computed in float64; float32, float16 and bfloat16 in float32.
fn compute_dtype(x: &Tensor) -> DType {
    if x.dtype() == DType::F64 {
        DType::F64
    } else {
        DType::F32
    }
}

/// Where the rounded value lies inside the range (NaN and infinities do not).
fn inside(q: &Tensor, range: Range) -> Result<Tensor> {
    bin(
        BinaryOp::LogicalAnd,
        &bin(BinaryOp::Ge, q, &num(range.quant_min as f64))?,
        &bin(BinaryOp::Le, q, &num(range.quant_max as f64))?,
    )
}

fn bounded(q: &Tensor, range: Range) -> Result<Tensor> {
    clamp(
        q,
        Some(&num(range.quant_min as f64)),
        Some(&num(range.quant_max as f64)),
    )
}

/// The per-channel kernel converts the rounded value to int64 before clamping:
/// NaN, infinities and values past int64 become int64's minimum, so quant_min.
fn as_int64(q: &Tensor, range: Range) -> Result<Tensor> {
    let out_of_int64 = bin(BinaryOp::Ge, &un(UnaryOp::Abs, q)?, &num(2f64.powi(63)))?;
    let bad = bin(
        BinaryOp::LogicalOr,
        &predicate(PredicateOp::IsNan, q)?,
        &out_of_int64,
    )?;
    where_(&bad, &num(range.quant_min as f64), &bounded(q, range)?)
}

fn check_input(x: &Tensor, kernel: &str) -> Result<()> {
    if !x.dtype().is_float() {
        return Err(dtype_err(format!(
            "\"{kernel}\" not implemented for '{}'",
            x.dtype().torch_scalar_name()
        ))
        .hint("fake quantization takes a floating-point tensor: x.float()"));
    }
    Ok(())
}

fn check_range(range: Range) -> Result<()> {
    if range.quant_min > range.quant_max {
        return Err(value_err(
            "`quant_min` should be less than or         equal to `quant_max`.",
        ));
    }
    Ok(())
}

fn check_zero_point(min: f64, max: f64, range: Range) -> Result<()> {
    if min < range.quant_min as f64 || max > range.quant_max as f64 {
        return Err(value_err(
            "`zero_point` must be between `quant_min` and `quant_max`.",
        ));
    }
    Ok(())
}

/// PyTorch's dtype and shape rules for per-channel scales and zero points.
fn check_channel_params(scales: &Tensor, zero_points: &Tensor) -> Result<()> {
    if !matches!(scales.dtype(), DType::F32 | DType::BF16) {
        return Err(dtype_err(format!(
            "Scale must be Float or BFloat16, found {}",
            scales.dtype().torch_scalar_name()
        )));
    }
    if !matches!(zero_points.dtype(), DType::I32 | DType::F32 | DType::F16) {
        return Err(dtype_err(format!(
            "Zero-point must be Int32, Float or Half, found {}",
            zero_points.dtype().torch_scalar_name()
        )));
    }
    if scales.ndim() != 1 {
        return Err(crate::error::shape_err("scale should be a 1-D tensor"));
    }
    if zero_points.ndim() != 1 {
        return Err(crate::error::shape_err("zero point should be a 1-D tensor"));
    }
    Ok(())
}
