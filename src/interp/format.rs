//! Python's string formatting: the format-spec mini-language (`{x:>8.3f}` in
//! f-strings and `str.format`, `format(x, spec)`) and `%` formatting. A 0-d
//! tensor formats as its item, as `Tensor.__format__` does.

use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::value::Value;
use crate::print::number::py_float_repr;
use crate::print::value::{plain_with, repr_with};

/// The widest field and longest precision a format spec may ask for.
const MAX_FIELD: usize = 1 << 20;

/// A parsed format spec: `[[fill]align][sign][z][#][0][width][,|_][.precision][type]`.
#[derive(Default, Debug)]
struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    no_neg_zero: bool,
    alternate: bool,
    width: usize,
    grouping: Option<char>,
    precision: Option<usize>,
    kind: Option<char>,
}

fn parse_spec(spec: &str) -> Result<Spec> {
    let bad = || value_err(format!("Invalid format specifier '{spec}'"));
    let chars: Vec<char> = spec.chars().collect();
    let mut s = Spec::default();
    let mut i = 0;
    let is_align = |c: char| matches!(c, '<' | '>' | '^' | '=');
    if chars.len() >= 2 && is_align(chars[1]) {
        s.fill = Some(chars[0]);
        s.align = Some(chars[1]);
        i = 2;
    } else if !chars.is_empty() && is_align(chars[0]) {
        s.align = Some(chars[0]);
        i = 1;
    }
    if let Some(&c) = chars.get(i)
        && matches!(c, '+' | '-' | ' ')
    {
        s.sign = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'z') {
        s.no_neg_zero = true;
        i += 1;
    }
    if chars.get(i) == Some(&'#') {
        s.alternate = true;
        i += 1;
    }
    if chars.get(i) == Some(&'0') {
        if s.fill.is_none() {
            s.fill = Some('0');
            s.align.get_or_insert('=');
        }
        i += 1;
    }
    let digits = |i: &mut usize| {
        let from = *i;
        while chars.get(*i).is_some_and(|c| c.is_ascii_digit()) {
            *i += 1;
        }
        chars[from..*i].iter().collect::<String>()
    };
    let w = digits(&mut i);
    if !w.is_empty() {
        s.width = w.parse().map_err(|_| bad())?;
    }
    if let Some(&c) = chars.get(i)
        && matches!(c, ',' | '_')
    {
        s.grouping = Some(c);
        i += 1;
    }
    if chars.get(i) == Some(&'.') {
        i += 1;
        let p = digits(&mut i);
        if p.is_empty() {
            return Err(value_err("Format specifier missing precision"));
        }
        s.precision = Some(p.parse().map_err(|_| bad())?);
    }
    if let Some(&c) = chars.get(i) {
        s.kind = Some(c);
        i += 1;
    }
    if i != chars.len() {
        return Err(bad());
    }
    // Beyond this the text would not fit tsh's string limit anyway.
    if s.width > MAX_FIELD || s.precision.is_some_and(|p| p > MAX_FIELD) {
        return Err(value_err("Too many decimal digits in format string"));
    }
    Ok(s)
}

