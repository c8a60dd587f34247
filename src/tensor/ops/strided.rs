//! Ops that name a layout directly: as_strided (a view with any sizes,
//! strides and offset into the storage), as_strided_scatter and
//! diagonal_scatter (a copy with another tensor written through such a view).

use crate::autograd::record;
use crate::autograd::rules::rule;
use crate::error::{Result, index_err, shape_err};
use crate::tensor::core::Tensor;
use crate::tensor::layout::Layout;
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::index::{Idx, index_put_raw, write_region};
use crate::tensor::ops::view::reshape;

/// The layout `size`/`stride`/`storage_offset` names, checked against a
/// storage of `len` elements (PyTorch's setStorage bounds message).
fn strided_layout(
    size: &[i64],
    stride: &[i64],
    offset: i64,
    len: usize,
    itemsize: usize,
) -> Result<Layout> {
    if size.len() != stride.len() {
        return Err(shape_err(format!(
            "mismatch in length of strides and shape (got {} strides for {} sizes)",
            stride.len(),
            size.len()
        )));
    }
    if let Some(s) = size.iter().find(|&&s| s < 0) {
        return Err(shape_err(format!(
            "Trying to create tensor with negative dimension {s}: {size:?}"
        )));
    }
    if stride.iter().any(|&s| s < 0) {
        return Err(shape_err(format!(
            "as_strided: Negative strides are not supported at the moment, got strides: {stride:?}"
        )));
    }
    if offset < 0 {
        return Err(shape_err(format!(
            "Tensor: invalid storage offset {offset}"
        )));
    }
    let layout = Layout {
        shape: size.iter().map(|&s| s as usize).collect(),
        strides: stride.iter().map(|&s| s as usize).collect(),
        offset: offset as usize,
    };
    let needed = if layout.numel() == 0 {
        0
    } else {
        layout.offset + layout.storage_span()
    };
    if needed > len {
        return Err(shape_err(format!(
            "setStorage: sizes {size:?}, strides {stride:?}, storage offset {offset}, and itemsize {itemsize} requiring a storage size of {} are out of bounds for storage of size {}",
            needed * itemsize,
            len * itemsize
        )));
    }
    Ok(layout)
}

/// For each element of `layout`, the row-major position of the element of
/// `x` at the same storage place (-1 where x has none): how a gradient on the
/// strided view is added back to x.
fn positions_in(x: &Tensor, layout: &Layout) -> Result<Tensor> {
    let place: std::collections::HashMap<usize, i64> = x
        .layout()
        .offsets()
        .enumerate()
        .map(|(i, p)| (p, i as i64))
        .collect();
    let pos: Vec<i64> = layout
        .offsets()
        .map(|p| place.get(&p).copied().unwrap_or(-1))
        .collect();
    let n = pos.len();
    Tensor::from_vec(pos, &[n]).to_device(x.device())
}

/// torch.as_strided: a view of x's storage with these sizes and strides,
/// starting at `storage_offset` (x's own offset by default). The gradient
/// reaches x's own elements; storage places x does not cover (x a slice of a
/// larger tensor) get none, where PyTorch passes it on to that base tensor.
pub fn as_strided(
    x: &Tensor,
    size: &[i64],
    stride: &[i64],
    storage_offset: Option<i64>,
) -> Result<Tensor> {
    let offset = storage_offset.unwrap_or(x.offset() as i64);
    let layout = strided_layout(size, stride, offset, x.storage_len(), x.dtype().size())?;
    let out = x.view_with(layout.clone());
    if !crate::autograd::needs_grad(&[x]) {
        return Ok(out);
    }
    // Elements the view reaches more than once get their gradients summed.
    let positions = positions_in(x, &layout)?;
    let shape = x.shape().to_vec();
    Ok(record(out, "AsStridedBackward0", &[x], false, move || {
        rule(move |g| {
            let flat = reshape(&g.contiguous()?, &[-1])?;
            let covered = crate::tensor::ops::arith::cmp(
                crate::tensor::op::BinaryOp::Ge,
                &positions,
                &crate::tensor::ops::arith::int(0),
            )?;
            let pick =
                |t: &Tensor| crate::tensor::ops::index::index(t, &[Idx::Tensor(covered.clone())]);
            let z = zeros_on(&[shape.iter().product()], g.dtype(), g.device())?;
            index_put_raw(&z, &[Idx::Tensor(pick(&positions)?)], &pick(&flat)?, true)?;
            let dims: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
            Ok(vec![Some(reshape(&z, &dims)?)])
        })
    }))
}

