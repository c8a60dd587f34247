//! Advanced indexing on the CPU: the storage offsets an index selects, then a
//! gather (reads) or a scatter (writes, optionally accumulating); and nonzero.

use super::elem::{CpuStorage, Element};
use super::scratch::{Out, filled_vec};
use super::simd::prefetch_line;
use super::strided::{PAR_MIN, contiguous, runs};
use crate::error::{Result, index_err, value_err};
use crate::tensor::layout::Layout;
use crate::threads::{Chunks, ChunksMut};
use crate::with_storage;

/// Every offset of a layout, in row-major order.
pub(super) fn offsets(l: &Layout) -> Vec<usize> {
    let mut out = Vec::with_capacity(l.numel());
    runs(l, 0, l.numel(), &mut |off, stride, count| {
        out.extend((0..count).map(|k| off + k * stride));
    });
    out
}

/// Where each row of an index (its last dim) starts, stepping through
/// `strides` from `offset` (the row walks of gather and scatter).
pub(super) fn row_starts(il: &Layout, strides: &[usize], offset: usize) -> Vec<usize> {
    let nd = il.ndim();
    offsets(&Layout {
        shape: crate::tensor::layout::Dims::from_slice(&il.shape[..nd - 1]),
        strides: crate::tensor::layout::Dims::from_slice(&strides[..nd - 1]),
        offset,
    })
}

/// What an advanced index selects, in the result's row-major order: runs of
/// `run` consecutive storage elements, one starting at each `o + i` for o in
/// `outer`, then i in `inner` (whole rows when the index picks rows, as an
/// embedding does; single elements otherwise). The two factors keep the
/// table small: `index_select` along the last dim of a [32, 16, 32, 32]
/// image has 16K outer offsets and 64 inner ones, not a 1M-entry table.
struct Selection {
    outer: Vec<usize>,
    inner: Vec<usize>,
    run: usize,
}

impl Selection {
    fn starts(&self) -> impl Iterator<Item = usize> + '_ {
        let inner = &self.inner;
        self.outer
            .iter()
            .flat_map(move |&o| inner.iter().map(move |&i| o + i))
    }
}

fn selected(
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
) -> Result<Selection> {
    // Each index's values, bounds-checked, made non-negative and turned into
    // storage steps, summed over the index tensors in one pass each.
    let nb = indices.first().map_or(1, |(_, il)| il.numel());
    let mut base = vec![0usize; nb];
    for (&d, (s, il)) in dims.iter().zip(indices) {
        let (size, stride) = (l.shape[d] as i64, l.strides[d]);
        // Read through the index's own layout: gather's broadcast aranges are
        // never materialised. Bounds are checked after the pass (no offset is
        // used before), so the loop has no branch.
        let mut bad = None;
        let mut at = 0;
        let steps = |x: i64| ((x + size * (x < 0) as i64) as usize).wrapping_mul(stride);
        with_storage!(s, v => runs(il, 0, nb, &mut |off, step, count| {
            let base = &mut base[at..at + count];
            at += count;
            if step == 0 {
                // A broadcast index (gather's aranges): one value for the run.
                let x = v[off].to_i64();
                if x < -size || x >= size {
                    bad.get_or_insert(x);
                }
                let add = steps(x);
                base.iter_mut().for_each(|b| *b = b.wrapping_add(add));
                return;
            }
            for (b, x) in base.iter_mut().zip(v[off..].iter().step_by(step)) {
                let x = x.to_i64();
                if x < -size || x >= size {
                    bad.get_or_insert(x);
                }
                *b = b.wrapping_add(steps(x));
            }
        }));
        if let Some(x) = bad {
            return Err(out_of_bounds(x, d, size));
        }
    }
    let (lb, la) = around(l, dims, insert_at);
    let outer = offsets(&lb);
    if la.is_contiguous() {
        // Each index picks a contiguous run (an element, or a row: `a[idx]`,
        // `weight[ids]`) after each offset of the dims before it.
        return Ok(Selection {
            outer,
            inner: base,
            run: la.numel(),
        });
    }
    let after = offsets(&la);
    let inner = base
        .iter()
        .flat_map(|&b| after.iter().map(move |&a| b + a))
        .collect();
    Ok(Selection {
        outer,
        inner,
        run: 1,
    })
}

/// An index value out of range of dim `d`, in PyTorch's words.
fn out_of_bounds(x: i64, d: usize, size: i64) -> crate::error::Error {
    index_err(format!(
        "index {x} is out of bounds for dimension {d} with size {size}"
    ))
}