/// `format(v, spec)`: what `{v:spec}` shows.
pub fn format_value(interp: &mut Interp, v: &Value, spec: &str) -> Result<String> {
    // Tensor.__format__: a 0-d tensor formats as its item, even with no spec.
    if let Value::Tensor(t) = v
        && t.ndim() == 0
    {
        let item = crate::interp::convert::tensor_item(t)?;
        return format_value(interp, &item, spec);
    }
    if spec.is_empty() {
        return Ok(interp.str_text(v));
    }
    let s = parse_spec(spec)?;
    match v {
        Value::Bool(b) if s.kind.is_none() => Ok(pad(&b.to_string().replace('t', "T").replace('f', "F"), &s, '<')),
        Value::Int(_) | Value::Bool(_) => {
            let i = match v {
                Value::Int(i) => *i,
                Value::Bool(b) => *b as i64,
                _ => 0,
            };
            match s.kind {
                None | Some('d' | 'n' | 'b' | 'o' | 'x' | 'X' | 'c') => format_int(i, &s),
                Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%') => Ok(format_float(i as f64, &s)),
                Some(k) => Err(unknown_code(k, "int")),
            }
        }
        Value::Float(x) => match s.kind {
            None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%' | 'n') => Ok(format_float(*x, &s)),
            Some(k) => Err(unknown_code(k, "float")),
        },
        Value::Str(text) => match s.kind {
            None | Some('s') => {
                let text: String = match s.precision {
                    Some(p) => text.chars().take(p).collect(),
                    None => text.to_string(),
                };
                Ok(pad(&text, &s, '<'))
            }
            Some(k) => Err(unknown_code(k, "str")),
        },
        Value::Tensor(_) => Err(type_err("unsupported format string passed to Tensor.__format__")
            .hint("only a one-element (0-d) tensor formats like a number: use t.item() or a 0-d tensor")),
        other => Err(type_err(format!(
            "unsupported format string passed to {}.__format__",
            other.type_name()
        ))),
    }
}

fn unknown_code(k: char, ty: &str) -> crate::error::Error {
    value_err(format!(
        "Unknown format code '{k}' for object of type '{ty}'"
    ))
}

fn format_int(i: i64, s: &Spec) -> Result<String> {
    let mag = i.unsigned_abs();
    let (digits, prefix) = match s.kind {
        Some('b') => (format!("{mag:b}"), "0b"),
        Some('o') => (format!("{mag:o}"), "0o"),
        Some('x') => (format!("{mag:x}"), "0x"),
        Some('X') => (format!("{mag:X}"), "0X"),
        Some('c') => {
            let c = u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| value_err("%c arg not in range(0x110000)"))?;
            return Ok(pad(&c.to_string(), s, '<'));
        }
        _ => (mag.to_string(), ""),
    };
    let digits = match s.grouping {
        Some(g) if prefix.is_empty() => group(&digits, g),
        _ => digits,
    };
    let prefix = if s.alternate { prefix } else { "" };
    Ok(signed(i < 0, &format!("{prefix}{digits}"), s))
}

