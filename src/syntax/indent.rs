//! Python's block syntax, turned into tsh's braces before pest sees the text: a
//! header's `:` becomes `{` (same length, so offsets stay) and a `}` is inserted
//! where its indented body ends. Insertions shift the text, so the pass returns
//! an offset map that the parser applies to every span (one place: `Offsets::map`).
//! Braced blocks pass through untouched; a file may use either style.

use super::ast::Span;
use super::lines::{Joined, Line};
use crate::error::{Error, ErrorKind, Result};

/// Keywords that start a statement with a block.
const HEADERS: &[&str] = &[
    "if", "elif", "else", "for", "while", "def", "with", "try", "except", "finally", "class",
];

/// Where the rewritten text gained characters, to map its offsets back.
#[derive(Clone, Debug, Default)]
pub struct Offsets {
    /// (position in the new text, characters inserted there, original position
    /// they stand for, characters inserted up to and including this one), in order.
    inserts: Vec<(usize, usize, usize, usize)>,
}

impl Offsets {
    /// The original offset of position `pos` of the rewritten text. A position
    /// just after an inserted `}` is the end of a block (`is_end`) or the start
    /// of the text after it. Every span of a parse is mapped, so this is a
    /// binary search, not a walk over the insertions.
    pub fn map(&self, pos: usize, is_end: bool) -> usize {
        let passed = self
            .inserts
            .partition_point(|&(at, ..)| at < pos || (at == pos && is_end));
        let Some(&(at, len, orig, shift)) = passed.checked_sub(1).map(|i| &self.inserts[i]) else {
            return pos;
        };
        if pos < at + len || (pos == at + len && is_end) {
            return orig;
        }
        pos - shift
    }
}

/// A Python block open at this point of the scan.
struct Level {
    /// The body's indentation.
    indent: String,
    /// The header's indentation (the body's end returns to it or further out).
    outer: String,
    braces: usize,
    /// Just past the last code of the body so far (where its `}` stands for).
    last_code: usize,
}

/// A header whose body starts on the next line.
struct Pending {
    keyword: &'static str,
    line_no: usize,
    indent: String,
    braces: usize,
}

pub struct Indented {
    pub text: String,
    pub offsets: Offsets,
    /// A block header whose body has not started yet, or a block still open: the
    /// REPL reads more lines.
    pub open_block: bool,
    /// A header at the very end with no body yet (an error, unless more lines come).
    pub unfinished: Option<Error>,
}

