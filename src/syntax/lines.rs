//! A small scan over the source before pest sees it: newlines (and comments)
//! inside `( )` and `[ ]` become spaces, as Python joins bracketed lines, and
//! nesting deeper than the parser's stack allows is refused. Byte offsets are
//! kept, so spans still point into the original text.

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
}

pub fn join_bracketed_lines(src: &str) -> Joined {
    let mut out = src.as_bytes().to_vec();
    let bytes = src.as_bytes();
    let mut stack: Vec<char> = Vec::new();
    let mut too_deep = None;
    let mut unmatched = None;
    let mut quote: Option<(u8, usize)> = None;
    let mut unterminated_string = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if let Some((q, start)) = quote {
            // A backslash escapes the next byte; before a newline it continues the string.
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'\n' && unterminated_string.is_none() {
                unterminated_string = Some(Span::new(start, i));
            }
            if c == q || c == b'\n' {
                quote = None;
            }
            i += 1;
            continue;
        }
        let blank_here = matches!(stack.last(), Some('(') | Some('['));
        match c {
            b'"' | b'\'' => quote = Some((c, i)),
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
            b'(' | b'[' | b'{' => {
                stack.push(c as char);
                if stack.len() > MAX_NESTING && too_deep.is_none() {
                    too_deep = Some(Span::new(i, i + 1));
                }
            }
            b')' | b']' | b'}' => {
                let want = match c {
                    b')' => '(',
                    b']' => '[',
                    _ => '{',
                };
                if stack.last() == Some(&want) {
                    stack.pop();
                } else if unmatched.is_none() {
                    unmatched = Some((Span::new(i, i + 1), c as char));
                }
            }
            _ => {}
        }
        i += 1;
    }
    // Whole comments and single newlines were replaced by spaces, so the text is still UTF-8.
    let text = String::from_utf8(out).unwrap_or_else(|_| src.to_string());
    Joined {
        text,
        open: stack,
        unterminated_string: unterminated_string
            .or_else(|| quote.map(|(_, start)| Span::new(start, bytes.len()))),
        too_deep,
        unmatched,
    }
}
