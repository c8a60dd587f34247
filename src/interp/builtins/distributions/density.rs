//! Densities, entropies and moments, with PyTorch's formulas.

use std::rc::Rc;

use super::{Dist, Kind, METHODS, bin, broadcast, call, cmp, num, receiver, t, tv};
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::syntax::ast::{BinOp, CmpOp};
use crate::tensor::{DType, Tensor};

pub(super) fn log_prob(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let x = t(&a.value("value")?)?;
    a.finish()?;
    let out = match d.kind {
        Kind::Normal => {
            let (loc, scale) = (d.param("loc"), d.param("scale"));
            let var = bin(BinOp::Mul, &scale, &scale)?;
            let diff = bin(BinOp::Sub, &x, &loc)?;
            let sq = bin(BinOp::Mul, &diff, &diff)?;
            let quad = bin(
                BinOp::Div,
                &bin(BinOp::Mul, &sq, &num(-1.0, &sq)?)?,
                &bin(BinOp::Mul, &var, &num(2.0, &var)?)?,
            )?;
            let log_scale = call(it, "log", vec![tv(&scale)], vec![])?;
            let c = (2.0 * std::f64::consts::PI).sqrt().ln();
            bin(
                BinOp::Sub,
                &bin(BinOp::Sub, &quad, &log_scale)?,
                &num(c, &quad)?,
            )?
        }
        Kind::Uniform => {
            let (low, high) = (d.param("low"), d.param("high"));
            let lb = cmp(CmpOp::Le, &low, &x)?.to_dtype(low.dtype())?;
            let ub = cmp(CmpOp::Gt, &high, &x)?.to_dtype(low.dtype())?;
            let inside = call(
                it,
                "log",
                vec![Value::Tensor(bin(BinOp::Mul, &lb, &ub)?)],
                vec![],
            )?;
            let width = call(
                it,
                "log",
                vec![Value::Tensor(bin(BinOp::Sub, &high, &low)?)],
                vec![],
            )?;
            bin(BinOp::Sub, &inside, &width)?
        }
        Kind::Bernoulli => {
            let logits = broadcast_like(it, &d.param("logits"), &x)?;
            let target = x.to_dtype(logits.dtype())?;
            let bce = call(
                it,
                "binary_cross_entropy_with_logits",
                vec![tv(&logits), tv(&target)],
                vec![("reduction", Value::str("none"))],
            )?;
            bin(BinOp::Mul, &bce, &num(-1.0, &bce)?)?
        }
        Kind::Categorical => {
            let logits = d.param("logits");
            let k = *logits.shape().last().unwrap_or(&1) as i64;
            let hot = call(
                it,
                "one_hot",
                vec![Value::Tensor(x.to_dtype(DType::I64)?), Value::Int(k)],
                vec![],
            )?;
            let picked = bin(BinOp::Mul, &hot.to_dtype(logits.dtype())?, &logits)?;
            call(it, "sum", vec![tv(&picked)], vec![("dim", Value::Int(-1))])?
        }
        Kind::Multinomial => {
            // log n! - sum log x_i! + sum x_i log p_i, as PyTorch's (a zero count
            // of an impossible category adds nothing).
            let logits = d.param("logits");
            let x = x.to_dtype(logits.dtype())?;
            let n = call(it, "sum", vec![tv(&x)], vec![("dim", Value::Int(-1))])?;
            let log_n = log_factorial(it, &n, d.total_count)?;
            let log_xs = log_factorial(it, &x, d.total_count)?;
            let log_xs = call(it, "sum", vec![tv(&log_xs)], vec![("dim", Value::Int(-1))])?;
            let zero = cmp(CmpOp::Eq, &x, &num(0.0, &x)?)?;
            let safe = call(
                it,
                "masked_fill",
                vec![tv(&logits), tv(&zero), Value::Float(0.0)],
                vec![],
            )?;
            let powers = bin(BinOp::Mul, &safe, &x)?;
            let powers = call(it, "sum", vec![tv(&powers)], vec![("dim", Value::Int(-1))])?;
            bin(BinOp::Add, &bin(BinOp::Sub, &log_n, &log_xs)?, &powers)?
        }
    };
    Ok(Value::Tensor(out))
}

/// log(x!) of whole-number counts up to `most`: the sum of log k for k <= x.
fn log_factorial(it: &mut Interp, x: &Tensor, most: i64) -> Result<Tensor> {
    let most = most.max(1) as usize;
    let ks =
        crate::tensor::ops::creation::arange(1.0, most as f64 + 1.0, 1.0, x.dtype(), x.device())?;
    let logs = call(it, "log", vec![tv(&ks)], vec![])?;
    let upto = cmp(
        CmpOp::Le,
        &ks,
        &call(it, "unsqueeze", vec![tv(x), Value::Int(-1)], vec![])?,
    )?;
    let picked = bin(BinOp::Mul, &upto.to_dtype(x.dtype())?, &logs)?;
    call(it, "sum", vec![tv(&picked)], vec![("dim", Value::Int(-1))])
}

