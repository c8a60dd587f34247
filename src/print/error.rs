//! The one place errors are rendered: kind, message, `--> file:line:col`, the
//! source line with a caret under the span, the calls that led into a function
//! (outermost first, the failing line last, as Python's traceback), and a hint.

use crate::error::{Error, Frame};
use crate::syntax::ast::Span;

/// Source lines longer than this are shown as a window around the error.
const MAX_SHOWN: usize = 100;
/// How much of the line before the error a window keeps.
const WINDOW_BEFORE: usize = 40;

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
    match &err.traceback {
        None => {
            if let Some(span) = err.span {
                out.push_str(&location(src, origin, span, None, "here"));
            }
        }
        Some(tb) => {
            for (frame, repeats) in collapse(&tb.calls).into_iter().rev() {
                let text = frame.source.as_deref().unwrap_or(src);
                out.push_str(&location(
                    text,
                    origin_of(text, origin),
                    frame.span,
                    frame.function.as_deref(),
                    "called here",
                ));
                if repeats > 0 {
                    out.push_str(&format!(
                        "  … the same call {repeats} more time{}\n",
                        if repeats == 1 { "" } else { "s" }
                    ));
                }
            }
            if let Some(span) = err.span {
                let text = tb.source.as_deref().unwrap_or(src);
                out.push_str(&location(
                    text,
                    origin_of(text, origin),
                    span,
                    tb.function.as_deref(),
                    "here",
                ));
            }
        }
    }
    if let Some(h) = &err.hint {
        out.push_str(&format!("  = hint: {h}\n"));
    }
    out
}

/// The file a location is in: the prelude's code is not the user's file.
fn origin_of<'a>(text: &str, origin: &'a str) -> &'a str {
    crate::interp::builtins::nnmodule::prelude_origin(text).unwrap_or(origin)
}

/// Runs of one call repeated (deep recursion) as the call and how many more times.
fn collapse(calls: &[Frame]) -> Vec<(&Frame, usize)> {
    let same = |a: &Frame, b: &Frame| {
        a.span == b.span
            && a.function == b.function
            && match (&a.source, &b.source) {
                (Some(x), Some(y)) => std::rc::Rc::ptr_eq(x, y),
                (None, None) => true,
                _ => false,
            }
    };
    let mut out: Vec<(&Frame, usize)> = vec![];
    for f in calls {
        match out.last_mut() {
            Some((prev, n)) if same(prev, f) => *n += 1,
            _ => out.push((f, 0)),
        }
    }
    out
}

/// `--> origin:line:col[, in f]`, the line, and a caret under the span.
fn location(src: &str, origin: &str, span: Span, function: Option<&str>, label: &str) -> String {
    // An error at the very end (an unfinished entry) points just past the last character.
    let trimmed = src.trim_end().len();
    let start = span.start.min(trimmed);
    let span = Span::new(start, span.end.max(start));
    let (line, col) = line_col(src, span.start);
    let within = function.map(|f| format!(", in {f}")).unwrap_or_default();
    let mut out = format!("  --> {origin}:{line}:{col}{within}\n");
    let Some(text) = src.lines().nth(line - 1) else {
        return out;
    };
    let chars: Vec<char> = text.chars().collect();
    let start = col - 1;
    let (end_line, end_col) = line_col(src, span.end.min(src.len()));
    let width = if end_line == line {
        (end_col - 1).saturating_sub(start).max(1)
    } else {
        chars.len().saturating_sub(start).max(1)
    };
    // A long line is shown as a window around the error, marked with … at the cuts.
    let (from, to) = if chars.len() > MAX_SHOWN {
        let from = start.saturating_sub(WINDOW_BEFORE);
        (from, (from + MAX_SHOWN).min(chars.len()))
    } else {
        (0, chars.len())
    };
    let lead = if from > 0 { "…" } else { "" };
    let tail = if to < chars.len() { "…" } else { "" };
    let shown: String = chars[from..to].iter().collect();
    let caret_at = start - from + lead.chars().count();
    let width = width.min((to + tail.chars().count()).saturating_sub(start).max(1));
    let gutter = line.to_string();
    let pad = " ".repeat(gutter.len());
    out.push_str(&format!("{gutter} | {lead}{shown}{tail}\n"));
    out.push_str(&format!(
        "{pad} | {}{} {label}\n",
        " ".repeat(caret_at),
        "^".repeat(width)
    ));
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

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::error::{ErrorKind, Traceback};
    use std::rc::Rc;

    crate::unit_tests! {
        fn a_long_line_shows_a_window_around_the_error() {
            let src = format!("{}bad{}", "x".repeat(200_000), "y".repeat(200_000));
            let e = Error::new(ErrorKind::Name, "no").at(Span::new(200_000, 200_003));
            let text = render(&e, &src, "<stdin>");
            assert!(text.len() < 400, "{text}");
            let lines: Vec<&str> = text.lines().collect();
            let code = lines[2].split_once(" | ").unwrap().1;
            let caret = lines[3].split_once(" | ").unwrap().1;
            let at = caret.find('^').unwrap();
            assert_eq!(&code[code.char_indices().nth(at).unwrap().0..][..3], "bad");
            assert!(code.starts_with('…') && code.ends_with('…'), "{code}");
            assert_eq!(caret.matches('^').count(), 3);
        }

        fn calls_into_a_function_are_listed_outermost_first() {
            let body: Rc<str> = Rc::from("fn f(a) {\n    return a @ a\n}");
            let mut e = Error::new(ErrorKind::Shape, "bad").at(Span::new(21, 26));
            e.traceback = Some(Box::new(Traceback {
                source: Some(body.clone()),
                function: Some(Rc::from("f")),
                calls: vec![Frame {
                    span: Span::new(0, 4),
                    source: None,
                    function: None,
                }],
            }));
            let text = render(&e, "f(x)", "<stdin>");
            assert_eq!(
                text,
                "error[shape]: bad\n  --> <stdin>:1:1\n1 | f(x)\n  | ^^^^ called here\n  --> <stdin>:2:12, in f\n2 |     return a @ a\n  |            ^^^^^ here\n"
            );
        }
    }
}
