//! Completion, inspection and is-complete: the REPL's own answers, with
//! Jupyter's cursor positions (Unicode code points into the whole cell).

use serde_json::{Value, json};

use tsh::interp::{Buffer, Interp, Value as TshValue};
use tsh::repl::complete::{self, Completion};
use tsh::repl::lex::is_ident_char;

use super::shell::Kernel;

/// The byte offset of code point `cp` (the end if past it).
fn byte_at(s: &str, cp: usize) -> usize {
    s.char_indices().nth(cp).map_or(s.len(), |(i, _)| i)
}

fn code_points(s: &str, byte: usize) -> usize {
    s[..byte].chars().count()
}

/// The cell's code and the cursor as a byte offset (the end when not given).
fn code_and_cursor(content: &Value) -> (&str, usize) {
    let code = content["code"].as_str().unwrap_or("");
    let cursor = content["cursor_pos"]
        .as_u64()
        .map_or(code.len(), |cp| byte_at(code, cp as usize));
    (code, cursor)
}

pub fn complete(k: &Kernel, content: &Value) -> Value {
    let (code, cursor) = code_and_cursor(content);
    let line_start = code[..cursor].rfind('\n').map_or(0, |i| i + 1);
    let line_end = code[cursor..].find('\n').map_or(code.len(), |i| cursor + i);
    let line = &code[line_start..line_end];
    let pos = cursor - line_start;
    let (start, matches) = match complete::complete(line, pos, &k.interp.globals) {
        Completion::Words { start, words } => (line_start + start, words),
        Completion::Path => {
            let (start, words) = paths(&line[..pos]);
            (line_start + start, words)
        }
        Completion::None => (cursor, vec![]),
    };
    json!({
        "status": "ok",
        "matches": matches,
        "cursor_start": code_points(code, start),
        "cursor_end": code_points(code, cursor),
        "metadata": {},
    })
}

/// File names that complete the path ending `before` (after a quote or
/// `:load `): where the path starts, and each whole path.
fn paths(before: &str) -> (usize, Vec<String>) {
    let start = before
        .rfind(|c: char| c == '"' || c == '\'' || c.is_whitespace())
        .map_or(0, |i| {
            i + before[i..].chars().next().map_or(1, char::len_utf8)
        });
    let typed = &before[start..];
    let (dir, file) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let Ok(entries) = std::fs::read_dir(if dir.is_empty() { "." } else { dir }) else {
        return (start, vec![]);
    };
    let mut words: Vec<String> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let hidden = name.starts_with('.') && !file.starts_with('.');
            if hidden || !name.starts_with(file) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(format!("{dir}{name}{slash}"))
        })
        .collect();
    words.sort();
    (start, words)
}

pub fn inspect(k: &mut Kernel, content: &Value) -> Value {
    let (code, cursor) = code_and_cursor(content);
    let name = name_at(code, cursor);
    match describe(&mut k.interp, name) {
        Some(text) => {
            json!({"status": "ok", "found": true, "data": {"text/plain": text}, "metadata": {}})
        }
        None => json!({"status": "ok", "found": false, "data": {}, "metadata": {}}),
    }
}

/// The dotted name (`torch.zeros`, `t.sum`, `:time`) around the cursor.
fn name_at(code: &str, cursor: usize) -> &str {
    let word = |c: char| is_ident_char(c) || c == '.';
    let start = code[..cursor]
        .char_indices()
        .rev()
        .take_while(|(_, c)| word(*c))
        .last()
        .map_or(cursor, |(i, _)| i);
    let end = code[cursor..]
        .char_indices()
        .find(|(_, c)| !is_ident_char(*c))
        .map_or(code.len(), |(i, _)| cursor + i);
    // A command keeps its colon, so that `:time` finds the command.
    let start = match code[..start].strip_suffix(':') {
        Some(before) if before.rsplit('\n').next().unwrap_or("").trim().is_empty() => start - 1,
        _ => start,
    };
    code[start..end].trim_matches('.')
}

