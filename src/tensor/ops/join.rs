//! Joining tensors: cat and stack (vstack and hstack are built on them).

use crate::backend::Storage;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::DType;
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::layout::Layout;
use crate::tensor::ops::index::write_region;
use crate::tensor::ops::view::unsqueeze;
use crate::tensor::promote::{Operand, result_type};
use crate::tensor::shape::{fmt_shape, normalize_dim, normalize_insert_dim};

pub fn cat(tensors: &[Tensor], dim: i64) -> Result<Tensor> {
    let out = cat_raw(tensors, dim)?;
    if out.ndim() == 0 || tensors.iter().any(|t| t.same_tensor(&out)) {
        return Ok(out);
    }
    let d = normalize_dim(dim, out.ndim())?;
    Ok(crate::autograd::rules::shape::record_cat(tensors, d, out))
}

fn cat_raw(tensors: &[Tensor], dim: i64) -> Result<Tensor> {
    if tensors.is_empty() {
        return Err(value_err("cat expects a non-empty list of tensors"));
    }
    // Legacy rule kept by PyTorch: 1-d empty tensors are skipped.
    let parts: Vec<&Tensor> = tensors
        .iter()
        .filter(|t| !(t.ndim() == 1 && t.numel() == 0))
        .collect();
    if parts.is_empty() {
        return Ok(tensors[0].clone());
    }
    let first = parts[0];
    if first.ndim() == 0 {
        return Err(shape_err("zero-dimensional tensors cannot be concatenated")
            .hint("use stack, or unsqueeze them first"));
    }
    let d = normalize_dim(dim, first.ndim())?;
    for (i, t) in parts.iter().enumerate() {
        crate::tensor::ops::elementwise::check_same_device(first, t, "cat")?;
        let same = t.ndim() == first.ndim()
            && (0..t.ndim()).all(|k| k == d || t.shape()[k] == first.shape()[k]);
        if !same {
            return Err(shape_err(format!(
                "cat along dim {d}: tensor {i} has shape {} but tensor 0 has {}; all dims but {d} must match",
                fmt_shape(t.shape()),
                fmt_shape(first.shape())
            )));
        }
    }
    let ops: Vec<Operand> = parts
        .iter()
        .map(|t| Operand::Tensor {
            dtype: t.dtype(),
            zero_dim: false,
        })
        .collect();
    let dtype = result_type(&ops);
    let mut shape = first.shape().to_vec();
    shape[d] = parts.iter().map(|t| t.shape()[d]).sum();
    check_alloc(&shape, dtype)?;
    if !dtype.is_complex() {
        return concat_parts(&parts, d, &shape, dtype);
    }
    let out = crate::tensor::ops::creation::zeros_on(&shape, dtype, first.device())?;
    let mut start = 0;
    for t in parts {
        let n = t.shape()[d];
        let region: Layout = out.layout().slice(d, start, n, 1);
        write_region(&out, &region, t)?;
        start += n;
    }
    Ok(out)
}

/// The parts side by side along `d`, in one pass over the result: each part
/// in the result's dtype, read in place where its runs along `d` are contiguous
/// and evenly spaced (a contiguous part, or a column chunk of one), else made
/// contiguous first.
fn concat_parts(parts: &[&Tensor], d: usize, shape: &[usize], dtype: DType) -> Result<Tensor> {
    let inner: usize = shape[d + 1..].iter().product();
    let outer: usize = shape[..d].iter().product();
    // Each part with the distance between its runs (a contiguous copy's
    // where they are not evenly spaced).
    let ready = crate::autograd::no_grad(|| {
        (parts.iter())
            .map(|t| {
                let t = t.to_dtype(dtype)?;
                match run_stride(t.layout(), d) {
                    Some(stride) => Ok((t, stride)),
                    None => Ok((t.contiguous()?, t.shape()[d] * inner)),
                }
            })
            .collect::<Result<Vec<(Tensor, usize)>>>()
    })?;
    let runs: Vec<usize> = ready.iter().map(|(t, _)| t.shape()[d] * inner).collect();
    let guards: Vec<_> = ready.iter().map(|(t, _)| t.read()).collect();
    let storages: Vec<(&Storage, usize, usize)> = (guards.iter().zip(&ready))
        .map(|(g, (t, stride))| (&**g, t.layout().offset, *stride))
        .collect();
    let s = Storage::concat(&storages, &runs, outer, dtype)?;
    Ok(Tensor::from_contiguous(s, shape))
}

