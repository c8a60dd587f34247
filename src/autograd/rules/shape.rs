//! Rules for views, indexing, joins and index-selecting ops (sort, topk, max(dim)):
//! gradients are scattered back to where the elements came from.

use super::rule;
use crate::autograd::record;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::layout::numel;
use crate::tensor::ops::creation::zeros;
use crate::tensor::ops::index::write_all;
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
    record(out, name, &[x], false, move || {
        rule(move |g| {
            let z = zeros(&shape, g.dtype())?;
            write_all(&view(&z)?, g)?;
            Ok(vec![Some(z)])
        })
    })
}

/// Ops that gather elements, perhaps repeatedly (advanced indexing, repeat...): the
/// same op applied to element positions says where each output element came from,
/// and the gradient is summed into those positions.
pub fn record_gather(
    name: &'static str,
    x: &Tensor,
    out: Tensor,
    gather: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static,
) -> Tensor {
    let shape = x.shape().to_vec();
    record(out, name, &[x], false, move || {
        rule(move |g| {
            let n = numel(&shape);
            let positions = Tensor::from_vec((0..n as i64).collect::<Vec<_>>(), &shape);
            let pos = gather(&positions)?.to_i64_vec();
            let gv = g.to_f64_vec();
            let mut acc = vec![0.0f64; n];
            for (p, v) in pos.iter().zip(gv) {
                acc[*p as usize] += v;
            }
            Ok(vec![Some(
                Tensor::from_vec(acc, &shape).to_dtype(g.dtype()),
            )])
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
    let idx_shape = indices.shape().to_vec();
    let idx = indices.to_i64_vec();
    record(out, name, &[x], false, move || {
        rule(move |g| {
            let gv =
                reshape(g, &idx_shape.iter().map(|&d| d as i64).collect::<Vec<_>>())?.to_f64_vec();
            Ok(vec![Some(
                scatter_along(&shape, dim, &idx_shape, &idx, &gv).to_dtype(g.dtype()),
            )])
        })
    })
}

/// A zero tensor of `shape` (f64) with `src` added at `idx` along `dim`.
pub fn scatter_along(
    shape: &[usize],
    dim: usize,
    idx_shape: &[usize],
    idx: &[i64],
    src: &[f64],
) -> Tensor {
    let mut acc = vec![0.0f64; numel(shape)];
    if shape.is_empty() {
        acc.iter_mut().zip(src).for_each(|(a, s)| *a += s);
        return Tensor::from_vec(acc, shape);
    }
    let strides = crate::tensor::layout::Layout::contiguous(shape).strides;
    let mut coord = vec![0usize; idx_shape.len()];
    for (&i, &v) in idx.iter().zip(src) {
        let mut off = 0usize;
        for d in 0..coord.len() {
            let c = if d == dim { i as usize } else { coord[d] };
            off += c * strides[d];
        }
        acc[off] += v;
        // Next row-major coordinate.
        for d in (0..coord.len()).rev() {
            coord[d] += 1;
            if coord[d] < idx_shape[d] {
                break;
            }
            coord[d] = 0;
        }
    }
    Tensor::from_vec(acc, shape)
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
