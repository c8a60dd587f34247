//! torch.nn.init from the language: fill a tensor in place, under no_grad.

use super::Builtin;
use super::nn::opt_str;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::nn::init;
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
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
];

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
