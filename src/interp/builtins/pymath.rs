//! Python's `math` module: functions of plain numbers that return plain numbers
//! (`math.sqrt(2)` is `1.4142135623730951`, not a tensor). A one-element tensor
//! is taken as its number, as Python's `float(t)` does.

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::Span;

use super::pyspecial::{gamma, lgamma};
use crate::tensor::op::math::libm;

/// A function of one float: its name, its value, and the inputs it refuses.
struct Unary {
    name: &'static str,
    f: fn(f64) -> f64,
}

const UNARY: &[Unary] = &[
    Unary {
        name: "sqrt",
        f: f64::sqrt,
    },
    Unary {
        name: "exp",
        f: f64::exp,
    },
    Unary {
        name: "exp2",
        f: f64::exp2,
    },
    Unary {
        name: "expm1",
        f: f64::exp_m1,
    },
    Unary {
        name: "log2",
        f: f64::log2,
    },
    Unary {
        name: "log10",
        f: f64::log10,
    },
    Unary {
        name: "log1p",
        f: f64::ln_1p,
    },
    Unary {
        name: "sin",
        f: f64::sin,
    },
    Unary {
        name: "cos",
        f: f64::cos,
    },
    Unary {
        name: "tan",
        f: f64::tan,
    },
    Unary {
        name: "asin",
        f: f64::asin,
    },
    Unary {
        name: "acos",
        f: f64::acos,
    },
    Unary {
        name: "atan",
        f: f64::atan,
    },
    Unary {
        name: "sinh",
        f: f64::sinh,
    },
    Unary {
        name: "cosh",
        f: f64::cosh,
    },
    Unary {
        name: "tanh",
        f: f64::tanh,
    },
    Unary {
        name: "asinh",
        f: f64::asinh,
    },
    Unary {
        name: "acosh",
        f: f64::acosh,
    },
    Unary {
        name: "atanh",
        f: f64::atanh,
    },
    Unary {
        name: "fabs",
        f: f64::abs,
    },
    Unary {
        name: "cbrt",
        f: f64::cbrt,
    },
    Unary {
        name: "degrees",
        f: f64::to_degrees,
    },
    Unary {
        name: "radians",
        f: f64::to_radians,
    },
    Unary {
        name: "erf",
        f: libm::erf,
    },
    Unary {
        name: "erfc",
        f: libm::erfc,
    },
    Unary {
        name: "gamma",
        f: gamma,
    },
    Unary {
        name: "lgamma",
        f: lgamma,
    },
];

/// Python's rule: a finite input with a NaN result is outside the domain, and so
/// is a pole (log(0), atanh(1), gamma(0)); any other infinite result overflowed.
fn checked(name: &str, x: f64, y: f64) -> Result<f64> {
    if y.is_nan() && !x.is_nan() {
        return Err(value_err("math domain error"));
    }
    if y.is_infinite() && x.is_finite() {
        let pole = match name {
            "log" | "log2" | "log10" => x == 0.0,
            "log1p" => x == -1.0,
            "atanh" => x.abs() == 1.0,
            "gamma" | "lgamma" => x <= 0.0 && x.fract() == 0.0,
            _ => false,
        };
        return Err(value_err(if pole {
            "math domain error"
        } else {
            "math range error"
        }));
    }
    Ok(y)
}

fn arg(a: &mut Args, param: &str) -> Result<f64> {
    let (v, s) = math_arg(a, param)?;
    match v {
        // A number needs no conversion, nor the function's name spelled out
        // for a message (that was most of a `math.sqrt(x)` call's cost).
        Value::Float(f) => Ok(f),
        Value::Int(i) => Ok(i as f64),
        v => convert::to_float(&v, &format!("math.{}", a.name), param).map_err(|e| e.at(s)),
    }
}

pub(super) fn int_arg(a: &mut Args, param: &str) -> Result<i64> {
    let (v, s) = math_arg(a, param)?;
    match v {
        Value::Int(i) => Ok(i),
        v => convert::to_int(&v, &format!("math.{}", a.name), param).map_err(|e| e.at(s)),
    }
}

fn math_arg(a: &mut Args, param: &str) -> Result<(Value, Span)> {
    a.take(param).ok_or_else(|| {
        type_err(format!(
            "math.{}() missing required argument '{param}'",
            a.name
        ))
        .at(a.span)
    })
}

fn unary(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let x = arg(&mut a, "x")?;
    a.finish()?;
    // Unreachable: a row calls this only under a name in UNARY.
    let f = UNARY
        .iter()
        .find(|u| u.name == name)
        .map(|u| u.f)
        .unwrap_or(f64::sqrt);
    checked(name, x, f(x)).map(Value::Float)
}

fn log(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = arg(&mut a, "x")?;
    let base = match a.take("base") {
        None => None,
        Some((v, s)) => Some(convert::to_float(&v, "math.log", "base").map_err(|e| e.at(s))?),
    };
    a.finish()?;
    let ln = checked("log", x, x.ln())?;
    match base {
        None => Ok(Value::Float(ln)),
        Some(b) => {
            let lb = checked("log", b, b.ln())?;
            if lb == 0.0 {
                return Err(value_err("float division by zero"));
            }
            Ok(Value::Float(ln / lb))
        }
    }
}

