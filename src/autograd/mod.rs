//! Define-by-run automatic differentiation. Every differentiable op, after
//! computing its result, calls [`record`]: when grad mode is on and an input
//! requires grad, the result gets a [`Node`] holding the op's backward rule and
//! edges to its inputs' nodes. `backward()` walks that graph ([`engine`]).
//! The graph lives in the tensors, so dropping the last handle frees it.

pub mod callback;
pub mod composite;
pub mod engine;
pub mod graph;
pub mod inplace;
pub mod node;
pub mod rules;

use std::cell::Cell;
use std::sync::Arc;

pub use node::{BackwardFn, Edge, Node};

use crate::error::{Result, value_err};
use crate::tensor::Tensor;

thread_local! {
    static GRAD_ENABLED: Cell<bool> = const { Cell::new(true) };
}

/// Is grad mode on (outside every `no_grad { }`)?
pub fn is_enabled() -> bool {
    GRAD_ENABLED.with(|g| g.get())
}

/// Switches grad mode off until dropped (restoring it even when an error unwinds).
pub struct NoGradGuard(bool);

impl NoGradGuard {
    pub fn new() -> NoGradGuard {
        NoGradGuard::set(false)
    }

    /// Grad mode `enabled` until dropped (`with torch.enable_grad():` passes true).
    pub fn set(enabled: bool) -> NoGradGuard {
        NoGradGuard(GRAD_ENABLED.with(|g| g.replace(enabled)))
    }
}

/// `torch.set_grad_enabled(b)` called on its own: from now on.
pub fn set_enabled(enabled: bool) {
    GRAD_ENABLED.with(|g| g.set(enabled));
}

impl Default for NoGradGuard {
    fn default() -> Self {
        NoGradGuard::new()
    }
}

impl Drop for NoGradGuard {
    fn drop(&mut self) {
        GRAD_ENABLED.with(|g| g.set(self.0));
    }
}

/// Run `f` with grad mode off: for ops whose forward is built from other ops but
/// which record one node of their own.
pub fn no_grad<T>(f: impl FnOnce() -> T) -> T {
    let _g = NoGradGuard::new();
    f()
}

/// Would an op on these inputs be recorded?
pub fn needs_grad(inputs: &[&Tensor]) -> bool {
    is_enabled() && inputs.iter().any(|t| t.requires_grad())
}

/// The edge a gradient for `t` flows along: its node, or the leaf itself.
pub fn edge_of(t: &Tensor) -> Option<Edge> {
    match t.grad_fn() {
        Some(node) => Some(Edge::Node(node)),
        None if t.requires_grad() => Some(Edge::Leaf(t.clone())),
        None => None,
    }
}

/// Attach a node named `name` to `out` when any input requires grad. `make`
/// builds the backward rule (only then, so nothing is saved needlessly): given the
/// gradient of `out` it returns one optional gradient per input. `saves` says
/// whether the rule keeps tensors, which a second backward would find freed.
pub fn record(
    out: Tensor,
    name: &'static str,
    inputs: &[&Tensor],
    saves: bool,
    make: impl FnOnce() -> BackwardFn,
) -> Tensor {
    if !needs_grad(inputs) || !out.dtype().is_float() {
        return out;
    }
    // An op that hands back its input unchanged (x.contiguous(), x.float() on a
    // float) returns the same tensor, history and all, as PyTorch does.
    if inputs.iter().any(|t| t.same_tensor(&out)) {
        return out;
    }
    let node = Node::new(name, inputs, &out, saves, make());
    out.set_grad_fn(Some(Arc::new(node)));
    out
}

/// Give the node that made `t` PyTorch's name for a whole composite function
/// (mse_loss built from sub, pow and mean shows MseLossBackward0).
pub fn relabel(t: Tensor, name: &'static str) -> Tensor {
    if let Some(n) = t.grad_fn() {
        n.set_name(name);
    }
    t
}

/// A tensor kept for the backward pass, with the storage version it had then: if
/// an in-place op changes it before backward, the gradient would be wrong, so
/// backward refuses (PyTorch's "modified by an inplace operation").
#[derive(Clone)]
pub struct Saved {
    t: Tensor,
    version: u64,
    /// The op's own output: under create_graph it is given back the history of
    /// the node now running its rule (that node made it).
    output: bool,
}

thread_local! {
    static RUNNING: std::cell::RefCell<Option<std::sync::Arc<Node>>> = const { std::cell::RefCell::new(None) };
}

/// Run a node's rule, noting the node so that its saved output can be re-linked.
pub fn running<T>(node: &std::sync::Arc<Node>, f: impl FnOnce() -> T) -> T {
    let before = RUNNING.with(|r| r.replace(Some(node.clone())));
    let out = f();
    RUNNING.with(|r| *r.borrow_mut() = before);
    out
}

impl Saved {
    pub fn new(t: &Tensor) -> Saved {
        Saved {
            t: t.clone(),
            version: t.version(),
            output: false,
        }
    }
    /// An op's own output, saved without its history: the output's node holds the
    /// rule that holds this, so keeping the history would be a cycle (a leak).
    pub fn output(t: &Tensor) -> Saved {
        Saved {
            t: t.view_with(t.layout().clone()),
            version: t.version(),
            output: true,
        }
    }

    pub fn get(&self) -> Result<Tensor> {
        let now = self.t.version();
        if now != self.version {
            return Err(value_err(format!(
                "one of the tensors needed for gradient computation ({} {}) has been modified by an in-place operation: it is at version {now}, expected version {}",
                crate::tensor::shape::fmt_shape(self.t.shape()),
                self.t.dtype(),
                self.version
            ))
            .hint("use the out-of-place form (t = t + x, not t += x) on tensors a graph still needs, or recompute the graph"));
        }
        if self.output && is_enabled() {
            let linked = self.t.view_with(self.t.layout().clone());
            linked.set_grad_fn(RUNNING.with(|r| r.borrow().clone()));
            return Ok(linked);
        }
        Ok(self.t.clone())
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::tensor::op::BinaryOp;
    use crate::tensor::op::{ReduceOp, ScanOp};
    use crate::tensor::ops::{elementwise, reduce};

    crate::unit_tests! {
        /// Rules that keep their op's output must not keep the output's history too:
        /// once the last handle to a result goes, its node must go with it.
        fn dropping_a_result_frees_its_node() {
            let x = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]);
            x.set_requires_grad(true);
            let results = [
                elementwise::binary(BinaryOp::Pow, &x, &x).unwrap(),
                reduce::reduce(&x, ReduceOp::Prod, None, false).unwrap(),
                reduce::softmax(&x, 0).unwrap(),
                reduce::scan(&x, ScanOp::Prod, 0).unwrap(),
            ];
            for r in results {
                let node = r.grad_fn().expect("recorded");
                drop(r);
                assert_eq!(
                    Arc::strong_count(&node),
                    1,
                    "{} outlived its tensor",
                    node.name()
                );
            }
        }
    }
}
