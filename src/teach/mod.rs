//! Teaching tools: pictures in the terminal, `:explain`, `:why`, `:trace`,
//! `:set stats`, progress bars, presenter mode and checked transcripts. Each
//! renders to a String; the interpreter and the REPL decide where it goes.

pub mod device_check;
pub mod explain;
pub mod lesson;
pub mod picture;
pub mod progress;
pub mod stats;
pub mod trace;
pub mod transcript;
pub mod why;

/// Dim text on a terminal (footers, summaries).
pub fn dim(text: &str, color: bool) -> String {
    if color {
        format!("\x1b[2m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// Bold text on a terminal.
pub fn bold(text: &str, color: bool) -> String {
    if color {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

/// A short, readable number: 3 significant digits, no exponent for everyday sizes.
pub fn short_num(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = x.abs();
    if a != 0.0 && !(1e-3..1e6).contains(&a) {
        return format!("{x:.3e}");
    }
    let s = format!("{x:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_string() }
}

/// A duration for people: µs, ms or s.
pub fn seconds(s: f64) -> String {
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.3} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}
