//! Activations that PyTorch differentiates as one node, written in tensor ops:
//! each is a composite (its gradient comes from differentiating the formula) with
//! PyTorch's grad_fn name.

use crate::autograd::composite::composite;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::op::{BinaryOp, UnaryOp};
use crate::tensor::ops::arith::{bin, cmp, neg, num, scale, un, where_};

pub fn require_float(t: &Tensor, what: &str) -> Result<()> {
    if !t.dtype().is_float() {
        // PyTorch's class for a kernel missing a dtype.
        return Err(dtype_err(format!(
            "{what} needs a floating point input, but it is {}",
            t.dtype()
        ))
        .hint("convert first with .float()")
        .raised_as("NotImplementedError"));
    }
    Ok(())
}

/// x if x > 0 else slope * x: one element-wise pass, as ATen's kernel.
pub fn leaky_relu(x: &Tensor, slope: f64) -> Result<Tensor> {
    require_float(x, "leaky_relu")?;
    bin(BinaryOp::LeakyRelu, x, &num(slope))
}

/// x Φ(x), or its tanh approximation: one element-wise op each.
pub fn gelu(x: &Tensor, approximate: &str) -> Result<Tensor> {
    require_float(x, "gelu")?;
    match approximate {
        "none" => un(UnaryOp::Gelu, x),
        "tanh" => un(UnaryOp::GeluTanh, x),
        _ => Err(value_err(format!(
            "gelu's approximate must be 'none' or 'tanh', not '{approximate}'"
        ))),
    }
}

/// min(max(x + 3, 0), 6) / 6, and x times it: one element-wise op each.
pub fn hardsigmoid(x: &Tensor) -> Result<Tensor> {
    require_float(x, "hardsigmoid")?;
    un(UnaryOp::Hardsigmoid, x)
}

pub fn hardswish(x: &Tensor) -> Result<Tensor> {
    require_float(x, "hardswish")?;
    un(UnaryOp::Hardswish, x)
}

/// x σ(x), as ATen computes it: x / (1 + e^-x).
pub fn silu(x: &Tensor) -> Result<Tensor> {
    require_float(x, "silu")?;
    un(UnaryOp::Silu, x)
}

/// log(1 + exp(β x)) / β, and x itself where β x exceeds the threshold. For
/// β = 1 (the default) one element-wise pass, as ATen's kernel; other β go
/// through the formula, differentiated as a whole.
pub fn softplus(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    require_float(x, "softplus")?;
    if beta == 1.0 {
        return bin(BinaryOp::Softplus, x, &num(threshold));
    }
    composite("SoftplusBackward0", &[x], |t| {
        let x = &t[0];
        let bx = scale(x, beta)?;
        let linear = cmp(BinaryOp::Gt, &bx, &num(threshold))?;
        // The soft branch sees 0 where the linear one is taken, so that exp never
        // overflows there: inf * 0 in its gradient would be NaN.
        let safe = where_(&linear, &num(0.0), &bx)?;
        let soft = scale(&un(UnaryOp::Log1p, &un(UnaryOp::Exp, &safe)?)?, 1.0 / beta)?;
        where_(&linear, x, &soft)
    })
}

/// x if x > 0 else α (exp(x) - 1): one element-wise pass, as ATen's kernel
/// (five, as a composite of where, expm1 and scale, ran at a third of its speed).
pub fn elu(x: &Tensor, alpha: f64) -> Result<Tensor> {
    require_float(x, "elu")?;
    bin(BinaryOp::Elu, x, &num(alpha))
}

/// One element-wise pass, as ATen's kernel.
pub fn logsigmoid(x: &Tensor) -> Result<Tensor> {
    require_float(x, "logsigmoid")?;
    un(UnaryOp::LogSigmoid, x)
}

/// softplus(-x) = -log σ(x), through logsigmoid's one pass.
pub fn softplus_neg(x: &Tensor) -> Result<Tensor> {
    neg(&un(UnaryOp::LogSigmoid, x)?)
}
