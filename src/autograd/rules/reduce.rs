//! Rules for reductions, scans, softmax and log_softmax.

use super::{rule, unsqueeze_dims};
use crate::autograd::{Saved, needs_grad, record};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::op::{BinaryOp, ReduceOp, ScanOp, UnaryOp};
use crate::tensor::ops::arith::{div, mask, mul, num, scale, sub, where_};
use crate::tensor::ops::elementwise::{binary, unary};
use crate::tensor::ops::reduce::{reduce, scan};
use crate::tensor::ops::view::{expand, flip};

fn expand_to(g: &Tensor, shape: &[usize]) -> Result<Tensor> {
    let sizes: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    expand(g, &sizes)
}

/// `reduce(x, op, dims, keepdim)`; `dims` normalised, `all` when no dims were given.
pub fn record_reduce(
    op: ReduceOp,
    x: &Tensor,
    dims: &[usize],
    keepdim: bool,
    all: bool,
    out: Tensor,
) -> Tensor {
    let Some(name) = op.grad_fn(all) else {
        return out;
    };
    // Nothing saved (a tensor clone each, a view for the output) where
    // nothing will be recorded: most ops outside training.
    if !needs_grad(&[x]) {
        return out;
    }
    let (sx, so) = (Saved::new(x), Saved::output(&out));
    let saves = !matches!(op, ReduceOp::Sum | ReduceOp::SumInOrder | ReduceOp::Mean);
    let (in_shape, dims) = (x.shape().to_vec(), dims.to_vec());
    let n: usize = dims.iter().map(|&d| in_shape[d]).product();
    let idims: Vec<i64> = dims.iter().map(|&d| d as i64).collect();
    record(out, name, &[x], saves, move || {
        rule(move |g| {
            let g1 = unsqueeze_dims(g, &in_shape, &dims, keepdim)?;
            let keep = |t: &Tensor| unsqueeze_dims(t, &in_shape, &dims, keepdim);
            let grad = match op {
                ReduceOp::Sum | ReduceOp::SumInOrder => expand_to(&g1, &in_shape)?,
                ReduceOp::Mean => expand_to(&scale(&g1, 1.0 / n as f64)?, &in_shape)?,
                ReduceOp::Prod => {
                    let (x, out) = (sx.get()?, keep(&so.get()?)?);
                    mul(&g1, &prod_others(&x, &out, &idims)?)?
                }
                ReduceOp::Max | ReduceOp::Min => {
                    // Ties share the gradient evenly, as PyTorch's max() does.
                    let (x, out) = (sx.get()?, keep(&so.get()?)?);
                    let hit = mask(&binary(BinaryOp::Eq, &x, &out)?, &g1)?;
                    let count = reduce(&hit, ReduceOp::Sum, Some(&idims), true)?;
                    mul(&div(&g1, &count)?, &hit)?
                }
                ReduceOp::Var(c) | ReduceOp::Std(c) => {
                    let x = sx.get()?;
                    let mean = reduce(&x, ReduceOp::Mean, Some(&idims), true)?;
                    let centered = sub(&x, &mean)?;
                    let denom = (n as f64 - c).max(0.0);
                    // std = sqrt(var): its gradient reaches var as g / (2 std),
                    // and 0 where std is 0 (as PyTorch's std_backward).
                    let g_var = if let ReduceOp::Std(_) = op {
                        let out = keep(&so.get()?)?;
                        let zero = crate::tensor::ops::arith::num(0.0);
                        let at_zero = binary(BinaryOp::Eq, &out, &zero)?;
                        let g = div(&g1, &scale(&out, 2.0)?)?;
                        crate::tensor::ops::arith::where_(&at_zero, &zero, &g)?
                    } else {
                        g1
                    };
                    mul(&g_var, &scale(&centered, 2.0 / denom)?)?
                }
                ReduceOp::Norm(p) => {
                    let (x, out) = (sx.get()?, keep(&so.get()?)?);
                    mul(&g1, &norm_derivative(&x, &out, p, &idims)?)?
                }
                ReduceOp::LogSumExp => {
                    let (x, out) = (sx.get()?, keep(&so.get()?)?);
                    mul(&g1, &unary(UnaryOp::Exp, &sub(&x, &out)?)?)?
                }
                _ => return Ok(vec![None]),
            };
            Ok(vec![Some(grad)])
        })
    })
}

