//! The compressed layouts (CSR, CSC, BSR, BSC): made from their parts, and
//! converted to and from COO, which every other conversion goes through.

use super::{SparseLayout, SparseTensor, coo};
use crate::autograd::no_grad;
use crate::error::{Result, dtype_err, shape_err, value_err};
use crate::tensor::op::{BinaryOp, ReduceOp, ScanOp};
use crate::tensor::ops::arith::{add, bin, int, mul};
use crate::tensor::ops::creation::{arange_on, zeros_on};
use crate::tensor::ops::index::{Idx, index, index_put_raw};
use crate::tensor::ops::reduce::{reduce, scan};
use crate::tensor::ops::view::{narrow, reshape, select};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

/// A compressed tensor from its parts, checked for shape. The index dtype
/// (int32 or int64) is kept, as PyTorch keeps it.
pub(super) fn new(
    layout: SparseLayout,
    compressed: &Tensor,
    plain: &Tensor,
    values: &Tensor,
    size: Option<&[usize]>,
) -> Result<SparseTensor> {
    for (what, t) in [("compressed", compressed), ("plain", plain)] {
        if !matches!(t.dtype(), DType::I32 | DType::I64) {
            return Err(dtype_err(format!(
                "{what}_indices must be an int32 or int64 tensor, not {}",
                t.dtype()
            )));
        }
        if t.ndim() != 1 {
            return Err(shape_err(format!(
                "tsh's {} tensors take 1-d {what}_indices (no batch dims), not {}",
                layout.name(),
                fmt_shape(t.shape())
            )));
        }
    }
    let block_dims = if layout.blocked() { 2 } else { 0 };
    if values.ndim() < 1 + block_dims || values.shape()[0] != plain.shape()[0] {
        return Err(shape_err(format!(
            "{} values must be [nnz{}, *dense] with nnz = {} (the plain indices' length), not {}",
            layout.name(),
            if layout.blocked() { ", rows, cols" } else { "" },
            plain.shape()[0],
            fmt_shape(values.shape())
        )));
    }
    let block = if layout.blocked() {
        (values.shape()[1], values.shape()[2])
    } else {
        (1, 1)
    };
    let dense = &values.shape()[1 + block_dims..];
    if compressed.shape()[0] == 0 {
        let (name, _) = layout.index_names();
        return Err(shape_err(format!(
            "{name} must hold at least one offset (0), but it is empty"
        )));
    }
    let size = match size {
        Some(s) => checked_size(layout, s, dense, block, compressed.shape()[0])?,
        None => {
            let (rows, cols) = inferred_grid(layout, compressed, plain)?;
            [&[rows * block.0, cols * block.1][..], dense].concat()
        }
    };
    let device = values.device();
    Ok(SparseTensor {
        layout,
        size,
        indices: compressed.to_device(device)?.contiguous()?,
        plain: Some(plain.to_device(device)?.contiguous()?),
        values: values.contiguous()?,
        coalesced: false,
    })
}

/// The (rows, cols) of the block grid PyTorch infers: the compressed indices'
/// length less one, and one past the largest plain index.
fn inferred_grid(
    layout: SparseLayout,
    compressed: &Tensor,
    plain: &Tensor,
) -> Result<(usize, usize)> {
    let major = compressed.shape()[0].saturating_sub(1);
    let minor = if plain.numel() == 0 {
        0
    } else {
        let top = reduce(plain, ReduceOp::Max, None, false)?;
        (crate::tensor::ops::scalar::item_i64(&top)? + 1).max(0) as usize
    };
    Ok(if layout.compresses_rows() {
        (major, minor)
    } else {
        (minor, major)
    })
}

