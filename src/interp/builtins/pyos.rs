//! Python's `os` and `os.path` modules, the part benchmark and training
//! scripts use around their work: the environment (`os.environ`, thread
//! counts such as OMP_NUM_THREADS), the CPU count, and file paths for
//! checkpoints and data.

use std::path::Path;

use super::Builtin;
use crate::error::{Error, ErrorKind, Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "os.getenv",
        "os.getenv(key, default=None)",
        "An environment variable's value, or `default` where it is not set.",
        "import os; os.getenv('TSH_NO_SUCH_VARIABLE', 'unset')",
        getenv
    ),
    row!(
        Module,
        "os.cpu_count",
        "os.cpu_count()",
        "How many logical CPUs this machine has.",
        "import os; os.cpu_count() >= 1",
        cpu_count
    ),
    row!(
        Module,
        "os.getpid",
        "os.getpid()",
        "This process's id.",
        "import os; os.getpid() > 0",
        getpid
    ),
    row!(
        Module,
        "os.getcwd",
        "os.getcwd()",
        "The current working directory.",
        "import os; len(os.getcwd()) > 0",
        getcwd
    ),
    row!(
        Module,
        "os.listdir",
        "os.listdir(path='.')",
        "The names in a directory, sorted.",
        "import os; isinstance(os.listdir('.'), list)",
        listdir
    ),
    row!(
        Module,
        "os.makedirs",
        "os.makedirs(name, exist_ok=False)",
        "Make a directory and any missing parents.",
        "import os; os.makedirs('.', exist_ok=True)",
        makedirs
    ),
    row!(
        Module,
        "os.remove",
        "os.remove(path)",
        "Delete a file.",
        "import os; callable(os.remove)",
        remove
    ),
    row!(
        Module,
        "path.join",
        "os.path.join(a, *parts)",
        "Paths joined with '/' (a part that starts with '/' starts again).",
        "import os; os.path.join('runs', 'exp1', 'model.pt')",
        join
    ),
    row!(
        Module,
        "path.exists",
        "os.path.exists(path)",
        "Does the file or directory exist?",
        "import os; os.path.exists('/')",
        exists
    ),
    row!(
        Module,
        "path.isfile",
        "os.path.isfile(path)",
        "Is it an existing file?",
        "import os; os.path.isfile('/')",
        isfile
    ),
    row!(
        Module,
        "path.isdir",
        "os.path.isdir(path)",
        "Is it an existing directory?",
        "import os; os.path.isdir('/')",
        isdir
    ),
    row!(
        Module,
        "path.basename",
        "os.path.basename(path)",
        "The last part of a path (after the last '/').",
        "import os; os.path.basename('runs/exp1/model.pt')",
        basename
    ),
    row!(
        Module,
        "path.dirname",
        "os.path.dirname(path)",
        "A path without its last part.",
        "import os; os.path.dirname('runs/exp1/model.pt')",
        dirname
    ),
    row!(
        Module,
        "path.splitext",
        "os.path.splitext(path)",
        "(root, extension): the extension from the last '.' of the last part.",
        "import os; os.path.splitext('runs/model.pt')",
        splitext
    ),
    row!(
        Module,
        "path.abspath",
        "os.path.abspath(path)",
        "The path made absolute from the working directory.",
        "import os; os.path.abspath('/tmp/../tmp')",
        abspath
    ),
    row!(
        Module,
        "path.expanduser",
        "os.path.expanduser(path)",
        "A leading '~' replaced by the home directory.",
        "import os; os.path.expanduser('/tmp/x')",
        expanduser
    ),
];

thread_local! {
    // One dict for the whole session, read from the environment on first use,
    // so that what a script sets in it stays there.
    static ENVIRON: Value = Value::dict(
        std::env::vars().map(|(k, v)| (k.into(), Value::str(&v))).collect(),
    );
}

/// `os.NAME` for the module's values (not functions).
pub fn attr(name: &str) -> Option<Value> {
    Some(match name {
        "environ" => ENVIRON.with(|e| e.clone()),
        "path" => Value::Module("os.path"),
        "sep" => Value::str("/"),
        "linesep" => Value::str("\n"),
        "name" => Value::str("posix"),
        "curdir" => Value::str("."),
        "pardir" => Value::str(".."),
        _ => return None,
    })
}

fn os_error(what: &str, path: &str, e: std::io::Error) -> Error {
    Error::new(ErrorKind::Io, format!("{what} '{path}': {e}"))
}

fn getenv(_: &mut Interp, mut a: Args) -> Result<Value> {
    let key = a.string("key")?;
    let default = a.take("default").map_or(Value::None, |(v, _)| v);
    a.finish()?;
    let environ = ENVIRON.with(|e| e.clone());
    let Value::Dict(d) = environ else {
        return Ok(default);
    };
    let found = d
        .borrow()
        .iter()
        .find(|(k, _)| matches!(k, Value::Str(s) if s.as_ref() == key))
        .map(|(_, v)| v.clone());
    Ok(found.unwrap_or(default))
}

fn cpu_count(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let n = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(Value::Int(n as i64))
}

fn getpid(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(i64::from(std::process::id())))
}

fn getcwd(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let dir = std::env::current_dir().map_err(|e| os_error("cannot read", ".", e))?;
    Ok(Value::str(&dir.display().to_string()))
}

