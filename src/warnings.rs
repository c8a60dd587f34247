//! Warnings raised below the interpreter, as PyTorch's UserWarnings are: an op
//! queues one and goes on; the interpreter shows it after the call (or, for a
//! broadcasting warning under `:set broadcast error`, refuses the call).

use std::cell::RefCell;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningKind {
    /// Broadcasting that probably was not meant (a loss's target of another shape).
    Broadcast,
    /// Any other UserWarning PyTorch gives (deprecated defaults, …).
    User,
}

#[derive(Clone, Debug)]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
    /// Shown once per session (PyTorch's TORCH_WARN_ONCE: once per process).
    pub once: bool,
}

thread_local! {
    static QUEUE: RefCell<Vec<Warning>> = const { RefCell::new(Vec::new()) };
}

pub fn warn(kind: WarningKind, message: impl Into<String>) {
    queue(kind, message.into(), false);
}

/// A warning the session shows only the first time it is given.
pub fn warn_once(kind: WarningKind, message: impl Into<String>) {
    queue(kind, message.into(), true);
}

fn queue(kind: WarningKind, message: String, once: bool) {
    QUEUE.with(|q| {
        q.borrow_mut().push(Warning {
            kind,
            message,
            once,
        })
    });
}

/// The warnings queued since the last call, oldest first.
pub fn take() -> Vec<Warning> {
    QUEUE.with(|q| std::mem::take(&mut *q.borrow_mut()))
}
