//! Python's complex numbers: arithmetic as CPython does it (its division and
//! power algorithms), and the attributes `real`, `imag`, `conjugate()`.

use crate::error::{Result, type_err, value_err};
use crate::interp::value::Value;
use crate::syntax::ast::BinOp;

/// A number as a complex pair, if it is one (bool, int, float, complex).
pub fn as_complex(v: &Value) -> Option<(f64, f64)> {
    match v {
        Value::Complex(re, im) => Some((*re, *im)),
        Value::Float(f) => Some((*f, 0.0)),
        Value::Int(i) => Some((*i as f64, 0.0)),
        Value::Bool(b) => Some((*b as i64 as f64, 0.0)),
        _ => None,
    }
}

/// `a op b` where one side is complex and both are numbers.
pub fn binary(op: BinOp, a: (f64, f64), b: (f64, f64)) -> Result<Value> {
    let (r, i) = match op {
        BinOp::Add => (a.0 + b.0, a.1 + b.1),
        BinOp::Sub => (a.0 - b.0, a.1 - b.1),
        BinOp::Mul => (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0),
        BinOp::Div => divide(a, b)?,
        BinOp::Pow => power(a, b)?,
        _ => {
            return Err(type_err(format!(
                "unsupported operand type(s) for {}: 'complex' and 'complex'",
                op.symbol()
            )));
        }
    };
    Ok(Value::Complex(r, i))
}

/// CPython's `_Py_c_quot`: scaled by the larger part of the divisor.
fn divide(a: (f64, f64), b: (f64, f64)) -> Result<(f64, f64)> {
    let (abs_r, abs_i) = (b.0.abs(), b.1.abs());
    if abs_r >= abs_i {
        if abs_r == 0.0 {
            return Err(value_err("complex division by zero"));
        }
        let ratio = b.1 / b.0;
        let denom = b.0 + b.1 * ratio;
        Ok(((a.0 + a.1 * ratio) / denom, (a.1 - a.0 * ratio) / denom))
    } else if abs_i >= abs_r {
        let ratio = b.0 / b.1;
        let denom = b.0 * ratio + b.1;
        Ok(((a.0 * ratio + a.1) / denom, (a.1 * ratio - a.0) / denom))
    } else {
        // A NaN part in the divisor.
        Ok((f64::NAN, f64::NAN))
    }
}

fn mul(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// CPython's complex power: repeated squaring for small integer exponents,
/// polar form otherwise.
fn power(a: (f64, f64), b: (f64, f64)) -> Result<(f64, f64)> {
    if b.1 == 0.0 && b.0 == b.0.trunc() && b.0.abs() <= 100.0 {
        let n = b.0 as i64;
        let mut result = (1.0, 0.0);
        let mut base = a;
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                result = mul(result, base);
            }
            base = mul(base, base);
            k >>= 1;
        }
        return if n < 0 {
            divide((1.0, 0.0), result)
        } else {
            Ok(result)
        };
    }
    if b == (0.0, 0.0) {
        return Ok((1.0, 0.0));
    }
    if a == (0.0, 0.0) {
        if b.1 != 0.0 || b.0 < 0.0 {
            return Err(value_err("0.0 to a negative or complex power"));
        }
        return Ok((0.0, 0.0));
    }
    let vabs = a.0.hypot(a.1);
    let mut len = vabs.powf(b.0);
    let at = a.1.atan2(a.0);
    let mut phase = at * b.0;
    if b.1 != 0.0 {
        len /= (at * b.1).exp();
        phase += b.1 * vabs.ln();
    }
    Ok((len * phase.cos(), len * phase.sin()))
}

/// `x.real`, `x.imag`, `x.conjugate` of a complex number.
pub fn attr(re: f64, im: f64, name: &str) -> Option<Value> {
    match name {
        "real" => Some(Value::Float(re)),
        "imag" => Some(Value::Float(im)),
        _ => None,
    }
}