fn checked_size(
    layout: SparseLayout,
    size: &[usize],
    dense: &[usize],
    block: (usize, usize),
    compressed_len: usize,
) -> Result<Vec<usize>> {
    if size.len() != 2 + dense.len() || &size[2..] != dense {
        return Err(shape_err(format!(
            "a {} tensor of size {} needs values of dense shape {}, not {}",
            layout.name(),
            fmt_shape(size),
            fmt_shape(&size[2.min(size.len())..]),
            fmt_shape(dense)
        )));
    }
    check_blocks(size, block)?;
    let major = if layout.compresses_rows() {
        size[0] / block.0
    } else {
        size[1] / block.1
    };
    if compressed_len != major + 1 {
        let (name, _) = layout.index_names();
        return Err(shape_err(format!(
            "{name} must have length {} for size {}, but it has {compressed_len}",
            major + 1,
            fmt_shape(size)
        )));
    }
    Ok(size.to_vec())
}

fn check_blocks(size: &[usize], block: (usize, usize)) -> Result<()> {
    if block.0 == 0 || block.1 == 0 {
        return Err(value_err("blocksize must be positive"));
    }
    for (i, (n, b)) in [(size[0], block.0), (size[1], block.1)]
        .into_iter()
        .enumerate()
    {
        if !n.is_multiple_of(b) {
            return Err(shape_err(format!(
                "Tensor size({}) {n} needs to be divisible by blocksize[{i}] {b}",
                i as i64 - 2
            )));
        }
    }
    Ok(())
}

/// For each stored entry, the row (or column) it lies in: how many of the
/// compressed offsets past the first are at or before its position.
fn major_of_entries(compressed: &Tensor, nnz: usize) -> Result<Tensor> {
    let m = compressed.shape()[0].saturating_sub(1);
    let marks = zeros_on(&[nnz + 1], DType::I64, compressed.device())?;
    let starts = narrow(compressed, 0, 1, m as i64)?.to_dtype(DType::I64)?;
    index_put_raw(&marks, &[Idx::Tensor(starts)], &int(1), true)?;
    narrow(&scan(&marks, ScanOp::Sum, 0)?, 0, 0, nnz as i64)
}

/// Offsets `[m + 1]` of entries sorted by `major` (each in `0..m`).
fn offsets(major: &Tensor, m: usize) -> Result<Tensor> {
    let counts = zeros_on(&[m + 1], DType::I64, major.device())?;
    if major.numel() > 0 {
        let shifted = add(major, &int(1))?;
        index_put_raw(&counts, &[Idx::Tensor(shifted)], &int(1), true)?;
    }
    scan(&counts, ScanOp::Sum, 0)
}

/// The same elements as coalesced COO (every element of a stored block is one).
pub(super) fn to_coo(s: &SparseTensor) -> Result<SparseTensor> {
    let plain = s
        .plain
        .as_ref()
        .ok_or_else(|| value_err("not compressed"))?;
    no_grad(|| {
        let nnz = s.nnz();
        let major = major_of_entries(&s.indices, nnz)?;
        let plain = plain.to_dtype(DType::I64)?;
        let (brow, bcol) = if s.layout.compresses_rows() {
            (major, plain)
        } else {
            (plain, major)
        };
        let (r, c) = s.blocksize().unwrap_or((1, 1));
        let (rows, cols) = (
            element_positions(&brow, (r, c), true)?,
            element_positions(&bcol, (r, c), false)?,
        );
        let dense = &s.values.shape()[1 + 2 * s.layout.blocked() as usize..];
        let mut shape = vec![(nnz * r * c) as i64];
        shape.extend(dense.iter().map(|&d| d as i64));
        let loose = SparseTensor {
            layout: SparseLayout::Coo,
            size: s.size.clone(),
            indices: crate::tensor::ops::join::stack(&[rows, cols], 0)?,
            plain: None,
            values: reshape(&s.values, &shape)?.contiguous()?,
            coalesced: false,
        };
        coo::coalesce(&loose)
    })
}

