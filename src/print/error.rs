//! The one place errors are rendered: kind, message, `--> file:line:col`, the
//! source line with a caret under the span, and a hint.

use crate::error::Error;

/// Line and column (both 1-based, column in characters) of a byte offset.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..floor_char_boundary(src, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub fn render(err: &Error, src: &str, origin: &str) -> String {
    let mut out = format!("error[{}]: {}\n", err.kind.name(), err.message);
    if let Some(span) = err.span {
        // An error at the very end (an unfinished entry) points just past the last character.
        let trimmed = src.trim_end().len();
        let start = if span.start > trimmed {
            trimmed
        } else {
            span.start
        };
        let span = crate::syntax::ast::Span::new(start, span.end.max(start));
        let (line, col) = line_col(src, span.start);
        out.push_str(&format!("  --> {origin}:{line}:{col}\n"));
        if let Some(text) = src.lines().nth(line - 1) {
            let gutter = line.to_string();
            let pad = " ".repeat(gutter.len());
            out.push_str(&format!("{gutter} | {text}\n"));
            let line_chars = text.chars().count();
            let start = col - 1;
            let end_offset = span.end.min(src.len());
            let (end_line, end_col) = line_col(src, end_offset);
            let width = if end_line == line {
                (end_col - 1).saturating_sub(start).max(1)
            } else {
                line_chars.saturating_sub(start).max(1)
            };
            out.push_str(&format!(
                "{pad} | {}{} here\n",
                " ".repeat(start),
                "^".repeat(width)
            ));
        }
    }
    if let Some(h) = &err.hint {
        out.push_str(&format!("  = hint: {h}\n"));
    }
    out
}

/// `render`, with the `error[kind]` head in bold red on a terminal.
pub fn render_styled(err: &Error, src: &str, origin: &str, color: bool) -> String {
    let text = render(err, src, origin);
    if !color {
        return text;
    }
    let head = format!("error[{}]", err.kind.name());
    text.replacen(&head, &format!("\x1b[1;31m{head}\x1b[0m"), 1)
}
