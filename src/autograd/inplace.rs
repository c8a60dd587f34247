//! In-place writes and autograd: what PyTorch refuses, and how a tensor written
//! in place takes on the history of what was written into it.

use std::sync::Arc;

use super::is_enabled;
use super::node::Node;
use super::rules::rule;
use crate::error::{Result, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::index::{Idx, index, index_put_raw};

/// Refuse an in-place write PyTorch refuses (grad mode on only).
pub fn check(t: &Tensor, value: &Tensor) -> Result<()> {
    if !is_enabled() {
        return Ok(());
    }
    if t.is_leaf() && t.requires_grad() {
        return Err(value_err(
            "a leaf tensor that requires grad is being used in an in-place operation",
        )
        .hint("update parameters inside no_grad { ... } (e.g. no_grad { w -= lr * w.grad }), or use an out-of-place op"));
    }
    if t.is_view() && (t.requires_grad() || value.requires_grad()) {
        return Err(value_err(
            "an in-place operation on a view of a tensor that takes part in autograd is not supported",
        )
        .hint("index the tensor itself (t[i, j] = v rather than t[i][j] = v), or build the result out of place"));
    }
    Ok(())
}

/// After `t` was overwritten entirely by `value` (same shape as t, or broadcast):
/// t's history is now value's (a `t += x` gives t the AddBackward0 of `t + x`).
pub fn after_write_all(t: &Tensor, value: &Tensor) {
    if !is_enabled() || !(t.requires_grad() || value.requires_grad()) {
        return;
    }
    if !value.requires_grad() {
        // Overwritten by a constant: no gradient flows to what t was.
        let node = Node::new("FillBackward0", &[t], t, false, rule(|_| Ok(vec![None])));
        t.set_grad_fn(Some(Arc::new(node)));
        return;
    }
    if let Some(node) = value.grad_fn()
        && value.shape() == t.shape()
        && value.dtype() == t.dtype()
    {
        t.set_grad_fn(Some(node));
        return;
    }
    let node = Node::new(
        "CopyBackwards",
        &[t, value],
        t,
        false,
        rule(|g| Ok(vec![None, Some(g.clone())])),
    );
    t.set_grad_fn(Some(Arc::new(node)));
}

/// `t[indices] = value` with autograd: the selected part's gradient goes to value,
/// the rest to what t was.
pub fn index_put(t: &Tensor, indices: &[Idx], value: &Tensor) -> Result<()> {
    check(t, value)?;
    index_put_raw(t, indices, value, false)?;
    if !is_enabled() || !(t.requires_grad() || value.requires_grad()) {
        return Ok(());
    }
    let idx = indices.to_vec();
    let node = Node::new("IndexPutBackward0", &[t, value], t, false, {
        rule(move |g| {
            let rest = g.deep_clone()?;
            index_put_raw(&rest, &idx, &Tensor::scalar_f64(0.0, g.dtype()), false)?;
            Ok(vec![Some(rest), Some(index(g, &idx)?)])
        })
    });
    t.set_grad_fn(Some(Arc::new(node)));
    Ok(())
}
