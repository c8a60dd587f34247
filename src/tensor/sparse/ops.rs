//! Arithmetic with sparse tensors: products with dense matrices, sums,
//! masks and the sum of two sparse tensors.

use super::{SparseLayout, SparseTensor, coo};
use crate::autograd::no_grad;
use crate::error::{Result, device_err, dtype_err, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::op::ReduceOp;
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::index::{Idx, index, index_put_raw};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{select, unsqueeze};
use crate::tensor::promote::promote_types;
use crate::tensor::shape::{fmt_shape, normalize_dim};

/// `torch.sparse.mm(s, d)` / `s @ d`: a 2-d sparse matrix (no dense dims)
/// times a dense matrix or vector, as a dense tensor. Each stored element
/// scales the row of `d` it meets, and the products add up in its row.
pub fn mm(s: &SparseTensor, d: &Tensor) -> Result<Tensor> {
    if s.ndim() != 2 || s.dense_dim() != 0 {
        return Err(shape_err(format!(
            "sparse @ dense needs a 2-d sparse matrix without dense dims, but got size {} with {} dense dims",
            fmt_shape(s.size()),
            s.dense_dim()
        )));
    }
    if !(1..=2).contains(&d.ndim()) || d.shape()[0] != s.size()[1] {
        return Err(shape_err(format!(
            "mat1 and mat2 shapes cannot be multiplied ({}x{} and {})",
            s.size()[0],
            s.size()[1],
            d.shape()
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join("x")
        )));
    }
    if d.dtype() != s.dtype() {
        return Err(dtype_err(format!(
            "expected mat1 and mat2 to have the same dtype, but got: {} != {}",
            s.dtype(),
            d.dtype()
        )));
    }
    same_device(s, d)?;
    no_grad(|| {
        let c = s.to_coo()?;
        let (rows, cols) = (select(&c.indices, 0, 0)?, select(&c.indices, 0, 1)?);
        let picked = index(d, &[Idx::Tensor(cols)])?;
        let scale = if d.ndim() == 2 {
            unsqueeze(&c.values, 1)?
        } else {
            c.values.clone()
        };
        let terms = crate::tensor::ops::arith::mul(&scale, &picked)?;
        let shape = [&[s.size()[0]][..], &d.shape()[1..]].concat();
        let out = zeros_on(&shape, s.dtype(), s.device())?;
        if c.nnz() > 0 {
            index_put_raw(&out, &[Idx::Tensor(rows)], &terms, true)?;
        }
        Ok(out)
    })
}

fn same_device(s: &SparseTensor, d: &Tensor) -> Result<()> {
    if s.device() != d.device() {
        return Err(device_err(format!(
            "expected all tensors to be on the same device, but found at least two devices, {} and {}",
            d.device(),
            s.device()
        )));
    }
    Ok(())
}

/// What `torch.sparse.sum` gives: a dense tensor once every sparse dim is
/// summed away, else a sparse one.
pub enum Summed {
    Dense(Tensor),
    Sparse(SparseTensor),
}

/// `torch.sparse.sum(s, dim)`: over every element (a 0-d dense tensor), or
/// over the given dims.
pub fn sum(s: &SparseTensor, dims: Option<&[i64]>) -> Result<Summed> {
    let c = s.to_coo()?;
    no_grad(|| {
        let Some(dims) = dims else {
            return Ok(Summed::Dense(reduce(
                &c.values,
                ReduceOp::Sum,
                None,
                false,
            )?));
        };
        let mut ds: Vec<usize> = dims
            .iter()
            .map(|&d| normalize_dim(d, c.ndim()))
            .collect::<Result<_>>()?;
        ds.sort_unstable();
        ds.dedup();
        let sd = c.sparse_dim();
        let dense: Vec<i64> = ds
            .iter()
            .filter(|&&d| d >= sd)
            .map(|&d| (1 + d - sd) as i64)
            .collect();
        let values = if dense.is_empty() {
            c.values.clone()
        } else {
            reduce(&c.values, ReduceOp::Sum, Some(&dense), false)?
        };
        let kept: Vec<usize> = (0..sd).filter(|d| !ds.contains(d)).collect();
        if kept.is_empty() {
            return Ok(Summed::Dense(reduce(
                &values,
                ReduceOp::Sum,
                Some(&[0]),
                false,
            )?));
        }
        let rows: Vec<Tensor> = kept
            .iter()
            .map(|&d| select(&c.indices, 0, d as i64))
            .collect::<Result<_>>()?;
        let size: Vec<usize> = (0..c.ndim())
            .filter(|d| !ds.contains(d))
            .map(|d| c.size[d])
            .collect();
        let loose = SparseTensor {
            layout: SparseLayout::Coo,
            size,
            indices: crate::tensor::ops::join::stack(&rows, 0)?,
            plain: None,
            values: values.contiguous()?,
            coalesced: false,
        };
        Ok(Summed::Sparse(coo::coalesce(&loose)?))
    })
}

/// `d.sparse_mask(mask)`: the elements of `d` where `mask` stores one, in
/// `mask`'s layout and order.
pub fn sparse_mask(d: &Tensor, mask: &SparseTensor) -> Result<SparseTensor> {
    if d.shape() != mask.size() {
        return Err(shape_err(format!(
            "sparse_mask(): operands have incompatible sizes; self has size {} but mask has size {}",
            fmt_shape(d.shape()),
            fmt_shape(mask.size())
        )));
    }
    same_device(mask, d)?;
    no_grad(|| {
        let c = mask.to_coo()?;
        let values = index(d, &coo::index_rows(&c.indices)?)?.contiguous()?;
        let picked = SparseTensor { values, ..c };
        match mask.layout() {
            SparseLayout::Coo => Ok(picked),
            l => super::compressed::from_coo(&picked, l, mask.blocksize()),
        }
    })
}

/// `a + b` of two sparse tensors of one size and layout. COO as PyTorch's CPU
/// kernel does it where that is a plain rule: equal indices add their values,
/// two coalesced tensors merge into a coalesced one; otherwise the elements
/// of both are kept side by side (uncoalesced).
pub fn add(a: &SparseTensor, b: &SparseTensor) -> Result<SparseTensor> {
    if a.size() != b.size() {
        return Err(shape_err(format!(
            "sparse add: the sizes {} and {} differ",
            fmt_shape(a.size()),
            fmt_shape(b.size())
        )));
    }
    if a.layout() != b.layout() || a.blocksize() != b.blocksize() {
        return Err(value_err(format!(
            "sparse add needs two tensors of one layout, not torch.{} and torch.{}",
            a.layout().name(),
            b.layout().name()
        )));
    }
    if a.device() != b.device() {
        return Err(device_err(format!(
            "expected all tensors to be on the same device, but found at least two devices, {} and {}",
            a.device(),
            b.device()
        )));
    }
    let dtype = promote_types(a.dtype(), b.dtype());
    no_grad(|| match a.layout() {
        SparseLayout::Coo => add_coo(&a.to_dtype(dtype)?, &b.to_dtype(dtype)?),
        l => {
            let sum = add_coo(&a.to_coo()?.to_dtype(dtype)?, &b.to_coo()?.to_dtype(dtype)?)?;
            super::compressed::from_coo(&sum, l, a.blocksize())
        }
    })
}

fn add_coo(a: &SparseTensor, b: &SparseTensor) -> Result<SparseTensor> {
    if a.sparse_dim() != b.sparse_dim() {
        return Err(value_err(format!(
            "sparse add needs equal sparse dims, not {} and {}",
            a.sparse_dim(),
            b.sparse_dim()
        )));
    }
    let same_pattern = a.indices.shape() == b.indices.shape()
        && crate::tensor::ops::compare::equal(&a.indices, &b.indices)?;
    if same_pattern {
        let values = crate::tensor::ops::arith::add(&a.values, &b.values)?;
        return Ok(SparseTensor {
            values,
            coalesced: a.coalesced && b.coalesced,
            ..a.clone()
        });
    }
    let both = SparseTensor {
        indices: crate::tensor::ops::join::cat(&[a.indices.clone(), b.indices.clone()], 1)?,
        values: crate::tensor::ops::join::cat(&[a.values.clone(), b.values.clone()], 0)?,
        coalesced: false,
        ..a.clone()
    };
    if a.coalesced && b.coalesced {
        coo::coalesce(&both)
    } else {
        Ok(both)
    }
}
