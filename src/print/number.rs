//! Python's spelling of numbers: `repr(float)` (shortest round-trip digits,
//! scientific below 1e-4 and from 1e16), so `tolist()` and `item()` read as in PyTorch.

pub fn py_float_repr(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // The shortest round-trip length, then the correctly rounded digits of that
    // length: on an exact tie Python's repr rounds half to even, where the
    // shortest-digits search may round up.
    let shortest = format!("{x:e}");
    let len = shortest
        .split_once('e')
        .map_or(shortest.as_str(), |(m, _)| m)
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    // (Keep the shortest digits when the rounded ones would not read back as
    // x: next to a power of two the gaps below and above differ.)
    let rounded = format!("{:.*e}", len.saturating_sub(1), x);
    let s = if rounded.parse::<f64>() == Ok(x) {
        rounded
    } else {
        shortest.clone()
    };
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (sign, mant) = match mant.strip_prefix('-') {
        Some(m) => ("-", m),
        None => ("", mant),
    };
    let digits: String = mant.chars().filter(|c| *c != '.').collect();
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let e = exp as usize;
            let int_part = if digits.len() > e + 1 {
                digits[..e + 1].to_string()
            } else {
                format!("{digits}{}", "0".repeat(e + 1 - digits.len()))
            };
            let frac = if digits.len() > e + 1 {
                &digits[e + 1..]
            } else {
                "0"
            };
            format!("{sign}{int_part}.{frac}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let rest = &digits[1..];
        let m = if rest.is_empty() {
            digits[..1].to_string()
        } else {
            format!("{}.{rest}", &digits[..1])
        };
        let (es, ev) = if exp < 0 { ('-', -exp) } else { ('+', exp) };
        format!("{sign}{m}e{es}{ev:02}")
    }
}

/// A float32 value as Python shows it after `.item()`: the f64 of the f32.
pub fn py_float_repr_f32(x: f32) -> String {
    py_float_repr(x as f64)
}

/// Python's repr of a complex number: `2j`, `(1+2j)`, `(1.5-0j)`, `(nan+infj)`.
pub fn py_complex_repr(re: f64, im: f64) -> String {
    // Python writes the parts with repr, less a trailing ".0".
    let part = |x: f64| {
        let s = py_float_repr(x);
        s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
    };
    let signed_im = if im.is_sign_negative() && !im.is_nan() {
        format!("-{}", part(-im))
    } else {
        format!("+{}", part(im))
    };
    if re == 0.0 && re.is_sign_positive() {
        format!("{}j", signed_im.trim_start_matches('+'))
    } else {
        format!("({}{signed_im}j)", part(re))
    }
}

#[doc(hidden)]
pub mod tests {
    use super::py_float_repr;

    crate::unit_tests! {
        fn matches_python_repr() {
            let cases = [
                // A tie between two shortest spellings goes to the even digit...
                (124_749.0 / 131_072.0, "0.9517593383789062"),
                // ...unless that one would not read back (below a power of two).
                (1.0 / 16_777_216.0, "5.960464477539063e-08"),
                (1.0, "1.0"),
                (0.1, "0.1"),
                (-2.5, "-2.5"),
                (1e-5, "1e-05"),
                (1.5e20, "1.5e+20"),
                (1e16, "1e+16"),
                (1234567890123456.0, "1234567890123456.0"),
                (0.0001, "0.0001"),
                (0.1f32 as f64, "0.10000000149011612"),
                (100.0, "100.0"),
                (f64::NAN, "nan"),
                (-0.0, "-0.0"),
            ];
            for (x, want) in cases {
                assert_eq!(py_float_repr(x), want, "repr of {x}");
            }
        }
    }
}
