//! `:trace on`: every op a statement ran, with where it ran, its dtype and
//! shapes, its time and the bytes it read and wrote, tied to the source.

use crate::error::OperandInfo;
use crate::syntax::ast::Span;
use crate::tensor::shape::fmt_shape;

#[derive(Clone, Debug)]
pub struct TraceOp {
    pub span: Span,
    pub op: String,
    pub inputs: Vec<OperandInfo>,
    pub output: Option<OperandInfo>,
    pub seconds: f64,
    /// Bytes read and written; 0 for a view, which moves nothing.
    pub bytes: usize,
    pub view: bool,
}

fn nbytes(o: &OperandInfo) -> usize {
    if o.scalar {
        0
    } else {
        o.shape.iter().product::<usize>() * o.dtype.size()
    }
}

/// The bytes an op moved: what it read from its tensor inputs plus what it wrote.
pub fn bytes_moved(inputs: &[OperandInfo], output: Option<&OperandInfo>) -> usize {
    inputs.iter().map(nbytes).sum::<usize>() + output.map(nbytes).unwrap_or(0)
}

fn snippet(src: &str, span: Span) -> String {
    let text = src.get(span.start..span.end.min(src.len())).unwrap_or("?");
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 28 {
        format!("{}…", one_line.chars().take(27).collect::<String>())
    } else {
        one_line
    }
}

fn operand(o: &OperandInfo) -> String {
    if o.scalar {
        "scalar".into()
    } else {
        fmt_shape(&o.shape)
    }
}

pub fn render(log: &[TraceOp], src: &str, color: bool) -> String {
    if log.is_empty() {
        return super::dim("  trace: no tensor ops\n", color);
    }
    let rows: Vec<[String; 7]> = log
        .iter()
        .map(|op| {
            let (line, col) = crate::print::error::line_col(src, op.span.start);
            let out = op.output.as_ref();
            let shapes = format!(
                "{} → {}",
                op.inputs.iter().map(operand).collect::<Vec<_>>().join(", "),
                out.map(operand).unwrap_or_else(|| "-".into())
            );
            [
                format!("{line}:{col}"),
                snippet(src, op.span),
                op.op.clone(),
                out.or(op.inputs.first())
                    .map(|o| format!("{} {}", o.device, o.dtype))
                    .unwrap_or_default(),
                shapes,
                super::seconds(op.seconds),
                if op.view {
                    "view, 0 B".to_string()
                } else {
                    crate::tensor::core::human_bytes(op.bytes as u128)
                },
            ]
        })
        .collect();
    let mut widths = [0usize; 7];
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let total: f64 = log.iter().map(|o| o.seconds).sum();
    let bytes: usize = log.iter().map(|o| o.bytes).sum();
    let mut out = String::new();
    for r in &rows {
        let mut line = String::from("  ┆");
        for (i, (c, w)) in r.iter().zip(widths).enumerate() {
            let pad = w - c.chars().count();
            // Numbers line up on the right, words on the left.
            if i >= 5 {
                line.push_str(&format!("  {}{c}", " ".repeat(pad)));
            } else {
                line.push_str(&format!("  {c}{}", " ".repeat(pad)));
            }
        }
        out.push_str(&super::dim(line.trim_end(), color));
        out.push('\n');
    }
    let foot = format!(
        "  ┆  {} op{}, {} total, {} moved, no host↔device copies (every tensor is on the cpu)",
        log.len(),
        if log.len() == 1 { "" } else { "s" },
        super::seconds(total),
        crate::tensor::core::human_bytes(bytes as u128)
    );
    out.push_str(&super::dim(&foot, color));
    out.push('\n');
    out
}
