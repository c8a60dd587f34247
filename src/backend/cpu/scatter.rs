//! scatter and scatter_add on the CPU: each position of the index writes (or
//! adds) its source element into the destination's line along `dim`, in one
//! pass with no offset table (advanced indexing with aranges for the other
//! dims took 8x PyTorch's time). Within a line the order is the index's, as in
//! ATen's loop, so repeated positions sum, and round, as PyTorch's do.

use super::elem::{CpuStorage, Element};
use super::index::row_starts;
use super::strided::{PAR_MIN, parallel};
use crate::error::{Result, value_err};
use crate::tensor::layout::Layout;
use crate::with_storage;

/// How one row of the index (its last dim) steps through its operands.
#[derive(Clone, Copy)]
struct Steps {
    /// Elements in the row.
    len: usize,
    /// The index's, the source's and the destination's step along the row
    /// (the destination's is 0 when the row runs along `dim`).
    index: usize,
    src: usize,
    dst: usize,
    /// The destination's step per unit of an index value, and how many there are.
    along: usize,
    size: usize,
    accumulate: bool,
}

#[allow(clippy::too_many_arguments)]
pub fn scatter_into(
    dst: &mut CpuStorage,
    l: &Layout,
    dim: usize,
    index: &CpuStorage,
    il: &Layout,
    src: &CpuStorage,
    sl: &Layout,
    accumulate: bool,
) -> Result<()> {
    let CpuStorage::I64(ix) = index else {
        return Err(value_err("internal: scatter's index must be int64"));
    };
    let unprepared = || value_err("internal: scatter's operands reached the backend unprepared");
    if il.shape != sl.shape || il.ndim() == 0 {
        return Err(unprepared());
    }
    if il.numel() == 0 {
        return Ok(());
    }
    let size = l.shape[dim];
    let nd = il.ndim();
    let mut spot = l.strides.clone();
    spot[dim] = 0;
    let starts = (
        row_starts(il, &spot, l.offset),
        row_starts(il, &il.strides, il.offset),
        row_starts(il, &sl.strides, sl.offset),
    );
    let steps = Steps {
        len: il.shape[nd - 1],
        index: il.strides[nd - 1],
        src: sl.strides[nd - 1],
        dst: spot[nd - 1],
        along: l.strides[dim],
        size,
        accumulate,
    };
    let fine = with_storage!(dst, d => {
        let s = Element::slice(src).ok_or_else(unprepared)?;
        // Along the last dim of a contiguous destination, each index row
        // writes a line of its own: rows run in parallel.
        if dim == nd - 1 && l.is_contiguous() && parallel(il.numel()) {
            by_lines(&mut d[l.offset..l.offset + l.numel()], l.shape[dim], l.offset, &starts, ix, s, steps)
        } else {
            let mut fine = true;
            for ((&o, &i), &r) in starts.0.iter().zip(&starts.1).zip(&starts.2) {
                fine &= scatter_row(&mut d[o..], &ix[i..], &s[r..], steps);
            }
            fine
        }
    });
    match fine {
        true => Ok(()),
        false => {
            let x = outside(ix, il, size as i64).unwrap_or(-1);
            Err(crate::backend::along_bounds_err(x, dim, size))
        }
    }
}

/// The first index value outside `[0, size)`, if any.
fn outside(ix: &[i64], il: &Layout, size: i64) -> Option<i64> {
    let mut bad = None;
    super::strided::runs(il, 0, il.numel(), &mut |off, stride, count| {
        if bad.is_none() {
            bad = (0..count)
                .map(|k| ix[off + k * stride])
                .find(|&x| x < 0 || x >= size);
        }
    });
    bad
}

/// Rows in parallel, each handed its own line of the destination (`dst` is
/// the contiguous destination from `offset`, in lines of `line` elements;
/// row starts rise with the line they write). False if an index was out of range.
fn by_lines<T: Element>(
    dst: &mut [T],
    line: usize,
    offset: usize,
    starts: &(Vec<usize>, Vec<usize>, Vec<usize>),
    ix: &[i64],
    src: &[T],
    steps: Steps,
) -> bool {
    let mut lines = dst.chunks_mut(line).enumerate();
    let mut work = Vec::with_capacity(starts.0.len());
    for ((&o, &i), &r) in starts.0.iter().zip(&starts.1).zip(&starts.2) {
        let want = (o - offset) / line;
        if let Some((_, d)) = lines.by_ref().find(|(k, _)| *k == want) {
            work.push((d, i, r));
        }
    }
    let per = (PAR_MIN / steps.len.max(1)).max(1);
    let tasks = crate::threads::ChunksMut::new(&mut work, per);
    let fine = crate::threads::zip_map(tasks, |_, rows| {
        // Every row runs, whatever an earlier one found.
        rows.iter_mut()
            .map(|(d, i, r)| scatter_row(d, &ix[*i..], &src[*r..], steps))
            .filter(|ok| !ok)
            .count()
            == 0
    });
    fine.into_iter().all(|ok| ok)
}

/// One row of the index: `dst[k * dst_step + index[k] * along] (+)= src[k]`;
/// false if an index was out of range (it wrote nothing, and the error
/// leaves the destination unfinished, as ATen's check inside its loop does).
fn scatter_row<T: Element>(dst: &mut [T], index: &[i64], src: &[T], s: Steps) -> bool {
    let float = T::DTYPE.is_float();
    let add = |d: T, v: T| match float {
        // Through f64, which rounds a float sum exactly as the element
        // type's own addition does (53 bits hold two roundings of 24).
        true => T::from_f64(d.to_f64() + v.to_f64()),
        false => T::from_i64(d.to_i64().wrapping_add(v.to_i64())),
    };
    let mut fine = true;
    if (s.index, s.src, s.dst, s.along) == (1, 1, 0, 1) && dst.len() >= s.size {
        // Along a contiguous line from contiguous rows: the commonest case,
        // with one check per element.
        let line = &mut dst[..s.size];
        for (&x, &v) in index[..s.len].iter().zip(&src[..s.len]) {
            let Some(d) = line.get_mut(x as u64 as usize) else {
                fine = false;
                continue;
            };
            *d = if s.accumulate { add(*d, v) } else { v };
        }
        return fine;
    }
    for k in 0..s.len {
        let x = index[k * s.index] as u64;
        if x >= s.size as u64 {
            fine = false;
            continue;
        }
        let p = k * s.dst + x as usize * s.along;
        let v = src[k * s.src];
        dst[p] = if s.accumulate { add(dst[p], v) } else { v };
    }
    fine
}
