//! docs/reference.md, generated from the one table of commands and builtins
//! (a test keeps the file in step with the table).

use super::commands::COMMANDS;
use crate::interp::builtins::{self, Reach};

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

fn row(first: &str, help: &str, example: &str) -> String {
    format!(
        "| `{}` | {} | `{}` |\n",
        cell(first),
        cell(help),
        cell(example)
    )
}

fn table(title: &str, rows: impl Iterator<Item = &'static builtins::Builtin>) -> String {
    let mut rows: Vec<_> = rows.collect();
    rows.sort_by_key(|b| b.name);
    let mut out =
        format!("\n## {title}\n\n| signature | what it does | example |\n|---|---|---|\n");
    for b in rows {
        out.push_str(&row(b.sig, b.help, b.example));
    }
    out
}

pub fn markdown() -> String {
    let mut out = String::from(
        "# tsh reference\n\nGenerated from tsh's tables of commands and builtins (`:help NAME` shows the same). \
Every example runs; `cargo test` checks them and that this file is current (`BLESS=1 cargo test --release --test reference` rewrites it).\n\n## Commands\n\n| command | what it does | example |\n|---|---|---|\n",
    );
    for c in COMMANDS {
        out.push_str(&row(c.usage, c.help, c.example));
    }
    let sections = [
        (Reach::Function, "Functions (bare, or as torch.NAME)"),
        (
            Reach::Both,
            "Functions that are also tensor methods (torch.NAME(t, …) and t.NAME(…))",
        ),
        (Reach::Method, "Tensor methods"),
        (Reach::Python, "Python builtins"),
        (Reach::Math, "Python's math module (math.NAME)"),
        (
            Reach::Module,
            "Submodules (torch.cuda, torch.accelerator, torch.backends.mps)",
        ),
    ];
    for (reach, title) in sections {
        out.push_str(&table(
            title,
            builtins::all().filter(move |b| b.reach == reach),
        ));
    }
    out.push_str(&table(
        "Methods of lists, dicts, shapes, grad_fn, optimizers and sparse tensors",
        builtins::value_methods(),
    ));
    out
}
