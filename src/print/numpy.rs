//! NumPy's printing of an ndarray: `str` is `[1. 2.]`, `repr` is `array([1., 2.])`.
//! Every element gets one width (integer parts right-aligned, fractions padded
//! on the right), floats show at most 8 decimals of their shortest form, and
//! lines wrap at 75 characters, as NumPy's defaults do.

use crate::error::Result;
use crate::tensor::{DType, Tensor};

const LINE_WIDTH: usize = 75;
const PRECISION: usize = 8;

/// `print(a)`.
pub fn str_of(t: &Tensor) -> Result<String> {
    let words = words(t)?;
    if t.ndim() == 0 {
        return Ok(words
            .first()
            .cloned()
            .unwrap_or_default()
            .trim()
            .to_string());
    }
    Ok(layout(t.shape(), &words, " ", 1))
}

/// The echo: `array([1., 2.])`, with `dtype=` when it is not the default.
pub fn repr_of(t: &Tensor) -> Result<String> {
    let words = words(t)?;
    let dtype = match t.dtype() {
        DType::F64 | DType::I64 | DType::Bool => None,
        d => Some(d.name()),
    };
    let body = if t.ndim() == 0 {
        words
            .first()
            .cloned()
            .unwrap_or_default()
            .trim()
            .to_string()
    } else if t.numel() == 0 {
        return Ok(format!("array([], dtype={})", t.dtype().name()));
    } else {
        layout(t.shape(), &words, ", ", "array(".len() + 1)
    };
    Ok(match dtype {
        Some(d) => format!("array({body}, dtype={d})"),
        None => format!("array({body})"),
    })
}

/// Every element as text, padded to one width.
fn words(t: &Tensor) -> Result<Vec<String>> {
    let h = t.to_host()?;
    if t.dtype() == DType::Bool {
        let v = h.to_i64_vec();
        let w: Vec<String> = v
            .iter()
            .map(|&b| if b != 0 { "True" } else { "False" }.to_string())
            .collect();
        return Ok(right_align(w));
    }
    if !t.dtype().is_float() {
        let w = h.to_i64_vec().iter().map(|i| i.to_string()).collect();
        return Ok(right_align(w));
    }
    Ok(floats(&h.to_f64_vec(), t.dtype()))
}

fn right_align(words: Vec<String>) -> Vec<String> {
    let width = words.iter().map(|w| w.len()).max().unwrap_or(0);
    words.into_iter().map(|w| format!("{w:>width$}")).collect()
}

/// The shortest digits that read back as this value in its dtype, at most
/// PRECISION after the point.
fn shortest(x: f64, dtype: DType) -> String {
    let s = match dtype {
        DType::F32 => format!("{}", x as f32),
        _ => format!("{x}"),
    };
    match s.split_once('.') {
        Some((_, frac)) if frac.len() > PRECISION => {
            let r = format!("{x:.PRECISION$}");
            r.trim_end_matches('0').to_string()
        }
        _ => s,
    }
}

fn floats(v: &[f64], dtype: DType) -> Vec<String> {
    let finite: Vec<f64> = v
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x != 0.0)
        .map(f64::abs)
        .collect();
    let max = finite.iter().copied().fold(0.0, f64::max);
    let min = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let sci = !finite.is_empty() && (max >= 1e8 || min < 1e-4 || max / min > 1e3);
    // (integer part with sign, fraction digits, exponent) per element.
    let parts: Vec<(String, String, String)> = v
        .iter()
        .map(|&x| {
            if !x.is_finite() {
                let t = if x.is_nan() {
                    "nan"
                } else if x > 0.0 {
                    "inf"
                } else {
                    "-inf"
                };
                return (t.to_string(), String::new(), String::new());
            }
            let (mant, exp) = if sci {
                let e = if x == 0.0 {
                    0
                } else {
                    x.abs().log10().floor() as i32
                };
                let m = x / 10f64.powi(e);
                // Rounding may carry the mantissa to 10.
                let (m, e) = if shortest(m, DType::F64)
                    .trim_start_matches('-')
                    .starts_with("10")
                {
                    (m / 10.0, e + 1)
                } else {
                    (m, e)
                };
                let sign = if e < 0 { '-' } else { '+' };
                (shortest(m, dtype), format!("e{sign}{:02}", e.abs()))
            } else {
                (shortest(x, dtype), String::new())
            };
            let (int, frac) = mant.split_once('.').unwrap_or((&mant, ""));
            (int.to_string(), frac.trim_end_matches('0').to_string(), exp)
        })
        .collect();
    let left = parts.iter().map(|p| p.0.len()).max().unwrap_or(0);
    let right = parts.iter().map(|p| p.1.len()).max().unwrap_or(0);
    let exp = parts.iter().map(|p| p.2.len()).max().unwrap_or(0);
    parts
        .into_iter()
        .map(|(int, frac, e)| {
            if int.ends_with("nan") || int.ends_with("inf") {
                let width = left + 1 + right + exp;
                return format!("{int:>width$}");
            }
            format!("{int:>left$}.{frac:<right$}{e:<exp$}")
        })
        .collect()
}

/// Nested brackets, wrapping long rows at the line width.
fn layout(shape: &[usize], words: &[String], sep: &str, indent: usize) -> String {
    if shape.len() == 1 {
        return row(words, sep, indent);
    }
    let inner: usize = shape[1..].iter().product();
    let rows: Vec<String> = words
        .chunks(inner.max(1))
        .take(shape[0])
        .map(|chunk| layout(&shape[1..], chunk, sep, indent + 1))
        .collect();
    let gap = format!(
        "{}{}{}",
        sep.trim_end(),
        "\n".repeat(shape.len() - 1),
        " ".repeat(indent)
    );
    format!("[{}]", rows.join(&gap))
}

fn row(words: &[String], sep: &str, indent: usize) -> String {
    let comma = sep.trim_end();
    let mut lines = vec![];
    let mut line = " ".repeat(indent - 1) + "[";
    for (i, w) in words.iter().enumerate() {
        let last = i + 1 == words.len();
        let extra = if last { 1 } else { comma.len() };
        if i > 0 && line.len() + w.len() + extra > LINE_WIDTH {
            lines.push(line.trim_end().to_string());
            line = " ".repeat(indent);
        }
        line.push_str(w);
        if !last {
            line.push_str(sep);
        }
    }
    line.push(']');
    lines.push(line);
    let text = lines.join("\n");
    text[indent - 1..].to_string()
}
