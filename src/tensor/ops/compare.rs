//! Comparisons built from element-wise ops: isclose, allclose, equal, and
//! rounding to a number of decimals.

use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, mul, num, sub, un};
use crate::tensor::ops::elementwise::predicate;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::scalar::item_bool;

/// |x - y| <= atol + rtol |y|, with equal values (infinities too) close, and NaN
/// close to NaN only with `equal_nan`.
pub fn isclose(x: &Tensor, y: &Tensor, rtol: f64, atol: f64, equal_nan: bool) -> Result<Tensor> {
    crate::autograd::no_grad(|| {
        if x.dtype().is_bool() && y.dtype().is_bool() {
            return cmp(BinaryOp::Eq, x, y);
        }
        let diff = un(UnaryOp::Abs, &sub(x, y)?)?;
        let allowed = add(&num(atol), &mul(&num(rtol), &un(UnaryOp::Abs, y)?)?)?;
        let near = cmp(BinaryOp::Le, &diff, &allowed)?;
        let same = cmp(BinaryOp::Eq, x, y)?;
        let close = bin(BinaryOp::LogicalOr, &near, &same)?;
        if !equal_nan {
            return Ok(close);
        }
        let both_nan = bin(
            BinaryOp::LogicalAnd,
            &predicate(PredicateOp::IsNan, x)?,
            &predicate(PredicateOp::IsNan, y)?,
        )?;
        bin(BinaryOp::LogicalOr, &close, &both_nan)
    })
}

/// Is every element true? (One bool read to the host.)
pub fn all(t: &Tensor) -> Result<bool> {
    if t.numel() == 0 {
        return Ok(true);
    }
    item_bool(&reduce(t, ReduceOp::All, None, false)?)
}

/// torch.equal: the same shape and the same values.
pub fn equal(x: &Tensor, y: &Tensor) -> Result<bool> {
    if x.shape() != y.shape() {
        return Ok(false);
    }
    all(&crate::autograd::no_grad(|| cmp(BinaryOp::Eq, x, y))?)
}

/// round(x, decimals): round(x * 10^d) / 10^d, halves to even (as PyTorch).
pub fn round_decimals(x: &Tensor, decimals: i64) -> Result<Tensor> {
    if decimals == 0 {
        return un(UnaryOp::Round, x);
    }
    // As ATen: scale up by 10^d for d > 0, down by 10^-d for d < 0 (so that
    // 1200.1 with d = -3 is 1.2001 rounded, times 1000: exactly 1000).
    let p = 10f64.powi(decimals.unsigned_abs() as i32);
    let out = crate::autograd::composite::composite("RoundBackward1", &[x], |t| {
        if decimals > 0 {
            div(&un(UnaryOp::Round, &mul(&t[0], &num(p))?)?, &num(p))
        } else {
            mul(&un(UnaryOp::Round, &div(&t[0], &num(p))?)?, &num(p))
        }
    })?;
    Ok(out)
}

/// torch.testing's default tolerances (rtol, atol) for a dtype.
pub fn default_tolerances(d: DType) -> (f64, f64) {
    match d.real_part() {
        DType::F16 => (1e-3, 1e-5),
        DType::BF16 => (1.6e-2, 1e-5),
        DType::F32 => (1.3e-6, 1e-5),
        DType::F64 => (1e-7, 1e-7),
        _ => (0.0, 0.0),
    }
}

/// How far apart two tensors of one shape are, as torch.testing reports it:
/// the elements not close, and the greatest absolute and relative differences
/// among them, with their flat positions.
pub struct Closeness {
    pub mismatched: usize,
    pub total: usize,
    pub greatest_abs: (usize, f64),
    pub greatest_rel: (usize, f64),
}

/// None when `actual` and `expected` are close everywhere.
pub fn closeness(
    actual: &Tensor,
    expected: &Tensor,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> Result<Option<Closeness>> {
    let ok = isclose(actual, expected, rtol, atol, equal_nan)?.to_host_i64()?;
    let mismatched = ok.iter().filter(|&&v| v == 0).count();
    if mismatched == 0 {
        return Ok(None);
    }
    let wide = |t: &Tensor| {
        t.to_dtype(if t.dtype().is_complex() {
            DType::C128
        } else {
            DType::F64
        })
    };
    let (abs, mag) = crate::autograd::no_grad(|| -> Result<(Vec<f64>, Vec<f64>)> {
        let (a, e) = (wide(actual)?, wide(expected)?);
        Ok((
            un(UnaryOp::Abs, &sub(&a, &e)?)?.to_host_f64()?,
            un(UnaryOp::Abs, &e)?.to_host_f64()?,
        ))
    })?;
    // The greatest of `v` over the mismatched elements (its first position on ties).
    let greatest = |v: &mut dyn Iterator<Item = f64>| {
        v.zip(&ok).enumerate().filter(|(_, (_, k))| **k == 0).fold(
            (0, f64::NEG_INFINITY),
            |acc, (i, (x, _))| {
                if x > acc.1 { (i, x) } else { acc }
            },
        )
    };
    Ok(Some(Closeness {
        mismatched,
        total: ok.len(),
        greatest_abs: greatest(&mut abs.iter().copied()),
        greatest_rel: greatest(&mut abs.iter().zip(&mag).map(|(d, m)| d / m)),
    }))
}