/// The row (`rows`) or column of every element of each block: the block's
/// first one plus the offset within it, laid out as `[nnz, r, c]` and flattened
/// (the order the values' `[nnz, r, c, *dense]` flatten in).
fn element_positions(block: &Tensor, (r, c): (usize, usize), rows: bool) -> Result<Tensor> {
    let nnz = block.shape()[0] as i64;
    let (step, within_shape) = if rows {
        (r, [1, r as i64, 1])
    } else {
        (c, [1, 1, c as i64])
    };
    let start = reshape(&mul(block, &int(step as i64))?, &[nnz, 1, 1])?;
    let within = reshape(&arange_on(step, block.device())?, &within_shape)?;
    let spread = zeros_on(&[1, r, c], DType::I64, block.device())?;
    reshape(&add(&add(&start, &within)?, &spread)?, &[-1])
}

/// COO with two sparse dims into a compressed layout: the stored elements
/// grouped into blocks (a block is stored when any of its elements is), the
/// blocks ordered by row (CSR, BSR) or by column (CSC, BSC).
pub(super) fn from_coo(
    coo: &SparseTensor,
    layout: SparseLayout,
    blocksize: Option<(usize, usize)>,
) -> Result<SparseTensor> {
    if coo.sparse_dim() != 2 {
        return Err(value_err(format!(
            "to_{}: tsh's compressed sparse tensors have exactly 2 sparse dims, but this tensor has {} (batch dims are not supported)",
            layout.name(),
            coo.sparse_dim()
        )));
    }
    let block = match (layout.blocked(), blocksize) {
        (true, Some(b)) => b,
        (true, None) => {
            return Err(value_err(format!("to_{} needs a blocksize", layout.name())));
        }
        (false, _) => (1, 1),
    };
    check_blocks(&coo.size, block)?;
    no_grad(|| grouped(&coo::coalesce(coo)?, layout, block))
}

fn grouped(
    coo: &SparseTensor,
    layout: SparseLayout,
    (r, c): (usize, usize),
) -> Result<SparseTensor> {
    let (nbr, nbc) = (coo.size[0] / r, coo.size[1] / c);
    let (rows, cols) = (select(&coo.indices, 0, 0)?, select(&coo.indices, 0, 1)?);
    let div = |t: &Tensor, k: usize| bin(BinaryOp::FloorDiv, t, &int(k as i64));
    let rem = |t: &Tensor, k: usize| bin(BinaryOp::Rem, t, &int(k as i64));
    let (br, bc) = (div(&rows, r)?, div(&cols, c)?);
    let (major, minor, n_major, n_minor) = if layout.compresses_rows() {
        (br, bc, nbr, nbc)
    } else {
        (bc, br, nbc, nbr)
    };
    let key = add(&mul(&major, &int(n_minor as i64))?, &minor)?;
    let dense = coo.values.shape()[1..].to_vec();
    let (unique, inverse) = if coo.nnz() == 0 {
        (key.clone(), key.clone())
    } else {
        let (u, inv, _) = crate::tensor::ops::sort::unique(&key)?;
        (u, inv)
    };
    let n = unique.shape()[0];
    let values = if layout.blocked() {
        let shape = [&[n, r, c][..], &dense].concat();
        let out = zeros_on(&shape, coo.dtype(), coo.device())?;
        let at = [rem(&rows, r)?, rem(&cols, c)?];
        let at: Vec<Idx> = [inverse].into_iter().chain(at).map(Idx::Tensor).collect();
        if coo.nnz() > 0 {
            index_put_raw(&out, &at, &coo.values, true)?;
        }
        out
    } else {
        let order = crate::tensor::ops::sort::sort(&inverse, 0, false)?.1;
        index(&coo.values, &[Idx::Tensor(order)])?.contiguous()?
    };
    let n_minor = n_minor.max(1) as i64;
    let compressed = offsets(&bin(BinaryOp::FloorDiv, &unique, &int(n_minor))?, n_major)?;
    Ok(SparseTensor {
        layout,
        size: coo.size.clone(),
        indices: compressed,
        plain: Some(bin(BinaryOp::Rem, &unique, &int(n_minor))?.contiguous()?),
        values,
        coalesced: false,
    })
}
