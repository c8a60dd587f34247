//! Syntax colours for the line being edited. The coloured text has exactly the
//! characters of the input (rustyline lays out the line from the plain text).

use super::lex::{self, Kind};
use crate::interp::builtins;

const KEYWORD: &str = "\x1b[35m";
const BUILTIN: &str = "\x1b[34m";
const NUMBER: &str = "\x1b[33m";
const STRING: &str = "\x1b[32m";
const COMMENT: &str = "\x1b[2m";
const COMMAND: &str = "\x1b[1;36m";
const BAD: &str = "\x1b[1;31m";
const RESET: &str = "\x1b[0m";

fn colour_of(src: &str, t: &lex::Tok, unmatched: &[usize]) -> Option<&'static str> {
    let text = &src[t.start..t.end];
    match t.kind {
        Kind::Number => Some(NUMBER),
        Kind::Str => Some(STRING),
        Kind::Comment => Some(COMMENT),
        Kind::Command => Some(COMMAND),
        Kind::Ident if lex::KEYWORDS.contains(&text) => Some(KEYWORD),
        Kind::Ident if builtins::global(text).is_some() => Some(BUILTIN),
        Kind::Punct if unmatched.contains(&t.start) => Some(BAD),
        _ => None,
    }
}

/// Byte offsets of closing brackets that close nothing (or the wrong thing).
fn unmatched_closers(src: &str, toks: &[lex::Tok]) -> Vec<usize> {
    let mut stack = vec![];
    let mut bad = vec![];
    for t in toks.iter().filter(|t| t.kind == Kind::Punct) {
        match &src[t.start..t.end] {
            c @ ("(" | "[" | "{") => stack.push(c),
            c @ (")" | "]" | "}") => {
                let want = match c {
                    ")" => "(",
                    "]" => "[",
                    _ => "{",
                };
                if stack.last() == Some(&want) {
                    stack.pop();
                } else {
                    bad.push(t.start);
                }
            }
            _ => {}
        }
    }
    bad
}

pub fn highlight(src: &str) -> String {
    let toks = lex::tokens(src);
    let bad = unmatched_closers(src, &toks);
    let mut out = String::with_capacity(src.len() * 2);
    for t in &toks {
        let text = &src[t.start..t.end];
        match colour_of(src, t, &bad) {
            Some(c) => {
                out.push_str(c);
                out.push_str(text);
                out.push_str(RESET);
            }
            None => out.push_str(text),
        }
    }
    out
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn same_text_with_colours() {
            for src in [
                "x = zeros(2, 3) # hi",
                "for i in range(3) { print('a') }",
                ")",
                "é + 1",
            ] {
                assert_eq!(crate::print::strip_ansi(&highlight(src)), src);
            }
            assert!(highlight("zeros(2)").starts_with(BUILTIN));
            assert!(highlight("1 )").contains(&format!("{BAD})")));
            assert!(highlight("if x {").starts_with(KEYWORD));
        }
    }
}
