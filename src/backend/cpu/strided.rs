//! Walking a strided layout a block at a time: the contiguous case hands out
//! slices of the buffer itself; any other layout (transposed, sliced,
//! broadcast) is copied block by block into scratch space, one run along the
//! innermost dim at a time. Blocks of large outputs run on every core.

use std::borrow::Cow;

use super::elem::BLOCK;
use super::scratch::{Out, filled_vec};
use crate::tensor::layout::Layout;
use crate::threads::{ChunksMut, zip};

/// Below this many elements a loop runs on one thread (ATen's grain size).
/// The kernel threads spin between loops, so a split pays no wake-up: at
/// 2^17, as on rayon, `exp` of 256² took 48 µs; at 2^15, 27.
pub const PAR_MIN: usize = 1 << 15;

/// Whether a loop over `work` elements runs in parallel: big enough, and
/// more than one kernel thread (with one, every loop runs on its caller).
pub fn parallel(work: usize) -> bool {
    work >= PAR_MIN && crate::threads::count() > 1
}

/// How many elements each parallel task of an `n`-element loop takes: a few
/// tasks per core (for balance), each a whole number of blocks.
pub fn task_len(n: usize) -> usize {
    let tasks = 4 * crate::threads::count();
    n.div_ceil(tasks).div_ceil(BLOCK).max(1) * BLOCK
}

/// A vector of `n` elements made by `f(start, block)` for consecutive blocks,
/// in parallel when it is big; `f` writes every slot of its block.
pub fn fill_blocks<U: Send>(n: usize, f: &(dyn Fn(usize, &mut [Out<U>]) + Sync)) -> Vec<U> {
    filled_vec(n, |out| {
        let blocks = |start: usize, task: &mut [Out<U>]| {
            for (i, dst) in task.chunks_mut(BLOCK).enumerate() {
                f(start + i * BLOCK, dst);
            }
        };
        if parallel(n) {
            let len = task_len(n);
            zip(ChunksMut::new(out, len), |t, task| blocks(t * len, task));
        } else {
            blocks(0, out);
        }
    })
}

/// Call `run(offset, stride, count)` for the runs along the innermost dim that
/// make up elements `[start, start + len)` of `l` in row-major order.
pub fn runs(l: &Layout, start: usize, len: usize, run: &mut dyn FnMut(usize, usize, usize)) {
    if l.is_contiguous() {
        if len > 0 {
            run(l.offset + start, 1, len);
        }
        return;
    }
    let l = &l.coalesced();
    if l.shape.is_empty() {
        if len > 0 {
            run(l.offset, 0, 1);
        }
        return;
    }
    let inner = l.shape.len() - 1;
    row_runs(&l.shape, start, len, &mut |idx, count| {
        let off = l.offset
            + idx
                .iter()
                .zip(&l.strides)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        run(off, l.strides[inner], count);
    });
}

/// Call `row(idx, count)` for the runs along the innermost dim that make up
/// elements `[start, start + len)` of `shape` (at least one dim) in row-major
/// order, `idx` being the multi-index of each run's first element.
pub fn row_runs(shape: &[usize], start: usize, len: usize, row: &mut dyn FnMut(&[usize], usize)) {
    let nd = shape.len();
    let mut idx = vec![0usize; nd];
    let mut rest = start;
    for d in (0..nd).rev() {
        let s = shape[d].max(1);
        idx[d] = rest % s;
        rest /= s;
    }
    let inner = nd - 1;
    let mut left = len;
    while left > 0 {
        let count = (shape[inner] - idx[inner]).min(left);
        row(&idx, count);
        left -= count;
        idx[inner] += count;
        // Carry into the outer dims.
        let mut d = inner;
        while d > 0 && idx[d] >= shape[d] {
            idx[d] = 0;
            d -= 1;
            idx[d] += 1;
        }
    }
}

/// Elements `[start, start + buf.len())` of `l` as a slice: the buffer itself
/// when the layout is contiguous, else copied into `buf`.
pub fn block<'a, T: Copy>(
    src: &'a [T],
    l: &Layout,
    start: usize,
    buf: &'a mut [Out<T>],
) -> &'a [T] {
    let n = buf.len();
    if l.is_contiguous() {
        return &src[l.offset + start..l.offset + start + n];
    }
    copy_runs(src, l, start, buf);
    // SAFETY: copy_runs wrote all of `buf`.
    unsafe { buf.assume_init_ref() }
}

/// Copy elements `[start, start + dst.len())` of `l` into `dst`.
pub(super) fn copy_runs<T: Copy>(src: &[T], l: &Layout, start: usize, dst: &mut [Out<T>]) {
    let mut at = 0;
    runs(l, start, dst.len(), &mut |off, stride, count| {
        let d = &mut dst[at..at + count];
        if stride == 1 {
            super::row_copy::copy_row(d, &src[off..off + count]);
        } else if stride == 0 {
            d.fill(Out::new(src[off]));
        } else {
            for (k, x) in d.iter_mut().enumerate() {
                x.write(src[off + k * stride]);
            }
        }
        at += count;
    });
}