/// How far apart a layout's runs along its dims from `d` on sit, when each run
/// is contiguous and they are evenly spaced; None otherwise.
fn run_stride(l: &Layout, d: usize) -> Option<usize> {
    let mut run = 1;
    for k in (d..l.shape.len()).rev() {
        if l.shape[k] != 1 && l.strides[k] != run {
            return None;
        }
        run *= l.shape[k];
    }
    // The dims before d must step as one dim.
    let (mut stride, mut next) = (None, 0);
    for k in (0..d).rev() {
        if l.shape[k] == 1 {
            continue;
        }
        match stride {
            None => stride = Some(l.strides[k]),
            Some(_) if l.strides[k] != next => return None,
            Some(_) => {}
        }
        next = l.strides[k] * l.shape[k];
    }
    Some(stride.unwrap_or(run))
}

pub fn stack(tensors: &[Tensor], dim: i64) -> Result<Tensor> {
    if tensors.is_empty() {
        return Err(value_err("stack expects a non-empty list of tensors"));
    }
    for (i, t) in tensors.iter().enumerate() {
        if t.shape() != tensors[0].shape() {
            return Err(shape_err(format!(
                "stack needs tensors of one shape, but tensor {i} has {} and tensor 0 has {}",
                fmt_shape(t.shape()),
                fmt_shape(tensors[0].shape())
            )));
        }
    }
    let d = normalize_insert_dim(dim, tensors[0].ndim())?;
    let out = crate::autograd::no_grad(|| -> Result<Tensor> {
        let parts: Vec<Tensor> = tensors
            .iter()
            .map(|t| unsqueeze(t, d as i64))
            .collect::<Result<_>>()?;
        cat_raw(&parts, d as i64)
    })?;
    Ok(crate::autograd::rules::shape::record_stack(tensors, d, out))
}

pub fn vstack(tensors: &[Tensor]) -> Result<Tensor> {
    let parts: Vec<Tensor> = tensors
        .iter()
        .map(|t| {
            if t.ndim() < 2 {
                crate::tensor::ops::view::reshape(t, &[1, -1])
            } else {
                Ok(t.clone())
            }
        })
        .collect::<Result<_>>()?;
    cat(&parts, 0)
}

pub fn hstack(tensors: &[Tensor]) -> Result<Tensor> {
    let all_1d = tensors.iter().all(|t| t.ndim() <= 1);
    let parts: Vec<Tensor> = tensors
        .iter()
        .map(|t| {
            if t.ndim() == 0 {
                crate::tensor::ops::view::reshape(t, &[1])
            } else {
                Ok(t.clone())
            }
        })
        .collect::<Result<_>>()?;
    cat(&parts, if all_1d { 0 } else { 1 })
}

/// `atleast_1d/2d/3d`: a view with dims added as NumPy adds them: a 1-d
/// tensor becomes a row (1, n), then (1, n, 1); a matrix (m, n, 1).
pub fn atleast(t: &Tensor, ndim: usize) -> Result<Tensor> {
    use crate::tensor::ops::view::reshape;
    let s: Vec<i64> = t.shape().iter().map(|&x| x as i64).collect();
    match (t.ndim(), ndim) {
        (0, n) => reshape(t, &vec![1; n]),
        (1, 2) => unsqueeze(t, 0),
        (1, 3) => reshape(t, &[1, s[0], 1]),
        (2, 3) => unsqueeze(t, 2),
        _ => Ok(t.clone()),
    }
}

/// `dstack`: join along the third dim, each part made at least 3-d.
pub fn dstack(tensors: &[Tensor]) -> Result<Tensor> {
    let parts: Vec<Tensor> = tensors
        .iter()
        .map(|t| atleast(t, 3))
        .collect::<Result<_>>()?;
    cat(&parts, 2)
}

/// `column_stack`: 0-d and 1-d tensors become columns, then they join along dim 1.
pub fn column_stack(tensors: &[Tensor]) -> Result<Tensor> {
    let parts: Vec<Tensor> = tensors
        .iter()
        .map(|t| match t.ndim() {
            0 | 1 => crate::tensor::ops::view::reshape(t, &[t.numel() as i64, 1]),
            _ => Ok(t.clone()),
        })
        .collect::<Result<_>>()?;
    cat(&parts, 1)
}
