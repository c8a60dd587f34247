//! f-strings: the text between the quotes is split into literal pieces and
//! `{expr!conv:spec}` fields; each field's expression is parsed on its own, at
//! its own position, so its errors point into the string.

use std::rc::Rc;

use super::ast::{FPart, Span};
use super::exprs::{build_expr, unescape};
use super::parser::{Rule, parse_piece, source_pos};
use crate::error::{Error, ErrorKind, Result};

/// Split `body` (which starts at `start` in the parsed text) into parts.
pub fn parts(body: &str, start: usize, raw: bool) -> Result<Vec<FPart>> {
    let bytes = body.as_bytes();
    let mut out = vec![];
    let mut text = String::new();
    let mut i = 0;
    let mut lit_from = 0;
    let flush = |text: &mut String, out: &mut Vec<FPart>| {
        if !text.is_empty() {
            out.push(FPart::Text(std::mem::take(text).into()));
        }
    };
    let literal = |s: &str| if raw { s.to_string() } else { unescape(s) };
    while i < bytes.len() {
        match bytes[i] {
            b'{' if bytes.get(i + 1) == Some(&b'{') => {
                text.push_str(&literal(&body[lit_from..i]));
                text.push('{');
                i += 2;
                lit_from = i;
            }
            b'}' if bytes.get(i + 1) == Some(&b'}') => {
                text.push_str(&literal(&body[lit_from..i]));
                text.push('}');
                i += 2;
                lit_from = i;
            }
            b'{' => {
                text.push_str(&literal(&body[lit_from..i]));
                flush(&mut text, &mut out);
                let end = field_end(bytes, i + 1).ok_or_else(|| {
                    error("f-string: expecting '}'", start + i, start + body.len())
                })?;
                out.push(field(&body[i + 1..end], start + i + 1, raw)?);
                i = end + 1;
                lit_from = i;
            }
            b'}' => {
                return Err(error(
                    "f-string: single '}' is not allowed",
                    start + i,
                    start + i + 1,
                ));
            }
            b'\\' if !raw => i += 2,
            _ => i += 1,
        }
    }
    text.push_str(&literal(&body[lit_from.min(body.len())..]));
    flush(&mut text, &mut out);
    Ok(out)
}

fn error(message: &str, from: usize, to: usize) -> Error {
    Error::new(ErrorKind::Syntax, message).at(Span::new(source_pos(from), source_pos(to)))
}

/// The `}` that closes the field opened just before `from`.
fn field_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<u8> = None;
    for (j, &c) in bytes.iter().enumerate().skip(from) {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' => depth -= 1,
            b'}' if depth == 0 => return Some(j),
            b'}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// One `{...}` field's inside: `expr`, `expr!r`, `expr:spec`, `expr=`.
fn field(inside: &str, start: usize, raw: bool) -> Result<FPart> {
    let bytes = inside.as_bytes();
    let (mut depth, mut quote) = (0, None::<u8>);
    let mut expr_end = inside.len();
    let mut conversion = None;
    let mut spec_from = None;
    let mut j = 0;
    while j < bytes.len() {
        let c = bytes[j];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            j += 1;
            continue;
        }
        match c {
            b'\'' | b'"' => quote = Some(c),
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'!' if depth == 0 && bytes.get(j + 1) != Some(&b'=') => {
                expr_end = expr_end.min(j);
                conversion = bytes.get(j + 1).map(|&b| b as char);
                if let Some(colon) = inside[j..].find(':') {
                    spec_from = Some(j + colon + 1);
                }
                break;
            }
            b':' if depth == 0 => {
                expr_end = j;
                spec_from = Some(j + 1);
                break;
            }
            _ => {}
        }
        j += 1;
    }
    let mut expr_text = &inside[..expr_end];
    // `{x=}`: the expression's own text, then its value (repr unless a spec or conversion says).
    let mut echo = None;
    let trimmed = expr_text.trim_end();
    if trimmed.ends_with('=') && !trimmed.ends_with("==") && !trimmed.ends_with(['!', '<', '>']) {
        echo = Some(Rc::from(expr_text));
        expr_text = &trimmed[..trimmed.len() - 1];
        if conversion.is_none() && spec_from.is_none() {
            conversion = Some('r');
        }
    }
    if expr_text.trim().is_empty() {
        return Err(error(
            "f-string: valid expression required before '}'",
            start,
            start + inside.len().max(1),
        ));
    }
    if let Some(c) = conversion
        && !matches!(c, 'r' | 's' | 'a')
    {
        return Err(error(
            "f-string: invalid conversion character: expected 's', 'r', or 'a'",
            start + expr_end,
            start + expr_end + 2,
        ));
    }
    // `field_expr` is SOI ~ expr ~ EOI: a tree pest accepted always holds the expr.
    let expr = parse_piece(Rule::field_expr, expr_text, start, |p| {
        build_expr(p.into_inner().next().expect("field_expr holds an expr"))
    })?;
    let spec = match spec_from {
        Some(s) => parts(&inside[s..], start + s, raw)?,
        None => vec![],
    };
    Ok(FPart::Field {
        expr,
        conversion,
        spec,
        echo,
    })
}
