//! `:vars` (a table of the session's variables) and `:devices`.

use comfy_table::{Cell, CellAlignment, Table, presets};

use super::{Outcome, say};
use crate::error::Result;
use crate::interp::{Interp, Value};
use crate::tensor::core::human_bytes;
use crate::tensor::shape::fmt_shape;

pub fn vars(interp: &mut Interp, _: &str) -> Result<Outcome> {
    let mut names: Vec<_> = interp.globals.keys().cloned().collect();
    if names.is_empty() {
        say(interp, "no variables yet (x = tensor([1, 2]) makes one)");
        return Ok(Outcome::Handled);
    }
    names.sort();
    let mut table = Table::new();
    table.load_style(presets::UTF8_FULL_CONDENSED);
    table.force_no_tty();
    table.set_header([
        "name",
        "kind",
        "shape",
        "dtype",
        "device",
        "bytes",
        "requires_grad",
    ]);
    for n in names {
        let v = &interp.globals[&n];
        let row = match v {
            Value::Tensor(t) => {
                let mut kind = "tensor".to_string();
                if let Some(base) = crate::print::value::view_base(t, &interp.globals) {
                    kind = format!("tensor (view of {base})");
                }
                vec![
                    Cell::new(n.as_ref()),
                    Cell::new(kind),
                    Cell::new(fmt_shape(t.shape())),
                    Cell::new(t.dtype().name()),
                    Cell::new(t.device().to_string()),
                    Cell::new(human_bytes((t.numel() * t.dtype().size()) as u128))
                        .set_alignment(CellAlignment::Right),
                    Cell::new(if t.requires_grad() { "true" } else { "" }),
                ]
            }
            other => {
                let shown = crate::print::value::repr_with(other, &interp.print_opts);
                let shown = if shown.chars().count() > 30 {
                    format!("{}…", shown.chars().take(29).collect::<String>())
                } else {
                    shown
                };
                vec![
                    Cell::new(n.as_ref()),
                    Cell::new(format!("{} = {shown}", other.type_name())),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                    Cell::new(""),
                ]
            }
        };
        table.add_row(row);
    }
    say(interp, &table.to_string());
    Ok(Outcome::Handled)
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, m)| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

pub fn devices(interp: &mut Interp, _: &str) -> Result<Outcome> {
    let threads = crate::threads::planned();
    let mem = human_bytes(crate::tensor::core::memory_limit() as u128);
    say(
        interp,
        &format!(
            "cpu      {}, {threads} thread{}, tensors up to {mem} — the default device",
            cpu_model(),
            if threads == 1 { "" } else { "s" }
        ),
    );
    match crate::backend::cuda::list() {
        Ok(found) => {
            for (i, name) in found {
                say(interp, &format!("cuda:{i}   {name}"));
            }
        }
        Err(why) => say(
            interp,
            &format!(
                "cuda     not available: {why} (.cuda() and device=\"cuda\" are device errors)"
            ),
        ),
    }
    Ok(Outcome::Handled)
}
