//! Python math's integer functions: factorial, gcd, lcm, comb, perm, isqrt.
//! Exact in 64 bits; a result beyond them is an overflow error, not a wrong number.

use super::Builtin;
use super::pymath::int_arg;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
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
];

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

/// Python's int(text, base): an optional sign, underscores between digits,
/// and with base 0 the literal's own prefix (0b, 0o, 0x; a plain decimal
/// may not start with 0). Bases 2, 8 and 16 also accept their prefix.
pub fn parse_int(text: &str, base: i64) -> Result<i64> {
    if base != 0 && !(2..=36).contains(&base) {
        return Err(value_err("int() base must be >= 2 and <= 36, or 0"));
    }
    let invalid = || {
        value_err(format!(
            "invalid literal for int() with base {base}: {}",
            crate::print::value::repr_with(&Value::str(text), &Default::default())
        ))
    };
    let s = text.trim();
    let (negative, s) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let lower = s.to_ascii_lowercase();
    let prefixed = |p: &str| lower.starts_with(p);
    let (radix, digits) = match base {
        0 if prefixed("0b") => (2, &s[2..]),
        0 if prefixed("0o") => (8, &s[2..]),
        0 if prefixed("0x") => (16, &s[2..]),
        0 => {
            // A decimal literal with a leading 0 must be all zeros.
            if s.len() > 1 && s.starts_with('0') && s.chars().any(|c| c != '0' && c != '_') {
                return Err(invalid());
            }
            (10, s)
        }
        2 if prefixed("0b") => (2, &s[2..]),
        8 if prefixed("0o") => (8, &s[2..]),
        16 if prefixed("0x") => (16, &s[2..]),
        b => (b as u32, s),
    };
    // After a prefix an underscore may lead ("0x_ff"); elsewhere underscores
    // only separate digits.
    let digits = if digits.len() < s.len() {
        digits.strip_prefix('_').unwrap_or(digits)
    } else {
        digits
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return Err(invalid());
    }
    let mut value: i128 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(radix).ok_or_else(invalid)?;
        value = value * radix as i128 + d as i128;
        if value > i64::MAX as i128 + 1 {
            return Err(value_err(format!(
                "int() of {}: the value does not fit in 64 bits (tsh's ints)",
                crate::print::value::repr_with(&Value::str(text), &Default::default())
            )));
        }
    }
    let value = if negative { -value } else { value };
    i64::try_from(value).map_err(|_| {
        value_err(format!(
            "int() of {}: the value does not fit in 64 bits (tsh's ints)",
            crate::print::value::repr_with(&Value::str(text), &Default::default())
        ))
    })
}
