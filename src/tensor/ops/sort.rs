//! Order-based ops: sort, argsort, topk, unique, nonzero.

use crate::backend::cpu::reduce::sort_groups;
use crate::error::{Result, index_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::shape::normalize_dim;

/// Sort along `dim`; returns (values, indices).
pub fn sort(t: &Tensor, dim: i64, descending: bool) -> Result<(Tensor, Tensor)> {
    if t.ndim() == 0 {
        return Ok((t.deep_clone(), Tensor::scalar_i64(0, DType::I64)));
    }
    let d = normalize_dim(dim, t.ndim())?;
    let mut perm: Vec<usize> = (0..t.ndim()).filter(|&x| x != d).collect();
    perm.push(d);
    let moved = t.view_with(t.layout().permute(&perm));
    let group = t.shape()[d];
    let (values, indices) = sort_groups(&moved.to_f64_vec(), group, descending);
    let pshape = moved.shape().to_vec();
    let mut inverse = vec![0usize; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i;
    }
    let back = |x: Tensor| x.view_with(x.layout().permute(&inverse)).contiguous();
    let v = back(Tensor::from_vec(values, &pshape).to_dtype(t.dtype()));
    let i = back(Tensor::from_vec(indices, &pshape));
    let v = crate::autograd::rules::shape::record_take_along("SortBackward0", t, d, &i, v);
    Ok((v, i))
}

pub fn topk(t: &Tensor, k: i64, dim: i64, largest: bool) -> Result<(Tensor, Tensor)> {
    let d = if t.ndim() == 0 {
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
    let (v, i) = crate::autograd::no_grad(|| sort(t, dim, largest))?;
    if t.ndim() == 0 {
        return Ok((
            crate::autograd::rules::shape::record_reshape("TopkBackward0", t, v),
            i,
        ));
    }
    let (v, i) = crate::autograd::no_grad(|| -> Result<(Tensor, Tensor)> {
        Ok((
            crate::tensor::ops::view::narrow(&v, d as i64, 0, k)?.contiguous(),
            crate::tensor::ops::view::narrow(&i, d as i64, 0, k)?.contiguous(),
        ))
    })?;
    let v = crate::autograd::rules::shape::record_take_along("TopkBackward0", t, d, &i, v);
    Ok((v, i))
}

/// Indices of non-zero elements, one row each: shape `[n, ndim]`, int64.
pub fn nonzero(t: &Tensor) -> Tensor {
    let values = t.to_f64_vec();
    let shape = t.shape().to_vec();
    let nd = shape.len();
    let mut out: Vec<i64> = Vec::new();
    let mut index = vec![0usize; nd];
    let mut count = 0;
    for &v in &values {
        if v != 0.0 {
            out.extend(index.iter().map(|&i| i as i64));
            count += 1;
        }
        for dd in (0..nd).rev() {
            index[dd] += 1;
            if index[dd] < shape[dd] {
                break;
            }
            index[dd] = 0;
        }
    }
    Tensor::from_vec(out, &[count, nd])
}

/// Sorted unique values (flattened), with optional inverse indices and counts.
pub fn unique(t: &Tensor) -> (Tensor, Tensor, Tensor) {
    let values = t.to_f64_vec();
    let (sorted, _) = sort_groups(&values, values.len(), false);
    let mut uniq: Vec<f64> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    for v in sorted {
        if uniq
            .last()
            .is_some_and(|&u| u == v || (u.is_nan() && v.is_nan()))
        {
            // Unreachable: a count is pushed with every entry of `uniq`.
            *counts.last_mut().expect("counts grows with uniq") += 1;
        } else {
            uniq.push(v);
            counts.push(1);
        }
    }
    let inverse: Vec<i64> = values
        .iter()
        .map(|v| uniq.partition_point(|u| u.total_cmp(v) == std::cmp::Ordering::Less) as i64)
        .collect();
    let n = uniq.len();
    (
        Tensor::from_vec(uniq, &[n]).to_dtype(t.dtype()),
        Tensor::from_vec(inverse, t.shape()),
        Tensor::from_vec(counts, &[n]),
    )
}
