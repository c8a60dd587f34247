//! The COO layout: made from indices and values or from a dense tensor,
//! coalesced, made dense again, narrowed.

use super::{SparseLayout, SparseTensor};
use crate::autograd::no_grad;
use crate::error::{Result, dtype_err, index_err, shape_err};
use crate::tensor::op::{BinaryOp, ReduceOp};
use crate::tensor::ops::arith::{add, bin, cmp, int, mul, sub};
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::index::{Idx, index, index_put_raw};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{narrow, reshape, select, unsqueeze};
use crate::tensor::shape::{fmt_shape, normalize_dim};
use crate::tensor::{DType, Tensor};

/// A COO tensor from its parts, checked for shape (not for index bounds:
/// PyTorch does not check them either unless asked).
pub(super) fn new(
    indices: &Tensor,
    values: &Tensor,
    size: Option<&[usize]>,
) -> Result<SparseTensor> {
    if indices.dtype().is_float() || indices.dtype().is_complex() || indices.dtype().is_bool() {
        return Err(dtype_err(format!(
            "indices must be an int64 tensor, not {}",
            indices.dtype()
        )));
    }
    if indices.ndim() != 2 {
        return Err(shape_err(format!(
            "indices must be sparse_dim x nnz, but got: {}",
            fmt_shape(indices.shape())
        )));
    }
    let values = if values.ndim() == 0 {
        unsqueeze(values, 0)?
    } else {
        values.clone()
    };
    let (sparse_dim, nnz) = (indices.shape()[0], indices.shape()[1]);
    if values.shape()[0] != nnz {
        return Err(shape_err(format!(
            "indices and values must have same nnz, but got nnz from indices: {nnz}, nnz from values: {}",
            values.shape()[0]
        )));
    }
    let indices = no_grad(|| indices.to_dtype(DType::I64)?.to_device(values.device()))?;
    let dense = &values.shape()[1..];
    let size = match size {
        Some(s) => checked_size(s, sparse_dim, dense)?,
        None => inferred_size(&indices, dense)?,
    };
    // One element (or none) is already coalesced, as PyTorch notes.
    Ok(SparseTensor {
        layout: SparseLayout::Coo,
        size,
        indices: indices.contiguous()?,
        plain: None,
        values: values.contiguous()?,
        coalesced: nnz <= 1,
    })
}

fn checked_size(size: &[usize], sparse_dim: usize, dense: &[usize]) -> Result<Vec<usize>> {
    if size.len() != sparse_dim + dense.len() {
        return Err(shape_err(format!(
            "number of dimensions must be sparse_dim ({sparse_dim}) + dense_dim ({}), but got {}",
            dense.len(),
            size.len()
        )));
    }
    if &size[sparse_dim..] != dense {
        return Err(shape_err(format!(
            "values has incorrect size, expected {}, got {}",
            fmt_shape(&[&[0][..], &size[sparse_dim..]].concat()),
            fmt_shape(&[&[0][..], dense].concat())
        )));
    }
    Ok(size.to_vec())
}

/// PyTorch's size when none is given: one past the largest index of each
/// sparse dim, then the values' dense dims.
fn inferred_size(indices: &Tensor, dense: &[usize]) -> Result<Vec<usize>> {
    let (sparse_dim, nnz) = (indices.shape()[0], indices.shape()[1]);
    let mut size = Vec::with_capacity(sparse_dim + dense.len());
    for d in 0..sparse_dim {
        let n = if nnz == 0 {
            0
        } else {
            let top = reduce(&select(indices, 0, d as i64)?, ReduceOp::Max, None, false)?;
            crate::tensor::ops::scalar::item_i64(&top)? + 1
        };
        size.push(n.max(0) as usize);
    }
    size.extend_from_slice(dense);
    Ok(size)
}