/// The dims an index leaves, split where the broadcast index dims go: the
/// layout of those before (from the tensor's offset) and after (from 0).
fn around(l: &Layout, dims: &[usize], insert_at: usize) -> (Layout, Layout) {
    let rest: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
    let sub = |ds: &[usize], offset: usize| Layout {
        shape: ds.iter().map(|&d| l.shape[d]).collect(),
        strides: ds.iter().map(|&d| l.strides[d]).collect(),
        offset,
    };
    let (before, after) = rest.split_at(insert_at.min(rest.len()));
    (sub(before, l.offset), sub(after, 0))
}

pub fn index(
    s: &CpuStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
) -> Result<CpuStorage> {
    if let Some(direct) = direct_pick(l, dims, indices, insert_at) {
        return with_storage!(s, v => Ok(Element::wrap(pick_direct(v, &direct)?)));
    }
    let sel = selected(l, dims, indices, insert_at)?;
    Ok(with_storage!(s, v => Element::wrap(pick(v, &sel))))
}

/// `a[idx]`, `take`, `index_select(0, idx)`, an embedding's rows: one
/// contiguous int64 index into the leading indexed dim, whose picks are
/// contiguous runs. Then no table of offsets is needed: each run's start is
/// computed as it is copied, on every thread (building the table was one
/// serial pass, and most of `take`'s time).
struct Direct<'a> {
    index: &'a [i64],
    dim: usize,
    size: i64,
    stride: usize,
    offset: usize,
    run: usize,
}

fn direct_pick<'a>(
    l: &Layout,
    dims: &[usize],
    indices: &[(&'a CpuStorage, &Layout)],
    insert_at: usize,
) -> Option<Direct<'a>> {
    let ([d], [(CpuStorage::I64(ix), il)]) = (dims, indices) else {
        return None;
    };
    // Nothing before the index's dim (one outer offset), runs after it.
    let (_, after) = around(l, dims, insert_at);
    if insert_at != 0 || !il.is_contiguous() || !after.is_contiguous() {
        return None;
    }
    Some(Direct {
        index: &ix[il.offset..il.offset + il.numel()],
        dim: *d,
        size: l.shape[*d] as i64,
        stride: l.strides[*d],
        offset: l.offset,
        run: after.numel(),
    })
}

/// The picks of a `Direct` index; an index out of range is an error (the
/// first one, in index order), as `selected` reports it.
fn pick_direct<T: Element>(v: &[T], p: &Direct) -> Result<Vec<T>> {
    let (ix, size, run) = (p.index, p.size, p.run);
    if run == 0 || size == 0 {
        // The tensor layer returns empty results itself, and refuses picks
        // from a dim of size 0.
        return Err(value_err("internal: an empty pick reached the backend"));
    }
    // The runs for `ix` into `dst`: the first bad index, if any (it reads
    // the dim's first run instead, so the loop has no branch).
    let copy = |dst: &mut [Out<T>], ix: &[i64]| -> Option<i64> {
        let mut bad = None;
        for (d, &x) in dst.chunks_exact_mut(run).zip(ix) {
            let inside = x >= -size && x < size;
            if !inside {
                bad.get_or_insert(x);
            }
            let x = if inside { x + size * (x < 0) as i64 } else { 0 };
            let at = p.offset + x as usize * p.stride;
            if run == 1 {
                d[0].write(v[at]);
            } else {
                super::row_copy::copy_row(d, &v[at..at + run]);
            }
        }
        bad
    };
    let n = ix.len() * run;
    let mut bad = None;
    let out = filled_vec(n, |out| {
        if n < 1 << 16 || crate::threads::count() == 1 {
            bad = copy(out, ix);
            return;
        }
        // Tasks of about 16K elements.
        let per = ((1usize << 14) / run).max(1);
        let tasks = (ChunksMut::new(out, per * run), Chunks::new(ix, per));
        let firsts = crate::threads::zip_map(tasks, |_, (d, i)| copy(d, i));
        bad = firsts.into_iter().flatten().next();
    });
    match bad {
        Some(x) => Err(out_of_bounds(x, p.dim, size)),
        None => Ok(out),
    }
}

pub fn index_put_into(
    dst: &mut CpuStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
    src: (&CpuStorage, &Layout),
    accumulate: bool,
) -> Result<()> {
    if dst.dtype() != src.0.dtype() {
        return Err(value_err(
            "internal: index_put between dtypes reached the backend",
        ));
    }
    let sel = selected(l, dims, indices, insert_at)?;
    with_storage!(dst, d => {
        // Unreachable: the dtypes were just compared.
        let s = Element::slice(src.0).expect("same dtype");
        let values = contiguous(s, src.1);
        put(d, &sel, &values, accumulate);
    });
    Ok(())
}