fn broadcast_like(it: &mut Interp, p: &Tensor, x: &Tensor) -> Result<Tensor> {
    let (p2, _) = broadcast(it, p, &x.to_dtype(p.dtype())?)?;
    Ok(p2)
}

pub(super) fn entropy(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    a.finish()?;
    let out = match d.kind {
        Kind::Normal => {
            let log_scale = call(it, "log", vec![tv(&d.param("scale"))], vec![])?;
            let c = 0.5 + 0.5 * (2.0 * std::f64::consts::PI).ln();
            bin(BinOp::Add, &num(c, &log_scale)?, &log_scale)?
        }
        Kind::Uniform => call(
            it,
            "log",
            vec![Value::Tensor(bin(
                BinOp::Sub,
                &d.param("high"),
                &d.param("low"),
            )?)],
            vec![],
        )?,
        Kind::Bernoulli => call(
            it,
            "binary_cross_entropy_with_logits",
            vec![tv(&d.param("logits")), tv(&d.param("probs"))],
            vec![("reduction", Value::str("none"))],
        )?,
        Kind::Categorical => {
            let logits = d.param("logits");
            let min = if logits.dtype() == DType::F64 {
                f64::MIN
            } else {
                f32::MIN as f64
            };
            let clamped = call(
                it,
                "clamp",
                vec![tv(&logits)],
                vec![("min", Value::Float(min))],
            )?;
            let plogp = bin(BinOp::Mul, &clamped, &d.param("probs"))?;
            let s = call(it, "sum", vec![tv(&plogp)], vec![("dim", Value::Int(-1))])?;
            bin(BinOp::Mul, &s, &num(-1.0, &s)?)?
        }
        Kind::Multinomial => return Err(type_err("Multinomial.entropy is not in tsh yet")),
    };
    Ok(Value::Tensor(out))
}

/// The attributes: parameters, moments and shapes.
pub fn attr(it: &mut Interp, obj: &Value, d: &Dist, name: &str) -> Option<Result<Value>> {
    let shape = |s: Vec<usize>| Value::Shape(Rc::new(s));
    let r = (|| -> Result<Option<Value>> {
        Ok(Some(match (d.kind, name) {
            (_, "batch_shape") => shape(d.batch_shape()),
            (_, "event_shape") => shape(d.event_shape()),
            (_, n) if d.params.iter().any(|(p, _)| *p == n) => tv(&d.param(n)),
            (Kind::Multinomial, "total_count") => Value::Int(d.total_count),
            (Kind::Normal, "mean") => tv(&d.param("loc")),
            (Kind::Normal, "stddev") => tv(&d.param("scale")),
            (Kind::Normal, "variance") => {
                let s = d.param("scale");
                Value::Tensor(bin(BinOp::Mul, &s, &s)?)
            }
            (Kind::Bernoulli, "mean") => tv(&d.param("probs")),
            (Kind::Bernoulli, "variance") => {
                let p = d.param("probs");
                Value::Tensor(bin(BinOp::Mul, &p, &bin(BinOp::Sub, &num(1.0, &p)?, &p)?)?)
            }
            (Kind::Categorical, "mean" | "variance") => {
                let b = d.batch_shape();
                let p = d.param("probs");
                Value::Tensor(crate::tensor::ops::creation::full(
                    &b,
                    f64::NAN,
                    0,
                    p.dtype(),
                    p.device(),
                )?)
            }
            (Kind::Uniform, "mean") => {
                let s = bin(BinOp::Add, &d.param("high"), &d.param("low"))?;
                Value::Tensor(bin(BinOp::Div, &s, &num(2.0, &s)?)?)
            }
            (Kind::Uniform, "variance" | "stddev") => {
                let w = bin(BinOp::Sub, &d.param("high"), &d.param("low"))?;
                let v = bin(BinOp::Div, &bin(BinOp::Mul, &w, &w)?, &num(12.0, &w)?)?;
                if name == "stddev" {
                    Value::Tensor(call(it, "sqrt", vec![Value::Tensor(v)], vec![])?)
                } else {
                    Value::Tensor(v)
                }
            }
            (Kind::Multinomial, "mean") => {
                let p = d.param("probs");
                Value::Tensor(bin(BinOp::Mul, &p, &num(d.total_count as f64, &p)?)?)
            }
            (Kind::Multinomial, "variance") => {
                let p = d.param("probs");
                let q = bin(BinOp::Sub, &num(1.0, &p)?, &p)?;
                Value::Tensor(bin(
                    BinOp::Mul,
                    &bin(BinOp::Mul, &p, &q)?,
                    &num(d.total_count as f64, &p)?,
                )?)
            }
            (Kind::Bernoulli | Kind::Multinomial, "stddev") => return Ok(None),
            _ => {
                return Ok(METHODS
                    .iter()
                    .find(|b| b.name == name)
                    .map(|b| Value::Method(Rc::new((obj.clone(), b)))));
            }
        }))
    })();
    r.transpose()
}
