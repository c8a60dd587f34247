//! Indexing `t[...]` and index assignment `t[...] = v`. Ints, slices, `...` and
//! `none` give views; int and bool tensors (advanced indices) gather into a new
//! tensor, with PyTorch's rules for where the indexed dims land.

use crate::backend::cpu::map::{cast, contiguous, scatter, take};
use crate::error::{Result, index_err, shape_err};
use crate::tensor::core::Tensor;
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

/// The elements an index selects: a view for basic indices, or explicit
/// storage offsets (with the result's shape) for advanced ones.
enum Selection {
    View(Tensor),
    Gather {
        shape: Vec<usize>,
        offsets: Vec<usize>,
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
                let nz = crate::tensor::ops::sort::nonzero(ix);
                for j in 0..k {
                    let col = select(&nz, 1, j as i64)?;
                    advanced.push((dim + j, col));
                }
                if k == 0 {
                    // A 0-d bool index adds a dim of size 1 (true) or 0 (false).
                    let keep = ix.to_i64_vec()[0] != 0;
                    view = unsqueeze(&view, dim as i64)?;
                    if !keep {
                        view = slice_dim(&view, dim, Some(0), Some(0), 1)?;
                    }
                    dim += 1;
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
    gather_advanced(&view, &advanced).map(|(shape, offsets)| Selection::Gather { shape, offsets })
}

fn gather_advanced(
    view: &Tensor,
    advanced: &[(usize, Tensor)],
) -> Result<(Vec<usize>, Vec<usize>)> {
    let mut bshape: Vec<usize> = vec![];
    for (_, ix) in advanced {
        bshape = broadcast_shapes(&bshape, ix.shape())
            .map_err(|_| index_err("index tensors could not be broadcast together"))?;
    }
    let positions: Vec<usize> = advanced.iter().map(|(p, _)| *p).collect();
    // Each index tensor's values, broadcast to the common shape and bounds-checked.
    let mut values: Vec<Vec<i64>> = Vec::new();
    for (p, ix) in advanced {
        let size = view.shape()[*p] as i64;
        let expanded = ix.view_with(ix.layout().expand(&bshape));
        let mut v = expanded.to_i64_vec();
        for x in v.iter_mut() {
            if *x < -size || *x >= size {
                return Err(index_err(format!(
                    "index {x} is out of bounds for dimension {p} with size {size}"
                )));
            }
            if *x < 0 {
                *x += size;
            }
        }
        values.push(v);
    }
    let nb: usize = bshape.iter().product();
    let base: Vec<usize> = (0..nb)
        .map(|b| {
            positions
                .iter()
                .zip(&values)
                .map(|(&p, v)| v[b] as usize * view.strides()[p])
                .sum()
        })
        .collect();
    let rest: Vec<usize> = (0..view.ndim())
        .filter(|d| !positions.contains(d))
        .collect();
    let consecutive = positions.windows(2).all(|w| w[1] == w[0] + 1);
    let sub = |dims: &[usize]| Layout {
        shape: dims.iter().map(|&d| view.shape()[d]).collect(),
        strides: dims.iter().map(|&d| view.strides()[d]).collect(),
        offset: 0,
    };
    let (before, after): (Vec<usize>, Vec<usize>) = if consecutive {
        rest.iter().partition(|&&d| d < positions[0])
    } else {
        (vec![], rest.clone())
    };
    let (lb, la) = (sub(&before), sub(&after));
    let mut shape = lb.shape.clone();
    shape.extend(&bshape);
    shape.extend(&la.shape);
    // The result, and one usize offset per element while it is gathered.
    crate::tensor::core::check_working_set(&shape, view.dtype(), 8)?;
    // An empty selection may still have huge trailing dims: zeros(4, 0, 10**10)[mask].
    if shape.contains(&0) {
        return Ok((shape, vec![]));
    }
    let after_offsets: Vec<usize> = la.offsets().collect();
    let mut offsets = Vec::with_capacity(shape.iter().product());
    for ob in lb.offsets() {
        for &bb in &base {
            for &oa in &after_offsets {
                offsets.push(view.offset() + ob + bb + oa);
            }
        }
    }
    Ok((shape, offsets))
}

/// `t[indices]`.
pub fn index(t: &Tensor, indices: &[Idx]) -> Result<Tensor> {
    match select_elements(t, indices)? {
        Selection::View(v) => Ok(v),
        Selection::Gather { shape, offsets } => {
            let out = Tensor::from_contiguous(take(&t.read(), &offsets), &shape);
            let indices = indices.to_vec();
            Ok(crate::autograd::rules::shape::record_gather(
                "IndexBackward0",
                t,
                out,
                move |positions| index(positions, &indices),
            ))
        }
    }
}

/// `t[indices] = value`, writing through to `t`'s storage; `value` broadcasts
/// to the selection and converts to `t`'s dtype. Autograd sees it.
pub fn index_put(t: &Tensor, indices: &[Idx], value: &Tensor) -> Result<()> {
    crate::autograd::inplace::index_put(t, indices, value)
}

/// `t[indices] = value` without autograd bookkeeping.
pub fn index_put_raw(t: &Tensor, indices: &[Idx], value: &Tensor) -> Result<()> {
    let (shape, offsets) = match select_elements(t, indices)? {
        Selection::View(v) => (v.shape().to_vec(), v.layout().offsets().collect::<Vec<_>>()),
        Selection::Gather { shape, offsets } => (shape, offsets),
    };
    write_at(t, &shape, &offsets, value)
}

/// Copy `value` (broadcast to `shape`, cast to `t`'s dtype) to `offsets` of `t`'s storage.
pub fn write_at(t: &Tensor, shape: &[usize], offsets: &[usize], value: &Tensor) -> Result<()> {
    check_broadcast_to(value.shape(), shape).map_err(|_| {
        shape_err(format!(
            "cannot assign a value of shape {} to a selection of shape {}",
            fmt_shape(value.shape()),
            fmt_shape(shape)
        ))
        .hint("the value must broadcast to the selected shape")
    })?;
    let src = {
        let s = value.read();
        let l = value.layout().expand(shape);
        if value.dtype() == t.dtype() {
            contiguous(&s, &l)
        } else {
            cast(&s, &l, t.dtype())
        }
    };
    scatter(&mut t.write(), offsets, &src);
    Ok(())
}

/// Overwrite every element of `t` with `value` (broadcast, converted): the body
/// of fill_, zero_, copy_ and in-place arithmetic.
pub fn write_all(t: &Tensor, value: &Tensor) -> Result<()> {
    crate::autograd::inplace::check(t, value)?;
    let offsets: Vec<usize> = t.layout().offsets().collect();
    write_at(t, t.shape(), &offsets, value)?;
    crate::autograd::inplace::after_write_all(t, value);
    Ok(())
}
