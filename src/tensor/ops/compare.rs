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

/// What torch.testing.assert_close says when `actual` and `expected` (of one
/// shape) are not close: None when they are.
pub fn closeness_report(
    actual: &Tensor,
    expected: &Tensor,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> Result<Option<String>> {
    let close = isclose(actual, expected, rtol, atol, equal_nan)?;
    let total = close.numel();
    let ok = close.to_host_i64()?;
    let bad = ok.iter().filter(|&&v| v == 0).count();
    if bad == 0 {
        return Ok(None);
    }
    let wide = |t: &Tensor| {
        let d = if t.dtype().is_complex() {
            DType::C128
        } else {
            DType::F64
        };
        t.to_dtype(d)
    };
    let (a, e) = crate::autograd::no_grad(|| {
        Ok::<_, crate::error::Error>((wide(actual)?, wide(expected)?))
    })?;
    let abs = crate::autograd::no_grad(|| un(UnaryOp::Abs, &sub(&a, &e)?))?.to_host_f64()?;
    let mag = crate::autograd::no_grad(|| un(UnaryOp::Abs, &e))?.to_host_f64()?;
    let rel: Vec<f64> = abs.iter().zip(&mag).map(|(d, m)| d / m).collect();
    let greatest = |v: &[f64]| {
        v.iter()
            .enumerate()
            .zip(&ok)
            .filter(|(_, k)| **k == 0)
            .map(|((i, x), _)| (i, *x))
            .fold(
                (0, f64::NEG_INFINITY),
                |acc, (i, x)| if x > acc.1 { (i, x) } else { acc },
            )
    };
    let index = |flat: usize| -> String {
        let shape = actual.shape();
        if shape.is_empty() {
            return "()".into();
        }
        let mut rest = flat;
        let mut idx = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            idx[d] = rest % shape[d].max(1);
            rest /= shape[d].max(1);
        }
        let parts: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
        if parts.len() == 1 {
            format!("({},)", parts[0])
        } else {
            format!("({})", parts.join(", "))
        }
    };
    let (ia, da) = greatest(&abs);
    let (ir, dr) = greatest(&rel);
    let num = crate::print::number::py_float_repr;
    Ok(Some(format!(
        "Tensor-likes are not close!\n\nMismatched elements: {bad} / {total} ({:.1}%)\nGreatest absolute difference: {} at index {} (up to {} allowed)\nGreatest relative difference: {} at index {} (up to {} allowed)",
        100.0 * bad as f64 / total as f64,
        num(da),
        index(ia),
        num(atol),
        num(dr),
        index(ir),
        num(rtol)
    )))
}
