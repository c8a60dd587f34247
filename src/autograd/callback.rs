//! Backward rules and gradient hooks written in the language (a custom
//! `torch.autograd.Function`'s backward, `t.register_hook(fn)`). The graph
//! keeps only a number for each; whoever runs a backward pass (the
//! interpreter) installs, for the length of that pass, the runner that turns
//! the number back into a call. So the graph stays free of interpreter
//! values, and autograd knows nothing of the language.

use std::cell::Cell;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, ErrorKind, Result};
use crate::tensor::Tensor;

/// Runs callback `id` on gradients: a hook gets one and gives back one (None:
/// unchanged); a Function's backward gets its outputs' and gives its inputs'.
pub type Runner<'a> = dyn FnMut(u64, Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> + 'a;

thread_local! {
    static RUNNER: Cell<Option<*mut Runner<'static>>> = const { Cell::new(None) };
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);
/// Callbacks whose graph node or tensor is gone: their owner may forget them.
static DEAD: Mutex<Vec<u64>> = Mutex::new(Vec::new());

pub fn new_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// Held by what refers to callback `id` (a node's rule, a tensor's hook
/// list); dropping it marks the callback dead.
pub struct Owned(pub u64);

impl Drop for Owned {
    fn drop(&mut self) {
        DEAD.lock().unwrap_or_else(|e| e.into_inner()).push(self.0);
    }
}

/// The ids marked dead since the last call.
pub fn take_dead() -> Vec<u64> {
    std::mem::take(&mut *DEAD.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Run `f` (a backward pass) with `runner` answering its callbacks.
pub fn with_runner<T>(runner: &mut Runner<'_>, f: impl FnOnce() -> T) -> T {
    // SAFETY: the pointer is only used while `runner` is borrowed here: it is
    // put back to what it was before this function returns (the guard runs on
    // unwinding too), so the erased lifetime never outlives the borrow.
    let erased: *mut Runner<'static> = unsafe { std::mem::transmute(runner as *mut Runner<'_>) };
    let before = RUNNER.with(|r| r.replace(Some(erased)));
    struct Restore(Option<*mut Runner<'static>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            RUNNER.with(|r| r.set(self.0));
        }
    }
    let _restore = Restore(before);
    f()
}

/// Run callback `id`. The runner is taken out while it runs, so a backward
/// pass started inside a callback installs its own.
pub fn call(id: u64, grads: Vec<Option<Tensor>>) -> Result<Vec<Option<Tensor>>> {
    let Some(runner) = RUNNER.with(|r| r.take()) else {
        return Err(Error::new(
            ErrorKind::Value,
            "a backward rule written in Python ran outside a backward() call",
        ));
    };
    struct Restore(*mut Runner<'static>);
    impl Drop for Restore {
        fn drop(&mut self) {
            RUNNER.with(|r| r.set(Some(self.0)));
        }
    }
    let _restore = Restore(runner);
    // SAFETY: installed by `with_runner`, whose borrow is still live (we are
    // inside its `f`), and not aliased: it was taken out of the slot above.
    unsafe { (*runner)(id, grads) }
}

/// The hooks registered on one tensor, in registration order.
#[derive(Default)]
pub struct Hooks(Mutex<Vec<Owned>>);

impl Hooks {
    pub fn add(&self, id: u64) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Owned(id));
    }
    /// Forget hook `id` (its handle's `remove()`).
    pub fn remove(&self, id: u64) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|h| h.0 != id);
    }
    /// Run each hook on the gradient in turn; one that gives back a tensor
    /// replaces it.
    pub fn apply(&self, mut g: Tensor) -> Result<Tensor> {
        // Every node and leaf of every backward pass comes here; most have no hooks.
        if self.0.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
            return Ok(g);
        }
        let ids: Vec<u64> = self
            .0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|h| h.0)
            .collect();
        for id in ids {
            if let Some(Some(new)) = call(id, vec![Some(g.clone())])?.into_iter().next() {
                g = new;
            }
        }
        Ok(g)
    }
}