/// The dense tensor: zeros, with the values added at their indices.
pub(super) fn to_dense(s: &SparseTensor) -> Result<Tensor> {
    no_grad(|| {
        let out = zeros_on(&s.size, s.dtype(), s.device())?;
        if s.nnz() == 0 {
            return Ok(out);
        }
        let sd = s.sparse_dim();
        if sd == 0 {
            return reduce(&s.values, ReduceOp::Sum, Some(&[0]), false)?.to_dtype(s.dtype());
        }
        let at = index_rows(&s.indices)?;
        check_bounds(s)?;
        index_put_raw(&out, &at, &s.values, true)?;
        Ok(out)
    })
}

/// Each row of a `[k, nnz]` index tensor as an advanced index.
pub(super) fn index_rows(indices: &Tensor) -> Result<Vec<Idx>> {
    (0..indices.shape()[0])
        .map(|d| Ok(Idx::Tensor(select(indices, 0, d as i64)?)))
        .collect()
}

/// Indices past the size would land elsewhere (or nowhere) in the dense
/// tensor: refuse them with PyTorch's words.
fn check_bounds(s: &SparseTensor) -> Result<()> {
    for d in 0..s.sparse_dim() {
        let row = select(&s.indices, 0, d as i64)?;
        let out = bin(
            BinaryOp::LogicalOr,
            &cmp(BinaryOp::Lt, &row, &int(0))?,
            &cmp(BinaryOp::Ge, &row, &int(s.size[d] as i64))?,
        )?;
        let any = reduce(&out, ReduceOp::Any, None, false)?;
        if crate::tensor::ops::scalar::item_bool(&any)? {
            return Err(index_err(format!(
                "found indices in dim {d} outside the size {} of a sparse tensor of size {}",
                s.size[d],
                fmt_shape(&s.size)
            )));
        }
    }
    Ok(())
}

/// The positions (over the first `sparse_dim` dims) whose dense slice has a
/// non-zero, in row-major order, and the slices there.
pub(super) fn from_dense(t: &Tensor, sparse_dim: usize) -> Result<SparseTensor> {
    no_grad(|| {
        let size = t.shape().to_vec();
        if sparse_dim == 0 {
            // No sparse dims: the whole tensor is one stored value.
            return Ok(SparseTensor {
                layout: SparseLayout::Coo,
                size,
                indices: zeros_on(&[0, 1], DType::I64, t.device())?,
                plain: None,
                values: unsqueeze(t, 0)?.contiguous()?,
                coalesced: true,
            });
        }
        let nz = cmp(BinaryOp::Ne, t, &int(0))?;
        let mask = if sparse_dim == t.ndim() {
            nz
        } else {
            let mut flat: Vec<i64> = size[..sparse_dim].iter().map(|&n| n as i64).collect();
            flat.push(size[sparse_dim..].iter().product::<usize>() as i64);
            reduce(&reshape(&nz, &flat)?, ReduceOp::Any, Some(&[-1]), false)?
        };
        let positions = crate::tensor::ops::sort::nonzero(&mask)?;
        let indices = crate::tensor::ops::view::transpose(&positions, 0, 1)?.contiguous()?;
        let values = index(t, &index_rows(&indices)?)?.contiguous()?;
        Ok(SparseTensor {
            layout: SparseLayout::Coo,
            size,
            indices,
            plain: None,
            values,
            coalesced: true,
        })
    })
}

/// Each stored element's position as one number (row-major over the sparse dims).
pub(super) fn linear_index(indices: &Tensor, sizes: &[usize]) -> Result<Tensor> {
    let strides = crate::tensor::layout::contiguous_strides(sizes);
    let nnz = indices.shape()[1];
    let mut key = zeros_on(&[nnz], DType::I64, indices.device())?;
    for (d, &stride) in strides.iter().enumerate() {
        let row = select(indices, 0, d as i64)?;
        key = add(&key, &mul(&row, &int(stride as i64))?)?;
    }
    Ok(key)
}

