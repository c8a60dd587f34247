//! View ops: a new layout over the same storage. `reshape` copies only when no
//! view of the requested shape exists, as in PyTorch.

use crate::autograd::rules::shape::{
    record_expand, record_permute, record_reshape, record_view_of,
};
use crate::error::{Result, index_err, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::layout::Layout;
use crate::tensor::shape::{
    check_broadcast_to, existing_dim, fmt_shape, infer_shape, normalize_dim, normalize_insert_dim,
};

pub fn view(t: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let shape = infer_shape(shape, t.numel())?;
    match t.layout().view_strides(&shape) {
        Some(strides) => Ok(record_reshape(
            "ViewBackward0",
            t,
            t.view_with(Layout {
                shape: shape.into(),
                strides,
                offset: t.offset(),
            }),
        )),
        None => Err(shape_err(format!(
            "view of shape {} is impossible for this non-contiguous {} tensor (strides {:?})",
            fmt_shape(&shape),
            fmt_shape(t.shape()),
            t.strides()
        ))
        .hint("use .reshape(...), which copies when it must, or call .contiguous() first")),
    }
}

pub fn reshape(t: &Tensor, shape: &[i64]) -> Result<Tensor> {
    let shape = infer_shape(shape, t.numel())?;
    let (name, out) = match t.layout().view_strides(&shape) {
        Some(strides) => (
            "ViewBackward0",
            t.view_with(Layout {
                shape: shape.into(),
                strides,
                offset: t.offset(),
            }),
        ),
        None if t.dtype().is_complex() => {
            let copy = crate::autograd::no_grad(|| t.deep_clone())?;
            (
                "UnsafeViewBackward0",
                copy.view_with(Layout::contiguous(&shape)),
            )
        }
        None => {
            crate::tensor::core::check_alloc(&shape, t.dtype())?;
            let copy = t.read().cast(t.layout(), t.dtype())?;
            ("UnsafeViewBackward0", Tensor::from_contiguous(copy, &shape))
        }
    };
    Ok(record_reshape(name, t, out))
}

pub fn transpose(t: &Tensor, a: i64, b: i64) -> Result<Tensor> {
    let n = t.ndim();
    if n == 0 {
        return Ok(record_reshape(
            "TransposeBackward0",
            t,
            t.view_with(t.layout().clone()),
        ));
    }
    let (a, b) = (normalize_dim(a, n)?, normalize_dim(b, n)?);
    let mut dims: Vec<usize> = (0..n).collect();
    dims.swap(a, b);
    Ok(record_permute(
        "TransposeBackward0",
        t,
        &dims,
        t.view_with(t.layout().transpose(a, b)),
    ))
}

/// `t.T`/`t.t()`: reverse the dims (PyTorch's `.T`); `.t()` accepts at most 2-d.
pub fn reverse_dims(t: &Tensor) -> Tensor {
    reversed(t, "PermuteBackward0")
}

fn reversed(t: &Tensor, name: &'static str) -> Tensor {
    let dims: Vec<usize> = (0..t.ndim()).rev().collect();
    record_permute(name, t, &dims, t.view_with(t.layout().permute(&dims)))
}

pub fn t2d(t: &Tensor) -> Result<Tensor> {
    if t.ndim() > 2 {
        return Err(shape_err(format!(
            "t() expects a tensor with at most 2 dimensions, but this one has {}",
            t.ndim()
        ))
        .hint("use .transpose(dim0, dim1) or .permute(...) for more dimensions"));
    }
    Ok(reversed(t, "TBackward0"))
}

pub fn permute(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    if dims.len() != t.ndim() {
        return Err(shape_err(format!(
            "permute needs {} dims for a {} tensor, got {}",
            t.ndim(),
            fmt_shape(t.shape()),
            dims.len()
        )));
    }
    let dims: Vec<usize> = dims
        .iter()
        .map(|&d| normalize_dim(d, t.ndim()))
        .collect::<Result<_>>()?;
    let mut seen = vec![false; dims.len()];
    for &d in &dims {
        if seen[d] {
            return Err(value_err(format!(
                "permute: dim {d} appears more than once"
            )));
        }
        seen[d] = true;
    }
    Ok(record_permute(
        "PermuteBackward0",
        t,
        &dims,
        t.view_with(t.layout().permute(&dims)),
    ))
}

pub fn unsqueeze(t: &Tensor, dim: i64) -> Result<Tensor> {
    let d = normalize_insert_dim(dim, t.ndim())?;
    Ok(record_reshape(
        "UnsqueezeBackward0",
        t,
        t.view_with(t.layout().unsqueeze(d)),
    ))
}

pub fn squeeze(t: &Tensor, dims: Option<&[i64]>) -> Result<Tensor> {
    let name = match dims {
        None => "SqueezeBackward0",
        Some([_]) => "SqueezeBackward1",
        Some(_) => "SqueezeBackward2",
    };
    let dims: Vec<usize> = match dims {
        None => (0..t.ndim()).collect(),
        Some(ds) => ds
            .iter()
            .map(|&d| normalize_dim(d, t.ndim()))
            .collect::<Result<_>>()?,
    };
    Ok(record_reshape(
        name,
        t,
        t.view_with(t.layout().squeeze_dims(&dims)),
    ))
}

pub fn flatten(t: &Tensor, start: i64, end: i64) -> Result<Tensor> {
    if t.ndim() == 0 {
        return reshape(t, &[1]);
    }
    let (s, e) = (
        normalize_dim(start, t.ndim())?,
        normalize_dim(end, t.ndim())?,
    );
    if s > e {
        return Err(value_err("flatten: start_dim cannot come after end_dim"));
    }
    let mut shape: Vec<i64> = t.shape()[..s].iter().map(|&d| d as i64).collect();
    shape.push(t.shape()[s..=e].iter().product::<usize>() as i64);
    shape.extend(t.shape()[e + 1..].iter().map(|&d| d as i64));
    reshape(t, &shape)
}

pub fn narrow(t: &Tensor, dim: i64, start: i64, length: i64) -> Result<Tensor> {
    let d = existing_dim(dim, t.ndim())?;
    let size = t.shape()[d] as i64;
    let start = if start < 0 { start + size } else { start };
    if start < 0 || length < 0 || start.checked_add(length).is_none_or(|end| end > size) {
        return Err(index_err(format!(
            "narrow: start {start} and length {length} exceed dimension {d} of size {size}"
        )));
    }
    let (start, length) = (start as usize, length as usize);
    let out = t.view_with(t.layout().slice(d, start, length, 1));
    Ok(record_view_of("SliceBackward0", t, out, move |z| {
        Ok(z.view_with(z.layout().slice(d, start, length, 1)))
    }))
}

/// Python slice semantics for `start:stop:step` over a dim of `size`.
pub fn slice_dim(
    t: &Tensor,
    dim: usize,
    start: Option<i64>,
    stop: Option<i64>,
    step: i64,
) -> Result<Tensor> {
    if step <= 0 {
        return Err(value_err("slice step must be positive")
            .hint("tensors have no negative steps; use .flip(dim)"));
    }
    let size = t.shape()[dim] as i64;
    let clampi = |v: i64| {
        if v < 0 {
            (v + size).max(0)
        } else {
            v.min(size)
        }
    };
    let s = start.map(clampi).unwrap_or(0);
    let e = stop.map(clampi).unwrap_or(size);
    let len = if e > s { (e - s + step - 1) / step } else { 0 };
    let (s, len, step) = (s as usize, len as usize, step as usize);
    let out = t.view_with(t.layout().slice(dim, s, len, step));
    Ok(record_view_of("SliceBackward0", t, out, move |z| {
        Ok(z.view_with(z.layout().slice(dim, s, len, step)))
    }))
}

pub fn select(t: &Tensor, dim: usize, index: i64) -> Result<Tensor> {
    let size = t.shape()[dim] as i64;
    let i = if index < 0 { index + size } else { index };
    if i < 0 || i >= size {
        return Err(index_err(format!(
            "index {index} is out of bounds for dimension {dim} with size {size}"
        )));
    }
    let i = i as usize;
    let out = t.view_with(t.layout().select(dim, i));
    Ok(record_view_of("SelectBackward0", t, out, move |z| {
        Ok(z.view_with(z.layout().select(dim, i)))
    }))
}

pub fn expand(t: &Tensor, sizes: &[i64]) -> Result<Tensor> {
    if sizes.len() < t.ndim() {
        return Err(shape_err(format!(
            "expand: the number of sizes ({}) must be at least the tensor's dimensions ({})",
            sizes.len(),
            t.ndim()
        )));
    }
    let extra = sizes.len() - t.ndim();
    let shape: Vec<usize> = sizes
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            if s == -1 && i >= extra {
                t.shape()[i - extra]
            } else {
                s.max(0) as usize
            }
        })
        .collect();
    check_broadcast_to(t.shape(), &shape)?;
    // A view allocates nothing, but every op on it walks (and most copy) numel
    // elements: refuse views larger than memory could ever hold as a copy.
    crate::tensor::core::check_alloc(&shape, t.dtype())?;
    Ok(record_expand(t, t.view_with(t.layout().expand(&shape))))
}

