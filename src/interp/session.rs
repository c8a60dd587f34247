//! What a session remembers besides its variables: the `:set` switches, the
//! transcript `:save` writes, the last error `:why` explains, and the ops
//! `:trace` lists under each statement.

use super::{Interp, Value};
use crate::error::{Error, OpContext, OperandInfo};
use crate::syntax::ast::Span;
use crate::teach::trace::TraceOp;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BroadcastCheck {
    #[default]
    Off,
    /// Say so when broadcasting makes a result bigger than both operands.
    Warn,
    /// Refuse it.
    Error,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    pub broadcast: BroadcastCheck,
    /// A one-line summary (min/max/mean/std, NaN/Inf) under large tensors.
    pub stats: bool,
    /// List every op under its statement.
    pub trace: bool,
}

/// One REPL entry and what it showed, for `:save`.
#[derive(Clone, Debug)]
pub struct Entry {
    pub source: String,
    pub output: String,
    /// Stopped with Ctrl-C: kept in the transcript as a comment, not replayed.
    pub interrupted: bool,
}

#[derive(Clone, Debug)]
pub struct LastError {
    pub error: Error,
    pub source: String,
}

/// How an operand looks to `:why` and `:trace`.
pub fn operand_info(v: &Value, span: Option<Span>) -> Option<OperandInfo> {
    match v {
        Value::Tensor(t) => Some(OperandInfo {
            span,
            shape: t.shape().to_vec(),
            dtype: t.dtype(),
            device: t.device(),
            scalar: false,
        }),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            let t = super::convert::scalar_tensor(v)?;
            Some(OperandInfo {
                span,
                shape: vec![],
                dtype: t.dtype(),
                device: t.device(),
                scalar: true,
            })
        }
        _ => None,
    }
}

pub fn op_context(op: &str, operands: &[(&Value, Option<Span>)]) -> OpContext {
    OpContext {
        op: op.to_string(),
        operands: operands
            .iter()
            .filter_map(|(v, s)| operand_info(v, *s))
            .collect(),
    }
}

impl Interp {
    /// Keep an entry for `:save`: what it showed, and the first line of its error.
    pub fn record_entry(&mut self, source: &str, shown: &str, error: Option<&Error>) {
        let mut output = crate::print::strip_ansi(shown);
        if let Some(e) = error {
            output.push_str(&format!("{e}\n"));
        }
        self.transcript.push(Entry {
            source: source.to_string(),
            output,
            interrupted: error.is_some_and(|e| e.kind == crate::error::ErrorKind::Interrupt),
        });
    }

    pub fn set_last_error(&mut self, error: Error, source: &str) {
        self.last_error = Some(LastError {
            error,
            source: source.to_string(),
        });
    }

    /// Write a warning where output goes (so transcripts keep it too).
    pub fn warn(&mut self, text: &str) {
        let line = if self.color {
            format!("\x1b[33mwarning:\x1b[0m {text}\n")
        } else {
            format!("warning: {text}\n")
        };
        self.out.write_warning(&line);
    }

    pub(super) fn trace_op(&mut self, op: TraceOp) {
        if let Some(log) = &mut self.trace_log {
            log.push(op);
        }
    }
}
