//! Splitting a tensor into views: split, chunk, unbind, tensor_split and
//! h/v/dsplit. Every part is a view of the input.

use crate::autograd::rules::shape::record_view_of;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::ops::view::{select, slice_dim};
use crate::tensor::shape::existing_dim;

pub fn split_sizes(t: &Tensor, sizes: &[usize], dim: i64) -> Result<Vec<Tensor>> {
    split_named(t, sizes, dim, "SplitWithSizesBackward0")
}

fn split_named(
    t: &Tensor,
    sizes: &[usize],
    dim: i64,
    grad_fn: &'static str,
) -> Result<Vec<Tensor>> {
    let d = existing_dim(dim, t.ndim())?;
    let total: usize = sizes.iter().sum();
    if total != t.shape()[d] {
        return Err(shape_err(format!(
            "split sizes {:?} add up to {total}, but dimension {d} has size {}",
            sizes,
            t.shape()[d]
        )));
    }
    let mut start = 0;
    let mut out = Vec::new();
    for &s in sizes {
        let part = t.view_with(t.layout().slice(d, start, s, 1));
        out.push(record_view_of(grad_fn, t, part, move |z| {
            Ok(z.view_with(z.layout().slice(d, start, s, 1)))
        }));
        start += s;
    }
    Ok(out)
}

pub fn split(t: &Tensor, size: usize, dim: i64) -> Result<Vec<Tensor>> {
    let d = existing_dim(dim, t.ndim())?;
    if size == 0 {
        return Err(value_err("split size must be positive"));
    }
    let n = t.shape()[d];
    check_parts(n / size, "split")?;
    let mut sizes = vec![size; n / size];
    if !n.is_multiple_of(size) {
        sizes.push(n % size);
    }
    split_named(t, &sizes, dim, "SplitBackward0")
}

pub fn chunk(t: &Tensor, chunks: i64, dim: i64) -> Result<Vec<Tensor>> {
    if chunks <= 0 {
        return Err(value_err("chunk expects a positive number of chunks"));
    }
    let d = existing_dim(dim, t.ndim())?;
    let n = t.shape()[d];
    let size = n.div_ceil(chunks as usize).max(1);
    if n == 0 {
        return Ok(vec![t.clone()]);
    }
    split(t, size, dim)
}

/// Most tensors one split or unbind may return: each is a view, with its own
/// bookkeeping, so `ones(0, 2**40).unbind(1)` is a memory error, not a hang.
const MAX_PARTS: usize = 1 << 26;

fn check_parts(n: usize, op: &str) -> Result<()> {
    if n > MAX_PARTS {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Memory,
            format!("{op} would return {n} tensors (the limit is {MAX_PARTS})"),
        )
        .hint("index or narrow the part you need instead"));
    }
    Ok(())
}

pub fn unbind(t: &Tensor, dim: i64) -> Result<Vec<Tensor>> {
    let d = existing_dim(dim, t.ndim())?;
    check_parts(t.shape()[d], "unbind")?;
    (0..t.shape()[d]).map(|i| select(t, d, i as i64)).collect()
}

/// `tensor_split(t, sections)`: `sections` nearly equal parts, the first
/// `n % sections` one longer (as NumPy's array_split).
pub fn tensor_split(t: &Tensor, sections: i64, dim: i64) -> Result<Vec<Tensor>> {
    if sections <= 0 {
        return Err(value_err(format!(
            "number of sections must be larger than 0, got {sections}"
        )));
    }
    let d = existing_dim(dim, t.ndim())?;
    let (n, s) = (t.shape()[d] as i64, sections);
    check_parts(s as usize, "tensor_split")?;
    let mut start = 0;
    (0..s)
        .map(|i| {
            let len = n / s + i64::from(i < n % s);
            start += len;
            slice_dim(t, d, Some(start - len), Some(start), 1)
        })
        .collect()
}

/// `tensor_split(t, [i, j])`: the parts `t[:i]`, `t[i:j]`, `t[j:]` along dim.
pub fn tensor_split_at(t: &Tensor, indices: &[i64], dim: i64) -> Result<Vec<Tensor>> {
    let d = existing_dim(dim, t.ndim())?;
    let n = t.shape()[d] as i64;
    let bounds: Vec<i64> = std::iter::once(0)
        .chain(
            indices
                .iter()
                .map(|&i| if i < 0 { (i + n).max(0) } else { i.min(n) }),
        )
        .chain(std::iter::once(n))
        .collect();
    bounds
        .windows(2)
        .map(|w| slice_dim(t, d, Some(w[0]), Some(w[1].max(w[0])), 1))
        .collect()
}

/// `hsplit`/`vsplit`/`dsplit`: tensor_split along dim 1 (0 for 1-d), 0 or 2, where a
/// number of sections must divide the dim evenly.
pub fn directional_split(
    t: &Tensor,
    which: char,
    sections: Option<i64>,
    indices: &[i64],
) -> Result<Vec<Tensor>> {
    let (name, min_dims, dim) = match which {
        'h' => ("hsplit", 1, if t.ndim() == 1 { 0 } else { 1 }),
        'v' => ("vsplit", 2, 0),
        _ => ("dsplit", 3, 2),
    };
    if t.ndim() < min_dims {
        return Err(shape_err(format!(
            "torch.{name} requires a tensor with at least {min_dims} dimension, but got a tensor with {} dimensions!",
            t.ndim()
        )));
    }
    let Some(s) = sections else {
        return tensor_split_at(t, indices, dim);
    };
    let size = t.shape()[dim as usize] as i64;
    if s == 0 || size % s != 0 {
        return Err(shape_err(format!(
            "torch.{name} attempted to split along dimension {dim}, but the size of the dimension {size} is not divisible by the split_size {s}!"
        )));
    }
    tensor_split(t, s, dim)
}
