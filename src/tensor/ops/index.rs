//! Indexing `t[...]` and index assignment `t[...] = v`. Ints, slices, `...` and
//! `none` give views; int and bool tensors (advanced indices) go to the
//! backend's gather and scatter, with PyTorch's rules for where the indexed dims
//! land.

use crate::error::{Result, index_err, shape_err, value_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::tensor::ops::view::{select, slice_dim, unsqueeze};
use crate::tensor::shape::{broadcast_shapes, check_broadcast_to, fmt_shape};

#[derive(Clone, Debug)]
pub enum Idx {
    Int(i64),
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Ellipsis,
    NewAxis,
    Tensor(Tensor),
}

/// What an index selects: a view for basic indices; for advanced ones, a view
/// and the dims of it that int64 index tensors (of one broadcast shape) pick.
enum Selection {
    View(Tensor),
    Advanced {
        view: Tensor,
        dims: Vec<usize>,
        indices: Vec<Tensor>,
        bshape: Vec<usize>,
        insert_at: usize,
        shape: Vec<usize>,
    },
}

fn consumed(idx: &Idx) -> usize {
    match idx {
        Idx::Int(_) | Idx::Slice(..) => 1,
        Idx::Tensor(t) if t.dtype().is_bool() => t.ndim(),
        Idx::Tensor(_) => 1,
        Idx::Ellipsis | Idx::NewAxis => 0,
    }
}

/// Does the slice `start:stop:step` keep all `len` elements in order?
fn covers_dim(start: Option<i64>, stop: Option<i64>, step: Option<i64>, len: usize) -> bool {
    let len = len as i64;
    let start = start.map_or(0, |s| if s < 0 { (s + len).max(0) } else { s });
    let stop = stop.map_or(len, |s| if s < 0 { s + len } else { s });
    step.unwrap_or(1) == 1 && start == 0 && stop >= len
}

fn select_elements(t: &Tensor, indices: &[Idx]) -> Result<Selection> {
    let used: usize = indices.iter().map(consumed).sum();
    let ellipses = indices
        .iter()
        .filter(|i| matches!(i, Idx::Ellipsis))
        .count();
    if ellipses > 1 {
        return Err(index_err(
            "an index can only have a single ellipsis ('...')",
        ));
    }
    if used > t.ndim() {
        return Err(index_err(format!(
            "too many indices for a tensor of dimension {} (shape {}): {} given",
            t.ndim(),
            fmt_shape(t.shape()),
            used
        ))
        .hint("each index entry consumes one dimension; use `none` to add one"));
    }
    let mut view = t.clone();
    let mut dim = 0usize;
    let mut advanced: Vec<(usize, Tensor)> = Vec::new();
    for idx in indices {
        match idx {
            Idx::Int(i) => {
                view = select(&view, dim, *i)?;
            }
            Idx::Slice(start, stop, step) => {
                // Inside a tuple index, a slice that keeps the whole dim is no op at
                // all (PyTorch records nothing for the `:` of `x[:, 1]`).
                let whole = indices.len() > 1
                    && dim < view.ndim()
                    && covers_dim(*start, *stop, *step, view.shape()[dim]);
                if !whole {
                    view = slice_dim(&view, dim, *start, *stop, step.unwrap_or(1))?;
                }
                dim += 1;
            }
            Idx::NewAxis => {
                view = unsqueeze(&view, dim as i64)?;
                dim += 1;
            }
            Idx::Ellipsis => dim += t.ndim() - used,
            Idx::Tensor(ix) if ix.dtype().is_bool() => {
                let k = ix.ndim();
                let covered = &view.shape()[dim..dim + k];
                if ix.shape() != covered {
                    return Err(index_err(format!(
                        "the mask's shape {} does not match the indexed tensor's dims {}",
                        fmt_shape(ix.shape()),
                        fmt_shape(covered)
                    ))
                    .hint("a bool mask must have exactly the shape of the dims it indexes"));
                }
                if k == 0 {
                    // A 0-d bool index adds a dim of size 1 (true) or 0 (false).
                    let keep = crate::autograd::no_grad(|| {
                        crate::tensor::ops::reduce::reduce(
                            ix,
                            crate::tensor::op::ReduceOp::Any,
                            None,
                            false,
                        )
                    })?;
                    view = unsqueeze(&view, dim as i64)?;
                    let n = crate::tensor::ops::scalar::item_bool(&keep)? as i64;
                    view = slice_dim(&view, dim, Some(0), Some(n), 1)?;
                    dim += 1;
                    continue;
                }
                let nz = crate::tensor::ops::sort::nonzero(ix)?;
                for j in 0..k {
                    advanced.push((dim + j, select(&nz, 1, j as i64)?));
                }
                dim += k;
            }
            Idx::Tensor(ix) => {
                if ix.dtype().is_float() {
                    return Err(index_err(format!(
                        "tensors used as indices must be integer or bool, not {}",
                        ix.dtype()
                    ))
                    .hint("convert with .long()"));
                }
                advanced.push((dim, ix.clone()));
                dim += 1;
            }
        }
    }
    if advanced.is_empty() {
        if view.same_tensor(t) {
            // Every index kept everything: PyTorch hands back an alias.
            let alias = t.view_with(t.layout().clone());
            return Ok(Selection::View(
                crate::autograd::rules::shape::record_reshape("AliasBackward0", t, alias),
            ));
        }
        return Ok(Selection::View(view));
    }
    let mut bshape = crate::tensor::layout::Dims::new();
    for (_, ix) in &advanced {
        bshape = broadcast_shapes(&bshape, ix.shape())
            .map_err(|_| index_err("index tensors could not be broadcast together"))?;
    }
    let dims: Vec<usize> = advanced.iter().map(|(d, _)| *d).collect();
    // Indexed dims side by side keep their place; apart, they go first.
    let consecutive = dims.windows(2).all(|w| w[1] == w[0] + 1);
    let insert_at = if consecutive { dims[0] } else { 0 };
    let rest: Vec<usize> = (0..view.ndim())
        .filter(|d| !dims.contains(d))
        .map(|d| view.shape()[d])
        .collect();
    let mut shape = rest[..insert_at.min(rest.len())].to_vec();
    shape.extend(&bshape);
    shape.extend(&rest[insert_at.min(rest.len())..]);
    check_alloc(&shape, view.dtype())?;
    let indices = advanced
        .into_iter()
        .map(|(_, ix)| {
            crate::autograd::no_grad(|| ix.to_dtype(DType::I64)?.to_device(view.device()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Selection::Advanced {
        view,
        dims,
        indices,
        bshape: bshape.to_vec(),
        insert_at,
        shape,
    })
}

/// A complex tensor is indexed as its (re, im) pairs: the same indices, then
/// the whole pair dim.
fn pair_indices(indices: &[Idx]) -> Vec<Idx> {
    let mut v = indices.to_vec();
    v.push(Idx::Slice(None, None, None));
    v
}

/// A complex tensor in the real (re, im) pairs of `like`'s dtype.
fn as_pairs(value: &Tensor, like: &Tensor) -> Result<Tensor> {
    crate::autograd::no_grad(|| {
        value
            .to_dtype(like.dtype())?
            .to_device(like.device())?
            .view_as_real()
    })
}

/// Pairs back to complex: a view where the layout allows, else a copy.
fn from_pairs(r: Tensor) -> Result<Tensor> {
    match r.view_as_complex() {
        Ok(z) => Ok(z),
        Err(_) => r.contiguous()?.view_as_complex(),
    }
}

/// `t[indices]`.
pub fn index(t: &Tensor, indices: &[Idx]) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return from_pairs(index(&t.view_as_real()?, &pair_indices(indices))?);
    }
    if let Some(out) = whole_mask(t, indices)? {
        return Ok(out);
    }
    match select_elements(t, indices)? {
        Selection::View(v) => Ok(v),
        Selection::Advanced {
            view,
            dims,
            indices: ixs,
            bshape,
            insert_at,
            shape,
        } => {
            let picks: usize = bshape.iter().product();
            if picks > 0 && dims.iter().any(|&d| view.shape()[d] == 0) {
                return Err(index_err(
                    "index is out of bounds for dimension with size 0",
                ));
            }
            if shape.iter().product::<usize>() == 0 {
                // Nothing to read, so (as in ATen's loop) nothing to check.
                let out = crate::tensor::ops::creation::zeros_on(&shape, t.dtype(), t.device())?;
                let idx = indices.to_vec();
                return Ok(crate::autograd::rules::shape::record_index(t, out, idx));
            }
            let ils: Vec<Layout> = ixs.iter().map(|i| i.layout().expand(&bshape)).collect();
            let guards: Vec<_> = ixs.iter().map(|i| i.read()).collect();
            let ops: Vec<_> = guards.iter().zip(&ils).map(|(g, l)| (&**g, l)).collect();
            let out = view.read().index(view.layout(), &dims, &ops, insert_at)?;
            drop(guards);
            let out = Tensor::from_contiguous(out, &shape);
            let idx = indices.to_vec();
            Ok(crate::autograd::rules::shape::record_index(t, out, idx))
        }
    }
}

/// `t[mask]` with a contiguous mask of t's own shape (masked_select's
/// case): one gather from the flat positions of the true elements, not one
/// index tensor per dim read through strided columns of nonzero's rows.
/// Recorded as the index it is. None: not that case.
fn whole_mask(t: &Tensor, indices: &[Idx]) -> Result<Option<Tensor>> {
    let [Idx::Tensor(m)] = indices else {
        return Ok(None);
    };
    if !m.dtype().is_bool() || m.shape() != t.shape() || t.ndim() < 2 || !m.is_contiguous() {
        return Ok(None);
    }
    let n = [t.numel() as i64];
    let out = crate::autograd::no_grad(|| {
        use crate::tensor::ops::view::reshape;
        let at = reshape(&crate::tensor::ops::sort::nonzero(&reshape(m, &n)?)?, &[-1])?;
        index(&reshape(t, &n)?, &[Idx::Tensor(at)])
    })?;
    let idx = indices.to_vec();
    Ok(Some(crate::autograd::rules::shape::record_index(
        t, out, idx,
    )))
}

/// A value ready to be written: broadcast to `shape`, in `dtype`, on `device`,
/// in storage of its own (so writing never reads what it overwrites).
fn prepared(value: &Tensor, shape: &[usize], t: &Tensor) -> Result<Tensor> {
    let v = prepared_view(value, shape, t)?;
    // Already the target's shape, in memory of its own: the copy can read it
    // directly (a value sharing t's memory is copied first, so that no
    // element is overwritten before it is read).
    if value.shape() == shape && !v.shares_storage(t) {
        return Ok(v);
    }
    materialized(&v)
}

/// The elements of a view, in memory of their own.
fn materialized(v: &Tensor) -> Result<Tensor> {
    let s = v.read().cast(v.layout(), v.dtype())?;
    Ok(Tensor::from_contiguous(s, v.shape()))
}

/// A value ready to be copied into `shape` by `copy_into`, which reads any
/// layout: a broadcast value stays a view (a scalar fill reads one element),
/// except where it shares t's memory and must be copied first.
fn copy_source(value: &Tensor, shape: &[usize], t: &Tensor) -> Result<Tensor> {
    let v = prepared_view(value, shape, t)?;
    if v.shares_storage(t) {
        return materialized(&v);
    }
    Ok(v)
}

fn prepared_view(value: &Tensor, shape: &[usize], t: &Tensor) -> Result<Tensor> {
    check_broadcast_to(value.shape(), shape).map_err(|_| {
        shape_err(format!(
            "cannot assign a value of shape {} to a selection of shape {}",
            fmt_shape(value.shape()),
            fmt_shape(shape)
        ))
        .hint("the value must broadcast to the selected shape")
    })?;
    let v = crate::autograd::no_grad(|| value.to_dtype(t.dtype())?.to_device(t.device()))?;
    Ok(v.view_with(v.layout().expand(shape)))
}

/// Refuse writes through a layout whose elements share memory (an expanded view).
fn check_writable(l: &Layout) -> Result<()> {
    if l.shape
        .iter()
        .zip(&l.strides)
        .any(|(&n, &s)| n > 1 && s == 0)
    {
        return Err(value_err(
            "unsupported operation: more than one element of the written-to tensor refers to a single memory location",
        )
        .hint("clone() the tensor before writing to it (it is an expanded view)"));
    }
    Ok(())
}

/// `t[indices] = value`, writing through to `t`'s storage; `value` broadcasts
/// to the selection and converts to `t`'s dtype. Autograd sees it.
pub fn index_put(t: &Tensor, indices: &[Idx], value: &Tensor) -> Result<()> {
    crate::autograd::inplace::index_put(t, indices, value)
}

/// `t[indices] = value` (or `+=` with `accumulate`) without autograd bookkeeping.
pub fn index_put_raw(t: &Tensor, indices: &[Idx], value: &Tensor, accumulate: bool) -> Result<()> {
    if t.dtype().is_complex() {
        let pairs = as_pairs(value, t)?;
        return index_put_raw(
            &t.view_as_real()?,
            &pair_indices(indices),
            &pairs,
            accumulate,
        );
    }
    match select_elements(t, indices)? {
        Selection::View(v) => {
            check_writable(v.layout())?;
            let src = copy_source(value, v.shape(), t)?;
            let src = if accumulate {
                crate::autograd::no_grad(|| crate::tensor::ops::arith::add(&v, &src))?
            } else {
                src
            };
            let s = src.read();
            v.write().copy_into(v.layout(), &s, src.layout())
        }
        Selection::Advanced {
            view,
            dims,
            indices: ixs,
            bshape,
            insert_at,
            shape,
        } => {
            let src = prepared(value, &shape, t)?;
            // Index tensors that share t's storage are copied first.
            let ixs = ixs
                .into_iter()
                .map(|i| {
                    if i.shares_storage(t) {
                        i.deep_clone()
                    } else {
                        Ok(i)
                    }
                })
                .collect::<Result<Vec<_>>>()?;
            let ils: Vec<Layout> = ixs.iter().map(|i| i.layout().expand(&bshape)).collect();
            let guards: Vec<_> = ixs.iter().map(|i| i.read()).collect();
            let ops: Vec<_> = guards.iter().zip(&ils).map(|(g, l)| (&**g, l)).collect();
            let s = src.read();
            view.write().index_put_into(
                view.layout(),
                &dims,
                &ops,
                insert_at,
                (&s, src.layout()),
                accumulate,
            )
        }
    }
}

/// Overwrite every element of `t` with `value` (broadcast, converted): the body
/// of fill_, zero_, copy_ and in-place arithmetic.
pub fn write_all(t: &Tensor, value: &Tensor) -> Result<()> {
    if t.dtype().is_complex() {
        return write_all(&t.view_as_real()?, &as_pairs(value, t)?);
    }
    crate::autograd::inplace::check(t, value)?;
    check_writable(t.layout())?;
    if can_take_buffer(t, value) {
        // Nothing else sees the value's buffer (a fresh result: `x.add_(y)`,
        // `x += y`): it becomes t's, in place of a copy. Views of t share the
        // storage object, so they see the new elements as after a copy.
        std::mem::swap(&mut *t.write(), &mut *value.write());
    } else {
        let src = copy_source(value, t.shape(), t)?;
        let s = src.read();
        t.write().copy_into(t.layout(), &s, src.layout())?;
    }
    crate::autograd::inplace::after_write_all(t, value);
    Ok(())
}

/// Can `value`'s buffer replace t's: the same dtype, device and shape, t laid
/// over the whole of its buffer, and no other handle on the value's?
fn can_take_buffer(t: &Tensor, value: &Tensor) -> bool {
    value.is_sole_owner()
        && !value.is_wrapped_number()
        && value.dtype() == t.dtype()
        && value.device() == t.device()
        && value.shape() == t.shape()
        && t.is_contiguous()
        && t.offset() == 0
        && t.numel() == t.storage_len()
        && !t.shares_storage(value)
}

/// Copy `value` into the region `region` of `t` (no autograd): how cat fills its output.
pub fn write_region(t: &Tensor, region: &Layout, value: &Tensor) -> Result<()> {
    if t.dtype().is_complex() {
        let real = Layout {
            shape: [&region.shape[..], &[2]].concat().into(),
            strides: region.strides.iter().map(|s| s * 2).chain([1]).collect(),
            offset: region.offset * 2,
        };
        return write_region(&t.view_as_real()?, &real, &as_pairs(value, t)?);
    }
    let src = copy_source(value, &region.shape, t)?;
    let s = src.read();
    t.write().copy_into(region, &s, src.layout())
}

/// Index tensors that pick, for every position of `index` (a tensor shaped like
/// `t` except along `dim`), the element at `index` along `dim` and at the same
/// position along every other dim: how gather and scatter are advanced indexing.
pub(crate) fn along(t: &Tensor, dim: usize, index: &Tensor) -> Result<Vec<Idx>> {
    check_along(t, dim, index)?;
    (0..t.ndim())
        .map(|d| {
            if d == dim {
                return Ok(Idx::Tensor(index.clone()));
            }
            let n = index.shape()[d];
            let r = crate::tensor::ops::creation::arange_on(n, t.device())?;
            let mut shape = vec![1i64; t.ndim()];
            shape[d] = n as i64;
            Ok(Idx::Tensor(crate::tensor::ops::view::reshape(&r, &shape)?))
        })
        .collect()
}

/// An index for gather or scatter along `dim`: t's rank, and no larger than t
/// along the other dims.
pub(crate) fn check_along(t: &Tensor, dim: usize, index: &Tensor) -> Result<()> {
    if index.ndim() != t.ndim() {
        return Err(index_err(format!(
            "the index must have as many dims as the input ({}), but it has {}",
            t.ndim(),
            index.ndim()
        )));
    }
    for d in 0..t.ndim() {
        if d != dim && index.shape()[d] > t.shape()[d] {
            return Err(index_err(format!(
                "the index's size {} at dim {d} exceeds the input's {}",
                index.shape()[d],
                t.shape()[d]
            )));
        }
    }
    Ok(())
}

/// torch.gather: `out[i][j] = t[i][index[i][j]]` along `dim` (and so on).
pub fn gather(t: &Tensor, dim: usize, index: &Tensor) -> Result<Tensor> {
    let idx = along(t, dim, index)?;
    index_raw(t, &idx)
}

/// `t` with `src` added at `index` along `dim` (torch.scatter_add, out of place).
pub fn scatter_add(t: &Tensor, dim: usize, index: &Tensor, src: &Tensor) -> Result<Tensor> {
    let idx = along(t, dim, index)?;
    let out = t.deep_clone()?;
    index_put_raw(&out, &idx, src, true)?;
    Ok(out)
}

/// `t[indices]` without recording (the gradient rules' own gathers).
pub fn index_raw(t: &Tensor, indices: &[Idx]) -> Result<Tensor> {
    crate::autograd::no_grad(|| index(t, indices))
}