/// Rewrite Python blocks into braces. Errors are Python's IndentationErrors.
pub fn python_blocks(joined: &Joined) -> Result<Indented> {
    let text = &joined.text;
    // (position, text to insert, original position it stands for); replacements of `:`.
    let mut inserts: Vec<(usize, String, usize)> = vec![];
    let mut colons: Vec<usize> = vec![];
    let mut stack: Vec<Level> = vec![];
    let mut pending: Option<Pending> = None;
    for (line_no, line) in joined.lines.iter().enumerate() {
        let Some(code_end) = line.code_end.filter(|&e| e > line.indent_end) else {
            continue;
        };
        let ws = &text[line.start..line.indent_end];
        if let Some(p) = pending.take() {
            if !(ws.len() > p.indent.len() && ws.starts_with(&p.indent)) {
                return Err(indent_error(
                    format!(
                        "expected an indented block after '{}' statement on line {}",
                        p.keyword,
                        p.line_no + 1
                    ),
                    line,
                ));
            }
            stack.push(Level {
                indent: ws.to_string(),
                outer: p.indent,
                braces: p.braces,
                last_code: code_end,
            });
        } else if stack.last().is_some_and(|l| line.braces > l.braces) {
            // Inside a braced block within a Python block: lines are free-form.
            if let Some(top) = stack.last_mut() {
                top.last_code = code_end;
            }
            continue;
        } else {
            let mut closing = String::new();
            let mut stands_for = 0;
            while let Some(top) = stack.last() {
                if ws == top.indent {
                    break;
                }
                if !top.indent.starts_with(ws) && !ws.starts_with(&top.indent) {
                    return Err(indent_error(
                        "inconsistent use of tabs and spaces in indentation",
                        line,
                    ));
                }
                if ws.len() > top.indent.len() {
                    let message = if closing.is_empty() {
                        "unexpected indent"
                    } else {
                        "unindent does not match any outer indentation level"
                    };
                    return Err(indent_error(message, line));
                }
                let done = stack.pop().expect("checked above");
                if stands_for == 0 {
                    stands_for = done.last_code;
                }
                closing.push('}');
                if let Some(outer) = stack.last_mut() {
                    outer.last_code = done.last_code;
                }
                if stack.is_empty() && ws != done.outer {
                    return Err(indent_error(
                        "unindent does not match any outer indentation level",
                        line,
                    ));
                }
            }
            if !closing.is_empty() {
                inserts.push((line.indent_end, closing, stands_for));
            }
        }
        if let Some(top) = stack.last_mut() {
            top.last_code = code_end;
        }
        let Some(keyword) = header_keyword(&text[line.indent_end..code_end]) else {
            continue;
        };
        let Some(colon) = header_colon(text, line.indent_end + keyword.len(), code_end) else {
            continue;
        };
        colons.push(colon);
        if colon + 1 == code_end {
            pending = Some(Pending {
                keyword,
                line_no,
                indent: ws.to_string(),
                braces: line.braces,
            });
        } else {
            // `if x: y` keeps its body on the line.
            inserts.push((code_end, "}".to_string(), code_end));
        }
    }
    let open_block = pending.is_some() || !stack.is_empty();
    let unfinished = pending.map(|p| {
        let end = text.len();
        Error::new(
            ErrorKind::Syntax,
            format!(
                "expected an indented block after '{}' statement on line {}",
                p.keyword,
                p.line_no + 1
            ),
        )
        .at(Span::new(end, end))
    });
    if !stack.is_empty() {
        let last_code = stack.iter().map(|l| l.last_code).max().unwrap_or(0);
        inserts.push((text.len(), "}".repeat(stack.len()), last_code));
    }
    let mut out = rewrite(text, &colons, inserts, open_block);
    out.unfinished = unfinished;
    Ok(out)
}

fn rewrite(
    text: &str,
    colons: &[usize],
    mut inserts: Vec<(usize, String, usize)>,
    open_block: bool,
) -> Indented {
    let mut bytes = text.as_bytes().to_vec();
    for &c in colons {
        bytes[c] = b'{';
    }
    inserts.sort_by_key(|i| i.0);
    let mut out = Vec::with_capacity(bytes.len() + inserts.len());
    let mut offsets = Offsets::default();
    let mut from = 0;
    for (at, s, orig) in inserts {
        out.extend_from_slice(&bytes[from..at]);
        let shift = offsets.inserts.last().map_or(0, |l| l.3) + s.len();
        offsets.inserts.push((out.len(), s.len(), orig, shift));
        out.extend_from_slice(s.as_bytes());
        from = at;
    }
    out.extend_from_slice(&bytes[from..]);
    Indented {
        // Only ASCII bytes were replaced or inserted.
        text: String::from_utf8(out).unwrap_or_else(|_| text.to_string()),
        offsets,
        open_block,
        unfinished: None,
    }
}

fn indent_error(message: impl Into<String>, line: &Line) -> Error {
    Error::new(ErrorKind::Syntax, message)
        .at(Span::new(line.start, line.indent_end.max(line.start + 1)))
}

