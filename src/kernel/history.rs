//! `history_request`: the cells this session ran (tail, range and search).

use serde_json::{Value, json};

use super::shell::Kernel;

/// The one session a kernel knows is this one; clients ask for it as 0 or by number.
const SESSION: u64 = 1;

pub fn history(k: &Kernel, content: &Value) -> Value {
    let n = content["n"].as_u64().map(|n| n as usize);
    let entries: Vec<&(u64, String)> = match content["hist_access_type"].as_str() {
        Some("range") => {
            let start = content["start"].as_u64().unwrap_or(0);
            let stop = content["stop"].as_u64().unwrap_or(u64::MAX);
            let session = content["session"].as_i64().unwrap_or(0);
            k.history
                .iter()
                .filter(|(i, _)| {
                    (session == 0 || session == SESSION as i64) && *i >= start && *i < stop
                })
                .collect()
        }
        Some("search") => {
            let pattern = content["pattern"].as_str().unwrap_or("*");
            let mut found: Vec<&(u64, String)> = k
                .history
                .iter()
                .filter(|(_, code)| glob(pattern, code))
                .collect();
            if content["unique"].as_bool().unwrap_or(false) {
                let mut seen = std::collections::HashSet::new();
                found.reverse();
                found.retain(|(_, code)| seen.insert(code.as_str()));
                found.reverse();
            }
            last(found, n)
        }
        // "tail" and anything unknown.
        _ => last(k.history.iter().collect(), n),
    };
    let with_output = content["output"].as_bool().unwrap_or(false);
    let rows: Vec<Value> = entries
        .into_iter()
        .map(|(i, code)| {
            if with_output {
                json!([SESSION, i, [code, null]])
            } else {
                json!([SESSION, i, code])
            }
        })
        .collect();
    json!({"status": "ok", "history": rows})
}

fn last<T>(mut v: Vec<T>, n: Option<usize>) -> Vec<T> {
    if let Some(n) = n
        && v.len() > n
    {
        v.drain(..v.len() - n);
    }
    v
}

/// A glob as history search uses it: `*` any run of characters, `?` one.
fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // The classic two-pointer match with backtracking to the last star.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::glob;

    #[test]
    fn globs() {
        assert!(glob("*zeros*", "x = zeros(2)"));
        assert!(glob("x?1", "x=1"));
        assert!(!glob("x*", "y = 1"));
        assert!(glob("*", ""));
    }
}
