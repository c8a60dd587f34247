//! Tab completion and signature hints, as pure functions of the line, the
//! cursor and the session's variables (the rustyline helper only adapts them).

use super::commands::COMMANDS;
use super::lex::{self, Kind};
use crate::interp::Value;
use crate::interp::builtins;

pub type Vars = crate::interp::value::Vars;

#[derive(Debug, PartialEq, Eq)]
pub enum Completion {
    /// Replace `line[start..pos]` with one of these words.
    Words {
        start: usize,
        words: Vec<String>,
    },
    /// Complete a file path here (after `:load`, or inside a string).
    Path,
    None,
}

/// Commands whose argument is a file.
const PATH_COMMANDS: &[&str] = &[":load", ":save"];
/// Commands whose argument is an expression or statement.
const CODE_COMMANDS: &[&str] = &[":time", ":explain", ":graph", ":trace"];

pub fn complete(line: &str, pos: usize, vars: &Vars) -> Completion {
    let before = &line[..pos];
    let lead = before.len() - before.trim_start().len();
    if before.trim_start().starts_with(':') {
        let cmd_end = before[lead..]
            .find(char::is_whitespace)
            .map(|i| lead + i)
            .unwrap_or(before.len());
        let cmd = &before[lead..cmd_end];
        if cmd_end == before.len() {
            let words = COMMANDS
                .iter()
                .map(|c| format!(":{}", c.name))
                .filter(|n| n.starts_with(cmd))
                .collect();
            return Completion::Words { start: lead, words };
        }
        if PATH_COMMANDS.contains(&cmd) {
            return Completion::Path;
        }
        if cmd == ":help" {
            let start = word_start(before);
            let prefix = &before[start..];
            let mut words: Vec<String> = builtins::all()
                .map(|b| b.name.to_string())
                .chain(COMMANDS.iter().map(|c| c.name.to_string()))
                .filter(|n| n.starts_with(prefix))
                .collect();
            words.sort();
            words.dedup();
            return Completion::Words { start, words };
        }
        if !CODE_COMMANDS.contains(&cmd) {
            return Completion::None;
        }
    }
    if in_string(before) {
        return Completion::Path;
    }
    code(before, vars)
}

fn in_string(before: &str) -> bool {
    lex::tokens(before).last().is_some_and(|t| {
        t.kind == Kind::Str && {
            let s = &before[t.start..t.end];
            s.len() == 1 || !s.ends_with(&s[..1])
        }
    })
}

/// Start of the identifier that ends `before`.
fn word_start(before: &str) -> usize {
    before
        .char_indices()
        .rev()
        .take_while(|(_, c)| lex::is_ident_char(*c))
        .last()
        .map(|(i, _)| i)
        .unwrap_or(before.len())
}

fn code(before: &str, vars: &Vars) -> Completion {
    let start = word_start(before);
    let prefix = &before[start..];
    if prefix.starts_with(|c: char| c.is_ascii_digit()) {
        return Completion::None;
    }
    // `obj.pre`: the attributes of what `obj` names.
    if before[..start].ends_with('.') {
        let obj_end = start - 1;
        let obj_start = dotted_start(&before[..obj_end]);
        let path = &before[obj_start..obj_end];
        let Some(v) = resolve(path, vars) else {
            return Completion::None;
        };
        let words = builtins::attr_names(&v)
            .into_iter()
            .filter(|n| n.starts_with(prefix))
            .collect();
        return Completion::Words { start, words };
    }
    let mut words: Vec<String> = vec![];
    // Inside a call: its keyword arguments first.
    if let Some((callee, _)) = lex::open_call(before, start) {
        let after_sep = before[..start].trim_end().ends_with(['(', ',']);
        if after_sep && let Some(f) = resolve(&callee, vars) {
            words.extend(
                keyword_names(&f)
                    .into_iter()
                    .map(|k| format!("{k}="))
                    .filter(|k| k.starts_with(prefix)),
            );
        }
    }
    if prefix.is_empty() {
        return Completion::Words { start, words };
    }
    let mut names: Vec<String> = vars
        .keys()
        .map(|k| k.to_string())
        .chain(builtins::global_names().map(String::from))
        .chain(builtins::MODULES.iter().map(|(n, _)| n.to_string()))
        .chain(lex::KEYWORDS.iter().map(|k| k.to_string()))
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    names.dedup();
    words.extend(names);
    Completion::Words { start, words }
}

/// Start of the dotted name (`torch.nn`) that ends `s`.
fn dotted_start(s: &str) -> usize {
    s.char_indices()
        .rev()
        .take_while(|(_, c)| lex::is_ident_char(*c) || *c == '.')
        .last()
        .map(|(i, _)| i)
        .unwrap_or(s.len())
}

