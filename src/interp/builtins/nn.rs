//! torch.nn.functional, torch.nn.init and torch.optim from the language.

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::nn::functional::{self as f, CrossEntropy, Padding, Pool};
use crate::nn::init;
use crate::nn::optim::{Kind, Optimizer};
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
        "silu(input)",
        "x * sigmoid(x).",
        "F.silu(tensor([-1., 0., 1.]))",
        silu
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
        "elu(input, alpha=1.0)",
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
    row!(
        Function,
        "calculate_gain",
        "calculate_gain(nonlinearity, param=None)",
        "The recommended init gain for a nonlinearity.",
        "init.calculate_gain('relu')",
        calculate_gain
    ),
    row!(
        Function,
        "uniform_",
        "uniform_(tensor, a=0.0, b=1.0)",
        "Fill in place from U(a, b).",
        "manual_seed(0); init.uniform_(empty(3), -1, 1)",
        uniform_
    ),
    row!(
        Function,
        "normal_",
        "normal_(tensor, mean=0.0, std=1.0)",
        "Fill in place from N(mean, std²).",
        "manual_seed(0); init.normal_(empty(3), 0, 0.1)",
        normal_
    ),
    row!(
        Function,
        "constant_",
        "constant_(tensor, val)",
        "Fill in place with val.",
        "init.constant_(empty(3), 0.5)",
        constant_
    ),
    row!(
        Function,
        "zeros_",
        "zeros_(tensor)",
        "Fill in place with 0.",
        "init.zeros_(empty(3))",
        zeros_
    ),
    row!(
        Function,
        "ones_",
        "ones_(tensor)",
        "Fill in place with 1.",
        "init.ones_(empty(3))",
        ones_
    ),
    row!(
        Function,
        "kaiming_uniform_",
        "kaiming_uniform_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",
        "He uniform init: U(-b, b), b = gain * sqrt(3 / fan).",
        "manual_seed(0); init.kaiming_uniform_(empty(2, 3), nonlinearity='relu')",
        kaiming_uniform_
    ),
    row!(
        Function,
        "kaiming_normal_",
        "kaiming_normal_(tensor, a=0, mode='fan_in', nonlinearity='leaky_relu')",
        "He normal init: N(0, (gain / sqrt(fan))²).",
        "manual_seed(0); init.kaiming_normal_(empty(2, 3), nonlinearity='relu')",
        kaiming_normal_
    ),
    row!(
        Function,
        "xavier_uniform_",
        "xavier_uniform_(tensor, gain=1.0)",
        "Glorot uniform init: U(-b, b), b = gain * sqrt(6 / (fan_in + fan_out)).",
        "manual_seed(0); init.xavier_uniform_(empty(2, 3))",
        xavier_uniform_
    ),
    row!(
        Function,
        "xavier_normal_",
        "xavier_normal_(tensor, gain=1.0)",
        "Glorot normal init.",
        "manual_seed(0); init.xavier_normal_(empty(2, 3))",
        xavier_normal_
    ),
    row!(
        Function,
        "SGD",
        "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False)",
        "Stochastic gradient descent (with momentum).",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        sgd
    ),
    row!(
        Function,
        "Adam",
        "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, maximize=False)",
        "Adam: adaptive moment estimation.",
        "w = ones(2, requires_grad=true); opt = optim.Adam([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        adam
    ),
    row!(
        Function,
        "AdamW",
        "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, maximize=False)",
        "Adam with decoupled weight decay.",
        "w = ones(2, requires_grad=true); opt = optim.AdamW([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        adamw
    ),
];

fn opt_str(a: &mut Args, param: &str, default: &str) -> Result<String> {
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

fn leaky_relu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let slope = a.float_or("negative_slope", 0.01)?;
    let _inplace = a.flag("inplace", false)?;
    a.finish()?;
    tensor_out(f::leaky_relu(&x, slope))
}

fn gelu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let approx = opt_str(&mut a, "approximate", "none")?;
    a.finish()?;
    tensor_out(f::gelu(&x, &approx))
}

fn silu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    a.finish()?;
    tensor_out(f::silu(&x))
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
    a.finish()?;
    tensor_out(f::elu(&x, alpha))
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
    let _inplace = a.flag("inplace", false)?;
    a.finish()?;
    tensor_out(f::dropout(&x, p, training))
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