/// The block keyword a line starts with, if any.
fn header_keyword(code: &str) -> Option<&'static str> {
    HEADERS.iter().copied().find(|k| {
        code.strip_prefix(k)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// The header's own `:`: the first one outside brackets, strings and lambdas.
fn header_colon(text: &str, from: usize, to: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    let mut lambdas = 0;
    let mut i = from;
    while i < to {
        let c = bytes[i];
        match c {
            b'"' | b'\'' => {
                i = string_end(bytes, i, to);
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b':' if depth == 0 && bytes.get(i + 1) != Some(&b'=') => {
                if lambdas == 0 {
                    return Some(i);
                }
                lambdas -= 1;
            }
            b'l' if depth == 0 && is_word(bytes, i, b"lambda") => lambdas += 1,
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_word(bytes: &[u8], i: usize, word: &[u8]) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    bytes[i..].starts_with(word)
        && (i == 0 || !ident(bytes[i - 1]))
        && bytes.get(i + word.len()).is_none_or(|&b| !ident(b))
}

/// Just past the string literal that starts at `i`.
fn string_end(bytes: &[u8], i: usize, to: usize) -> usize {
    let q = bytes[i];
    let triple = bytes[i..].starts_with(&[q, q, q]);
    let mut j = if triple { i + 3 } else { i + 1 };
    while j < to {
        if bytes[j] == b'\\' {
            j += 2;
            continue;
        }
        if triple && bytes[j..].starts_with(&[q, q, q]) {
            return j + 3;
        }
        if !triple && bytes[j] == q {
            return j + 1;
        }
        j += 1;
    }
    to
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::syntax::lines::join_bracketed_lines;

    fn braces(src: &str) -> String {
        match python_blocks(&join_bracketed_lines(src)) {
            Ok(Indented {
                unfinished: Some(e),
                ..
            })
            | Err(e) => format!("error: {}", e.message),
            Ok(i) => i.text,
        }
    }

    crate::unit_tests! {
        fn headers_become_braces() {
            assert_eq!(
                braces("if x:\n    a\nelse:\n    b\nc"),
                "if x{\n    a\n}else{\n    b\n}c"
            );
            assert_eq!(
                braces("for i in r:\n  if i:\n    a\nb"),
                "for i in r{\n  if i{\n    a\n}}b"
            );
            assert_eq!(braces("if x: a\nb"), "if x{ a}\nb");
            assert_eq!(braces("while x:\n    a  # c\n"), "while x{\n    a  # c\n}");
        }

        fn braced_code_is_untouched() {
            let src = "if x {\n      a\n  b\n}\nd = {'a': 1}";
            assert_eq!(braces(src), src);
        }

        fn indentation_errors() {
            assert_eq!(
                braces("if x:\nb"),
                "error: expected an indented block after 'if' statement on line 1"
            );
            assert_eq!(braces("if x:\n    a\n      b"), "error: unexpected indent");
            assert_eq!(
                braces("if x:\n    a\n  b"),
                "error: unindent does not match any outer indentation level"
            );
            assert_eq!(
                braces("if x:\n    a\n\tb"),
                "error: inconsistent use of tabs and spaces in indentation"
            );
        }

        fn offsets_map_back() {
            let j = join_bracketed_lines("if x:\n    a\nb");
            let i = python_blocks(&j).unwrap();
            assert_eq!(i.text, "if x{\n    a\n}b");
            // `}` stands for the end of `a`; `b` moves back by one.
            assert_eq!(i.offsets.map(13, true), 11);
            assert_eq!(i.offsets.map(13, false), 12);
            assert_eq!(i.offsets.map(3, false), 3);
        }

        /// Every character the rewrite kept maps back to itself in the source.
        fn offsets_map_every_kept_character_back() {
            let src = "for i in r:\n    if i:\n        a\n    b\nif c: d\nwhile e:\n  f\ng";
            let i = python_blocks(&join_bracketed_lines(src)).unwrap();
            let (new, old) = (i.text.as_bytes(), src.as_bytes());
            let mut kept = 0;
            for (p, &c) in new.iter().enumerate() {
                let o = i.offsets.map(p, false);
                if c != b'}' && c != b'{' {
                    assert_eq!(c, old[o], "position {p} of {:?}", i.text);
                    kept += 1;
                }
            }
            assert_eq!(kept, src.len() - src.matches(':').count());
        }

        fn lambdas_and_slices_keep_their_colons() {
            assert_eq!(braces("if f(lambda: 1):\n  a"), "if f(lambda: 1){\n  a}");
            assert_eq!(braces("if (lambda x: x)(1): a"), "if (lambda x: x)(1){ a}");
            assert_eq!(braces("for x in y[1:]:\n a"), "for x in y[1:]{\n a}");
        }
    }
}
