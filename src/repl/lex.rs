//! A forgiving tokenizer for the line being edited: highlighting, completion and
//! hints need to see words, strings and brackets even in unfinished input, which
//! the real parser rejects.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    /// A string literal; unterminated ones run to the end of the line.
    Str,
    Comment,
    /// A `:command` word at the start of a line.
    Command,
    Punct,
    Space,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tok {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

pub const KEYWORDS: &[&str] = &[
    "if", "else", "elif", "while", "for", "in", "fn", "def", "return", "break", "continue",
    "no_grad", "assert", "and", "or", "not", "is", "true", "false", "none", "True", "False",
    "None", "with", "as", "try", "except", "finally", "pass", "lambda", "import", "from", "raise",
    "del", "global", "nonlocal",
];

pub fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

pub fn tokens(src: &str) -> Vec<Tok> {
    let mut out = vec![];
    let chars: Vec<(usize, char)> = src.char_indices().collect();
    let end_of = |i: usize| chars.get(i).map(|c| c.0).unwrap_or(src.len());
    let mut i = 0;
    let mut line_start = true;
    while i < chars.len() {
        let (start, c) = chars[i];
        let mut j = i + 1;
        let kind = if c == '\n' || c.is_whitespace() {
            while j < chars.len() && chars[j].1.is_whitespace() && chars[j].1 != '\n' {
                j += 1;
            }
            Kind::Space
        } else if c == '#' {
            while j < chars.len() && chars[j].1 != '\n' {
                j += 1;
            }
            Kind::Comment
        } else if c == '\'' || c == '"' {
            while j < chars.len() && chars[j].1 != c && chars[j].1 != '\n' {
                if chars[j].1 == '\\' {
                    j += 1;
                }
                j += 1;
            }
            j = (j + 1).min(chars.len());
            Kind::Str
        } else if c == ':' && line_start {
            while j < chars.len() && is_ident_char(chars[j].1) {
                j += 1;
            }
            Kind::Command
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(j).is_some_and(|d| d.1.is_ascii_digit()))
        {
            while j < chars.len() {
                let d = chars[j].1;
                let exp_sign = (d == '-' || d == '+')
                    && matches!(chars[j - 1].1, 'e' | 'E')
                    && chars[..j].iter().rev().take_while(|x| x.1 != '.').count() > 0;
                if d.is_ascii_alphanumeric() || d == '.' || d == '_' || exp_sign {
                    j += 1;
                } else {
                    break;
                }
            }
            Kind::Number
        } else if is_ident_char(c) {
            while j < chars.len() && is_ident_char(chars[j].1) {
                j += 1;
            }
            Kind::Ident
        } else {
            Kind::Punct
        };
        if c == '\n' {
            line_start = true;
        } else if kind != Kind::Space {
            line_start = false;
        }
        out.push(Tok {
            kind,
            start,
            end: end_of(j),
        });
        i = j;
    }
    out
}

/// The innermost call whose `(` is still open at `pos`: the callee's dotted
/// name (`torch.zeros`, `x.sum`) and the text of the argument being typed.
pub fn open_call(src: &str, pos: usize) -> Option<(String, usize)> {
    let toks: Vec<Tok> = tokens(&src[..pos])
        .into_iter()
        .filter(|t| !matches!(t.kind, Kind::Space | Kind::Comment))
        .collect();
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().rev() {
        if t.kind != Kind::Punct {
            continue;
        }
        match &src[t.start..t.end] {
            ")" | "]" | "}" => depth += 1,
            "[" | "{" if depth > 0 => depth -= 1,
            "[" | "{" => return None,
            "(" if depth > 0 => depth -= 1,
            "(" => return Some((dotted_before(src, &toks[..k]), t.end)),
            _ => {}
        }
    }
    None
}

/// The dotted name that ends the token list (`torch.nn.functional.relu`).
fn dotted_before(src: &str, toks: &[Tok]) -> String {
    let mut parts = vec![];
    let mut k = toks.len();
    while k > 0 && toks[k - 1].kind == Kind::Ident {
        parts.push(&src[toks[k - 1].start..toks[k - 1].end]);
        if k >= 2 && &src[toks[k - 2].start..toks[k - 2].end] == "." {
            k -= 2;
        } else {
            break;
        }
    }
    parts.reverse();
    parts.join(".")
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(Kind, &str)> {
        tokens(s)
            .into_iter()
            .filter(|t| t.kind != Kind::Space)
            .map(|t| (t.kind, &s[t.start..t.end]))
            .collect()
    }

    crate::unit_tests! {
        fn words_numbers_strings() {
            assert_eq!(
                kinds("x = 1e-3 + f('a b') # c"),
                vec![
                    (Kind::Ident, "x"),
                    (Kind::Punct, "="),
                    (Kind::Number, "1e-3"),
                    (Kind::Punct, "+"),
                    (Kind::Ident, "f"),
                    (Kind::Punct, "("),
                    (Kind::Str, "'a b'"),
                    (Kind::Punct, ")"),
                    (Kind::Comment, "# c"),
                ]
            );
            assert_eq!(kinds(":time a @ b")[0], (Kind::Command, ":time"));
            assert_eq!(kinds("t[:, 1]")[2], (Kind::Punct, ":"));
            assert_eq!(kinds("'open")[0], (Kind::Str, "'open"));
        }

        fn finds_the_open_call() {
            assert_eq!(
                open_call("torch.zeros(2, dty", 18).map(|c| c.0),
                Some("torch.zeros".to_string())
            );
            assert_eq!(
                open_call("x.sum(f(1), ", 12).map(|c| c.0),
                Some("x.sum".to_string())
            );
            assert_eq!(open_call("f(1) + ", 7), None);
            assert_eq!(open_call("f([1, ", 6), None);
        }
    }
}