/// torch.gather in one pass: each row of the index (its last dim) reads its
/// elements straight from the source, rows in parallel. No offset table is
/// built (advanced indexing with aranges for the other dims took 10x longer).
pub fn gather(
    s: &CpuStorage,
    l: &Layout,
    dim: usize,
    index: &CpuStorage,
    il: &Layout,
) -> Result<CpuStorage> {
    let CpuStorage::I64(ix) = index else {
        return Err(value_err("internal: gather's index must be int64"));
    };
    let nd = il.ndim();
    let n = il.numel();
    if nd == 0 {
        return Err(value_err(
            "internal: gather of a 0-d tensor reached the backend",
        ));
    }
    if n == 0 {
        return Ok(with_storage!(s, v => Element::wrap(v[..0].to_vec())));
    }
    let (size, along) = (l.shape[dim] as i64, l.strides[dim]);
    if size == 0 {
        return Err(crate::backend::along_bounds_err(ix[il.offset], dim, 0));
    }
    // Where each index position reads, but for its step along `dim`.
    let mut spot = l.strides.clone();
    spot[dim] = 0;
    let (src_rows, idx_rows) = (
        row_starts(il, &spot, l.offset),
        row_starts(il, &il.strides, il.offset),
    );
    let (ss, is, last) = (spot[nd - 1], il.strides[nd - 1], il.shape[nd - 1]);
    let mut fine = Vec::new();
    let out = with_storage!(s, v => Element::wrap(filled_vec(n, |out| {
        // Out-of-range indices read element 0 of the line and are reported.
        // Lines are split among threads only in PAR_MIN-element pieces.
        let per = (PAR_MIN / last.max(1)).max(1);
        let tasks = (ChunksMut::new(out, per * last), Chunks::new(&src_rows, per));
        let flags = crate::threads::zip_map(tasks, |t, (o, srs)| {
            let irs = &idx_rows[t * per..];
            let rows = o.chunks_mut(last).zip(srs).zip(irs);
            rows.enumerate()
                .map(|(r, ((o, &sr), &ir))| {
                    if let Some(&next) = srs.get(r + 1) && ss == 0 && along == 1 {
                        if last * 16 >= size as usize {
                            prefetch_line(&v[next..], size as usize);
                        } else if let Some(&next_ir) = irs.get(r + 1) {
                            // A few picks from a long line (nll_loss: one
                            // per row): their lines only, not all of it.
                            prefetch_picks(&v[next..], &ix[next_ir..], is, last, size);
                        }
                    }
                    gather_row(o, &v[sr..], ss, &ix[ir..], is, size, along)
                })
                .collect::<Vec<bool>>()
        });
        fine = flags.into_iter().flatten().collect();
    })));
    if let Some(x) = fine.iter().position(|ok| !ok).and_then(|row| {
        (0..last)
            .map(|k| ix[idx_rows[row] + k * is])
            .find(|&x| x < 0 || x >= size)
    }) {
        return Err(crate::backend::along_bounds_err(x, dim, size as usize));
    }
    Ok(out)
}

/// Asks for the lines of the `picks` elements of `line` that `index` (every
/// `step`-th) names, those in range.
#[inline(always)]
fn prefetch_picks<T>(line: &[T], index: &[i64], step: usize, picks: usize, size: i64) {
    for k in 0..picks {
        if let Some(&x) = index.get(k * step)
            && (0..size).contains(&x)
        {
            prefetch_line(&line[x as usize..], 1);
        }
    }
}

crate::multiversion! {
    /// One row of gather: `o[k] = src[k * ss + index[k * is] * along]`; false if
    /// an index was out of range (it read element 0 instead). Everything by value,
    /// so that the loop keeps it in registers. Compiled for AVX2 and AVX-512 too
    /// (the picks along a line become vector gathers).
    fn gather_row<T: Copy>(
        o: &mut [Out<T>],
        src: &[T],
        ss: usize,
        index: &[i64],
        is: usize,
        size: i64,
        along: usize,
    ) -> bool {
        let mut ok = true;
        if ss == 0 && is == 1 && along == 1 && src.len() >= size as usize {
            // A row gathered from one contiguous line (gather along the last dim):
            // indices clamped into the line need no further bounds check.
            let line = &src[..size as usize];
            for (o, &x) in o.iter_mut().zip(index) {
                let inside = x >= 0 && x < size;
                ok &= inside;
                let at = if inside { x as usize } else { 0 };
                // SAFETY: `at` is within 0..size, the line's length (the
                // compiler could not see it, and its bounds check kept the
                // loop from vectorising into gathers).
                o.write(unsafe { *line.get_unchecked(at) });
            }
            return ok;
        }
        for (k, o) in o.iter_mut().enumerate() {
            let x = index[k * is];
            let inside = x >= 0 && x < size;
            ok &= inside;
            let x = if inside { x } else { 0 };
            o.write(src[k * ss + x as usize * along]);
        }
        ok
    }
}

