//! `:why`: the last error expanded — the operands it involved (shape, dtype,
//! device), drawn as `:explain` draws them, and the fix.

use crate::error::{ErrorKind, OperandInfo};
use crate::interp::session::LastError;
use crate::tensor::shape::fmt_shape;

use super::explain;

fn label(src: &str, o: &OperandInfo, i: usize) -> String {
    o.span
        .and_then(|s| src.get(s.start..s.end))
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty() && t.chars().count() <= 24)
        .unwrap_or_else(|| format!("operand {}", i + 1))
}

pub fn explain(last: &LastError) -> String {
    let e = &last.error;
    let src = &last.source;
    let mut out = format!("{e}\n");
    if let Some(span) = e.span
        && let Some(text) = src.get(span.start..span.end.min(src.len()))
    {
        out.push_str(&format!("  in: {}\n", text.trim()));
    }
    let Some(ctx) = &e.context else {
        out.push_str(&generic_advice(e.kind));
        if let Some(h) = &e.hint {
            out.push_str(&format!("fix: {h}\n"));
        }
        return out;
    };
    let labels: Vec<String> = ctx
        .operands
        .iter()
        .enumerate()
        .map(|(i, o)| label(src, o, i))
        .collect();
    let w = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    out.push_str(&format!("the operands of {}:\n", ctx.op));
    for (o, l) in ctx.operands.iter().zip(&labels) {
        let shape = if o.scalar {
            "scalar".to_string()
        } else {
            fmt_shape(&o.shape)
        };
        out.push_str(&format!(
            "  {l:<w$}  {shape:<12} {:<9} {}\n",
            o.dtype.name(),
            o.device
        ));
    }
    let shapes: Vec<&[usize]> = ctx
        .operands
        .iter()
        .filter(|o| !o.scalar)
        .map(|o| o.shape.as_slice())
        .collect();
    let tensor_labels: Vec<&str> = ctx
        .operands
        .iter()
        .zip(&labels)
        .filter(|(o, _)| !o.scalar)
        .map(|(_, l)| l.as_str())
        .collect();
    match e.kind {
        ErrorKind::Shape
            if matches!(ctx.op.as_str(), "@" | "matmul" | "mm" | "bmm") && shapes.len() == 2 =>
        {
            out.push_str(&explain::matmul(
                [tensor_labels[0], tensor_labels[1]],
                shapes[0],
                shapes[1],
            ));
        }
        // Only ops that broadcast get the broadcasting picture (cat, reshape... do not).
        ErrorKind::Shape if shapes.len() >= 2 && e.message.contains("broadcast") => {
            out.push_str(&explain::broadcast(&tensor_labels, &shapes));
        }
        ErrorKind::Dtype => {
            out.push_str(&explain::dtype_rule(&ctx.operands, false));
            out.push_str("  an op needs dtypes it supports, and an in-place op or an index assignment must be able to hold its result's dtype\n");
        }
        ErrorKind::Device => {
            let devices: Vec<String> = ctx
                .operands
                .iter()
                .zip(&labels)
                .map(|(o, l)| format!("{l} is on {}", o.device))
                .collect();
            out.push_str(&format!("devices: {}\n", devices.join(", ")));
            out.push_str("  tensors must be on one device for an op; tsh never copies between devices behind your back\n");
        }
        _ => {}
    }
    if let Some(h) = &e.hint {
        out.push_str(&format!("fix: {h}\n"));
    } else if e.kind == ErrorKind::Device {
        out.push_str("fix: move one operand, e.g. x.to(\"cpu\") or y.to(x.device)\n");
    }
    out
}

fn generic_advice(kind: ErrorKind) -> String {
    let text = match kind {
        ErrorKind::Name => {
            "a name is looked up among your variables, then builtins; :vars lists the variables, :help the builtins"
        }
        ErrorKind::Syntax => {
            "the parser stopped at the marked place; brackets, commas and braces around blocks are the usual suspects"
        }
        ErrorKind::Index => {
            "indices count from 0 and must be below the dim's size; negative indices count from the end"
        }
        ErrorKind::Type => {
            "the value has a different kind than the op expects; :vars shows what each variable holds"
        }
        ErrorKind::Interrupt => {
            "you pressed Ctrl-C; the statement stopped and every variable keeps the value it had"
        }
        ErrorKind::Memory => {
            "the tensor would not fit in memory; use a smaller shape or a smaller dtype"
        }
        _ => "",
    };
    if text.is_empty() {
        String::new()
    } else {
        format!("  {text}\n")
    }
}
