//! Walking a strided layout a block at a time: the contiguous case hands out
//! slices of the buffer itself; any other layout (transposed, sliced,
//! broadcast) is copied block by block into scratch space, one run along the
//! innermost dim at a time. Blocks of large outputs run on every core.

use rayon::prelude::*;

use super::elem::BLOCK;
use crate::tensor::layout::Layout;

/// Below this many elements a loop runs on one thread.
pub const PAR_MIN: usize = 1 << 15;

/// `f(start, block)` for consecutive blocks of `out`, in parallel when it is big.
pub fn for_blocks<U: Send>(out: &mut [U], f: &(dyn Fn(usize, &mut [U]) + Sync)) {
    if out.len() >= PAR_MIN {
        out.par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(i, c)| f(i * BLOCK, c));
    } else {
        for (i, c) in out.chunks_mut(BLOCK).enumerate() {
            f(i * BLOCK, c);
        }
    }
}

/// Call `run(offset, stride, count)` for the runs along the innermost dim that
/// make up elements `[start, start + len)` of `l` in row-major order.
pub fn runs(l: &Layout, start: usize, len: usize, run: &mut dyn FnMut(usize, usize, usize)) {
    let nd = l.shape.len();
    if nd == 0 {
        if len > 0 {
            run(l.offset, 0, 1);
        }
        return;
    }
    // The multi-index of `start`.
    let mut idx = vec![0usize; nd];
    let mut rest = start;
    for d in (0..nd).rev() {
        let s = l.shape[d].max(1);
        idx[d] = rest % s;
        rest /= s;
    }
    let inner = nd - 1;
    let mut left = len;
    while left > 0 {
        let off = l.offset
            + idx
                .iter()
                .zip(&l.strides)
                .map(|(i, s)| i * s)
                .sum::<usize>();
        let count = (l.shape[inner] - idx[inner]).min(left);
        run(off, l.strides[inner], count);
        left -= count;
        idx[inner] += count;
        // Carry into the outer dims.
        let mut d = inner;
        while d > 0 && idx[d] >= l.shape[d] {
            idx[d] = 0;
            d -= 1;
            idx[d] += 1;
        }
    }
}

/// Elements `[start, start + buf.len())` of `l` as a slice: the buffer itself
/// when the layout is contiguous, else copied into `buf`.
pub fn block<'a, T: Copy>(src: &'a [T], l: &Layout, start: usize, buf: &'a mut [T]) -> &'a [T] {
    let n = buf.len();
    if l.is_contiguous() {
        return &src[l.offset + start..l.offset + start + n];
    }
    let mut at = 0;
    runs(l, start, n, &mut |off, stride, count| {
        let dst = &mut buf[at..at + count];
        if stride == 1 {
            dst.copy_from_slice(&src[off..off + count]);
        } else if stride == 0 {
            dst.fill(src[off]);
        } else {
            for (k, d) in dst.iter_mut().enumerate() {
                *d = src[off + k * stride];
            }
        }
        at += count;
    });
    buf
}

/// Is every stride zero (a scalar broadcast to a shape)?
pub fn is_scalar(l: &Layout) -> bool {
    l.strides.iter().all(|&s| s == 0)
}

/// Every element of `l`, contiguous.
pub fn gather<T: Copy + Default + Send + Sync>(src: &[T], l: &Layout) -> Vec<T> {
    let n = l.numel();
    if n == 0 {
        return Vec::new();
    }
    if l.is_contiguous() {
        return src[l.offset..l.offset + n].to_vec();
    }
    let mut out = vec![T::default(); n];
    for_blocks(&mut out, &|start, dst| {
        let mut at = 0;
        runs(l, start, dst.len(), &mut |off, stride, count| {
            let d = &mut dst[at..at + count];
            if stride == 1 {
                d.copy_from_slice(&src[off..off + count]);
            } else {
                for (k, x) in d.iter_mut().enumerate() {
                    *x = src[off + k * stride];
                }
            }
            at += count;
        });
    });
    out
}
