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

/// The C library's functions that Rust's std does not offer; Python's math
/// module calls the same ones, so the digits agree.
mod libm {
    unsafe extern "C" {
        #[link_name = "erf"]
        fn c_erf(x: f64) -> f64;
        #[link_name = "erfc"]
        fn c_erfc(x: f64) -> f64;
    }
    // SAFETY (both): pure functions of a double, defined for every input;
    // std links the C math library on every platform tsh builds for.
    pub fn erf(x: f64) -> f64 {
        unsafe { c_erf(x) }
    }
    pub fn erfc(x: f64) -> f64 {
        unsafe { c_erfc(x) }
    }
}

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
    let name = format!("math.{}", a.name);
    let (v, s) = a.take(param).ok_or_else(|| {
        type_err(format!("{name}() missing required argument '{param}'")).at(a.span)
    })?;
    convert::to_float(&v, &name, param).map_err(|e| e.at(s))
}

fn int_arg(a: &mut Args, param: &str) -> Result<i64> {
    let name = format!("math.{}", a.name);
    let (v, s) = a.take(param).ok_or_else(|| {
        type_err(format!("{name}() missing required argument '{param}'")).at(a.span)
    })?;
    convert::to_int(&v, &name, param).map_err(|e| e.at(s))
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

// gamma and lgamma follow CPython's own Lanczos implementation (mathmodule.c,
// Godfrey's coefficients, g = 6.024680040776729583740234375, 13 terms) rather
// than the C library's, so that the printed digits agree with Python's.
// CPython's literals, digit for digit (they round to the same doubles).
#[allow(clippy::excessive_precision)]
const LANCZOS_G: f64 = 6.024_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_G_MINUS_HALF: f64 = 5.524_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_NUM: [f64; 13] = [
    23_531_376_880.410_759_688_572_007_674_451_636_754_734_846_804_940,
    42_919_803_642.649_098_768_957_899_047_001_988_850_926_355_848_959,
    35_711_959_237.355_668_049_440_185_451_547_166_705_960_488_635_843,
    17_921_034_426.037_209_699_919_755_754_458_931_112_671_403_265_390,
    6_039_542_586.352_028_005_064_291_644_307_297_921_069_938_842_070_8,
    1_439_720_407.311_721_673_663_223_072_794_912_393_971_548_578_677_2,
    248_874_557.862_054_156_511_460_386_413_229_423_216_321_251_278_01,
    31_426_415.585_400_194_380_614_231_628_318_205_362_874_684_987_640,
    2_876_370.628_935_372_441_225_409_051_620_849_613_599_114_537_876_8,
    186_056.265_395_223_495_040_294_989_716_045_699_282_207_842_363_28,
    8_071.672_002_365_816_210_638_002_902_272_250_613_821_851_632_502_4,
    210.824_277_751_579_345_872_509_733_920_713_362_711_669_695_802_91,
    2.506_628_274_631_000_270_164_908_177_133_837_338_626_431_079_340_8,
];
const LANCZOS_DEN: [f64; 13] = [
    0.0,
    39_916_800.0,
    120_543_840.0,
    150_917_976.0,
    105_258_076.0,
    45_995_730.0,
    13_339_535.0,
    2_637_558.0,
    357_423.0,
    32_670.0,
    1_925.0,
    66.0,
    1.0,
];

fn lanczos_sum(x: f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    // For large x the rational function is evaluated in 1/x, to avoid overflow.
    if x < 5.0 {
        for i in (0..13).rev() {
            num = num * x + LANCZOS_NUM[i];
            den = den * x + LANCZOS_DEN[i];
        }
    } else {
        for i in 0..13 {
            num = num / x + LANCZOS_NUM[i];
            den = den / x + LANCZOS_DEN[i];
        }
    }
    num / den
}

/// sin(pi x), exact at the integers and half-integers.
fn sinpi(x: f64) -> f64 {
    use std::f64::consts::PI;
    let y = x.abs() % 2.0;
    let r = match (2.0 * y).round() as i32 {
        0 => (PI * y).sin(),
        1 => (PI * (y - 0.5)).cos(),
        2 => (PI * (1.0 - y)).sin(),
        3 => -(PI * (y - 1.5)).cos(),
        _ => (PI * (y - 2.0)).sin(),
    };
    1f64.copysign(x) * r
}

/// Gamma; NaN at the poles 0, -1, -2... (a domain error, as in Python).
fn gamma(x: f64) -> f64 {
    if !x.is_finite() {
        return if x.is_nan() || x > 0.0 { x } else { f64::NAN };
    }
    if x == 0.0 {
        return f64::NAN;
    }
    if x == x.floor() {
        if x < 0.0 {
            return f64::NAN;
        }
        // Exact at the integers: (n-1)!, rounded once.
        if x <= 23.0 {
            return (1..x as u64).map(|k| k as f64).product();
        }
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return 1.0 / x;
    }
    if absx > 200.0 {
        return if x < 0.0 {
            0.0 / sinpi(x)
        } else {
            f64::INFINITY
        };
    }
    let y = absx + LANCZOS_G_MINUS_HALF;
    // The rounding error in y, corrected for below.
    let z = if absx > LANCZOS_G_MINUS_HALF {
        (y - absx) - LANCZOS_G_MINUS_HALF
    } else {
        (y - LANCZOS_G_MINUS_HALF) - absx
    };
    let z = z * LANCZOS_G / y;
    let mut r;
    if x < 0.0 {
        r = -std::f64::consts::PI / sinpi(absx) / absx * y.exp() / lanczos_sum(absx);
        r -= z * r;
        if absx < 140.0 {
            r /= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r /= s;
            r /= s;
        }
    } else {
        r = lanczos_sum(absx) / y.exp();
        r += z * r;
        if absx < 140.0 {
            r *= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r *= s;
            r *= s;
        }
    }
    r
}

/// log |gamma(x)|; infinite at the poles.
fn lgamma(x: f64) -> f64 {
    if !x.is_finite() {
        return if x.is_nan() { x } else { f64::INFINITY };
    }
    if x == x.floor() && x <= 2.0 {
        return if x <= 0.0 { f64::INFINITY } else { 0.0 };
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return -absx.ln();
    }
    let mut r = lanczos_sum(absx).ln() - LANCZOS_G;
    r += (absx - 0.5) * ((absx + LANCZOS_G - 0.5).ln() - 1.0);
    if x < 0.0 {
        r = std::f64::consts::PI.ln() - sinpi(absx).abs().ln() - absx.ln() - r;
    }
    r
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

fn factorial(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = int_arg(&mut a, "n")?;
    a.finish()?;
    if n < 0 {
        return Err(value_err("factorial() not defined for negative values"));
    }
    (1..=n)
        .try_fold(1i64, |acc, k| acc.checked_mul(k))
        .map(Value::Int)
        .ok_or_else(|| overflow(&format!("factorial({n})")))
}

fn overflow(what: &str) -> crate::error::Error {
    value_err(format!(
        "integer overflow: {what} does not fit in a 64-bit int"
    ))
    .hint("tsh's ints are 64-bit (-2**63 to 2**63 - 1)")
}

fn gcd_of(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.min(i64::MAX as u64) as i64
}

/// gcd and lcm of any number of ints.
fn gcd_lcm(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let mut acc = if name == "gcd" { 0 } else { 1 };
    for (v, s) in a.rest() {
        let x = convert::to_int(&v, name, "integers").map_err(|e| e.at(s))?;
        acc = if name == "gcd" {
            gcd_of(acc, x)
        } else if acc == 0 || x == 0 {
            0
        } else {
            (acc / gcd_of(acc, x))
                .checked_mul(x)
                .map(i64::abs)
                .ok_or_else(|| overflow("lcm"))?
        };
    }
    a.finish()?;
    Ok(Value::Int(acc))
}

/// comb(n, k) and perm(n, k).
fn choose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.name;
    let n = int_arg(&mut a, "n")?;
    let k = match a.take("k") {
        Some((v, s)) => Some(convert::to_int(&v, name, "k").map_err(|e| e.at(s))?),
        None => None,
    };
    a.finish()?;
    let k = match (name, k) {
        ("perm", None) => n,
        (_, Some(k)) => k,
        (_, None) => return Err(type_err("math.comb() missing required argument 'k'")),
    };
    if n < 0 || k < 0 {
        return Err(value_err(format!("{name}() needs non-negative n and k")));
    }
    if k > n {
        return Ok(Value::Int(0));
    }
    let k = if name == "comb" { k.min(n - k) } else { k };
    let mut acc: i64 = 1;
    for i in 0..k {
        acc = acc
            .checked_mul(n - i)
            .ok_or_else(|| overflow(&format!("{name}({n}, {k})")))?;
        if name == "comb" {
            acc /= i + 1;
        }
    }
    Ok(Value::Int(acc))
}

fn isqrt(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = int_arg(&mut a, "n")?;
    a.finish()?;
    if n < 0 {
        return Err(value_err("isqrt() argument must be nonnegative"));
    }
    Ok(Value::Int(n.isqrt()))
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
        "factorial",
        "math.factorial(n)",
        "n! for an int n >= 0.",
        "math.factorial(10)",
        factorial
    ),
    row!(
        Math,
        "gcd",
        "math.gcd(*integers)",
        "Greatest common divisor.",
        "math.gcd(12, 18)",
        gcd_lcm
    ),
    row!(
        Math,
        "lcm",
        "math.lcm(*integers)",
        "Least common multiple.",
        "math.lcm(4, 6)",
        gcd_lcm
    ),
    row!(
        Math,
        "comb",
        "math.comb(n, k)",
        "Ways to choose k of n items, unordered.",
        "math.comb(5, 2)",
        choose
    ),
    row!(
        Math,
        "perm",
        "math.perm(n, k=None)",
        "Ways to choose k of n items, ordered.",
        "math.perm(5, 2)",
        choose
    ),
    row!(
        Math,
        "isqrt",
        "math.isqrt(n)",
        "The integer square root.",
        "math.isqrt(17)",
        isqrt
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
    UNARY_ROWS.iter().chain(OTHER_ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_matches_factorials_and_known_values() {
        for (n, f) in [(1.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0)] {
            assert_eq!(gamma(n), f, "gamma({n})");
        }
        assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-15);
        assert!((lgamma(100.0) - 359.134_205_369_575_4).abs() < 1e-12);
        assert!(gamma(-1.0).is_nan() && lgamma(0.0).is_infinite());
        assert!((libm::erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-16);
    }
}
