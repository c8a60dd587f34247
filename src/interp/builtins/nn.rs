//! torch.nn.functional from the language.

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::nn::functional::{self as f, CrossEntropy, Padding, Pool};
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "leaky_relu",
        "leaky_relu(input, negative_slope=0.01)",
        "x if x > 0 else negative_slope * x.",
        "F.leaky_relu(tensor([-1., 2.]), 0.1)",
        leaky_relu
    ),
    row!(
        Function,
        "gelu",
        "gelu(input, approximate='none')",
        "x * Φ(x), the Gaussian error linear unit ('tanh' approximates).",
        "F.gelu(tensor([-1., 0., 1.]))",
        gelu
    ),
    row!(
        Function,
        "silu",
        "silu(input, inplace=False)",
        "x * sigmoid(x).",
        "F.silu(tensor([-1., 0., 1.]))",
        silu
    ),
    row!(
        Function,
        "hardsigmoid",
        "hardsigmoid(input, inplace=False)",
        "min(max(x + 3, 0), 6) / 6, element-wise.",
        "F.hardsigmoid(tensor([-4., 0., 1.]))",
        hardsigmoid
    ),
    row!(
        Function,
        "hardswish",
        "hardswish(input, inplace=False)",
        "x * min(max(x + 3, 0), 6) / 6, element-wise.",
        "F.hardswish(tensor([-4., 0., 1.]))",
        hardswish
    ),
    row!(
        Function,
        "softplus",
        "softplus(input, beta=1, threshold=20)",
        "log(1 + exp(beta x)) / beta.",
        "F.softplus(tensor([-1., 0., 1.]))",
        softplus
    ),
    row!(
        Function,
        "elu",
        "elu(input, alpha=1.0, inplace=False)",
        "x if x > 0 else alpha * (exp(x) - 1).",
        "F.elu(tensor([-1., 0., 1.]))",
        elu
    ),
    row!(
        Function,
        "logsigmoid",
        "logsigmoid(input)",
        "log(sigmoid(x)), computed stably.",
        "F.logsigmoid(tensor([-1., 0., 1.]))",
        logsigmoid
    ),
    row!(
        Function,
        "linear",
        "linear(input, weight, bias=None)",
        "input @ weight.T + bias.",
        "F.linear(ones(2, 3), ones(4, 3), zeros(4))",
        linear
    ),
    row!(
        Function,
        "dropout",
        "dropout(input, p=0.5, training=True)",
        "Zero elements with probability p, scale the rest by 1/(1-p).",
        "manual_seed(0); F.dropout(ones(6), p=0.5)",
        dropout
    ),
    row!(
        Function,
        "one_hot",
        "one_hot(tensor, num_classes=-1)",
        "Class indices to one-hot rows (int64).",
        "F.one_hot(tensor([0, 2, 1]), 3)",
        one_hot
    ),
    row!(
        Function,
        "mse_loss",
        "mse_loss(input, target, reduction='mean')",
        "Mean squared error.",
        "F.mse_loss(tensor([1., 2.]), tensor([1., 4.]))",
        mse_loss
    ),
    row!(
        Function,
        "l1_loss",
        "l1_loss(input, target, reduction='mean')",
        "Mean absolute error.",
        "F.l1_loss(tensor([1., 2.]), tensor([1., 4.]))",
        l1_loss
    ),
    row!(
        Function,
        "nll_loss",
        "nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')",
        "Negative log likelihood of log-probabilities at class indices.",
        "F.nll_loss(log_softmax(tensor([[1., 2., 3.]]), dim=1), tensor([2]))",
        nll_loss
    ),
    row!(
        Function,
        "cross_entropy",
        "cross_entropy(input, target, weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0)",
        "log_softmax + nll_loss; target is class indices or class probabilities.",
        "F.cross_entropy(tensor([[2., 0.5, -1.]]), tensor([0]))",
        cross_entropy
    ),
    row!(
        Function,
        "binary_cross_entropy",
        "binary_cross_entropy(input, target, weight=None, reduction='mean')",
        "-(t log p + (1 - t) log(1 - p)) for probabilities p.",
        "F.binary_cross_entropy(tensor([0.8, 0.3]), tensor([1., 0.]))",
        binary_cross_entropy
    ),
    row!(
        Function,
        "binary_cross_entropy_with_logits",
        "binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None)",
        "binary_cross_entropy(sigmoid(x), t), computed stably from logits.",
        "F.binary_cross_entropy_with_logits(tensor([2., -1.]), tensor([1., 0.]))",
        bce_with_logits
    ),
    row!(
        Function,
        "conv2d",
        "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
        "2-d convolution over (N, C, H, W); padding may be 'valid' or 'same'.",
        "F.conv2d(ones(1, 1, 4, 4), ones(2, 1, 3, 3), padding=1).shape",
        conv2d
    ),
    row!(
        Function,
        "conv_transpose2d",
        "conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1)",
        "2-d transposed convolution over (N, C, H, W) (the gradient of conv2d with respect to its input); the weight is (in_channels, out_channels / groups, kH, kW).",
        "F.conv_transpose2d(ones(1, 1, 2, 2), ones(1, 1, 3, 3), stride=2).shape",
        conv_transpose2d
    ),
    row!(
        Function,
        "unfold",
        "unfold(input, kernel_size, dilation=1, padding=0, stride=1)",
        "Sliding blocks of (N, C, H, W) as columns: (N, C * kh * kw, L), zeros outside the image (im2col).",
        "F.unfold(arange(16.).reshape(1, 1, 4, 4), kernel_size=2, stride=2)",
        unfold
    ),
    row!(
        Function,
        "fold",
        "fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1)",
        "Columns (N, C * kh * kw, L) summed back into (N, C, H, W) images where blocks overlap (col2im).",
        "F.fold(ones(1, 4, 9), output_size=4, kernel_size=2)",
        fold
    ),
    row!(
        Function,
        "max_pool2d",
        "max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False)",
        "Maximum over each 2-d window.",
        "F.max_pool2d(arange(16.).reshape(1, 1, 4, 4), 2)",
        max_pool2d
    ),
    row!(
        Function,
        "avg_pool2d",
        "avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None)",
        "Mean over each 2-d window.",
        "F.avg_pool2d(arange(16.).reshape(1, 1, 4, 4), 2)",
        avg_pool2d
    ),
    crate::op!(
        Function,
        "_adaptive_avg_pool2d(Tensor input, int[2] output_size) -> Tensor",
        "Adaptive average pooling to output_size (F.adaptive_avg_pool2d's kernel): output o along an axis averages input [floor(o·in/out), ceil((o+1)·in/out)).",
        "torch._adaptive_avg_pool2d(arange(16.).reshape(1, 4, 4), [2, 3])",
        |input: Tensor, output_size: Vec<i64>| adaptive_avg_pool2d(&input, &output_size)
    ),
];

