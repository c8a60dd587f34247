//! Reductions over groups of elements that a kernel would gather by value
//! or by index: torch.mode, scatter_reduce, index_reduce and put. Computed on the host over the
//! elements' values (int64 stays exact in f64 below 2^53), then moved back.

use crate::autograd::relabel;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::op::math::{nan_max_f64, nan_min_f64};
use crate::tensor::shape::normalize_dim;

/// Row-major strides of a shape.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        s[i] = s[i + 1] * shape[i + 1];
    }
    s
}

/// torch.mode: the most frequent value of each slice along dim (the smallest
/// of a tie) and the index of its last occurrence.
pub fn mode(x: &Tensor, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    let t = if x.ndim() == 0 {
        crate::tensor::ops::view::reshape(x, &[1])?
    } else {
        x.clone()
    };
    let d = normalize_dim(dim, t.ndim())?;
    let shape = t.shape().to_vec();
    let n = shape[d];
    if n == 0 {
        return Err(shape_err(
            "mode(): Expected reduction dim to have non-zero size.",
        ));
    }
    let vals = t.contiguous()?.to_host_f64()?;
    let st = strides(&shape);
    let outer: usize = shape[..d].iter().product();
    let inner: usize = shape[d + 1..].iter().product();
    let (mut mv, mut mi) = (vec![], vec![]);
    for o in 0..outer {
        for i in 0..inner {
            let base = o * st[d] * n + i;
            let mut slice: Vec<(f64, usize)> =
                (0..n).map(|k| (vals[base + k * st[d]], k)).collect();
            slice.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let (mut best, mut best_count, mut best_idx) = (slice[0].0, 0, 0);
            let mut k = 0;
            while k < n {
                let mut j = k;
                while j < n && slice[j].0.total_cmp(&slice[k].0).is_eq() {
                    j += 1;
                }
                if j - k > best_count {
                    (best, best_count, best_idx) = (slice[k].0, j - k, slice[j - 1].1);
                }
                k = j;
            }
            mv.push(best);
            mi.push(best_idx as i64);
        }
    }
    let mut out_shape = shape.clone();
    if keepdim && x.ndim() > 0 {
        out_shape[d] = 1;
    } else {
        out_shape.remove(d);
    }
    let out_shape = if x.ndim() == 0 { vec![] } else { out_shape };
    let values = Tensor::from_vec(mv, &out_shape)
        .to_dtype(x.dtype())?
        .to_device(x.device())?;
    let indices = Tensor::from_vec(mi, &out_shape).to_device(x.device())?;
    Ok((values, indices))
}

/// Tensor.scatter_reduce: src's elements reduced into `input` at index along
/// dim with sum, prod, mean, amax or amin (with or without input's own values).
pub fn scatter_reduce(
    input: &Tensor,
    dim: i64,
    index: &Tensor,
    src: &Tensor,
    reduce: &str,
    include_self: bool,
) -> Result<Tensor> {
    // The combining step, chosen once (not per element).
    let combine: fn(f64, f64) -> f64 = match reduce {
        "sum" | "mean" => |a, b| a + b,
        "prod" => |a, b| a * b,
        "amax" => nan_max_f64,
        "amin" => nan_min_f64,
        _ => {
            return Err(value_err(format!(
                "reduce argument must be either sum, prod, mean, amax or amin, got {reduce}"
            )));
        }
    };
    if input.dtype() != src.dtype() {
        return Err(crate::error::dtype_err(format!(
            "scatter_reduce(): Expected self.dtype to be equal to src.dtype, but got {} and {}",
            input.dtype(),
            src.dtype()
        )));
    }
    if reduce == "sum" && include_self {
        // Differentiable: it is scatter_add.
        let out = crate::tensor::ops::select::scatter(input, dim, index, src, true)?;
        return Ok(relabel(out, "ScatterReduceBackward0"));
    }
    if input.requires_grad() || src.requires_grad() {
        return Err(value_err(format!(
            "tsh's scatter_reduce(reduce={reduce:?}) has no gradient yet; reduce='sum' with include_self=True has"
        )));
    }
    let d = normalize_dim(dim, input.ndim().max(1))?;
    if index.ndim() != input.ndim().max(1) || src.ndim() != index.ndim() {
        return Err(shape_err(
            "Index tensor must have the same number of dimensions as self tensor",
        ));
    }
    let out_shape = input.shape().to_vec();
    let (ish, ssh) = (index.shape().to_vec(), src.shape().to_vec());
    if (0..ish.len())
        .any(|k| ish[k] > ssh[k] || (k != d && ish[k] > out_shape.get(k).copied().unwrap_or(1)))
    {
        return Err(shape_err(format!(
            "Expected index {ish:?} to be smaller than self {out_shape:?} apart from dimension {d} and to be smaller size than src {ssh:?}"
        )));
    }
    let mut out = input.contiguous()?.to_host_f64()?;
    let idx = index.contiguous()?.to_host_i64()?;
    let sv = src.contiguous()?.to_host_f64()?;
    let (os, is, ss) = (strides(&out_shape), strides(&ish), strides(&ssh));
    let size_d = out_shape.get(d).copied().unwrap_or(1) as i64;
    // How many values each output element reduced (its own counts once).
    let mut count = vec![if include_self { 1.0 } else { 0.0 }; out.len()];
    for (flat, &target) in idx.iter().enumerate() {
        if target < -size_d || target >= size_d {
            return Err(crate::error::index_err(format!(
                "index {target} is out of bounds for dimension {d} with size {size_d}"
            )));
        }
        let t = if target < 0 { target + size_d } else { target } as usize;
        let (mut o, mut s) = (0, 0);
        for k in 0..ish.len() {
            let c = flat / is[k] % ish[k];
            o += if k == d { t } else { c } * os.get(k).copied().unwrap_or(1);
            s += c * ss[k];
        }
        out[o] = if count[o] == 0.0 {
            sv[s]
        } else {
            combine(out[o], sv[s])
        };
        count[o] += 1.0;
    }
    if reduce == "mean" {
        let integral = !input.dtype().is_float();
        for (o, c) in out.iter_mut().zip(&count) {
            if *c > 0.0 {
                *o = if integral { (*o / c).floor() } else { *o / c };
            }
        }
    }
    Tensor::from_vec(out, &out_shape)
        .to_dtype(input.dtype())?
        .to_device(input.device())
}