/// What a dotted name means now: a variable or global, then module members,
/// then attributes that need no evaluation (methods of a variable's value).
pub fn resolve(path: &str, vars: &Vars) -> Option<Value> {
    let mut parts = path.split('.');
    let first = parts.next()?;
    let mut v = vars
        .get(first)
        .cloned()
        .or_else(|| builtins::global(first))?;
    for p in parts {
        v = match &v {
            Value::Module(m) => builtins::module_attr(m, p)?,
            Value::Tensor(_) => Value::Builtin(builtins::method(p)?),
            Value::Optimizer(_) => {
                let b = builtins::attr_names(&v).contains(&p.to_string());
                if !b {
                    return None;
                }
                return Some(Value::None);
            }
            _ => return None,
        };
    }
    Some(v)
}

/// The signature text of a callable, for hints and `:help`.
pub fn signature(f: &Value) -> Option<String> {
    match f {
        Value::Builtin(b) => Some(b.sig.to_string()),
        Value::Method(m) => Some(m.1.sig.to_string()),
        Value::Function(def) => {
            let params: Vec<String> = def
                .params
                .iter()
                .map(|p| match &p.default {
                    Some(_) => format!("{}=…", p.name),
                    None => p.name.to_string(),
                })
                .collect();
            Some(format!("{}({})", def.name, params.join(", ")))
        }
        _ => None,
    }
}

/// Parameters that can be given by name: those with defaults in the signature.
pub fn keyword_names(f: &Value) -> Vec<String> {
    if let Value::Function(def) = f {
        return def.params.iter().map(|p| p.name.to_string()).collect();
    }
    let Some(sig) = signature(f) else {
        return vec![];
    };
    let inner = match (sig.find('('), sig.rfind(')')) {
        (Some(a), Some(b)) if a < b => &sig[a + 1..b],
        _ => return vec![],
    };
    inner
        .split(',')
        .filter_map(|p| p.trim().split_once('=').map(|(n, _)| n.trim()))
        .filter(|n| !n.starts_with('*') && !n.is_empty() && n.chars().all(lex::is_ident_char))
        .map(String::from)
        .collect()
}

/// The hint shown after the cursor while a call is open: its signature.
pub fn hint(line: &str, pos: usize, vars: &Vars) -> Option<String> {
    if pos < line.len() || line.trim_start().starts_with(':') && !line.contains('(') {
        return None;
    }
    let (callee, _) = lex::open_call(line, pos)?;
    let f = resolve(&callee, vars)?;
    signature(&f).map(|s| format!("  ← {s}"))
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn words(line: &str, vars: &Vars) -> Vec<String> {
        match complete(line, line.len(), vars) {
            Completion::Words { words, .. } => words,
            other => panic!("expected words for {line:?}, got {other:?}"),
        }
    }

    fn session() -> Vars {
        let mut v = Vars::default();
        let t = crate::tensor::ops::creation::zeros(&[2, 2], crate::tensor::DType::F32).unwrap();
        v.insert("weights".into(), Value::Tensor(t));
        v.insert("n".into(), Value::Int(3));
        v
    }

    crate::unit_tests! {
        fn variables_builtins_and_keywords() {
            let v = session();
            assert!(words("wei", &v).contains(&"weights".to_string()));
            assert!(words("zer", &v).contains(&"zeros".to_string()));
            assert!(words("zer", &v).contains(&"zeros_like".to_string()));
            assert!(words("whi", &v).contains(&"while".to_string()));
        }

        fn methods_and_attributes_of_a_variable() {
            let v = session();
            let w = words("weights.res", &v);
            assert!(w.contains(&"reshape".to_string()), "{w:?}");
            assert!(words("weights.sh", &v).contains(&"shape".to_string()));
            assert!(words("torch.ma", &v).contains(&"matmul".to_string()));
            assert!(words("torch.nn.functional.rel", &v).contains(&"relu".to_string()));
            assert!(words("F.cross", &v).contains(&"cross_entropy".to_string()));
            assert_eq!(
                complete("n.x", 3, &v),
                Completion::Words {
                    start: 2,
                    words: vec![]
                }
            );
        }

        fn keyword_arguments_commands_and_paths() {
            let v = session();
            let w = words("zeros(2, 3, dt", &v);
            assert_eq!(w.first().map(String::as_str), Some("dtype="));
            assert!(words("weights.sum(dim=0, kee", &v).contains(&"keepdim=".to_string()));
            assert!(words(":ti", &v).contains(&":time".to_string()));
            assert_eq!(complete(":load scr", 9, &v), Completion::Path);
            assert_eq!(complete("load(\"da", 8, &v), Completion::Path);
            assert!(words(":time weights.su", &v).contains(&"sum".to_string()));
            assert!(words(":help cross", &v).contains(&"cross_entropy".to_string()));
        }

        fn hints_show_the_signature_of_the_open_call() {
            let v = session();
            let h = hint("torch.zeros(2, ", 15, &v).unwrap();
            assert!(h.contains("zeros(") && h.contains("dtype"), "{h}");
            assert!(hint("weights.sum(", 12, &v).unwrap().contains("sum("));
            assert_eq!(hint("1 + 2", 5, &v), None);
        }
    }
}
