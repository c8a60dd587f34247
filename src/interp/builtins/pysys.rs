//! Python's `sys` module, the part scripts written for python3 use: their
//! arguments (`sys.argv`), `sys.exit`, the standard streams (`print(...,
//! file=sys.stderr)`, `sys.stdout.write`, `sys.stdout.flush()`), and facts
//! about the interpreter (`version_info`, `platform`, `maxsize`, `path`).

use std::rc::Rc;
use std::sync::OnceLock;

use super::Builtin;
use crate::error::{Error, ErrorKind, Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::{NamedTuple, Value};
use crate::row;

/// The Python whose `sys` facts tsh reports (scripts test `version_info`).
const PYTHON: (i64, i64, i64) = (3, 12, 0);

static ARGV: OnceLock<Vec<String>> = OnceLock::new();

/// The script's name and arguments, as `python3 script.py a b` gives them
/// (`-c` for code given with -c; an empty name at the prompt).
pub fn set_argv(argv: Vec<String>) {
    let _ = ARGV.set(argv);
}

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "sys.exit",
        "sys.exit(code=None)",
        "End the script with exit status `code` (0 when left out; a message is printed and gives status 1).",
        "import sys; callable(sys.exit)",
        exit
    ),
    row!(
        Python,
        "exit",
        "exit(code=None)",
        "End the script or session, as sys.exit does.",
        "callable(exit)",
        exit
    ),
    row!(
        Python,
        "quit",
        "quit(code=None)",
        "End the script or session, as sys.exit does.",
        "callable(quit)",
        exit
    ),
    row!(
        Module,
        "sys.getrecursionlimit",
        "sys.getrecursionlimit()",
        "How deep calls may nest before a recursion error.",
        "import sys; sys.getrecursionlimit() > 0",
        recursion_limit
    ),
    row!(
        Module,
        "sys.setrecursionlimit",
        "sys.setrecursionlimit(limit)",
        "Accepted for Python scripts: tsh's limit on nested calls is fixed (see getrecursionlimit).",
        "import sys; sys.setrecursionlimit(10000)",
        set_recursion_limit
    ),
    row!(
        Module,
        "stdout.write",
        "sys.stdout.write(s)",
        "Print the text `s` as it is (no newline added); returns its length.",
        "import sys; sys.stdout.write(\"hi\\n\")",
        write_stdout
    ),
    row!(
        Module,
        "stdout.flush",
        "sys.stdout.flush()",
        "Accepted for Python scripts: tsh's output is written at once.",
        "import sys; sys.stdout.flush()",
        flush
    ),
    row!(
        Module,
        "stderr.write",
        "sys.stderr.write(s)",
        "Print the text `s` on stderr, where warnings go; returns its length.",
        "import sys; sys.stderr.write(\"\")",
        write_stderr
    ),
    row!(
        Module,
        "stderr.flush",
        "sys.stderr.flush()",
        "Accepted for Python scripts: tsh's output is written at once.",
        "import sys; sys.stderr.flush()",
        flush
    ),
];

/// `sys.NAME` for the names that are values.
pub fn attr(name: &str) -> Option<Value> {
    let (major, minor, micro) = PYTHON;
    Some(match name {
        // Unset (tsh as a library, the notebook kernel): Python's at a prompt.
        "argv" => Value::list(match ARGV.get() {
            Some(a) => a.iter().map(|s| Value::str(s)).collect(),
            None => vec![Value::str("")],
        }),
        "version" => Value::str(&format!(
            "{major}.{minor}.{micro} (tsh {})",
            env!("CARGO_PKG_VERSION")
        )),
        "version_info" => Value::Named(Rc::new(NamedTuple {
            name: "sys.version_info",
            fields: vec![
                ("major", Value::Int(major)),
                ("minor", Value::Int(minor)),
                ("micro", Value::Int(micro)),
                ("releaselevel", Value::str("final")),
                ("serial", Value::Int(0)),
            ],
        })),
        "platform" => Value::str(match std::env::consts::OS {
            "macos" => "darwin",
            "windows" => "win32",
            os => os,
        }),
        "byteorder" => Value::str(if cfg!(target_endian = "little") {
            "little"
        } else {
            "big"
        }),
        "maxsize" => Value::Int(i64::MAX),
        "executable" => Value::str(
            &std::env::current_exe()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        ),
        // Where Python would look for modules: tsh imports only its own, so
        // additions (`sys.path.append(...)`) change nothing.
        "path" => Value::list(vec![Value::str("")]),
        "stdout" => Value::Module("sys.stdout"),
        "stderr" => Value::Module("sys.stderr"),
        _ => return None,
    })
}

fn exit(it: &mut Interp, mut a: Args) -> Result<Value> {
    let code = a.take("code").map(|(v, _)| v);
    a.finish()?;
    let text = match code {
        None | Some(Value::None) => String::new(),
        Some(v) => it.str_text(&v),
    };
    Err(Error::new(ErrorKind::Exit, text))
}

fn recursion_limit(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(crate::interp::MAX_CALL_DEPTH as i64))
}

fn set_recursion_limit(_: &mut Interp, mut a: Args) -> Result<Value> {
    let limit = a.int("limit")?;
    a.finish()?;
    if limit < 1 {
        return Err(value_err("recursion limit must be greater or equal than 1"));
    }
    Ok(Value::None)
}

fn text_arg(a: &mut Args) -> Result<String> {
    let s = match a.take("s") {
        Some((Value::Str(s), _)) => s.to_string(),
        Some((v, span)) => {
            return Err(crate::error::type_err(format!(
                "write() argument must be str, not {}",
                v.type_name()
            ))
            .at(span));
        }
        None => {
            return Err(crate::error::type_err(
                "write() takes exactly one argument (0 given)",
            ));
        }
    };
    Ok(s)
}

fn write_stdout(it: &mut Interp, mut a: Args) -> Result<Value> {
    let s = text_arg(&mut a)?;
    a.finish()?;
    it.out.write_str(&s);
    Ok(Value::Int(s.chars().count() as i64))
}

fn write_stderr(it: &mut Interp, mut a: Args) -> Result<Value> {
    let s = text_arg(&mut a)?;
    a.finish()?;
    // stderr's text goes where warnings go: stderr for a process, the
    // stderr stream in a notebook, in line in a transcript.
    it.out.write_warning(&s);
    Ok(Value::Int(s.chars().count() as i64))
}

fn flush(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::None)
}