/// For prod: the product of the other elements of each group (exact with zeros).
fn prod_others(x: &Tensor, out: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let zero = binary(BinaryOp::Eq, x, &num(0.0))?;
    let zeros_in_group = reduce(&zero, ReduceOp::Sum, Some(dims), true)?;
    let plain = div(out, x)?;
    // Where a group has exactly one zero, that element's gradient is the product of
    // the non-zero others; elsewhere in that group (and with 2+ zeros) it is 0.
    let nonzero_x = where_(&zero, &num(1.0), x)?;
    let prod_nonzero = reduce(&nonzero_x, ReduceOp::Prod, Some(dims), true)?;
    let one_zero = binary(BinaryOp::Eq, &zeros_in_group, &num(1.0))?;
    let at_zero = where_(
        &binary(BinaryOp::LogicalAnd, &zero, &one_zero)?,
        &prod_nonzero,
        &num(0.0),
    )?;
    where_(&zero, &at_zero, &where_(&one_zero, &num(0.0), &plain)?)
}

fn norm_derivative(x: &Tensor, out: &Tensor, p: f64, dims: &[i64]) -> Result<Tensor> {
    let sign = unary(UnaryOp::Sign, x)?;
    let safe = |t: Tensor| where_(&binary(BinaryOp::Eq, out, &num(0.0))?, &num(0.0), &t);
    if p == 2.0 {
        safe(div(x, out)?)
    } else if p == 1.0 {
        Ok(sign)
    } else if p.is_infinite() {
        let absx = unary(UnaryOp::Abs, x)?;
        let hit = mask(&binary(BinaryOp::Eq, &absx, out)?, x)?;
        let count = reduce(&hit, ReduceOp::Sum, Some(dims), true)?;
        mul(&sign, &div(&hit, &count)?)
    } else {
        let absx = unary(UnaryOp::Abs, x)?;
        let num_ = mul(&sign, &binary(BinaryOp::Pow, &absx, &num(p - 1.0))?)?;
        safe(div(&num_, &binary(BinaryOp::Pow, out, &num(p - 1.0))?)?)
    }
}

pub fn record_scan(op: ScanOp, x: &Tensor, d: usize, out: Tensor) -> Tensor {
    let name = match op {
        ScanOp::Sum => "CumsumBackward0",
        ScanOp::Prod => "CumprodBackward0",
        _ => return out,
    };
    if !needs_grad(&[x]) {
        return out;
    }
    let (sx, so) = (Saved::new(x), Saved::output(&out));
    record(out, name, &[x], op == ScanOp::Prod, move || {
        rule(move |g| {
            if g.ndim() == 0 {
                return Ok(vec![Some(g.clone())]);
            }
            let rev_cumsum = |t: &Tensor| -> Result<Tensor> {
                flip(
                    &scan(&flip(t, &[d as i64])?, ScanOp::Sum, d as i64)?,
                    &[d as i64],
                )
            };
            let grad = match op {
                ScanOp::Sum => rev_cumsum(g)?,
                _ => div(&rev_cumsum(&mul(g, &so.get()?)?)?, &sx.get()?)?,
            };
            Ok(vec![Some(grad)])
        })
    })
}

pub fn record_softmax(x: &Tensor, d: usize, log: bool, out: Tensor) -> Tensor {
    let d = d as i64;
    let name = if log {
        "LogSoftmaxBackward0"
    } else {
        "SoftmaxBackward0"
    };
    if !needs_grad(&[x]) {
        return out;
    }
    let so = Saved::output(&out);
    record(out, name, &[x], true, move || {
        rule(move |g| {
            let y = so.get()?;
            let grad = if log {
                let s = reduce(g, ReduceOp::Sum, Some(&[d]), true)?;
                sub(g, &mul(&unary(UnaryOp::Exp, &y)?, &s)?)?
            } else {
                let s = reduce(&mul(g, &y)?, ReduceOp::Sum, Some(&[d]), true)?;
                mul(&y, &sub(g, &s)?)?
            };
            Ok(vec![Some(grad)])
        })
    })
}