fn listdir(_: &mut Interp, mut a: Args) -> Result<Value> {
    let path = match a.take("path") {
        Some((Value::Str(s), _)) => s.to_string(),
        Some((other, span)) => {
            return Err(type_err(format!(
                "listdir: path should be a string, not {}",
                other.a_type_name()
            ))
            .at(span));
        }
        None => ".".to_string(),
    };
    a.finish()?;
    let entries = std::fs::read_dir(&path).map_err(|e| os_error("cannot list", &path, e))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(Value::list(names.iter().map(|n| Value::str(n)).collect()))
}

fn makedirs(_: &mut Interp, mut a: Args) -> Result<Value> {
    let name = a.string("name")?;
    let _ = a.take("mode");
    let exist_ok = match a.take("exist_ok") {
        Some((v, _)) => v.truthy()?,
        None => false,
    };
    a.finish()?;
    if Path::new(&name).is_dir() {
        if exist_ok {
            return Ok(Value::None);
        }
        return Err(Error::new(
            ErrorKind::Io,
            format!("[Errno 17] File exists: '{name}'"),
        ));
    }
    std::fs::create_dir_all(&name).map_err(|e| os_error("cannot make", &name, e))?;
    Ok(Value::None)
}

fn remove(_: &mut Interp, mut a: Args) -> Result<Value> {
    let path = a.string("path")?;
    a.finish()?;
    std::fs::remove_file(&path).map_err(|e| os_error("cannot remove", &path, e))?;
    Ok(Value::None)
}

/// One string argument, as os.path's functions take.
fn one_path(mut a: Args) -> Result<String> {
    let p = a.string("path")?;
    a.finish()?;
    Ok(p)
}

fn join(_: &mut Interp, a: Args) -> Result<Value> {
    let mut out = String::new();
    for (v, span) in a.positional {
        let Value::Str(part) = v else {
            return Err(type_err(format!(
                "join() argument must be str, not {}",
                v.type_name()
            ))
            .at(span));
        };
        if part.starts_with('/') || out.is_empty() {
            out = part.to_string();
        } else if out.ends_with('/') {
            out.push_str(&part);
        } else {
            out.push('/');
            out.push_str(&part);
        }
    }
    Ok(Value::str(&out))
}

fn exists(_: &mut Interp, a: Args) -> Result<Value> {
    Ok(Value::Bool(Path::new(&one_path(a)?).exists()))
}

fn isfile(_: &mut Interp, a: Args) -> Result<Value> {
    Ok(Value::Bool(Path::new(&one_path(a)?).is_file()))
}

fn isdir(_: &mut Interp, a: Args) -> Result<Value> {
    Ok(Value::Bool(Path::new(&one_path(a)?).is_dir()))
}

/// (head, tail) split at the last '/', as posixpath.split: the head keeps a
/// root '/' and loses trailing slashes otherwise.
fn split(p: &str) -> (&str, &str) {
    let i = p.rfind('/').map_or(0, |i| i + 1);
    let (head, tail) = p.split_at(i);
    let trimmed = head.trim_end_matches('/');
    (if trimmed.is_empty() { head } else { trimmed }, tail)
}

fn basename(_: &mut Interp, a: Args) -> Result<Value> {
    Ok(Value::str(split(&one_path(a)?).1))
}

fn dirname(_: &mut Interp, a: Args) -> Result<Value> {
    Ok(Value::str(split(&one_path(a)?).0))
}

fn splitext(_: &mut Interp, a: Args) -> Result<Value> {
    let p = one_path(a)?;
    let tail = split(&p).1;
    // Leading dots name a hidden file, not an extension (".bashrc").
    let name = tail.trim_start_matches('.');
    let name_start = p.len() - name.len();
    let dot = name.rfind('.').map(|i| name_start + i);
    let (root, ext) = match dot {
        Some(i) => p.split_at(i),
        None => (p.as_str(), ""),
    };
    Ok(Value::tuple(vec![Value::str(root), Value::str(ext)]))
}

/// A path with '.' and '..' parts resolved as text (posixpath.normpath).
fn normalize(p: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in p.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

fn abspath(_: &mut Interp, a: Args) -> Result<Value> {
    let p = one_path(a)?;
    let full = if p.starts_with('/') {
        p
    } else {
        let cwd = std::env::current_dir().map_err(|e| os_error("cannot read", ".", e))?;
        format!("{}/{p}", cwd.display())
    };
    Ok(Value::str(&normalize(&full)))
}

fn expanduser(_: &mut Interp, a: Args) -> Result<Value> {
    let p = one_path(a)?;
    let home = std::env::var("HOME").unwrap_or_default();
    let out = match p.strip_prefix('~') {
        Some(rest) if !home.is_empty() && (rest.is_empty() || rest.starts_with('/')) => {
            format!("{}{rest}", home.trim_end_matches('/'))
        }
        _ => p,
    };
    Ok(Value::str(&out))
}

#[doc(hidden)]
pub mod tests {
    use super::{normalize, split};

    crate::unit_tests! {
        fn paths_split_as_posixpath_does() {
            assert_eq!(split("runs/exp1/model.pt"), ("runs/exp1", "model.pt"));
            assert_eq!(split("/model.pt"), ("/", "model.pt"));
            assert_eq!(split("model.pt"), ("", "model.pt"));
            assert_eq!(split("a//b"), ("a", "b"));
            assert_eq!(normalize("/tmp/../tmp/./x"), "/tmp/x");
            assert_eq!(normalize("/.."), "/");
        }
    }
}