/// The inverse of `linear_index`: a `[sizes.len(), n]` index tensor.
pub(super) fn unravel(key: &Tensor, sizes: &[usize]) -> Result<Tensor> {
    let strides = crate::tensor::layout::contiguous_strides(sizes);
    if sizes.is_empty() {
        return zeros_on(&[0, key.shape()[0]], DType::I64, key.device());
    }
    let rows: Vec<Tensor> = strides
        .iter()
        .zip(sizes)
        .map(|(&stride, &n)| {
            let q = bin(BinaryOp::FloorDiv, key, &int(stride as i64))?;
            bin(BinaryOp::Rem, &q, &int(n.max(1) as i64))
        })
        .collect::<Result<_>>()?;
    crate::tensor::ops::join::stack(&rows, 0)
}

pub(super) fn coalesce(s: &SparseTensor) -> Result<SparseTensor> {
    if s.layout != SparseLayout::Coo {
        return Err(super::layout_err("coalesce", s.layout));
    }
    if s.coalesced {
        return Ok(s.clone());
    }
    no_grad(|| {
        let sizes = &s.size[..s.sparse_dim()];
        let key = linear_index(&s.indices, sizes)?;
        let (unique, inverse, _) = crate::tensor::ops::sort::unique(&key)?;
        let mut shape = s.values.shape().to_vec();
        shape[0] = unique.shape()[0];
        let values = zeros_on(&shape, s.dtype(), s.device())?;
        if s.nnz() > 0 {
            index_put_raw(&values, &[Idx::Tensor(inverse)], &s.values, true)?;
        }
        Ok(SparseTensor {
            indices: unravel(&unique, sizes)?,
            values,
            coalesced: true,
            ..s.clone()
        })
    })
}

pub(super) fn narrow_copy(
    s: &SparseTensor,
    dim: i64,
    start: i64,
    length: i64,
) -> Result<SparseTensor> {
    if s.layout != SparseLayout::Coo {
        return Err(super::layout_err("narrow_copy", s.layout));
    }
    let d = normalize_dim(dim, s.ndim())?;
    let n = s.size[d] as i64;
    let start = if start < 0 { start + n } else { start };
    if start < 0 || length < 0 || start + length > n {
        return Err(index_err(format!(
            "start ({start}) + length ({length}) exceeds dimension size ({n})."
        )));
    }
    let mut size = s.size.clone();
    size[d] = length as usize;
    no_grad(|| {
        if d >= s.sparse_dim() {
            // A dense dim: every element stays, its values narrowed.
            let along = (1 + d - s.sparse_dim()) as i64;
            let values = narrow(&s.values, along, start, length)?.contiguous()?;
            return Ok(SparseTensor {
                size,
                values,
                ..s.clone()
            });
        }
        let row = select(&s.indices, 0, d as i64)?;
        let inside = bin(
            BinaryOp::LogicalAnd,
            &cmp(BinaryOp::Ge, &row, &int(start))?,
            &cmp(BinaryOp::Lt, &row, &int(start + length))?,
        )?;
        let keep = reshape(&crate::tensor::ops::sort::nonzero(&inside)?, &[-1])?;
        let kept = index(
            &s.indices,
            &[Idx::Slice(None, None, None), Idx::Tensor(keep.clone())],
        )?;
        // The kept indices along `dim` now count from `start`.
        let rows: Vec<Tensor> = (0..s.sparse_dim())
            .map(|r| {
                let row = select(&kept, 0, r as i64)?;
                if r == d {
                    sub(&row, &int(start))
                } else {
                    Ok(row)
                }
            })
            .collect::<Result<_>>()?;
        Ok(SparseTensor {
            size,
            indices: crate::tensor::ops::join::stack(&rows, 0)?,
            values: index(&s.values, &[Idx::Tensor(keep)])?.contiguous()?,
            ..s.clone()
        })
    })
}