/// Is every stride zero (a scalar broadcast to a shape)?
pub fn is_scalar(l: &Layout) -> bool {
    l.strides.iter().all(|&s| s == 0)
}

/// The elements of `l` as one contiguous slice: the buffer itself where it can.
pub fn contiguous<'a, T: Copy + Send + Sync>(src: &'a [T], l: &Layout) -> Cow<'a, [T]> {
    if l.numel() == 0 {
        // An empty view may sit at any offset, even past an empty buffer.
        return Cow::Borrowed(&[]);
    }
    if l.is_contiguous() {
        Cow::Borrowed(&src[l.offset..l.offset + l.numel()])
    } else {
        Cow::Owned(gather(src, l))
    }
}

/// Every element of `l`, contiguous.
pub fn gather<T: Copy + Send + Sync>(src: &[T], l: &Layout) -> Vec<T> {
    let n = l.numel();
    if n == 0 {
        return Vec::new();
    }
    if l.is_contiguous() {
        let run = &src[l.offset..l.offset + n];
        if !parallel(n) {
            return run.to_vec();
        }
        // A big copy (`clone`) on every core, as PyTorch's: one thread's
        // memcpy of 16 MB took 1.0 ms to its 0.63.
        return fill_blocks(n, &|start, dst| {
            super::row_copy::copy_row(dst, &run[start..start + dst.len()]);
        });
    }
    if let Some(t) = transposed(l) {
        return transpose_tiled(src, &t);
    }
    fill_blocks(n, &|start, dst| copy_runs(src, l, start, dst))
}

/// A layout that is, once coalesced, a transposed matrix: rows step by 1,
/// columns by more. Gathered row by row, each element of a row sits in its
/// own cache line and page; `transpose_tiled` reads it in square tiles.
pub fn transposed(l: &Layout) -> Option<Layout> {
    // Called for every operand of every element-wise op: decide the common
    // cases before coalescing allocates.
    if l.numel() < 1 << 14 || l.is_contiguous() || l.strides.iter().all(|&s| s != 1) {
        return None;
    }
    let c = l.coalesced();
    (c.ndim() == 2 && c.strides[0] == 1 && c.strides[1] > 1 && c.numel() >= 1 << 14).then_some(c)
}

/// The elements of a transposed-matrix layout `t` (see `transposed`) in row
/// order, an 8×8 tile at a time, bands of rows in parallel. A tile's lines
/// stay in L1 even when the rows are a power of two apart: those lines all
/// fall in one cache set, which holds 12, and 16- or 32-line tiles evicted
/// each other (a 1024² float32 transpose: 1.6 ms at 16, 0.62 ms at 8).
fn transpose_tiled<T: Copy + Send + Sync>(src: &[T], t: &Layout) -> Vec<T> {
    const TILE: usize = 8;
    let (rows, cols, step) = (t.shape[0], t.shape[1], t.strides[1]);
    let vector = std::mem::size_of::<T>() == 4 && super::transpose::available();
    filled_vec(rows * cols, |out| {
        zip(ChunksMut::new(out, TILE * cols), |band, dst| {
            let r0 = band * TILE;
            let h = dst.len() / cols;
            for c0 in (0..cols).step_by(TILE) {
                let w = TILE.min(cols - c0);
                if vector && w == TILE && h == TILE {
                    // SAFETY: the tile's source elements t.offset + r0 + r
                    // + (c0 + c)·step (r, c < 8) are elements of the layout
                    // (r0 + r < rows, c0 + c < cols), so inside `src`; its
                    // destinations r·cols + c0 + c lie in this band of 8
                    // rows; the elements are 32-bit, and available() said
                    // the instructions run here.
                    unsafe {
                        super::transpose::block32(
                            src.as_ptr().add(t.offset + r0 + c0 * step) as *const f32,
                            step,
                            dst.as_mut_ptr().add(c0) as *mut f32,
                            cols,
                        )
                    };
                    continue;
                }
                for c in c0..c0 + w {
                    let col = &src[t.offset + r0 + c * step..][..h];
                    for (r, &x) in col.iter().enumerate() {
                        dst[r * cols + c].write(x);
                    }
                }
            }
        })
    })
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        /// Transposed matrices, square and not, powers of two and not, whole
        /// tiles and ragged, gather to what the layout's offsets say.
        fn transposed_gathers_match_offsets() {
            for (rows, cols) in [(512, 512), (130, 257), (8, 4096), (1000, 33), (4096, 5)] {
                let src: Vec<f32> = (0..rows * cols).map(|i| i as f32).collect();
                let l = Layout::contiguous(&[rows, cols]).transpose(0, 1);
                // Starting one column in: an offset, and ragged tiles.
                let sliced = l.slice(0, 1, cols - 1, 1);
                for l in [l, sliced] {
                    assert!(transposed(&l).is_some() || l.numel() < 1 << 14);
                    let want: Vec<f32> = l.offsets().map(|o| src[o]).collect();
                    assert_eq!(gather(&src, &l), want, "{rows}x{cols}");
                }
            }
        }
    }
}
