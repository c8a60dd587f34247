//! `:commands` of the REPL, one table row each.

use crate::interp::Interp;
use crate::interp::builtins;

pub enum Outcome {
    Quit,
    Handled,
    NotACommand,
}

type CommandFn = fn(&mut Interp, &str) -> Outcome;

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

pub fn dispatch(interp: &mut Interp, line: &str) -> Outcome {
    let Some(rest) = line.strip_prefix(':') else {
        return Outcome::NotACommand;
    };
    let (name, arg) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    match COMMANDS.iter().find(|c| c.name == name) {
        Some(c) => (c.func)(interp, arg.trim()),
        None => {
            eprintln!("error[name]: unknown command :{name} (try :help)");
            Outcome::Handled
        }
    }
}

fn help(_: &mut Interp, arg: &str) -> Outcome {
    if arg.is_empty() {
        println!("Type PyTorch-style expressions: t = tensor([[1, 2], [3, 4]]); t.T @ t");
        println!("Commands:");
        for c in COMMANDS {
            println!("  {}", c.help);
        }
        let names: Vec<&str> = builtins::all().map(|b| b.name).collect();
        println!("Builtins ({}): {}", names.len(), names.join(" "));
        return Outcome::Handled;
    }
    let name = arg.trim_start_matches("torch.").trim_start_matches('.');
    let rows: Vec<_> = builtins::all().filter(|b| b.name == name).collect();
    if rows.is_empty() {
        eprintln!("error[name]: no builtin named {name}");
    }
    for b in rows {
        println!("{}\n  {}", b.sig, b.help);
    }
    Outcome::Handled
}

fn vars(interp: &mut Interp, _: &str) -> Outcome {
    let mut names: Vec<_> = interp.globals.keys().cloned().collect();
    names.sort();
    for n in names {
        let v = &interp.globals[&n];
        let desc = match v {
            crate::interp::Value::Tensor(t) => format!(
                "tensor {} {} {}",
                crate::tensor::shape::fmt_shape(t.shape()),
                t.dtype(),
                t.device()
            ),
            other => other.type_name().to_string(),
        };
        println!("{n}: {desc}");
    }
    Outcome::Handled
}

fn reset(interp: &mut Interp, _: &str) -> Outcome {
    interp.globals.clear();
    Outcome::Handled
}

fn quit(_: &mut Interp, _: &str) -> Outcome {
    Outcome::Quit
}
