//! Drawing samples as PyTorch draws them (so a seed gives PyTorch's numbers).

use super::{Dist, Kind, bin, call, cmp, num, receiver, sample_shape, tv};
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::syntax::ast::{BinOp, CmpOp};
use crate::tensor::{DType, Tensor};

pub(super) fn sample(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let shape = sample_shape(&mut a)?;
    a.finish()?;
    let _off = crate::autograd::NoGradGuard::new();
    draw(it, &d, &shape).map(Value::Tensor)
}

pub(super) fn rsample(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let shape = sample_shape(&mut a)?;
    a.finish()?;
    if !matches!(d.kind, Kind::Normal | Kind::Uniform) {
        return Err(type_err(format!(
            "{:?} has no rsample (it is not reparameterizable)",
            d.kind
        )));
    }
    draw(it, &d, &shape).map(Value::Tensor)
}

fn draw(it: &mut Interp, d: &Dist, sample_shape: &[usize]) -> Result<Tensor> {
    use crate::tensor::ops::creation as c;
    let mut shape = sample_shape.to_vec();
    shape.extend(d.batch_shape());
    match d.kind {
        Kind::Normal => {
            let (loc, scale) = (d.param("loc"), d.param("scale"));
            let eps = c::randn(&shape, loc.dtype(), loc.device())?;
            bin(BinOp::Add, &loc, &bin(BinOp::Mul, &eps, &scale)?)
        }
        Kind::Uniform => {
            let (low, high) = (d.param("low"), d.param("high"));
            let u = c::rand(&shape, low.dtype(), low.device())?;
            bin(
                BinOp::Add,
                &low,
                &bin(BinOp::Mul, &u, &bin(BinOp::Sub, &high, &low)?)?,
            )
        }
        Kind::Bernoulli => {
            let p = d.param("probs");
            let u = c::rand(&shape, p.dtype(), p.device())?;
            cmp(CmpOp::Lt, &u, &p)?.to_dtype(p.dtype())
        }
        Kind::Categorical => categorical_draw(it, &d.param("probs"), sample_shape),
        Kind::Multinomial => {
            let p = d.param("probs");
            let mut inner = vec![d.total_count.max(0) as usize];
            inner.extend(sample_shape);
            let picks = categorical_draw(it, &p, &inner)?;
            let k = *p.shape().last().unwrap_or(&1) as i64;
            let hot = call(it, "one_hot", vec![tv(&picks), Value::Int(k)], vec![])?;
            let counts = call(it, "sum", vec![tv(&hot)], vec![("dim", Value::Int(0))])?;
            counts.to_dtype(p.dtype())
        }
    }
}

/// PyTorch's multinomial with replacement: per distribution (row), one float64
/// uniform per sample, the first category whose cumulative probability reaches it.
fn categorical_draw(it: &mut Interp, probs: &Tensor, sample_shape: &[usize]) -> Result<Tensor> {
    let k = *probs.shape().last().unwrap_or(&1);
    let batch: Vec<usize> = probs.shape()[..probs.ndim() - 1].to_vec();
    let rows: usize = batch.iter().product();
    let n: usize = sample_shape.iter().product();
    let mut shape: Vec<Value> = sample_shape.iter().map(|&s| Value::Int(s as i64)).collect();
    shape.extend(batch.iter().map(|&s| Value::Int(s as i64)));
    if n == 1 {
        // PyTorch's one-sample path: argmax of probs / Exp(1), the exponentials
        // drawn in float64 as -log1p(-u).
        let p2 = call(
            it,
            "reshape",
            vec![tv(probs), Value::Int(rows as i64), Value::Int(k as i64)],
            vec![],
        )?;
        let u = crate::tensor::ops::creation::rand(&[rows, k], DType::F64, probs.device())?;
        let neg = bin(BinOp::Mul, &u, &num(-1.0, &u)?)?;
        let log = call(it, "log1p", vec![tv(&neg)], vec![])?;
        let q = bin(BinOp::Mul, &log, &num(-1.0, &log)?)?.to_dtype(probs.dtype())?;
        let ratio = bin(BinOp::Div, &p2, &q)?;
        let idx = call(
            it,
            "argmax",
            vec![tv(&ratio)],
            vec![("dim", Value::Int(-1))],
        )?;
        let mut args = vec![tv(&idx)];
        args.extend(shape);
        return call(it, "reshape", args, vec![]);
    }
    let p2 = call(
        it,
        "reshape",
        vec![tv(probs), Value::Int(rows as i64), Value::Int(k as i64)],
        vec![],
    )?
    .to_dtype(DType::F64)?;
    let cum = call(it, "cumsum", vec![tv(&p2)], vec![("dim", Value::Int(-1))])?;
    let last = call(
        it,
        "narrow",
        vec![
            tv(&cum),
            Value::Int(-1),
            Value::Int(k as i64 - 1),
            Value::Int(1),
        ],
        vec![],
    )?;
    let cum = bin(BinOp::Div, &cum, &last)?;
    let u = crate::tensor::ops::creation::rand(&[rows, n], DType::F64, probs.device())?;
    let below = cmp(
        CmpOp::Lt,
        &call(it, "unsqueeze", vec![tv(&cum), Value::Int(1)], vec![])?,
        &call(it, "unsqueeze", vec![tv(&u), Value::Int(2)], vec![])?,
    )?;
    let idx = call(it, "sum", vec![tv(&below)], vec![("dim", Value::Int(-1))])?;
    // (rows, n) → sample_shape + batch_shape.
    let idx = call(it, "t", vec![tv(&idx)], vec![])?;
    let mut args = vec![tv(&idx)];
    args.extend(shape);
    call(it, "reshape", args, vec![])
}