fn adaptive_avg_pool2d(x: &Tensor, size: &[i64]) -> Result<Tensor> {
    let out = match size {
        &[h, w] if h >= 0 && w >= 0 => [h as usize, w as usize],
        _ => {
            return Err(value_err(format!(
                "adaptive_avg_pool2d: output_size must be two non-negative sizes, not {size:?}"
            )));
        }
    };
    f::adaptive_avg_pool2d(x, out)
}

pub(super) fn opt_str(a: &mut Args, param: &str, default: &str) -> Result<String> {
    match a.take(param) {
        None | Some((Value::None, _)) => Ok(default.to_string()),
        Some((Value::Str(s), _)) => Ok(s.to_string()),
        Some((v, s)) => Err(type_err(format!(
            "{}() argument '{param}' must be a str, not {}",
            a.name,
            v.type_name()
        ))
        .at(s)),
    }
}

/// An int or a pair of ints (kernel sizes, strides, padding).
fn pair_of(v: &Value, a: &Args, param: &str) -> Result<[usize; 2]> {
    let list = match v {
        Value::Int(_) | Value::Tensor(_) => {
            let i = convert::to_int(v, a.name, param)?;
            vec![i, i]
        }
        _ => convert::to_int_list(v, a.name, param)?,
    };
    match list.as_slice() {
        [x] if *x >= 0 => Ok([*x as usize, *x as usize]),
        [x, y] if *x >= 0 && *y >= 0 => Ok([*x as usize, *y as usize]),
        _ => Err(value_err(format!(
            "{}() argument '{param}' must be a non-negative int or a pair of them",
            a.name
        ))),
    }
}

fn pair(a: &mut Args, param: &str, default: Option<[usize; 2]>) -> Result<Option<[usize; 2]>> {
    match a.take(param) {
        None | Some((Value::None, _)) => Ok(default),
        Some((v, s)) => pair_of(&v, a, param).map(Some).map_err(|e| e.at(s)),
    }
}

fn tensor_out(t: Result<Tensor>) -> Result<Value> {
    t.map(Value::Tensor)
}

/// An activation's `inplace=True`: the result written into the input, which
/// is returned (PyTorch's in-place variant, as far as values and autograd see).
fn in_place_if(inplace: bool, x: &Tensor, result: Result<Tensor>, what: &str) -> Result<Value> {
    let result = result?;
    if !inplace {
        return Ok(Value::Tensor(result));
    }
    crate::interp::ops::write_into(x, &result, what)?;
    Ok(Value::Tensor(x.clone()))
}

