//! torch.testing.assert_close: a teaching tool that says how far apart two
//! results are (the closeness check is tensor/ops/compare.rs).

use super::Builtin;
use crate::error::{Error, ErrorKind, Result};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::ops::compare::{Closeness, closeness, default_tolerances};

pub const ROWS: &[Builtin] = &[row!(
    Module,
    "testing.assert_close",
    "testing.assert_close(actual, expected, *, rtol=None, atol=None, equal_nan=False, check_device=True, check_dtype=True, check_stride=False, msg=None)",
    "Raise AssertionError, saying how many elements differ and by how much, unless actual and expected are close.",
    "torch.testing.assert_close(tensor([1., 2.]), tensor([1., 2.]))",
    assert_close
)];

fn fail(message: String) -> Error {
    Error::new(ErrorKind::Assert, message)
}

fn assert_close(_: &mut Interp, mut a: Args) -> Result<Value> {
    let actual = a.value("actual")?;
    let expected = a.value("expected")?;
    let rtol = a
        .take("rtol")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    let atol = a
        .take("atol")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    let equal_nan = a
        .take("equal_nan")
        .map(|(v, _)| v.truthy())
        .transpose()?
        .unwrap_or(false);
    let check_device = a
        .take("check_device")
        .map(|(v, _)| v.truthy())
        .transpose()?
        .unwrap_or(true);
    let check_dtype = a
        .take("check_dtype")
        .map(|(v, _)| v.truthy())
        .transpose()?
        .unwrap_or(true);
    let _ = a.take("check_stride");
    let _ = a.take("check_layout");
    let msg = a.take("msg").map(|(v, _)| v);
    a.finish()?;
    if rtol.is_some() != atol.is_some() {
        return Err(crate::error::value_err(
            "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol.",
        ));
    }
    let to_t =
        |v: &Value, what: &str| crate::interp::convert::to_tensor_arg(v, "assert_close", what);
    let (x, y) = (to_t(&actual, "actual")?, to_t(&expected, "expected")?);
    let custom = |text: String| match &msg {
        Some(Value::Str(s)) => fail(s.to_string()),
        _ => fail(text),
    };
    if x.shape() != y.shape() {
        return Err(custom(format!(
            "The values for attribute 'shape' do not match: {} != {}.",
            crate::tensor::shape::fmt_shape(x.shape()),
            crate::tensor::shape::fmt_shape(y.shape())
        )));
    }
    if check_device && x.device() != y.device() {
        return Err(custom(format!(
            "The values for attribute 'device' do not match: {} != {}.",
            x.device(),
            y.device()
        )));
    }
    if check_dtype && x.dtype() != y.dtype() {
        return Err(custom(format!(
            "The values for attribute 'dtype' do not match: torch.{} != torch.{}.",
            x.dtype(),
            y.dtype()
        )));
    }
    let (rtol, atol) = match (rtol, atol) {
        (Some(r), Some(t)) => (
            crate::interp::convert::to_float(&r, "assert_close", "rtol")?,
            crate::interp::convert::to_float(&t, "assert_close", "atol")?,
        ),
        _ => {
            let (r1, a1) = default_tolerances(x.dtype());
            let (r2, a2) = default_tolerances(y.dtype());
            (r1.max(r2), a1.max(a2))
        }
    };
    let y = y.to_device(x.device())?;
    match closeness(&x, &y, rtol, atol, equal_nan)? {
        None => Ok(Value::None),
        Some(c) => Err(custom(report(&c, x.shape(), rtol, atol))),
    }
}

/// torch.testing's message for tensors that are not close.
fn report(c: &Closeness, shape: &[usize], rtol: f64, atol: f64) -> String {
    // A flat position as the index tuple Python prints.
    let index = |mut flat: usize| {
        let mut idx = vec![0i64; shape.len()];
        for d in (0..shape.len()).rev() {
            idx[d] = (flat % shape[d].max(1)) as i64;
            flat /= shape[d].max(1);
        }
        crate::print::value::plain(&Value::tuple(idx.into_iter().map(Value::Int).collect()))
    };
    let num = crate::print::number::py_float_repr;
    format!(
        "Tensor-likes are not close!\n\nMismatched elements: {} / {} ({:.1}%)\nGreatest absolute difference: {} at index {} (up to {} allowed)\nGreatest relative difference: {} at index {} (up to {} allowed)",
        c.mismatched,
        c.total,
        100.0 * c.mismatched as f64 / c.total as f64,
        num(c.greatest_abs.1),
        index(c.greatest_abs.0),
        num(atol),
        num(c.greatest_rel.1),
        index(c.greatest_rel.0),
        num(rtol)
    )
}