/// `:help`'s text for what `name` means now: a builtin or method by its own
/// name, a variable by its type and value, else whatever `:help NAME` knows.
fn describe(interp: &mut Interp, name: &str) -> Option<String> {
    if name.is_empty() {
        return None;
    }
    match complete::resolve(name, &interp.globals) {
        Some(TshValue::Builtin(b)) => help(interp, b.name),
        Some(TshValue::Method(m)) => help(interp, m.1.name),
        Some(TshValue::None) | None => help(interp, name),
        Some(v) => {
            let mut text = format!("{name}: {}\n", v.type_name());
            if let Some(sig) = complete::signature(&v) {
                text.push_str(&format!("signature: {sig}\n"));
            }
            text.push_str(&interp.repr_text(&v));
            text.push('\n');
            Some(text)
        }
    }
}

/// What `:help NAME` prints, or None when it knows no such name.
fn help(interp: &mut Interp, name: &str) -> Option<String> {
    let buf = Buffer::default();
    let saved = std::mem::replace(&mut interp.out, Box::new(buf.clone()));
    let result = tsh::repl::commands::dispatch(interp, &format!(":help {name}"));
    interp.out = saved;
    result.ok().map(|_| buf.take()).filter(|t| !t.is_empty())
}

/// complete, incomplete (with the indent for the next line) or invalid, by the
/// REPL's rules: open brackets and braces continue, and so does a Python block
/// until a blank line.
pub fn is_complete(content: &Value) -> Value {
    let code = content["code"].as_str().unwrap_or("");
    let answer = |status: &str| json!({"status": status});
    let incomplete = |indent: String| json!({"status": "incomplete", "indent": indent});
    if code.trim().is_empty() || code.lines().any(|l| l.trim_start().starts_with(':')) {
        return answer("complete");
    }
    let last = code
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let indent = &last[..last.len() - last.trim_start().len()];
    let joined = tsh::syntax::lines::join_bracketed_lines(code);
    if joined.unterminated_string.is_some()
        || joined.unmatched.is_some()
        || joined.too_deep.is_some()
    {
        return answer("invalid");
    }
    if !joined.open.is_empty() {
        let deeper = last.trim_end().ends_with(['{', ':']);
        return incomplete(format!("{indent}{}", if deeper { "    " } else { "" }));
    }
    let lines: Vec<&str> = code.split('\n').collect();
    let ends_blank =
        lines.len() >= 2 && lines[lines.len() - 2..].iter().all(|l| l.trim().is_empty());
    if tsh::syntax::python_block_open(code) && !ends_blank {
        let deeper = last.trim_end().ends_with(':');
        return incomplete(format!("{indent}{}", if deeper { "    " } else { "" }));
    }
    match tsh::syntax::parse_program(code) {
        Ok(_) => answer("complete"),
        Err(_) => answer("invalid"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(code: &str) -> (String, Option<String>) {
        let v = is_complete(&json!({ "code": code }));
        (
            v["status"].as_str().unwrap().to_string(),
            v["indent"].as_str().map(String::from),
        )
    }

    #[test]
    fn blocks_and_brackets_continue() {
        assert_eq!(status("x = 1").0, "complete");
        assert_eq!(
            status("for i in range(3):"),
            ("incomplete".into(), Some("    ".into()))
        );
        assert_eq!(
            status("for i in range(3):\n    x = i"),
            ("incomplete".into(), Some("    ".into()))
        );
        assert_eq!(status("for i in range(3):\n    x = i\n\n").0, "complete");
        assert_eq!(status("x = [1,").0, "incomplete");
        assert_eq!(
            status("for i in range(3) {"),
            ("incomplete".into(), Some("    ".into()))
        );
        assert_eq!(status("x = )").0, "invalid");
        assert_eq!(status(":help zeros").0, "complete");
    }

    #[test]
    fn names_at_the_cursor() {
        assert_eq!(name_at("y = torch.zeros(2)", 12), "torch.zeros");
        assert_eq!(name_at("t.sum()", 3), "t.sum");
        assert_eq!(name_at(":time x", 2), ":time");
        assert_eq!(name_at("é + zeros", 7), "zeros");
    }

    #[test]
    fn cursor_positions_are_code_points() {
        assert_eq!(byte_at("éa", 1), 2);
        assert_eq!(code_points("éa", 2), 1);
        assert_eq!(byte_at("a", 5), 1);
    }
}