fn leaky_relu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let slope = a.float_or("negative_slope", 0.01)?;
    let inplace = a.flag("inplace", false)?;
    a.finish()?;
    in_place_if(inplace, &x, f::leaky_relu(&x, slope), "leaky_relu_")
}

fn gelu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let approx = opt_str(&mut a, "approximate", "none")?;
    a.finish()?;
    tensor_out(f::gelu(&x, &approx))
}

/// An activation of one tensor with `inplace=False` (silu, hardsigmoid,
/// hardswish): the result, or written into the input.
fn activation(mut a: Args, f: fn(&Tensor) -> Result<Tensor>, in_place_name: &str) -> Result<Value> {
    let x = a.tensor("input")?;
    let inplace = a.flag("inplace", false)?;
    a.finish()?;
    in_place_if(inplace, &x, f(&x), in_place_name)
}

fn silu(_: &mut Interp, a: Args) -> Result<Value> {
    activation(a, f::silu, "silu_")
}

fn hardsigmoid(_: &mut Interp, a: Args) -> Result<Value> {
    activation(a, f::hardsigmoid, "hardsigmoid_")
}

fn hardswish(_: &mut Interp, a: Args) -> Result<Value> {
    activation(a, f::hardswish, "hardswish_")
}

fn softplus(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let beta = a.float_or("beta", 1.0)?;
    let threshold = a.float_or("threshold", 20.0)?;
    a.finish()?;
    tensor_out(f::softplus(&x, beta, threshold))
}

fn elu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let alpha = a.float_or("alpha", 1.0)?;
    let inplace = a.flag("inplace", false)?;
    a.finish()?;
    in_place_if(inplace, &x, f::elu(&x, alpha), "elu_")
}

fn logsigmoid(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    a.finish()?;
    tensor_out(f::logsigmoid(&x))
}

fn linear(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let w = a.tensor("weight")?;
    let b = a.opt_tensor("bias")?;
    a.finish()?;
    tensor_out(f::linear(&x, &w, b.as_ref()))
}

fn dropout(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let p = a.float_or("p", 0.5)?;
    let training = a.flag("training", true)?;
    let inplace = a.flag("inplace", false)?;
    a.finish()?;
    in_place_if(inplace, &x, f::dropout(&x, p, training), "dropout_")
}

fn one_hot(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let n = a.int_or("num_classes", -1)?;
    a.finish()?;
    tensor_out(f::one_hot(&t, n))
}

fn pair_loss(mut a: Args, which: fn(&Tensor, &Tensor, &str) -> Result<Tensor>) -> Result<Value> {
    let x = a.tensor("input")?;
    let t = a.tensor("target")?;
    let reduction = opt_str(&mut a, "reduction", "mean")?;
    a.finish()?;
    tensor_out(which(&x, &t, &reduction))
}

fn mse_loss(_: &mut Interp, a: Args) -> Result<Value> {
    pair_loss(a, f::mse_loss)
}

fn l1_loss(_: &mut Interp, a: Args) -> Result<Value> {
    pair_loss(a, f::l1_loss)
}

fn nll_loss(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let t = a.tensor("target")?;
    let w = a.opt_tensor("weight")?;
    let ignore = a.int_or("ignore_index", -100)?;
    let reduction = opt_str(&mut a, "reduction", "mean")?;
    a.finish()?;
    tensor_out(f::nll_loss(&x, &t, w.as_ref(), ignore, &reduction))
}

fn cross_entropy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let t = a.tensor("target")?;
    let w = a.opt_tensor("weight")?;
    let ignore = a.int_or("ignore_index", -100)?;
    let reduction = opt_str(&mut a, "reduction", "mean")?;
    let label_smoothing = a.float_or("label_smoothing", 0.0)?;
    a.finish()?;
    let o = CrossEntropy {
        weight: w.as_ref(),
        ignore_index: ignore,
        reduction: &reduction,
        label_smoothing,
    };
    tensor_out(f::cross_entropy(&x, &t, &o))
}

fn binary_cross_entropy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let t = a.tensor("target")?;
    let w = a.opt_tensor("weight")?;
    let reduction = opt_str(&mut a, "reduction", "mean")?;
    a.finish()?;
    tensor_out(f::binary_cross_entropy(&x, &t, w.as_ref(), &reduction))
}

fn bce_with_logits(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let t = a.tensor("target")?;
    let w = a.opt_tensor("weight")?;
    let reduction = opt_str(&mut a, "reduction", "mean")?;
    let pw = a.opt_tensor("pos_weight")?;
    a.finish()?;
    tensor_out(f::binary_cross_entropy_with_logits(
        &x,
        &t,
        w.as_ref(),
        pw.as_ref(),
        &reduction,
    ))
}