/// `t.repeat(*sizes)`: the tensor tiled `sizes[i]` times along each dim (leading
/// sizes add dims). One node, RepeatBackward0, as in PyTorch.
pub fn repeat(t: &Tensor, reps: &[i64]) -> Result<Tensor> {
    if reps.len() < t.ndim() {
        return Err(shape_err(format!(
            "repeat needs at least {} sizes for a {}-d tensor, but got {}",
            t.ndim(),
            t.ndim(),
            reps.len()
        )));
    }
    if let Some(bad) = reps.iter().find(|&&r| r < 0) {
        return Err(crate::error::value_err(format!(
            "repeat sizes must be non-negative, but got {bad}"
        )));
    }
    let extra = reps.len() - t.ndim();
    let mut padded = vec![1usize; extra];
    padded.extend(t.shape());
    let out: Vec<usize> = reps
        .iter()
        .zip(&padded)
        .map(|(&r, s)| (r as usize).saturating_mul(*s))
        .collect();
    // Checked on the result's own shape before the interleaved view is built.
    crate::tensor::core::check_alloc(&out, t.dtype())?;
    // Interleave: [r0, s0, r1, s1, ...] by expanding size-1 dims, then merge pairs.
    let mut inter_view = Vec::new();
    let mut inter_full = Vec::new();
    for (&r, &s) in reps.iter().zip(&padded) {
        inter_view.extend([1i64, s as i64]);
        inter_full.extend([r, s as i64]);
    }
    let out: Vec<i64> = out.iter().map(|&d| d as i64).collect();
    crate::autograd::composite::composite("RepeatBackward0", &[t], |x| {
        let x = reshape(&x[0], &inter_view)?;
        let x = expand(&x, &inter_full)?;
        reshape(&x.contiguous()?, &out)
    })
}

