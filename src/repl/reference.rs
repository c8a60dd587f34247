//! docs/reference.md, generated from the one table of commands and builtins
//! (a test keeps the file in step with the table).

use super::commands::COMMANDS;
use crate::interp::builtins::{self, Reach};

fn cell(s: &str) -> String {
    s.replace('|', "\\|")
}

pub fn markdown() -> String {
    let mut out = String::from(
        "# tsh reference\n\nGenerated from tsh's tables of commands and builtins (`:help NAME` shows the same). \
Every example runs; `cargo test` checks them and that this file is current (`BLESS=1 cargo test --release --test reference` rewrites it).\n\n## Commands\n\n| command | what it does | example |\n|---|---|---|\n",
    );
    for c in COMMANDS {
        out.push_str(&format!(
            "| `{}` | {} | `{}` |\n",
            cell(c.usage),
            cell(c.help),
            cell(c.example)
        ));
    }
    let sections = [
        (Reach::Function, "Functions (bare, or as torch.NAME)"),
        (
            Reach::Both,
            "Functions that are also tensor methods (torch.NAME(t, …) and t.NAME(…))",
        ),
        (
            Reach::Method,
            "Tensor methods (and methods of lists, optimizers, shapes)",
        ),
        (Reach::Python, "Python builtins"),
    ];
    for (reach, title) in sections {
        out.push_str(&format!(
            "\n## {title}\n\n| signature | what it does | example |\n|---|---|---|\n"
        ));
        let mut rows: Vec<_> = builtins::all().filter(|b| b.reach == reach).collect();
        rows.sort_by_key(|b| b.name);
        for b in rows {
            out.push_str(&format!(
                "| `{}` | {} | `{}` |\n",
                cell(b.sig),
                cell(b.help),
                cell(b.example)
            ));
        }
    }
    out
}