fn conv2d(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let w = a.tensor("weight")?;
    let b = a.opt_tensor("bias")?;
    let stride = pair(&mut a, "stride", Some([1, 1]))?.unwrap_or([1, 1]);
    let padding = match a.take("padding") {
        None | Some((Value::None, _)) => Padding::Explicit([0, 0]),
        Some((Value::Str(s), sp)) => match s.as_ref() {
            "valid" => Padding::Explicit([0, 0]),
            "same" => Padding::Same,
            other => {
                return Err(value_err(format!(
                    "padding must be 'valid', 'same' or ints, not '{other}'"
                ))
                .at(sp));
            }
        },
        Some((v, s)) => Padding::Explicit(pair_of(&v, &a, "padding").map_err(|e| e.at(s))?),
    };
    let dilation = pair(&mut a, "dilation", Some([1, 1]))?.unwrap_or([1, 1]);
    let groups = a.int_or("groups", 1)?;
    a.finish()?;
    if stride.contains(&0) || dilation.contains(&0) || groups < 1 {
        return Err(value_err(
            "conv2d: stride, dilation and groups must be positive",
        ));
    }
    tensor_out(f::conv2d(
        &x,
        &w,
        b.as_ref(),
        stride,
        padding,
        dilation,
        groups as usize,
    ))
}

fn conv_transpose2d(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let w = a.tensor("weight")?;
    let b = a.opt_tensor("bias")?;
    let stride = pair(&mut a, "stride", Some([1, 1]))?.unwrap_or([1, 1]);
    let padding = pair(&mut a, "padding", Some([0, 0]))?.unwrap_or([0, 0]);
    let output_padding = pair(&mut a, "output_padding", Some([0, 0]))?.unwrap_or([0, 0]);
    let groups = a.int_or("groups", 1)?;
    let dilation = pair(&mut a, "dilation", Some([1, 1]))?.unwrap_or([1, 1]);
    a.finish()?;
    let t = crate::nn::conv_transpose::Transposed {
        stride,
        padding,
        output_padding,
        dilation,
        groups: usize::try_from(groups).unwrap_or(0),
    };
    tensor_out(crate::nn::conv_transpose::conv_transpose2d(
        &x,
        &w,
        b.as_ref(),
        &t,
    ))
}

/// kernel_size (required), dilation, padding and stride, as F.unfold and
/// F.fold take them.
fn blocks(a: &mut Args) -> Result<crate::nn::fold::Blocks> {
    let kernel = required_pair(a, "kernel_size")?;
    Ok(crate::nn::fold::Blocks {
        kernel,
        dilation: pair(a, "dilation", Some([1, 1]))?.unwrap_or([1, 1]),
        padding: pair(a, "padding", Some([0, 0]))?.unwrap_or([0, 0]),
        stride: pair(a, "stride", Some([1, 1]))?.unwrap_or([1, 1]),
    })
}

fn unfold(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let b = blocks(&mut a)?;
    a.finish()?;
    tensor_out(crate::nn::fold::unfold_blocks(&x, &b))
}

fn fold(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let size = required_pair(&mut a, "output_size")?;
    let b = blocks(&mut a)?;
    a.finish()?;
    tensor_out(crate::nn::fold::fold_blocks(&x, size, &b))
}

/// A pair argument with no default (kernel_size, output_size).
fn required_pair(a: &mut Args, param: &str) -> Result<[usize; 2]> {
    pair(a, param, None)?.ok_or_else(|| {
        type_err(format!("{}() missing required argument '{param}'", a.name)).at(a.span)
    })
}

fn pool_args(a: &mut Args, with_dilation: bool) -> Result<Pool> {
    let kernel = required_pair(a, "kernel_size")?;
    let stride = pair(a, "stride", None)?
        .filter(|s| s != &[0, 0])
        .unwrap_or(kernel);
    let padding = pair(a, "padding", Some([0, 0]))?.unwrap_or([0, 0]);
    let dilation = if with_dilation {
        pair(a, "dilation", Some([1, 1]))?.unwrap_or([1, 1])
    } else {
        [1, 1]
    };
    let ceil_mode = a.flag("ceil_mode", false)?;
    Ok(Pool {
        kernel,
        stride,
        padding,
        dilation,
        ceil_mode,
    })
}

fn max_pool2d(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let p = pool_args(&mut a, true)?;
    let return_indices = a.flag("return_indices", false)?;
    a.finish()?;
    let (v, i) = f::max_pool2d(&x, &p, return_indices)?;
    Ok(match i {
        Some(i) => Value::tuple(vec![Value::Tensor(v), Value::Tensor(i)]),
        None => Value::Tensor(v),
    })
}

fn avg_pool2d(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let p = pool_args(&mut a, false)?;
    let count_include_pad = a.flag("count_include_pad", true)?;
    let divisor = a.opt_int("divisor_override")?;
    a.finish()?;
    tensor_out(f::avg_pool2d(&x, &p, count_include_pad, divisor))
}
