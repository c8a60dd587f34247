//! `:commands`, one table row each. They run in the REPL and, as lines of their
//! own, in scripts; what they print goes to the interpreter's output.

mod explain;
mod files;
mod help;
mod set;
mod time;
mod vars;

use crate::error::{Error, ErrorKind, Result};
use crate::interp::{Interp, Value};

pub enum Outcome {
    Quit,
    Handled,
    NotACommand,
}

type CommandFn = fn(&mut Interp, &str) -> Result<Outcome>;

pub struct Command {
    pub name: &'static str,
    /// `:name ARGS`.
    pub usage: &'static str,
    pub help: &'static str,
    /// A line that runs (the reference and a test run every one).
    pub example: &'static str,
    pub func: CommandFn,
}

macro_rules! command {
    ($name:literal, $usage:literal, $help:literal, $example:literal, $f:expr) => {
        Command {
            name: $name,
            usage: $usage,
            help: $help,
            example: $example,
            func: $f,
        }
    };
}

pub const COMMANDS: &[Command] = &[
    command!(
        "help",
        ":help [NAME]",
        "List the commands and builtins, or show one's signature, help and example.",
        ":help zeros",
        help::help
    ),
    command!(
        "vars",
        ":vars",
        "A table of this session's variables: kind, shape, dtype, device, bytes, requires_grad.",
        ":vars",
        vars::vars
    ),
    command!(
        "time",
        ":time STMT",
        "Time a statement: one warm-up run, then the median of repeats.",
        ":time randn(256, 256) @ randn(256, 256)",
        time::time
    ),
    command!(
        "explain",
        ":explain EXPR",
        "Explain an expression: broadcasting drawn, the dtype promotion rule, the result's layout and sharing.",
        ":explain ones(3, 1) + ones(3)",
        explain::explain
    ),
    command!(
        "why",
        ":why",
        "Expand the last error: the operands' shapes, dtypes and devices, drawn, and the fix.",
        ":why",
        explain::why
    ),
    command!(
        "trace",
        ":trace on|off",
        "List under each statement every op it ran: device, dtype, shapes, time and bytes moved.",
        ":trace off",
        set::trace
    ),
    command!(
        "set",
        ":set [precision N | sci on|off|auto | threshold N | linewidth N | edgeitems N | broadcast warn|error|off | stats on|off]",
        "Show or change printing and checking settings.",
        ":set precision 4",
        set::set
    ),
    command!(
        "devices",
        ":devices",
        "The devices tsh can use, and why CUDA is or is not available.",
        ":devices",
        vars::devices
    ),
    command!(
        "graph",
        ":graph EXPR [--dot FILE]",
        "Draw the autograd graph behind a tensor (Graphviz with --dot).",
        ":graph (ones(2, requires_grad=true) * 3).sum()",
        graph
    ),
    command!(
        "load",
        ":load FILE",
        "Run a .tsh file in this session (its variables stay).",
        ":load scripts/lesson1_tensors.tsh",
        files::load
    ),
    command!(
        "save",
        ":save FILE",
        "Write this session as a checked transcript (each entry, then its output as #> lines); tsh --verify FILE replays it.",
        ":save /tmp/tsh_session.tsh",
        files::save
    ),
    command!("reset", ":reset", "Forget every variable.", ":reset", reset),
    command!("quit", ":quit", "Leave tsh (Ctrl-D too).", ":quit", quit),
];

pub(crate) fn say(interp: &mut Interp, text: &str) {
    interp.out.write_str(text);
    interp.out.write_str("\n");
}

pub fn dispatch(interp: &mut Interp, line: &str) -> Result<Outcome> {
    let Some(rest) = line.strip_prefix(':') else {
        return Ok(Outcome::NotACommand);
    };
    let (name, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match COMMANDS.iter().find(|c| c.name == name) {
        Some(c) => {
            let arg = arg.trim();
            // A command whose usage names no argument takes none.
            if !arg.is_empty() && c.usage.strip_prefix(':') == Some(c.name) {
                let start = arg.as_ptr() as usize - line.as_ptr() as usize;
                return Err(Error::new(
                    ErrorKind::Syntax,
                    format!(":{name} takes no argument, but was given `{arg}`"),
                )
                .at(crate::syntax::ast::Span::new(start, start + arg.len()))
                .hint(format!(
                    "type :{name} alone; :help {name} says what it does"
                )));
            }
            // Spans of errors in the argument are relative to it; make them the line's.
            let shift = arg.as_ptr() as usize - line.as_ptr() as usize;
            (c.func)(interp, arg).map_err(|mut e| {
                e.span = e
                    .span
                    .map(|s| crate::syntax::ast::Span::new(s.start + shift, s.end + shift));
                e
            })
        }
        None => {
            let mut e = Error::new(ErrorKind::Name, format!("unknown command :{name}"));
            let names = COMMANDS.iter().map(|c| c.name);
            e = match crate::print::suggest::closest(name, names) {
                Some(best) => e.hint(format!("did you mean :{best}? (:help lists them)")),
                None => e.hint(":help lists the commands"),
            };
            Err(e)
        }
    }
}

/// `:graph EXPR [--dot FILE]`.
fn graph(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    let (expr, dot) = match arg.split_once("--dot") {
        Some((e, f)) => (e.trim(), Some(f.trim())),
        None => (arg.trim(), None),
    };
    if expr.is_empty() {
        return Err(Error::new(ErrorKind::Syntax, ":graph needs an expression")
            .hint("e.g. :graph loss, or :graph loss --dot loss.dot"));
    }
    let t = match interp.eval_src(expr)? {
        Value::Tensor(t) => t,
        other => {
            return Err(Error::new(
                ErrorKind::Type,
                format!(":graph draws a tensor's graph, not {}", other.a_type_name()),
            ));
        }
    };
    let names = |x: &crate::tensor::Tensor| interp.name_of(x);
    match dot {
        None => {
            let text = crate::autograd::graph::render_tree(&t, &names);
            let shown = format!("{text}\n");
            let figure = crate::teach::picture::Figure::Text { text: &text };
            interp.out.write_figure(&shown, &shown, &figure);
        }
        Some("") => {
            return Err(Error::new(ErrorKind::Syntax, "--dot needs a file name")
                .hint(":graph loss --dot loss.dot"));
        }
        Some(file) => {
            let text = crate::autograd::graph::render_dot(&t, &names);
            std::fs::write(file, text)
                .map_err(|e| Error::new(ErrorKind::Io, format!("cannot write {file}: {e}")))?;
            say(
                interp,
                &format!("wrote {file} (render it with: dot -Tpng {file} -o graph.png)"),
            );
        }
    }
    Ok(Outcome::Handled)
}

fn reset(interp: &mut Interp, _: &str) -> Result<Outcome> {
    interp.globals.clear();
    Ok(Outcome::Handled)
}

fn quit(_: &mut Interp, _: &str) -> Result<Outcome> {
    Ok(Outcome::Quit)
}
