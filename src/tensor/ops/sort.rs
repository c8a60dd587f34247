//! Order-based ops: sort, argsort, topk, kthvalue, median, unique, nonzero.

use crate::error::{Result, dtype_err, index_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::dtype::DType;
use crate::tensor::shape::normalize_dim;

/// Sort along `dim`; returns (values, indices).
pub fn sort(t: &Tensor, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented("sort", t.dtype()));
    }
    if t.ndim() == 0 {
        normalize_dim(dim, 0)?;
        let zero = crate::tensor::ops::creation::zeros_on(&[], DType::I64, t.device())?;
        let v = crate::autograd::no_grad(|| t.deep_clone())?;
        return Ok((
            crate::autograd::rules::shape::record_reshape("SortBackward0", t, v),
            zero,
        ));
    }
    let d = normalize_dim(dim, t.ndim())?;
    check_alloc(t.shape(), DType::I64)?;
    let (v, i) = t.read().sort(t.layout(), d, descending, t.shape()[d])?;
    let (v, i) = (
        Tensor::from_contiguous(v, t.shape()),
        Tensor::from_contiguous(i, t.shape()),
    );
    let v = crate::autograd::rules::shape::record_take_along("SortBackward0", t, d, &i, v);
    Ok((v, i))
}

pub fn topk(t: &Tensor, k: i64, dim: i64, largest: bool) -> Result<(Tensor, Tensor)> {
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented("topk", t.dtype()));
    }
    if t.dtype().is_bool() {
        return Err(dtype_err("topk is not implemented for bool tensors")
            .hint("convert first, e.g. t.int()"));
    }
    let d = if t.ndim() == 0 {
        normalize_dim(dim, 0)?;
        0
    } else {
        normalize_dim(dim, t.ndim())?
    };
    let size = if t.ndim() == 0 { 1 } else { t.shape()[d] };
    if k < 0 || k as usize > size {
        return Err(index_err(format!(
            "topk: k = {k} is out of range for a dimension of size {size}"
        )));
    }
    if t.ndim() == 0 {
        let (v, i) = crate::autograd::no_grad(|| sort(t, dim, largest))?;
        return Ok((
            crate::autograd::rules::shape::record_reshape("TopkBackward0", t, v),
            i,
        ));
    }
    // The first k of a stable sort, found by selection (a whole sort of a long
    // line for k = 10 cost 30x PyTorch's time).
    let (v, i) = t.read().sort(t.layout(), d, largest, k as usize)?;
    let mut shape = t.shape().to_vec();
    shape[d] = k as usize;
    let (v, i) = (
        Tensor::from_contiguous(v, &shape),
        Tensor::from_contiguous(i, &shape),
    );
    let v = crate::autograd::rules::shape::record_take_along("TopkBackward0", t, d, &i, v);
    Ok((v, i))
}

/// Indices of non-zero elements, one row each: shape `[n, ndim]`, int64.
pub fn nonzero(t: &Tensor) -> Result<Tensor> {
    if t.dtype().is_complex() {
        // Non-zero where either part is: complex `!=` compares both.
        let nz = crate::tensor::ops::arith::cmp(
            crate::tensor::op::BinaryOp::Ne,
            t,
            &crate::tensor::ops::arith::num(0.0),
        )?;
        return nonzero(&nz);
    }
    let s = t.read().nonzero(t.layout())?;
    let n = s.len() / t.ndim().max(1);
    Ok(Tensor::from_contiguous(
        s,
        &[if t.ndim() == 0 { s_len_0d(t)? } else { n }, t.ndim()],
    ))
}

/// A 0-d tensor has one element: one row of no columns if it is non-zero.
fn s_len_0d(t: &Tensor) -> Result<usize> {
    Ok(crate::tensor::ops::scalar::item_bool(t)? as usize)
}

/// Sorted unique values (flattened), with inverse indices and counts.
pub fn unique(t: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented("unique", t.dtype()));
    }
    let (u, inv, c) = t.read().unique(t.layout())?;
    let n = u.len();
    Ok((
        Tensor::from_contiguous(u, &[n]),
        Tensor::from_contiguous(inv, t.shape()),
        Tensor::from_contiguous(c, &[n]),
    ))
}

/// The k-th smallest (1-based) along `dim` and its index, by selection:
/// values as PyTorch's; among equal values PyTorch may report another index
/// (tsh reports the stable sort's). The gradient flows to that index.
pub fn kthvalue(t: &Tensor, k: i64, dim: i64, keepdim: bool) -> Result<(Tensor, Tensor)> {
    let (d, n) = if t.ndim() == 0 {
        (0, 1)
    } else {
        let d = normalize_dim(dim, t.ndim())?;
        (d, t.shape()[d] as i64)
    };
    if k < 1 || k > n {
        return Err(crate::error::value_err(format!(
            "kthvalue(): selected number k out of range for dimension {dim}"
        )));
    }
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented("kthvalue", t.dtype()));
    }
    // A 0-d tensor is one line of one.
    let line = if t.ndim() == 0 {
        crate::tensor::ops::view::reshape(t, &[1])?
    } else {
        t.clone()
    };
    let (v, i) = line.read().kth(line.layout(), d, (k - 1) as usize)?;
    let mut shape = line.shape().to_vec();
    shape[d] = 1;
    let i = Tensor::from_contiguous(i, &shape);
    let out_shape: Vec<i64> = if keepdim && t.ndim() > 0 {
        shape.iter().map(|&s| s as i64).collect()
    } else {
        (t.shape().iter().enumerate())
            .filter(|&(j, _)| j != d || t.ndim() == 0)
            .map(|(_, &s)| s as i64)
            .collect()
    };
    let reshape = |x: &Tensor| crate::tensor::ops::view::reshape(x, &out_shape);
    let v = reshape(&Tensor::from_contiguous(v, &shape))?;
    let v = crate::autograd::rules::shape::record_take_along("KthvalueBackward0", &line, d, &i, v);
    Ok((v, reshape(&i)?))
}