/// The selected runs of `v`, one after another; in parallel when long.
fn pick<T: Element>(v: &[T], sel: &Selection) -> Vec<T> {
    let run = sel.run;
    // The runs at `o + i` for i in `inner`, into `dst`.
    let copy = |dst: &mut [Out<T>], o: usize, inner: &[usize]| {
        if run == 1 {
            for (d, &i) in dst.iter_mut().zip(inner) {
                d.write(v[o + i]);
            }
        } else {
            for (d, &i) in dst.chunks_exact_mut(run).zip(inner) {
                super::row_copy::copy_row(d, &v[o + i..o + i + run]);
            }
        }
    };
    let row = sel.inner.len() * run;
    let n = sel.outer.len() * row;
    filled_vec(n, |out| {
        if row == 0 {
            return;
        }
        if n < 1 << 16 || crate::threads::count() == 1 {
            for (dst, &o) in out.chunks_mut(row).zip(&sel.outer) {
                copy(dst, o, &sel.inner);
            }
            return;
        }
        // Tasks of about 16K elements: whole rows, or pieces of a long one.
        let per = (1usize << 14).div_ceil(run);
        if row <= per * run {
            let rows = ((1usize << 14) / row).max(1);
            let tasks = (
                ChunksMut::new(out, rows * row),
                Chunks::new(&sel.outer, rows),
            );
            crate::threads::zip(tasks, |_, (dst, outer)| {
                for (d, &o) in dst.chunks_mut(row).zip(outer) {
                    copy(d, o, &sel.inner);
                }
            });
        } else {
            for (dst, &o) in out.chunks_mut(row).zip(&sel.outer) {
                let tasks = (ChunksMut::new(dst, per * run), Chunks::new(&sel.inner, per));
                crate::threads::zip(tasks, |_, (d, inner)| copy(d, o, inner));
            }
        }
    })
}

fn put<T: Element>(dst: &mut [T], sel: &Selection, values: &[T], accumulate: bool) {
    let run = sel.run.max(1);
    let float = T::DTYPE.is_float();
    for (o, xs) in sel.starts().zip(values.chunks_exact(run)) {
        let d = &mut dst[o..o + run];
        if !accumulate {
            d.copy_from_slice(xs);
        } else if float {
            // Repeated positions add up, as index_put_(accumulate=True) and index_add.
            for (d, &x) in d.iter_mut().zip(xs) {
                *d = T::from_f64(d.to_f64() + x.to_f64());
            }
        } else {
            for (d, &x) in d.iter_mut().zip(xs) {
                *d = T::from_i64(d.to_i64().wrapping_add(x.to_i64()));
            }
        }
    }
}

/// The multi-index of every non-zero element, one row each: int64 `[n, ndim]`.
pub fn nonzero(s: &CpuStorage, l: &Layout) -> CpuStorage {
    let nd = l.ndim();
    let flags: Vec<bool> = with_storage!(s, v => {
        super::strided::contiguous(v, l).iter().map(|x| x.to_f64() != 0.0).collect()
    });
    if nd == 0 {
        // A scalar's one index has no entries: the caller sizes [count, 0].
        return CpuStorage::I64(Vec::new());
    }
    // Row by row along the last dim, without a branch per element: every
    // element's multi-index is written at the cursor, which moves on only
    // past the non-zero ones (a mask of random signs mispredicted half its
    // branches).
    // (A sum of bytes vectorises; counting the true ones did not.)
    let count: usize = flags.iter().map(|&f| usize::from(f)).sum();
    let mut out = vec![0i64; (count + 1) * nd];
    let (width, lead) = (l.shape[nd - 1], &l.shape[..nd - 1]);
    // A vector's and a matrix's indices are written directly (a slice copy
    // of the prefix per element was a library call each, a third of the op).
    let mut at = 0;
    if nd == 1 {
        for (j, &f) in flags.iter().enumerate() {
            out[at] = j as i64;
            at += usize::from(f);
        }
        out.truncate(count);
        return CpuStorage::I64(out);
    }
    if nd == 2 {
        for (i, row) in flags.chunks(width.max(1)).enumerate() {
            for (j, &f) in row.iter().enumerate() {
                out[at] = i as i64;
                out[at + 1] = j as i64;
                at += 2 * usize::from(f);
            }
        }
        out.truncate(count * 2);
        return CpuStorage::I64(out);
    }
    let mut prefix = vec![0i64; nd - 1];
    for row in flags.chunks(width.max(1)) {
        for (j, &f) in row.iter().enumerate() {
            let slot = &mut out[at..at + nd];
            for (o, &p) in slot.iter_mut().zip(&prefix) {
                *o = p;
            }
            slot[nd - 1] = j as i64;
            at += nd * usize::from(f);
        }
        for d in (0..nd - 1).rev() {
            prefix[d] += 1;
            if prefix[d] < lead[d] as i64 {
                break;
            }
            prefix[d] = 0;
        }
    }
    out.truncate(count * nd);
    CpuStorage::I64(out)
}
