//! Watching ops as they run: `:trace` timing, the `:set broadcast` check, and
//! the operands a failed op leaves on its error for `:why`.

use std::time::Instant;

use super::session::{BroadcastCheck, op_context, operand_info};
use super::{Interp, Value};
use crate::error::{Error, ErrorKind, Result, shape_err};
use crate::syntax::ast::Span;
use crate::teach::trace::{TraceOp, bytes_moved};
use crate::tensor::shape::{broadcast_shapes, fmt_shape};

/// Leave a failed op's operands on its error, for `:why` (shape, dtype and
/// device errors about tensors only).
pub(super) fn with_operands(e: Error, op: &str, operands: &[(&Value, Option<Span>)]) -> Error {
    let explains = matches!(
        e.kind,
        ErrorKind::Shape | ErrorKind::Dtype | ErrorKind::Device
    );
    if explains && operands.iter().any(|(v, _)| matches!(v, Value::Tensor(_))) {
        e.with_context(|| op_context(op, operands))
    } else {
        e
    }
}

/// The tensors a call was given, directly or in a list (cat, stack).
pub(super) fn call_operands(given: &[(Value, Span)]) -> Vec<(Value, Option<Span>)> {
    given
        .iter()
        .flat_map(|(v, s)| match v {
            Value::List(l) => l.borrow().iter().map(|x| (x.clone(), None)).collect(),
            Value::Tuple(t) => t.iter().map(|x| (x.clone(), None)).collect(),
            other => vec![(other.clone(), Some(*s))],
        })
        .filter(|(v, _)| matches!(v, Value::Tensor(_)))
        .collect()
}

impl Interp {
    /// Run one op: time it under `:trace`, and give its error the operands.
    pub(super) fn traced(
        &mut self,
        span: Span,
        op: &str,
        operands: &[(&Value, Option<Span>)],
        f: impl FnOnce(&mut Interp) -> Result<Value>,
    ) -> Result<Value> {
        let start = self.trace_log.is_some().then(Instant::now);
        let out = f(self).map_err(|e| with_operands(e, op, operands))?;
        if let Some(start) = start {
            let seconds = start.elapsed().as_secs_f64();
            let inputs: Vec<_> = operands
                .iter()
                .filter_map(|(v, s)| operand_info(v, *s))
                .collect();
            let output = operand_info(&out, Some(span)).filter(|o| !o.scalar);
            let tensor_in = operands.iter().any(|(v, _)| matches!(v, Value::Tensor(_)));
            if output.is_some() || (tensor_in && !matches!(out, Value::None)) {
                let view = match &out {
                    Value::Tensor(t) => operands
                        .iter()
                        .any(|(v, _)| matches!(v, Value::Tensor(i) if i.shares_storage(t))),
                    _ => false,
                };
                let bytes = if view {
                    0
                } else {
                    bytes_moved(&inputs, output.as_ref())
                };
                self.trace_op(TraceOp {
                    span,
                    op: op.to_string(),
                    inputs,
                    output,
                    seconds,
                    bytes,
                    view,
                });
            }
        }
        Ok(out)
    }

    /// Show the warnings the call queued (PyTorch's UserWarnings); under `:set
    /// broadcast error` a broadcasting warning is an error instead.
    pub(super) fn show_warnings(&mut self, span: Span) -> Result<()> {
        for w in crate::warnings::take() {
            if w.kind == crate::warnings::WarningKind::Broadcast
                && self.settings.broadcast == BroadcastCheck::Error
            {
                return Err(shape_err(w.message)
                    .at(span)
                    .hint(":set broadcast warn (or off) lets it through with a warning"));
            }
            if self.warnings.show(&w) {
                self.warn(&w.message);
            }
        }
        Ok(())
    }

    /// `:set broadcast warn|error`: catch a result that broadcasting made larger
    /// than both operands (the classic `(n, 1) + (n,)` → `(n, n)`).
    pub(super) fn check_broadcast(
        &mut self,
        op: &str,
        operands: &[(&Value, Option<Span>); 2],
    ) -> Result<()> {
        if self.settings.broadcast == BroadcastCheck::Off {
            return Ok(());
        }
        let (Value::Tensor(a), Value::Tensor(b)) = (operands[0].0, operands[1].0) else {
            return Ok(());
        };
        let Ok(out) = broadcast_shapes(a.shape(), b.shape()) else {
            return Ok(());
        };
        let n: usize = out.iter().product();
        if a.numel() <= 1 || b.numel() <= 1 || n <= a.numel().max(b.numel()) {
            return Ok(());
        }
        let src = self.source.clone();
        let text = |s: Option<Span>| {
            s.and_then(|s| src.get(s.start..s.end))
                .map(|t| t.to_string())
                .unwrap_or_default()
        };
        let message = format!(
            "{} {op} {}: broadcasting {} with {} gives {} ({n} elements from {} and {})",
            text(operands[0].1),
            text(operands[1].1),
            fmt_shape(a.shape()),
            fmt_shape(b.shape()),
            fmt_shape(&out),
            a.numel(),
            b.numel()
        );
        let hint = "if you meant element by element, make the shapes equal (e.g. .squeeze(-1) or .reshape); :explain shows the alignment";
        match self.settings.broadcast {
            BroadcastCheck::Warn => {
                self.warn(&format!("{message}\n  = hint: {hint}"));
                Ok(())
            }
            _ => Err(shape_err(message)
                .hint(format!("{hint}; :set broadcast off allows it"))
                .with_context(|| op_context(op, operands))),
        }
    }
}
