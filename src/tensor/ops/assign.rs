//! In-place arithmetic written straight into the tensor (`a.add_(b)`,
//! `a += b`, `a -= b[0]`): the same kernel as `a + b`, so the same
//! bits, without a result buffer to allocate, fill and swap in (updates of
//! several tensors at once, an optimizer's, are tensor/ops/update.rs). Where the
//! fast path does not apply (autograd recording, a result dtype or shape
//! other than the tensor's, a view over another operand's memory, a device
//! without it) the caller computes out of place and writes the result back.

use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::op::BinaryOp;
use crate::tensor::shape::broadcast_shapes;

/// `t = t op other`, written into t's own elements. Ok(false) where the
/// fast path does not apply (nothing was written).
pub fn binary_assign(op: BinaryOp, t: &Tensor, other: &Tensor) -> Result<bool> {
    if !applies(op, t, other)? {
        return Ok(false);
    }
    let other = crate::autograd::no_grad(|| other.to_dtype(t.dtype()))?;
    let lb = other.layout().expand(t.shape());
    let src = other.read();
    t.write().binary_assign(t.layout(), &src, &lb, op)
}

/// What every in-place fast path needs: nothing records the update, t's
/// elements are one contiguous run, every operand is real, none shares t's
/// memory, and each broadcasts to t's shape. The device is the backend's
/// to decide.
fn writable(t: &Tensor, operands: &[&Tensor]) -> bool {
    let fits = |o: &&Tensor| {
        !o.dtype().is_complex()
            && !t.shares_storage(o)
            && broadcast_shapes(t.shape(), o.shape()).ok().as_deref() == Some(t.shape())
    };
    !t.dtype().is_complex()
        && t.is_contiguous()
        && !crate::autograd::needs_grad(&[t])
        && !crate::autograd::needs_grad(operands)
        && operands.iter().all(fits)
}

fn applies(op: BinaryOp, t: &Tensor, other: &Tensor) -> Result<bool> {
    let arithmetic = matches!(
        op,
        BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
    );
    if !arithmetic || !writable(t, &[other]) {
        return Ok(false);
    }
    // The result must be what `t op other` would be: t's dtype, computed as
    // the out-of-place op computes it.
    let Ok(dtype) = super::elementwise::compute_dtype(op, t, other) else {
        return Ok(false);
    };
    Ok(dtype == t.dtype() && !super::elementwise::number_kept_in_float(op, dtype, t, other))
}