/// floor, ceil, trunc: Python gives ints.
fn rounding(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let (v, s) = a.take("x").ok_or_else(|| {
        type_err(format!("math.{name}() missing required argument 'x'")).at(a.span)
    })?;
    a.finish()?;
    if let Value::Int(i) = v {
        return Ok(Value::Int(i));
    }
    let x = convert::to_float(&v, name, "x").map_err(|e| e.at(s))?;
    let r = match name {
        "floor" => x.floor(),
        "ceil" => x.ceil(),
        _ => x.trunc(),
    };
    convert::float_to_int(r).map(Value::Int)
}

fn binary(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let x = arg(&mut a, "x")?;
    let y = arg(&mut a, "y")?;
    a.finish()?;
    let r = match name {
        // Python names them (y, x): the first argument is y.
        "atan2" => x.atan2(y),
        "pow" => x.powf(y),
        "fmod" => {
            if y == 0.0 {
                return Err(value_err("math domain error"));
            }
            x % y
        }
        "copysign" => x.copysign(y),
        // IEEE remainder: x - n*y with n the nearest integer to x/y (ties to even).
        "remainder" => x - (x / y).round_ties_even() * y,
        _ => x.hypot(y),
    };
    if name == "pow" && r.is_infinite() && x.is_finite() && y.is_finite() {
        return Err(value_err(if x == 0.0 {
            "math domain error"
        } else {
            "math range error"
        }));
    }
    if r.is_nan() && !x.is_nan() && !y.is_nan() {
        return Err(value_err("math domain error"));
    }
    Ok(Value::Float(r))
}

fn predicate(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let x = arg(&mut a, "x")?;
    a.finish()?;
    Ok(Value::Bool(match name {
        "isnan" => x.is_nan(),
        "isinf" => x.is_infinite(),
        _ => x.is_finite(),
    }))
}

fn isclose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = arg(&mut a, "a")?;
    let y = arg(&mut a, "b")?;
    let rel = a.float_or("rel_tol", 1e-9)?;
    let abs = a.float_or("abs_tol", 0.0)?;
    a.finish()?;
    if rel < 0.0 || abs < 0.0 {
        return Err(value_err("tolerances must be non-negative"));
    }
    let close = x == y || {
        let d = (x - y).abs();
        d.is_finite() && (d <= rel * x.abs().max(y.abs()) || d <= abs)
    };
    Ok(Value::Bool(close))
}

/// prod and fsum over an iterable of numbers.
fn fold(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let items = a.value("iterable")?.iter_items()?;
    let start = a.take("start").map(|(v, _)| v);
    a.finish()?;
    if name == "fsum" {
        let mut total = 0.0;
        for v in &items {
            total += convert::to_float(v, "fsum", "iterable")?;
        }
        return Ok(Value::Float(total));
    }
    let mut acc = start.unwrap_or(Value::Int(1));
    for v in items {
        acc = crate::interp::ops::binary(crate::syntax::ast::BinOp::Mul, &acc, &v)?;
    }
    Ok(acc)
}

fn dist(_: &mut Interp, mut a: Args) -> Result<Value> {
    let p = a.value("p")?.iter_items()?;
    let q = a.value("q")?.iter_items()?;
    a.finish()?;
    if p.len() != q.len() {
        return Err(value_err(
            "both points must have the same number of dimensions",
        ));
    }
    let mut sum = 0.0;
    for (x, y) in p.iter().zip(&q) {
        let d = convert::to_float(x, "dist", "p")? - convert::to_float(y, "dist", "q")?;
        sum += d * d;
    }
    Ok(Value::Float(sum.sqrt()))
}

/// A math function's value for a name in `math` that is a constant.
pub fn constant(name: &str) -> Option<Value> {
    Some(Value::Float(match name {
        "pi" => std::f64::consts::PI,
        "e" => std::f64::consts::E,
        "tau" => std::f64::consts::TAU,
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => return None,
    }))
}

macro_rules! unary_rows {
    ($($name:literal: $help:literal, $example:literal;)*) => {
        &[$(Builtin {
            name: $name,
            sig: concat!("math.", $name, "(x)"),
            help: $help,
            example: $example,
            reach: super::Reach::Math,
            func: unary,
            typed: &[],
            inplace: false,
        },)*]
    };
}

