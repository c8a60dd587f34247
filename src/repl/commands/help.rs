//! `:help` and `:help NAME`, from the one table of builtins and commands.

use super::{COMMANDS, Outcome, say};
use crate::error::{Error, ErrorKind, Result};
use crate::interp::Interp;
use crate::interp::builtins;

pub fn help(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    if arg.is_empty() {
        say(
            interp,
            "Type PyTorch-style code: t = tensor([[1, 2], [3, 4]]); t.T @ t\nTab completes names, methods and keyword arguments; Ctrl-C stops a running statement.\n\nCommands:",
        );
        let w = COMMANDS
            .iter()
            .map(|c| c.usage.len().min(28))
            .max()
            .unwrap_or(0);
        for c in COMMANDS {
            let usage = if c.usage.len() > 28 {
                format!(":{} …", c.name)
            } else {
                c.usage.to_string()
            };
            say(interp, &format!("  {usage:<w$}  {}", c.help));
        }
        let mut names: Vec<&str> = builtins::all().map(|b| b.name).collect();
        names.sort_unstable();
        names.dedup();
        say(
            interp,
            &format!(
                "\nBuiltins ({}; :help NAME for one, docs/reference.md for all):\n{}",
                names.len(),
                wrap(&names, 78)
            ),
        );
        return Ok(Outcome::Handled);
    }
    let name = arg
        .trim_start_matches(':')
        .trim_start_matches("torch.nn.functional.")
        .trim_start_matches("torch.optim.")
        .trim_start_matches("torch.nn.init.")
        .trim_start_matches("torch.")
        .trim_start_matches("math.")
        .trim_start_matches("F.")
        .trim_start_matches('.');
    if let Some(c) = COMMANDS.iter().find(|c| c.name == name) {
        say(
            interp,
            &format!("{}\n  {}\n  example: {}", c.usage, c.help, c.example),
        );
        return Ok(Outcome::Handled);
    }
    let rows: Vec<_> = builtins::all().filter(|b| b.name == name).collect();
    if rows.is_empty() {
        let all = builtins::all()
            .map(|b| b.name)
            .chain(COMMANDS.iter().map(|c| c.name));
        let mut e = Error::new(
            ErrorKind::Name,
            format!("no builtin or command named {name}"),
        );
        e = match crate::print::suggest::closest(name, all) {
            Some(best) => e.hint(format!("did you mean {best}?")),
            None => e.hint(":help lists them all"),
        };
        return Err(e);
    }
    for b in rows {
        let reach = match b.reach {
            builtins::Reach::Function => format!("{n}(…), torch.{n}(…)", n = b.name),
            builtins::Reach::Method => format!("t.{}(…)", b.name),
            builtins::Reach::Both => format!("torch.{n}(t, …) and t.{n}(…)", n = b.name),
            builtins::Reach::Python => format!("{}(…)", b.name),
            builtins::Reach::Math => format!("math.{}(…)", b.name),
            builtins::Reach::Module => format!("torch.{}(…)", b.name),
        };
        say(
            interp,
            &format!(
                "{}\n  {}\n  called as: {reach}\n  example: {}",
                b.sig, b.help, b.example
            ),
        );
    }
    Ok(Outcome::Handled)
}

/// Words joined by spaces, wrapped at `width` columns, indented two.
fn wrap(words: &[&str], width: usize) -> String {
    let mut out = String::new();
    let mut line = String::from(" ");
    for w in words {
        if line.len() + w.len() + 1 > width {
            out.push_str(&line);
            out.push('\n');
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(w);
    }
    out.push_str(&line);
    out
}
