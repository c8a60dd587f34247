//! Rules for views, indexing, joins and index-selecting ops (sort, topk, max(dim)):
//! gradients are scattered back to where the elements came from.

use super::rule;
use crate::autograd::record;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::index::{Idx, index_put_raw, scatter_add, write_all};
use crate::tensor::ops::view::{permute, reshape, select};

/// Ops whose output is the input in another shape (view, reshape, flatten,
/// squeeze, unsqueeze): the gradient is reshaped back.
pub fn record_reshape(name: &'static str, x: &Tensor, out: Tensor) -> Tensor {
    let shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    record(out, name, &[x], false, move || {
        rule(move |g| Ok(vec![Some(reshape(g, &shape)?)]))
    })
}

/// transpose/permute/t: the gradient is permuted back.
pub fn record_permute(name: &'static str, x: &Tensor, dims: &[usize], out: Tensor) -> Tensor {
    let mut inverse = vec![0i64; dims.len()];
    for (i, &d) in dims.iter().enumerate() {
        inverse[d] = i as i64;
    }
    record(out, name, &[x], false, move || {
        rule(move |g| Ok(vec![Some(permute(g, &inverse)?)]))
    })
}

/// expand: the engine sums the gradient back to the input's shape.
pub fn record_expand(x: &Tensor, out: Tensor) -> Tensor {
    record(out, "ExpandBackward0", &[x], false, || {
        rule(|g| Ok(vec![Some(g.clone())]))
    })
}

/// Views that pick distinct elements (slices, select, narrow, split): apply the same
/// view to a zero tensor and write the gradient through it.
pub fn record_view_of(
    name: &'static str,
    x: &Tensor,
    out: Tensor,
    view: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static,
) -> Tensor {
    let shape = x.shape().to_vec();
    let view = std::sync::Arc::new(view);
    let placement: crate::autograd::node::Placement = view.clone();
    let out = record(out, name, &[x], false, move || {
        rule(move |g| {
            let z = zeros_on(&shape, g.dtype(), g.device())?;
            crate::autograd::no_grad(|| write_all(&view(&z)?, g))?;
            // Under create_graph the placed gradient is itself differentiable:
            // its gradient is the same view of the incoming one.
            let again = view.clone();
            Ok(vec![Some(record(z, name, &[g], false, move || {
                rule(move |gg| Ok(vec![Some(again(gg)?.contiguous()?)]))
            }))])
        })
    });
    if let Some(node) = out.grad_fn() {
        node.set_placement(placement);
    }
    out
}

/// Advanced indexing `x[indices]`: the gradient is added back at the positions
/// the same index selects in a zero tensor (repeats add up).
pub fn record_index(x: &Tensor, out: Tensor, indices: Vec<Idx>) -> Tensor {
    let shape = x.shape().to_vec();
    record(out, "IndexBackward0", &[x], false, move || {
        rule(move |g| {
            let z = zeros_on(&shape, g.dtype(), g.device())?;
            index_put_raw(&z, &indices, g, true)?;
            Ok(vec![Some(z)])
        })
    })
}

/// Values picked along `dim` at `indices` (max/min with dim, sort, topk, gather):
/// each gradient element goes back to the index it was taken from. `indices` has
/// the output's shape with `dim` kept.
pub fn record_take_along(
    name: &'static str,
    x: &Tensor,
    dim: usize,
    indices: &Tensor,
    out: Tensor,
) -> Tensor {
    let shape = x.shape().to_vec();
    let idx = indices.clone();
    record(out, name, &[x], false, move || {
        rule(move |g| {
            let g = reshape(
                g,
                &idx.shape().iter().map(|&d| d as i64).collect::<Vec<_>>(),
            )?;
            let z = zeros_on(&shape, g.dtype(), g.device())?;
            if shape.is_empty() {
                return Ok(vec![Some(crate::tensor::ops::arith::add(&z, &g)?)]);
            }
            Ok(vec![Some(scatter_add(&z, dim, &idx, &g)?)])
        })
    })
}

/// gather: the gradient is added back at the gathered positions, by a scatter
/// that records its own graph (so the second derivative exists, as in PyTorch).
pub fn record_gather(x: &Tensor, dim: usize, index: &Tensor, out: Tensor) -> Tensor {
    let shape = x.shape().to_vec();
    let idx = index.clone();
    record(out, "GatherBackward0", &[x], false, move || {
        rule(move |g| {
            let z = zeros_on(&shape, g.dtype(), g.device())?;
            let scattered = crate::tensor::ops::select::scatter(&z, dim as i64, &idx, g, true)?;
            Ok(vec![Some(scattered)])
        })
    })
}

/// cat: each input gets its slice of the gradient.
pub fn record_cat(inputs: &[Tensor], dim: usize, out: Tensor) -> Tensor {
    let sizes: Vec<usize> = inputs
        .iter()
        .map(|t| {
            if t.ndim() == 1 && t.numel() == 0 {
                0
            } else {
                t.shape()[dim]
            }
        })
        .collect();
    let refs: Vec<&Tensor> = inputs.iter().collect();
    record(out, "CatBackward0", &refs, false, move || {
        rule(move |g| {
            let mut start = 0;
            let mut grads = vec![];
            for &s in &sizes {
                grads.push(Some(g.view_with(g.layout().slice(dim, start, s, 1))));
                start += s;
            }
            Ok(grads)
        })
    })
}

/// stack: each input gets its index of the gradient.
pub fn record_stack(inputs: &[Tensor], dim: usize, out: Tensor) -> Tensor {
    let n = inputs.len();
    let refs: Vec<&Tensor> = inputs.iter().collect();
    record(out, "StackBackward0", &refs, false, move || {
        rule(move |g| (0..n).map(|i| select(g, dim, i as i64).map(Some)).collect())
    })
}

/// A saved-tensor-free copy whose gradient is the identity (clone, contiguous).
pub fn record_copy(name: &'static str, x: &Tensor, out: Tensor) -> Tensor {
    super::elementwise::record_identity(name, x, out)
}
