//! `:commands`, one table row each. They run in the REPL and, as lines of their
//! own, in scripts; what they print goes to the interpreter's output.

use crate::error::{Error, ErrorKind, Result};
use crate::interp::builtins;
use crate::interp::{Interp, Value};

pub enum Outcome {
    Quit,
    Handled,
    NotACommand,
}

type CommandFn = fn(&mut Interp, &str) -> Result<Outcome>;

pub struct Command {
    pub name: &'static str,
    pub help: &'static str,
    pub func: CommandFn,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "help",
        help: ":help [name] — this list, or the signature and help of a builtin",
        func: help,
    },
    Command {
        name: "vars",
        help: ":vars — the variables of this session",
        func: vars,
    },
    Command {
        name: "graph",
        help: ":graph EXPR [--dot FILE] — draw the autograd graph behind a tensor (Graphviz with --dot)",
        func: graph,
    },
    Command {
        name: "reset",
        help: ":reset — forget every variable",
        func: reset,
    },
    Command {
        name: "quit",
        help: ":quit — leave tsh (Ctrl-D too)",
        func: quit,
    },
];

fn say(interp: &mut Interp, text: &str) {
    interp.out.write_str(text);
    interp.out.write_str("\n");
}

pub fn dispatch(interp: &mut Interp, line: &str) -> Result<Outcome> {
    let Some(rest) = line.strip_prefix(':') else {
        return Ok(Outcome::NotACommand);
    };
    let (name, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match COMMANDS.iter().find(|c| c.name == name) {
        Some(c) => (c.func)(interp, arg.trim()),
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

fn help(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    if arg.is_empty() {
        say(
            interp,
            "Type PyTorch-style expressions: t = tensor([[1, 2], [3, 4]]); t.T @ t",
        );
        say(interp, "Commands:");
        for c in COMMANDS {
            say(interp, &format!("  {}", c.help));
        }
        let names: Vec<&str> = builtins::all().map(|b| b.name).collect();
        say(
            interp,
            &format!("Builtins ({}): {}", names.len(), names.join(" ")),
        );
        return Ok(Outcome::Handled);
    }
    let name = arg
        .trim_start_matches("torch.nn.functional.")
        .trim_start_matches("torch.optim.")
        .trim_start_matches("torch.nn.init.")
        .trim_start_matches("torch.")
        .trim_start_matches("F.")
        .trim_start_matches('.');
    let rows: Vec<_> = builtins::all().filter(|b| b.name == name).collect();
    if rows.is_empty() {
        return Err(Error::new(
            ErrorKind::Name,
            format!("no builtin named {name}"),
        ));
    }
    for b in rows {
        say(interp, &format!("{}\n  {}", b.sig, b.help));
    }
    Ok(Outcome::Handled)
}

fn vars(interp: &mut Interp, _: &str) -> Result<Outcome> {
    let mut names: Vec<_> = interp.globals.keys().cloned().collect();
    names.sort();
    for n in names {
        let v = &interp.globals[&n];
        let desc = match v {
            Value::Tensor(t) => format!(
                "tensor {} {} {}{}",
                crate::tensor::shape::fmt_shape(t.shape()),
                t.dtype(),
                t.device(),
                if t.requires_grad() {
                    "  requires_grad"
                } else {
                    ""
                }
            ),
            other => other.type_name().to_string(),
        };
        say(interp, &format!("{n}: {desc}"));
    }
    Ok(Outcome::Handled)
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
                format!(":graph draws a tensor's graph, not a {}", other.type_name()),
            ));
        }
    };
    let names = |x: &crate::tensor::Tensor| interp.name_of(x);
    match dot {
        None => {
            let text = crate::autograd::graph::render_tree(&t, &names);
            say(interp, &text);
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