/// torch.median: the lower median of all elements (no index), or of each slice
/// along `dim` with its index; a slice holding a NaN has median NaN.
pub fn median(t: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<(Tensor, Option<Tensor>)> {
    use crate::tensor::ops::stats::median_nan;
    match dim {
        None => {
            if t.numel() == 0 {
                return Err(crate::error::value_err(
                    "median() input tensor cannot be empty",
                ));
            }
            let flat = crate::tensor::ops::view::reshape(t, &[-1])?;
            let (value, _) = kthvalue(&flat, (t.numel() as i64 + 1) / 2, 0, false)?;
            median_nan(t, None, false, value, None)
        }
        Some(d) => {
            let n = if t.ndim() == 0 {
                1
            } else {
                t.shape()[normalize_dim(d, t.ndim())?] as i64
            };
            // Picked (NaN rule and all) without a graph, then recorded as
            // one node that sends the gradient to the picked positions.
            let (values, indices) = crate::autograd::no_grad(|| {
                let (values, indices) = kthvalue(t, (n + 1) / 2, d, keepdim)?;
                if t.ndim() == 0 {
                    return Ok((values, Some(indices)));
                }
                median_nan(t, Some(d), keepdim, values, Some(indices))
            })?;
            let Some(indices) = indices else {
                return Ok((values, None));
            };
            let dd = normalize_dim(d, t.ndim().max(1))?;
            let at = if keepdim || t.ndim() == 0 {
                indices.clone()
            } else {
                crate::tensor::ops::view::unsqueeze(&indices, dd as i64)?
            };
            let values = crate::autograd::rules::shape::record_take_along(
                "MedianBackward1",
                t,
                dd,
                &at,
                values,
            );
            Ok((values, Some(indices)))
        }
    }
}

/// torch.nonzero_static: nonzero's rows, cut or padded with `fill_value` to
/// exactly `size` rows (a shape known before the values are).
pub fn nonzero_static(t: &Tensor, size: i64, fill_value: i64) -> Result<Tensor> {
    use crate::tensor::ops::view::narrow;
    if size < 0 {
        return Err(crate::error::value_err(format!(
            "nonzero_static: 'size' must be an non-negative integer, but got {size}"
        )));
    }
    let nz = nonzero(t)?.to_device(t.device())?;
    let (n, cols) = (nz.shape()[0] as i64, nz.shape()[1]);
    if n >= size {
        return narrow(&nz, 0, 0, size)?.contiguous();
    }
    let pad = crate::tensor::ops::creation::full(
        &[(size - n) as usize, cols],
        fill_value as f64,
        fill_value,
        crate::tensor::DType::I64,
        t.device(),
    )?;
    crate::tensor::ops::join::cat(&[nz, pad], 0)
}

/// torch.unique_consecutive: one element (or slice along `dim`) of each run
/// of equal neighbours, with each element's run number and each run's length.
pub fn unique_consecutive(t: &Tensor, dim: Option<i64>) -> Result<(Tensor, Tensor, Tensor)> {
    use crate::tensor::op::{BinaryOp, ReduceOp, ScanOp};
    use crate::tensor::ops::arith::{cmp, sub};
    use crate::tensor::ops::view::{narrow, reshape};
    let (x, d) = match dim {
        None => (reshape(t, &[-1])?, 0),
        Some(d) => {
            if t.ndim() == 0 {
                return Err(index_err(format!(
                    "Dimension specified as {d} but tensor has no dimensions"
                )));
            }
            (t.clone(), normalize_dim(d, t.ndim())? as i64)
        }
    };
    let n = x.shape().get(d as usize).copied().unwrap_or(1) as i64;
    let device = t.device();
    // A run starts at 0 and wherever a slice differs from the one before it.
    let changed = cmp(
        BinaryOp::Ne,
        &narrow(&x, d, n.min(1), (n - 1).max(0))?,
        &narrow(&x, d, 0, (n - 1).max(0))?,
    )?;
    let others: Vec<i64> = (0..x.ndim() as i64).filter(|&k| k != d).collect();
    let changed = if others.is_empty() {
        changed
    } else {
        crate::tensor::ops::reduce::reduce(&changed, ReduceOp::Any, Some(&others), false)?
    };
    let first =
        crate::tensor::ops::creation::full(&[n.min(1) as usize], 1.0, 1, DType::Bool, device)?;
    let starts_mask = crate::tensor::ops::join::cat(&[first, changed], 0)?;
    let starts = reshape(&nonzero(&starts_mask)?.to_device(device)?, &[-1])?;
    let values = crate::tensor::ops::select::index_select(&x, d, &starts)?;
    let run = crate::tensor::ops::reduce::scan(&starts_mask.to_dtype(DType::I64)?, ScanOp::Sum, 0)?;
    let inverse = sub(&run, &crate::tensor::ops::arith::int(1))?;
    let inverse = match dim {
        None => reshape(
            &inverse,
            &t.shape().iter().map(|&s| s as i64).collect::<Vec<_>>(),
        )?,
        Some(_) => inverse,
    };
    let end = crate::tensor::ops::creation::full(&[1], n as f64, n, DType::I64, device)?;
    let bounds = crate::tensor::ops::join::cat(&[starts, end], 0)?;
    let runs = bounds.shape()[0] as i64 - 1;
    let counts = sub(&narrow(&bounds, 0, 1, runs)?, &narrow(&bounds, 0, 0, runs)?)?;
    Ok((values, inverse, counts))
}