/// Digits in threes: `1234567` → `1,234,567`.
fn group(digits: &str, sep: char) -> String {
    let n = digits.len();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (n - k).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

fn format_float(x: f64, s: &Spec) -> String {
    let neg = x.is_sign_negative() && !x.is_nan();
    let a = x.abs();
    let upper = matches!(s.kind, Some('E' | 'F' | 'G'));
    let body = if !a.is_finite() {
        let t = if a.is_nan() { "nan" } else { "inf" };
        let t = if upper {
            t.to_uppercase()
        } else {
            t.to_string()
        };
        if s.kind == Some('%') {
            format!("{t}%")
        } else {
            t
        }
    } else {
        match s.kind {
            Some('f' | 'F') => fixed(a, s.precision.unwrap_or(6), s),
            Some('e' | 'E') => sci(a, s.precision.unwrap_or(6), s.alternate, upper),
            Some('%') => format!("{}%", fixed(a * 100.0, s.precision.unwrap_or(6), s)),
            Some('g' | 'G' | 'n') => {
                general(a, s.precision.unwrap_or(6), s.alternate, upper, false, s)
            }
            _ => match s.precision {
                Some(p) => general(a, p, s.alternate, false, true, s),
                None => {
                    let r = py_float_repr(a);
                    match s.grouping {
                        Some(g) => group_float(&r, g),
                        None => r,
                    }
                }
            },
        }
    };
    let neg = neg && !(s.no_neg_zero && body.chars().all(|c| !c.is_ascii_digit() || c == '0'));
    signed(neg, &body, s)
}

fn fixed(a: f64, p: usize, s: &Spec) -> String {
    let mut t = format!("{a:.p$}");
    if s.alternate && p == 0 {
        t.push('.');
    }
    match s.grouping {
        Some(g) => group_float(&t, g),
        None => t,
    }
}

fn group_float(t: &str, g: char) -> String {
    let (int, rest) = match t.find(|c: char| !c.is_ascii_digit()) {
        Some(k) => (&t[..k], &t[k..]),
        None => (t, ""),
    };
    format!("{}{rest}", group(int, g))
}

fn sci(a: f64, p: usize, alternate: bool, upper: bool) -> String {
    let t = format!("{a:.p$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    let e: i32 = e.parse().unwrap_or(0);
    let m = if alternate && p == 0 {
        format!("{m}.")
    } else {
        m.to_string()
    };
    let sign = if e < 0 { '-' } else { '+' };
    let letter = if upper { 'E' } else { 'e' };
    format!("{m}{letter}{sign}{:02}", e.abs())
}

/// `g`: fixed or scientific by the exponent, trailing zeros dropped. With no
/// type code (`repr_like`), a fixed result keeps one digit after the point.
fn general(a: f64, p: usize, alternate: bool, upper: bool, repr_like: bool, s: &Spec) -> String {
    let p = p.max(1);
    if a == 0.0 {
        let z = if alternate {
            format!("0.{}", "0".repeat(p - 1))
        } else if repr_like {
            "0.0".to_string()
        } else {
            "0".to_string()
        };
        return z;
    }
    let t = format!("{a:.*e}", p - 1);
    let exp: i32 = t
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    if -4 <= exp && exp < p as i32 {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let mut f = format!("{a:.decimals$}");
        if !alternate && f.contains('.') {
            f = f.trim_end_matches('0').trim_end_matches('.').to_string();
        }
        if repr_like && !f.contains('.') {
            f.push_str(".0");
        }
        match s.grouping {
            Some(g) => group_float(&f, g),
            None => f,
        }
    } else {
        let t = sci(a, p - 1, alternate, upper);
        if alternate {
            return t;
        }
        let (m, e) = t.split_at(t.find(['e', 'E']).unwrap_or(t.len()));
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        format!("{m}{e}")
    }
}

/// Sign, then padding to the width (`=` pads between the sign and the digits).
fn signed(neg: bool, body: &str, s: &Spec) -> String {
    let sign = if neg {
        "-"
    } else {
        match s.sign {
            Some('+') => "+",
            Some(' ') => " ",
            _ => "",
        }
    };
    if s.align == Some('=') {
        let fill = s.fill.unwrap_or(' ');
        let n = sign.chars().count() + body.chars().count();
        let padding: String = std::iter::repeat_n(fill, s.width.saturating_sub(n)).collect();
        return format!("{sign}{padding}{body}");
    }
    pad(&format!("{sign}{body}"), s, '>')
}

fn pad(text: &str, s: &Spec, default_align: char) -> String {
    let n = text.chars().count();
    if n >= s.width {
        return text.to_string();
    }
    let fill = s.fill.unwrap_or(' ');
    let gap = s.width - n;
    let run = |k: usize| std::iter::repeat_n(fill, k).collect::<String>();
    match s.align.unwrap_or(default_align) {
        '<' => format!("{text}{}", run(gap)),
        '^' => format!("{}{text}{}", run(gap / 2), run(gap - gap / 2)),
        _ => format!("{}{text}", run(gap)),
    }
}

/// `"%5.2f and %s" % (x, name)`.
pub fn percent(interp: &mut Interp, template: &str, args: &Value) -> Result<String> {
    let mut values: Vec<Value> = match args {
        Value::Tuple(items) => items.as_ref().clone(),
        other => vec![other.clone()],
    };
    values.reverse();
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let mut flags = String::new();
        while let Some(&f) = chars.peek()
            && matches!(f, '-' | '+' | ' ' | '0' | '#')
        {
            flags.push(f);
            chars.next();
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek()
            && d.is_ascii_digit()
        {
            width.push(d);
            chars.next();
        }
        let mut precision = String::new();
        if chars.peek() == Some(&'.') {
            chars.next();
            precision.push('.');
            while let Some(&d) = chars.peek()
                && d.is_ascii_digit()
            {
                precision.push(d);
                chars.next();
            }
            if precision == "." {
                precision.push('0');
            }
        }
        let Some(code) = chars.next() else {
            return Err(value_err("incomplete format"));
        };
        if code == '%' {
            out.push('%');
            continue;
        }
        let v = values
            .pop()
            .ok_or_else(|| type_err("not enough arguments for format string"))?;
        let align = if flags.contains('-') { "<" } else { "" };
        let zero = if flags.contains('0') && align.is_empty() {
            "0"
        } else {
            ""
        };
        let sign = if flags.contains('+') {
            "+"
        } else if flags.contains(' ') {
            " "
        } else {
            ""
        };
        let alt = if flags.contains('#') { "#" } else { "" };
        let text = match code {
            's' => format_value(
                interp,
                &Value::Str(plain_with(&v, &interp.print_opts).into()),
                &format!("{align}{width}{precision}"),
            )?,
            'r' | 'a' => format_value(
                interp,
                &Value::Str(repr_with(&v, &interp.print_opts).into()),
                &format!("{align}{width}{precision}"),
            )?,
            'd' | 'i' | 'u' => {
                let n = match &v {
                    Value::Float(x) => Value::Int(x.trunc() as i64),
                    other => other.clone(),
                };
                format_value(interp, &n, &format!("{align}{sign}{zero}{width}d"))?
            }
            'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'x' | 'X' | 'o' | 'c' => format_value(
                interp,
                &v,
                &format!("{align}{sign}{alt}{zero}{width}{precision}{code}"),
            )?,
            other => {
                return Err(value_err(format!("unsupported format character '{other}'")));
            }
        };
        out.push_str(&text);
    }
    if !values.is_empty() {
        return Err(type_err(
            "not all arguments converted during string formatting",
        ));
    }
    Ok(out)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn f(v: Value, spec: &str) -> String {
        let mut interp = Interp::new(Box::new(crate::interp::Buffer::default()));
        format_value(&mut interp, &v, spec).unwrap_or_else(|e| format!("error: {}", e.message))
    }

    crate::unit_tests! {
        fn floats_as_python_formats_them() {
            let x = Value::Float(std::f64::consts::PI);
            assert_eq!(f(x.clone(), ".4f"), "3.1416");
            assert_eq!(f(x.clone(), ">10.2f"), "      3.14");
            assert_eq!(f(x.clone(), "e"), "3.141593e+00");
            assert_eq!(f(x.clone(), ".3g"), "3.14");
            assert_eq!(f(x.clone(), ".2%"), "314.16%");
            assert_eq!(f(x.clone(), "+.1f"), "+3.1");
            assert_eq!(f(x, ".3"), "3.14");
            assert_eq!(f(Value::Float(1234567.0), ",.1f"), "1,234,567.0");
            assert_eq!(f(Value::Float(0.000012345), "g"), "1.2345e-05");
            assert_eq!(f(Value::Float(100.0), "g"), "100");
            assert_eq!(f(Value::Float(1e20), ".3"), "1e+20");
            assert_eq!(f(Value::Float(2.0), ".3"), "2.0");
            assert_eq!(f(Value::Float(-0.5), "07.2f"), "-000.50");
            assert_eq!(f(Value::Float(0.5), ">7f"), "0.500000");
        }

        fn ints_and_strings() {
            assert_eq!(f(Value::Int(42), "5d"), "   42");
            assert_eq!(f(Value::Int(42), "<5"), "42   ");
            assert_eq!(f(Value::Int(42), "^6"), "  42  ");
            assert_eq!(f(Value::Int(255), "#x"), "0xff");
            assert_eq!(f(Value::Int(1234567), ","), "1,234,567");
            assert_eq!(f(Value::Int(5), "03"), "005");
            assert_eq!(f(Value::Int(5), ".2f"), "5.00");
            assert_eq!(f(Value::str("ab"), ">4"), "  ab");
            assert_eq!(f(Value::str("abc"), "*^7"), "**abc**");
            assert_eq!(
                f(Value::str("ab"), "d"),
                "error: Unknown format code 'd' for object of type 'str'"
            );
        }
    }
}