/// `t.flip(dims)`: the elements in reverse order along each of `dims`, as a
/// new contiguous tensor (one backend copy). One node, FlipBackward0, as in
/// PyTorch: the gradient flipped back.
pub fn flip(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let mut ds = Vec::with_capacity(dims.len());
    for &d in dims {
        let d = existing_dim(d, t.ndim())?;
        if ds.contains(&d) {
            return Err(value_err(format!("flip: dim {d} appears more than once")));
        }
        ds.push(d);
    }
    let flipped = |t: &Tensor| -> Result<Tensor> {
        let s = t.read();
        Ok(Tensor::from_contiguous(s.flip(t.layout(), &ds)?, t.shape()))
    };
    // Complex data reaches a backend only as its real pairs.
    let out = if t.dtype().is_complex() {
        crate::autograd::no_grad(|| flipped(&t.view_as_real()?)?.view_as_complex())?
    } else {
        flipped(t)?
    };
    let dims = dims.to_vec();
    Ok(crate::autograd::record(
        out,
        "FlipBackward0",
        &[t],
        false,
        move || crate::autograd::rules::rule(move |g| Ok(vec![Some(flip(g, &dims)?)])),
    ))
}

/// `t.unfold(dim, size, step)`: every window of `size` along dim, `step`
/// apart, as a new last dim (stacked copies of the windows' views).
pub fn unfold(t: &Tensor, dim: i64, size: i64, step: i64) -> Result<Tensor> {
    let d = if t.ndim() == 0 {
        0
    } else {
        existing_dim(dim, t.ndim())?
    };
    let n = t.shape().get(d).copied().unwrap_or(1) as i64;
    if size > n || size < 0 {
        return Err(crate::error::shape_err(format!(
            "maximum size for tensor at dimension {d} is {n} but size is {size}"
        )));
    }
    if step <= 0 {
        return Err(value_err(format!("step is {step} but must be > 0")));
    }
    if t.ndim() == 0 {
        return reshape(t, &[1]);
    }
    let count = (n - size) / step + 1;
    let windows = (0..count)
        .map(|i| narrow(t, d as i64, i * step, size))
        .collect::<Result<Vec<_>>>()?;
    let stacked = crate::tensor::ops::join::stack(&windows, d as i64)?;
    let last = stacked.ndim() as i64 - 1;
    let mut order: Vec<i64> = (0..=last).filter(|&k| k != d as i64 + 1).collect();
    order.push(d as i64 + 1);
    Ok(crate::autograd::relabel(
        permute(&stacked, &order)?,
        "UnfoldBackward0",
    ))
}