/// A copy of `input` with `src` written through `region` (a layout of the
/// copy), and the gradients: the incoming one with the region zeroed for
/// input, the region's part of it for src.
fn scatter_through(
    input: &Tensor,
    src: &Tensor,
    region: Layout,
    name: &'static str,
) -> Result<Tensor> {
    if src.shape() != region.shape.as_slice() {
        return Err(shape_err(format!(
            "expected src to have a size equal to the slice of self. src size = {:?}, slice size = {:?}",
            src.shape(),
            region.shape
        )));
    }
    let out = input.contiguous()?.deep_clone()?;
    write_region(&out, &region, &src.to_dtype(input.dtype())?)?;
    Ok(record(out, name, &[input, src], false, move || {
        rule(move |g| {
            let g = g.contiguous()?.deep_clone()?;
            let part = g.view_with(region.clone()).contiguous()?.deep_clone()?;
            let zero = zeros_on(&region.shape, g.dtype(), g.device())?;
            write_region(&g, &region, &zero)?;
            Ok(vec![Some(g), Some(part)])
        })
    }))
}

/// torch.as_strided_scatter: a copy of input with src written through the
/// view input.as_strided(size, stride, storage_offset).
pub fn as_strided_scatter(
    input: &Tensor,
    src: &Tensor,
    size: &[i64],
    stride: &[i64],
    storage_offset: Option<i64>,
) -> Result<Tensor> {
    let region = strided_layout(
        size,
        stride,
        storage_offset.unwrap_or(0),
        input.numel(),
        input.dtype().size(),
    )?;
    scatter_through(input, src, region, "AsStridedScatterBackward0")
}

/// torch.diagonal_scatter: a copy of input with src on the diagonal
/// `offset` of dims dim1 and dim2.
pub fn diagonal_scatter(
    input: &Tensor,
    src: &Tensor,
    offset: i64,
    dim1: i64,
    dim2: i64,
) -> Result<Tensor> {
    use crate::tensor::shape::normalize_dim;
    let (a, b) = (
        normalize_dim(dim1, input.ndim())?,
        normalize_dim(dim2, input.ndim())?,
    );
    if a == b {
        return Err(index_err(format!(
            "diagonal dimensions cannot be identical {dim1}, {dim2}"
        )));
    }
    let region = Layout::contiguous(input.shape()).diagonal(offset, a, b);
    scatter_through(input, src, region, "DiagonalScatterBackward0")
}

/// torch.empty_strided: a tensor of `size` laid out with `stride` over a
/// storage just large enough (PyTorch leaves it uninitialised; tsh zeroes it).
pub fn empty_strided(
    size: &[i64],
    stride: &[i64],
    dtype: crate::tensor::DType,
    device: crate::tensor::Device,
) -> Result<Tensor> {
    // The storage is sized by the layout itself, so the bounds check is the
    // sizes' and strides' validity only.
    let probe = strided_layout(size, stride, 0, usize::MAX, dtype.size())?;
    let span = if probe.numel() == 0 {
        0
    } else {
        probe.storage_span()
    };
    crate::tensor::core::check_alloc(&[span], dtype)?;
    let storage = crate::backend::Storage::full(
        device,
        span,
        dtype,
        crate::backend::Scalar { f: 0.0, i: 0 },
    )?;
    Ok(Tensor::from_storage(storage, probe))
}

/// torch.empty_permuted: `size` stored densely in the order `physical_layout`
/// gives (its last dim varies fastest), seen in the logical order.
pub fn empty_permuted(
    size: &[i64],
    physical_layout: &[i64],
    dtype: crate::tensor::DType,
    device: crate::tensor::Device,
) -> Result<Tensor> {
    let n = size.len();
    if physical_layout.len() != n {
        return Err(shape_err(format!(
            "Number of dimensions in size does not match the length of the physical_layout; i.e. len(size) = {n} is not equal to len(physical_layout) = {}",
            physical_layout.len()
        )));
    }
    let mut seen = vec![false; n];
    for (i, &p) in physical_layout.iter().enumerate() {
        if p < 0 || p as usize >= n {
            return Err(index_err(format!(
                "Dimension out of range (expected to be between 0 and {}, but got {p} at index {i}).  NB: negative dims not currently supported; file an issue if you want it.",
                n as i64 - 1
            )));
        }
        if std::mem::replace(&mut seen[p as usize], true) {
            return Err(shape_err("Duplicate dim not allowed"));
        }
    }
    let mut stride = vec![0i64; n];
    let mut acc = 1i64;
    for &p in physical_layout.iter().rev() {
        stride[p as usize] = acc;
        acc = acc.saturating_mul(size[p as usize].max(1));
    }
    empty_strided(size, &stride, dtype, device)
}

/// Tensor.dim_order: the dims from outermost to innermost in memory (by
/// decreasing stride; ties keep the logical order).
pub fn dim_order(t: &Tensor) -> Vec<i64> {
    let mut dims: Vec<usize> = (0..t.ndim()).collect();
    dims.sort_by(|&a, &b| t.strides()[b].cmp(&t.strides()[a]));
    dims.into_iter().map(|d| d as i64).collect()
}