fn pool_args(a: &mut Args, with_dilation: bool) -> Result<Pool> {
    let kernel = pair(a, "kernel_size", None)?.ok_or_else(|| {
        type_err(format!(
            "{}() missing required argument 'kernel_size'",
            a.name
        ))
        .at(a.span)
    })?;
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

// ---- init ----

fn calculate_gain(_: &mut Interp, mut a: Args) -> Result<Value> {
    let nl = a.string("nonlinearity")?;
    let param = a.opt_float("param")?;
    a.finish()?;
    init::gain(&nl, param).map(Value::Float)
}

fn filled(t: Tensor, r: Result<()>) -> Result<Value> {
    r.map(|_| Value::Tensor(t))
}

fn uniform_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let lo = a.float_or("a", 0.0)?;
    let hi = a.float_or("b", 1.0)?;
    a.finish()?;
    let r = init::uniform_(&t, lo, hi);
    filled(t, r)
}

fn normal_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let mean = a.float_or("mean", 0.0)?;
    let std = a.float_or("std", 1.0)?;
    a.finish()?;
    let r = init::normal_(&t, mean, std);
    filled(t, r)
}

fn constant_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let v = a.float("val")?;
    a.finish()?;
    let r = init::constant_(&t, v);
    filled(t, r)
}

fn zeros_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    a.finish()?;
    let r = init::constant_(&t, 0.0);
    filled(t, r)
}

fn ones_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("tensor")?;
    a.finish()?;
    let r = init::constant_(&t, 1.0);
    filled(t, r)
}

fn kaiming(mut a: Args, normal: bool) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let neg = a.float_or("a", 0.0)?;
    let mode = opt_str(&mut a, "mode", "fan_in")?;
    let nl = opt_str(&mut a, "nonlinearity", "leaky_relu")?;
    a.finish()?;
    let r = if normal {
        init::kaiming_normal_(&t, neg, &mode, &nl)
    } else {
        init::kaiming_uniform_(&t, neg, &mode, &nl)
    };
    filled(t, r)
}

fn kaiming_uniform_(_: &mut Interp, a: Args) -> Result<Value> {
    kaiming(a, false)
}

fn kaiming_normal_(_: &mut Interp, a: Args) -> Result<Value> {
    kaiming(a, true)
}

fn xavier(mut a: Args, normal: bool) -> Result<Value> {
    let t = a.tensor("tensor")?;
    let gain = a.float_or("gain", 1.0)?;
    a.finish()?;
    let r = if normal {
        init::xavier_normal_(&t, gain)
    } else {
        init::xavier_uniform_(&t, gain)
    };
    filled(t, r)
}

fn xavier_uniform_(_: &mut Interp, a: Args) -> Result<Value> {
    xavier(a, false)
}

fn xavier_normal_(_: &mut Interp, a: Args) -> Result<Value> {
    xavier(a, true)
}

// ---- optimizers ----

fn params(a: &mut Args) -> Result<Vec<Tensor>> {
    let (v, s) = a.take("params").ok_or_else(|| {
        type_err(format!("{}() missing required argument 'params'", a.name)).at(a.span)
    })?;
    let items = match &v {
        Value::Tensor(t) => vec![Value::Tensor(t.clone())],
        other => other.iter_items().map_err(|e| e.at(s))?,
    };
    items
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(type_err(format!(
                "optimizer parameters must be tensors, not {}",
                other.a_type_name()
            ))
            .at(s)),
        })
        .collect()
}

fn betas(a: &mut Args) -> Result<(f64, f64)> {
    match a.take("betas") {
        None | Some((Value::None, _)) => Ok((0.9, 0.999)),
        Some((v, s)) => {
            let items = v.iter_items().map_err(|e| e.at(s))?;
            match items.as_slice() {
                [b1, b2] => Ok((
                    convert::to_float(b1, a.name, "betas").map_err(|e| e.at(s))?,
                    convert::to_float(b2, a.name, "betas").map_err(|e| e.at(s))?,
                )),
                _ => Err(value_err("betas must be a pair (beta1, beta2)").at(s)),
            }
        }
    }
}

fn optimizer(o: Optimizer) -> Value {
    Value::Optimizer(Rc::new(RefCell::new(o)))
}

fn sgd(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ps = params(&mut a)?;
    let lr = a.float_or("lr", 0.001)?;
    let momentum = a.float_or("momentum", 0.0)?;
    let dampening = a.float_or("dampening", 0.0)?;
    let wd = a.float_or("weight_decay", 0.0)?;
    let nesterov = a.flag("nesterov", false)?;
    let maximize = a.flag("maximize", false)?;
    let span = a.span;
    a.finish()?;
    if nesterov && (momentum <= 0.0 || dampening != 0.0) {
        return Err(value_err("Nesterov momentum requires a momentum and zero dampening").at(span));
    }
    if momentum < 0.0 {
        return Err(value_err(format!("invalid momentum value: {momentum}")).at(span));
    }
    let kind = Kind::Sgd {
        momentum,
        dampening,
        nesterov,
    };
    Optimizer::new(kind, ps, lr, wd, maximize)
        .map(optimizer)
        .map_err(|e| e.at(span))
}

