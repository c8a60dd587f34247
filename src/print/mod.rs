//! Everything the user sees printed: tensors, plain values, errors.

pub mod error;
pub mod number;
pub mod numpy;
pub mod quantized;
pub mod sparse;
pub mod suggest;
pub mod tensor;
pub mod value;

/// The text without ANSI escape sequences (transcripts and files never keep them).
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, then one final byte in '@'..='~'.
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}