/// Tensor.put: a copy of input, seen flat, with source's elements written (or
/// added, with accumulate) at index. A scatter on the flat tensor, so the
/// gradients are scatter's.
pub fn put(input: &Tensor, index: &Tensor, source: &Tensor, accumulate: bool) -> Result<Tensor> {
    use crate::tensor::ops::view::reshape;
    if index.numel() != source.numel() {
        return Err(shape_err(format!(
            "put_(): Expected source and index to have the same number of elements, but got source.numel() = {}, index.numel() = {}",
            source.numel(),
            index.numel()
        )));
    }
    let n = input.numel() as i64;
    let flat_index = reshape(index, &[-1])?;
    for &i in &flat_index.to_host_i64()? {
        if i < -n || i >= n {
            return Err(crate::error::index_err(format!(
                "out of range: tried to access index {i} on a tensor of {n} elements."
            )));
        }
    }
    // Negative positions count from the end, as in take.
    let wrapped = crate::tensor::ops::arith::bin(
        crate::tensor::op::BinaryOp::Rem,
        &flat_index,
        &crate::tensor::ops::arith::int(n.max(1)),
    )?;
    let flat = reshape(input, &[-1])?;
    let out = crate::tensor::ops::select::scatter(
        &flat,
        0,
        &wrapped,
        &reshape(source, &[-1])?,
        accumulate,
    )?;
    let shape: Vec<i64> = input.shape().iter().map(|&s| s as i64).collect();
    Ok(relabel(reshape(&out, &shape)?, "PutBackward0"))
}

/// Tensor.index_reduce: source's slices along dim reduced into input at the
/// positions a 1-d index names (prod, mean, amax, amin): scatter_reduce with
/// the index spread over each slice.
pub fn index_reduce(
    input: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    reduce: &str,
    include_self: bool,
) -> Result<Tensor> {
    if !matches!(reduce, "prod" | "mean" | "amax" | "amin") {
        return Err(value_err(format!(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}."
        )));
    }
    if index.ndim() > 1 {
        return Err(shape_err("Index has to be a vector/scalar"));
    }
    let d = normalize_dim(dim, input.ndim().max(1))?;
    let nd = source.ndim().max(1);
    let n = index.numel();
    if source.ndim() > 0 && source.shape()[d.min(nd - 1)] != n {
        return Err(shape_err(format!(
            "index_reduce_(): Number of indices ({n}) should be equal to source.size(dim) ({})",
            source.shape()[d.min(nd - 1)]
        )));
    }
    let mut along = vec![1i64; nd];
    along[d.min(nd - 1)] = n as i64;
    let spread = crate::tensor::ops::view::expand(
        &crate::tensor::ops::view::reshape(index, &along)?,
        &source.shape().iter().map(|&s| s as i64).collect::<Vec<_>>(),
    )?;
    scatter_reduce(
        input,
        dim,
        &spread.contiguous()?,
        source,
        reduce,
        include_self,
    )
}
