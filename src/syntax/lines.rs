//! A small scan over the source before pest sees it: newlines (and comments)
//! inside `( )`, `[ ]` and dict braces become spaces, as Python joins bracketed
//! lines, and nesting deeper than the parser's stack allows is refused. Byte
//! offsets are kept, so spans still point into the original text. The scan also
//! lists the logical lines, which the indentation pass (indent.rs) reads.

use super::ast::Span;

/// Deepest bracket nesting accepted; deeper input is a syntax error, not a stack overflow.
pub const MAX_NESTING: usize = 100;

pub struct Joined {
    pub text: String,
    /// Brackets still open at the end (for the REPL: keep reading lines).
    pub open: Vec<char>,
    /// The first string literal that is not closed on its own line (or runs off
    /// the end): Python's "unterminated string literal".
    pub unterminated_string: Option<Span>,
    /// Position of the first bracket beyond MAX_NESTING.
    pub too_deep: Option<Span>,
    /// A closing bracket that matches nothing, or the wrong opener.
    pub unmatched: Option<(Span, char)>,
    /// The logical lines, in order.
    pub lines: Vec<Line>,
}

/// One logical line: physical lines joined inside brackets count as one, and a
/// newline inside a triple-quoted string does not end one.
#[derive(Clone, Debug)]
pub struct Line {
    pub start: usize,
    /// Where its indentation ends (its first character that is not a space or tab).
    pub indent_end: usize,
    /// Just past its last character that is code (not a comment or space), if any.
    pub code_end: Option<usize>,
    /// Block braces `{` open when the line starts.
    pub braces: usize,
}

/// What an open bracket is: `{` of a block or of a dict literal.
fn opener_kind(c: u8, prev: &[u8]) -> char {
    match c {
        b'(' => '(',
        b'[' => '[',
        _ if starts_a_block(prev) => '{',
        _ => 'd',
    }
}

/// A `{` opens a block when it follows the end of an expression (`if x {`,
/// `f(a) {`, `else {`); after an operator, `=`, `(`, `,`, `:` or `return` it is
/// a dict literal.
fn starts_a_block(prev: &[u8]) -> bool {
    let text = std::str::from_utf8(prev).unwrap_or("").trim_end();
    let Some(last) = text.chars().last() else {
        return false;
    };
    if !(last.is_alphanumeric() || matches!(last, '_' | ')' | ']' | '"' | '\'')) {
        return false;
    }
    let word: String = text
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    !matches!(
        word.as_str(),
        "return" | "in" | "and" | "or" | "not" | "is" | "lambda" | "yield"
    )
}

pub fn join_bracketed_lines(src: &str) -> Joined {
    let mut out = src.as_bytes().to_vec();
    let bytes = src.as_bytes();
    let mut stack: Vec<char> = Vec::new();
    let mut too_deep = None;
    let mut unmatched = None;
    // An open string: its quote byte, whether it is triple-quoted, where it began.
    let mut quote: Option<(u8, bool, usize)> = None;
    let mut unterminated_string = None;
    let mut lines = vec![];
    let mut line = new_line(bytes, 0, 0);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if let Some((q, triple, start)) = quote {
            // A backslash escapes the next byte; before a newline it continues the string.
            if c == b'\\' {
                i += 2;
                continue;
            }
            if triple {
                if bytes[i..].starts_with(&[q, q, q]) {
                    quote = None;
                    i += 3;
                    line.code_end = Some(i);
                    continue;
                }
            } else {
                if c == b'\n' && unterminated_string.is_none() {
                    unterminated_string = Some(Span::new(start, i));
                }
                if c == q || c == b'\n' {
                    quote = None;
                    line.code_end = Some(i + 1);
                }
            }
            i += 1;
            continue;
        }
        let blank_here = matches!(stack.last(), Some('(') | Some('[') | Some('d'));
        match c {
            b'"' | b'\'' => {
                let triple = bytes[i..].starts_with(&[c, c, c]);
                quote = Some((c, triple, i));
                line.code_end = Some(i + 1);
                if triple {
                    i += 3;
                    continue;
                }
            }
            b'#' => {
                // A comment runs to the end of its line; inside brackets it is blanked,
                // together with the newline, so the expression continues.
                while i < bytes.len() && bytes[i] != b'\n' {
                    if blank_here {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                continue;
            }
            b'\n' if blank_here => out[i] = b' ',
            b'\n' => {
                lines.push(line);
                line = new_line(bytes, i + 1, block_braces(&stack));
            }
            b'(' | b'[' | b'{' => {
                stack.push(opener_kind(c, &bytes[line.start..i]));
                if stack.len() > MAX_NESTING && too_deep.is_none() {
                    too_deep = Some(Span::new(i, i + 1));
                }
            }
            b')' | b']' | b'}' => {
                let want: &[char] = match c {
                    b')' => &['('],
                    b']' => &['['],
                    _ => &['{', 'd'],
                };
                if stack.last().is_some_and(|o| want.contains(o)) {
                    stack.pop();
                } else if unmatched.is_none() {
                    unmatched = Some((Span::new(i, i + 1), c as char));
                }
            }
            _ => {}
        }
        if !c.is_ascii_whitespace() {
            line.code_end = Some(i + 1);
        }
        i += 1;
    }
    lines.push(line);
    // Whole comments and single newlines were replaced by spaces, so the text is still UTF-8.
    let text = String::from_utf8(out).unwrap_or_else(|_| src.to_string());
    let open = stack
        .iter()
        .map(|&o| if o == 'd' { '{' } else { o })
        .collect();
    Joined {
        text,
        open,
        unterminated_string: unterminated_string
            .or_else(|| quote.map(|(_, _, start)| Span::new(start, bytes.len()))),
        too_deep,
        unmatched,
        lines,
    }
}

fn block_braces(stack: &[char]) -> usize {
    stack.iter().filter(|&&c| c == '{').count()
}

fn new_line(bytes: &[u8], start: usize, braces: usize) -> Line {
    let indent = bytes[start..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    Line {
        start,
        indent_end: start + indent,
        code_end: None,
        braces,
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn dict_braces_join_lines_block_braces_do_not() {
            let j = join_bracketed_lines("d = {\n 'a': 1,\n}\nif x {\n y\n}");
            assert_eq!(j.text, "d = {  'a': 1, }\nif x {\n y\n}");
            assert_eq!(j.lines.len(), 4);
            assert_eq!(j.lines[2].braces, 1);
        }

        fn triple_quoted_strings_span_lines() {
            let j = join_bracketed_lines("s = \"\"\"a\nb\"\"\"\nx");
            assert!(j.unterminated_string.is_none());
            assert_eq!(j.lines.len(), 2);
            assert_eq!(j.lines[0].code_end, Some(13));
        }

        fn code_end_skips_comments() {
            let j = join_bracketed_lines("if x:  # yes\n    y");
            assert_eq!(j.lines[0].code_end, Some(5));
            assert_eq!(j.lines[1].indent_end, 17);
        }
    }
}