const UNARY_ROWS: &[Builtin] = unary_rows! {
    "sqrt": "Square root of a number (a float).", "math.sqrt(2)";
    "exp": "e raised to x.", "math.exp(1)";
    "exp2": "2 raised to x.", "math.exp2(10)";
    "expm1": "exp(x) - 1, exact for small x.", "math.expm1(1e-10)";
    "log2": "Base-2 logarithm.", "math.log2(1024)";
    "log10": "Base-10 logarithm.", "math.log10(1000)";
    "log1p": "log(1 + x), exact for small x.", "math.log1p(1e-10)";
    "sin": "Sine (radians).", "math.sin(math.pi / 2)";
    "cos": "Cosine (radians).", "math.cos(0)";
    "tan": "Tangent (radians).", "math.tan(math.pi / 4)";
    "asin": "Arc sine, in radians.", "math.asin(1)";
    "acos": "Arc cosine, in radians.", "math.acos(0)";
    "atan": "Arc tangent, in radians.", "math.atan(1)";
    "sinh": "Hyperbolic sine.", "math.sinh(1)";
    "cosh": "Hyperbolic cosine.", "math.cosh(1)";
    "tanh": "Hyperbolic tangent.", "math.tanh(0.5)";
    "asinh": "Inverse hyperbolic sine.", "math.asinh(1)";
    "acosh": "Inverse hyperbolic cosine.", "math.acosh(2)";
    "atanh": "Inverse hyperbolic tangent.", "math.atanh(0.5)";
    "fabs": "Absolute value as a float.", "math.fabs(-3)";
    "cbrt": "Cube root.", "math.cbrt(27)";
    "degrees": "Radians to degrees.", "math.degrees(math.pi)";
    "radians": "Degrees to radians.", "math.radians(180)";
    "erf": "The error function.", "math.erf(1)";
    "erfc": "1 - erf(x).", "math.erfc(1)";
    "gamma": "The gamma function: gamma(n) = (n-1)!.", "math.gamma(5)";
    "lgamma": "log |gamma(x)|.", "math.lgamma(10)";
};

const OTHER_ROWS: &[Builtin] = &[
    row!(
        Math,
        "log",
        "math.log(x, base=e)",
        "Natural logarithm, or in the given base.",
        "math.log(8, 2)",
        log
    ),
    row!(
        Math,
        "floor",
        "math.floor(x)",
        "The largest int <= x.",
        "math.floor(-2.5)",
        rounding
    ),
    row!(
        Math,
        "ceil",
        "math.ceil(x)",
        "The smallest int >= x.",
        "math.ceil(2.1)",
        rounding
    ),
    row!(
        Math,
        "trunc",
        "math.trunc(x)",
        "x without its fractional part, as an int.",
        "math.trunc(-2.7)",
        rounding
    ),
    row!(
        Math,
        "atan2",
        "math.atan2(y, x)",
        "The angle of the point (x, y), in radians.",
        "math.atan2(1, 1)",
        binary
    ),
    row!(
        Math,
        "pow",
        "math.pow(x, y)",
        "x raised to y, as a float.",
        "math.pow(2, 0.5)",
        binary
    ),
    row!(
        Math,
        "fmod",
        "math.fmod(x, y)",
        "Remainder of x / y with the sign of x (C's fmod).",
        "math.fmod(-7, 3)",
        binary
    ),
    row!(
        Math,
        "copysign",
        "math.copysign(x, y)",
        "|x| with the sign of y.",
        "math.copysign(3, -0.0)",
        binary
    ),
    row!(
        Math,
        "remainder",
        "math.remainder(x, y)",
        "IEEE remainder: x - n*y for the nearest integer n.",
        "math.remainder(7, 4)",
        binary
    ),
    row!(
        Math,
        "hypot",
        "math.hypot(x, y)",
        "sqrt(x*x + y*y) without overflow.",
        "math.hypot(3, 4)",
        binary
    ),
    row!(
        Math,
        "isnan",
        "math.isnan(x)",
        "Is x NaN?",
        "math.isnan(float('nan'))",
        predicate
    ),
    row!(
        Math,
        "isinf",
        "math.isinf(x)",
        "Is x infinite?",
        "math.isinf(math.inf)",
        predicate
    ),
    row!(
        Math,
        "isfinite",
        "math.isfinite(x)",
        "Is x neither infinite nor NaN?",
        "math.isfinite(1e308)",
        predicate
    ),
    row!(
        Math,
        "isclose",
        "math.isclose(a, b, rel_tol=1e-09, abs_tol=0.0)",
        "Are a and b equal within the tolerances?",
        "math.isclose(0.1 + 0.2, 0.3)",
        isclose
    ),
    row!(
        Math,
        "prod",
        "math.prod(iterable, start=1)",
        "The product of the items.",
        "math.prod([1, 2, 3, 4])",
        fold
    ),
    row!(
        Math,
        "fsum",
        "math.fsum(iterable)",
        "The sum of the items as a float.",
        "math.fsum([0.1, 0.2, 0.3])",
        fold
    ),
    row!(
        Math,
        "dist",
        "math.dist(p, q)",
        "Euclidean distance between two points.",
        "math.dist([0, 0], [3, 4])",
        dist
    ),
];

/// Every row of the math module.
pub fn rows() -> impl Iterator<Item = &'static Builtin> {
    UNARY_ROWS
        .iter()
        .chain(OTHER_ROWS)
        .chain(super::pyinteger::ROWS)
}