fn adam_like(mut a: Args, decoupled: bool) -> Result<Value> {
    let ps = params(&mut a)?;
    let lr = a.float_or("lr", 0.001)?;
    let (beta1, beta2) = betas(&mut a)?;
    let eps = a.float_or("eps", 1e-8)?;
    let wd = a.float_or("weight_decay", if decoupled { 0.01 } else { 0.0 })?;
    let amsgrad = a.flag("amsgrad", false)?;
    let maximize = a.flag("maximize", false)?;
    let span = a.span;
    a.finish()?;
    for (name, b) in [("beta1", beta1), ("beta2", beta2)] {
        if !(0.0..1.0).contains(&b) {
            return Err(value_err(format!("invalid {name}: {b} (it must be in [0, 1))")).at(span));
        }
    }
    let kind = Kind::Adam {
        beta1,
        beta2,
        eps,
        amsgrad,
        decoupled,
    };
    Optimizer::new(kind, ps, lr, wd, maximize)
        .map(optimizer)
        .map_err(|e| e.at(span))
}

fn adam(_: &mut Interp, a: Args) -> Result<Value> {
    adam_like(a, false)
}

fn adamw(_: &mut Interp, a: Args) -> Result<Value> {
    adam_like(a, true)
}

const OPTIMIZER_ROWS: &[Builtin] = &[
    row!(
        Method,
        "step",
        "step()",
        "Update every parameter that has a gradient.",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.5); w.sum().backward(); opt.step(); w",
        opt_step
    ),
    row!(
        Method,
        "zero_grad",
        "zero_grad(set_to_none=True)",
        "Clear every parameter's gradient.",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w]); w.sum().backward(); opt.zero_grad(); w.grad",
        opt_zero_grad
    ),
];

fn the_optimizer(a: &mut Args) -> Result<Rc<RefCell<Optimizer>>> {
    match a.value("self")? {
        Value::Optimizer(o) => Ok(o),
        other => Err(type_err(format!(
            "expected an optimizer, not {}",
            other.a_type_name()
        ))),
    }
}

fn opt_step(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = the_optimizer(&mut a)?;
    let span = a.span;
    a.finish()?;
    o.borrow_mut().step().map_err(|e| e.at(span))?;
    Ok(Value::None)
}

fn opt_zero_grad(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = the_optimizer(&mut a)?;
    let set_to_none = a.flag("set_to_none", true)?;
    a.finish()?;
    o.borrow().zero_grad(set_to_none)?;
    Ok(Value::None)
}

pub fn optimizer_methods() -> &'static [Builtin] {
    OPTIMIZER_ROWS
}

pub fn optimizer_method(obj: &Value, name: &str) -> Option<Value> {
    OPTIMIZER_ROWS
        .iter()
        .find(|b| b.name == name)
        .map(|b| Value::Method(Rc::new((obj.clone(), b))))
}

pub fn optimizer_attr_names() -> Vec<&'static str> {
    let mut v = vec!["lr", "weight_decay", "params"];
    v.extend(OPTIMIZER_ROWS.iter().map(|b| b.name));
    v
}

pub fn optimizer_attr(o: &Optimizer, name: &str) -> Option<Value> {
    Some(match name {
        "lr" => Value::Float(o.lr),
        "weight_decay" => Value::Float(o.weight_decay),
        "params" => Value::list(o.params.iter().cloned().map(Value::Tensor).collect()),
        _ => return None,
    })
}

pub fn set_optimizer_attr(o: &mut Optimizer, name: &str, v: &Value) -> Result<()> {
    let x = convert::to_float(v, "optimizer", name)?;
    match name {
        "lr" if x >= 0.0 => o.lr = x,
        "weight_decay" if x >= 0.0 => o.weight_decay = x,
        "lr" | "weight_decay" => return Err(value_err(format!("{name} must not be negative"))),
        other => {
            return Err(
                type_err(format!("the optimizer attribute '{other}' cannot be set"))
                    .hint("settable: lr, weight_decay"),
            );
        }
    }
    Ok(())
}
