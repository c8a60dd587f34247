//! Element-wise operands walked a row at a time. When the operands, coalesced
//! together, each step by 1 or by 0 along a long innermost dim, a block of a
//! row is the operand's own slice or its one value repeated: nothing is
//! copied through scratch. A bias added along rows or columns (`x + v`,
//! `x + v[:, None]`, `(N, C, H, W) + (C, 1, 1)`) and slices of wider tensors
//! take this path; `block` copied them run by run (a third of `x + v`'s time).

use super::elem::BLOCK;
use super::scratch::{Out, filled_vec};
use super::strided::{parallel, task_len};
use crate::tensor::layout::Layout;

/// Shorter rows are left to the block walk: a row's set-up would cost more
/// than the copy it saves.
const MIN_ROW: usize = 128;

/// A kernel over one block of a row: `f(row starts, col, block)`.
pub type RowSlice<'a, const K: usize, U> = dyn Fn([usize; K], usize, &mut [U]) + Sync + 'a;

/// One that writes a block of output slots.
pub type RowBlock<'a, const K: usize, U> = RowSlice<'a, K, Out<U>>;

/// `K` same-shaped operands as rows: outer dims, then one row of `len`.
pub struct Rows<const K: usize> {
    /// The outer dims: each one's length and every operand's step over it.
    outer: Vec<(usize, [usize; K])>,
    offsets: [usize; K],
    inner: [usize; K],
    len: usize,
}

impl<const K: usize> Rows<K> {
    /// The row walk of these layouts, where it applies: one operand at least
    /// is a view (neither contiguous nor a broadcast scalar), and every
    /// operand's innermost step is 1 or 0 along rows of `MIN_ROW` or more.
    pub fn plan(ls: [&Layout; K]) -> Option<Self> {
        let shape = &ls[0].shape;
        let view = |l: &Layout| !l.is_contiguous() && l.strides.iter().any(|&s| s != 0);
        if !ls.iter().any(|l| view(l)) || ls.iter().any(|l| &l.shape != shape) {
            return None;
        }
        let mut dims = coalesce_together(shape, ls.map(|l| l.strides.as_slice()));
        let (len, inner) = dims.pop()?;
        if len < MIN_ROW || inner.iter().any(|&s| s > 1) {
            return None;
        }
        Some(Rows {
            outer: dims,
            offsets: ls.map(|l| l.offset),
            inner,
            len,
        })
    }

    /// Where row `row` starts in each operand.
    fn starts(&self, row: usize) -> [usize; K] {
        let mut at = self.offsets;
        let mut rest = row;
        for &(n, steps) in self.outer.iter().rev() {
            let i = rest % n;
            rest /= n;
            for (a, s) in at.iter_mut().zip(steps) {
                *a += i * s;
            }
        }
        at
    }

    /// Operand `k`'s elements `[col, col + buf.len())` of the row starting at
    /// `start`: its own slice, or its one value filled into `buf`.
    pub fn operand<'a, T: Copy>(
        &self,
        k: usize,
        src: &'a [T],
        start: usize,
        col: usize,
        buf: &'a mut [Out<T>],
    ) -> &'a [T] {
        let n = buf.len();
        if self.inner[k] == 1 {
            return &src[start + col..start + col + n];
        }
        splat(buf, src[start]);
        // SAFETY: splat wrote every slot.
        unsafe { buf.assume_init_ref() }
    }

    /// The output, made by `f(row starts, col, block)` for blocks of at most
    /// `BLOCK` elements of each row, rows in parallel when it is big.
    pub fn fill<U: Send>(&self, f: &RowBlock<'_, K, U>) -> Vec<U> {
        let rows: usize = self.outer.iter().map(|&(n, _)| n).product();
        filled_vec(rows * self.len, |out| self.each_block(out, f))
    }

    /// `f(row starts, col, block)` over blocks of at most `BLOCK` elements of
    /// each row of `dst` (all the rows, in order), rows in parallel when it is
    /// big: the output slots of `fill`, or an operand updated in place.
    pub fn each_block<U: Send>(&self, dst: &mut [U], f: &RowSlice<'_, K, U>) {
        let (len, n) = (self.len, dst.len());
        let run = |first: usize, out: &mut [U]| {
            for (r, row) in out.chunks_mut(len).enumerate() {
                let starts = self.starts(first + r);
                for (b, block) in row.chunks_mut(BLOCK).enumerate() {
                    f(starts, b * BLOCK, block);
                }
            }
        };
        if parallel(n) {
            let per = task_len(n).div_ceil(len).max(1);
            let tasks = crate::threads::ChunksMut::new(dst, per * len);
            crate::threads::zip(tasks, |t, task| run(t * per, task));
        } else {
            run(0, dst);
        }
    }
}

crate::multiversion! {
    /// `buf` filled with `v`, in full-width vector stores (the generic build's
    /// 16-byte stores took as long as the add that reads them).
    fn splat<T: Copy>(buf: &mut [Out<T>], v: T) {
        for x in buf.iter_mut() {
            *x = Out::new(v);
        }
    }
}

/// Dims of length 1 dropped, and each dim merged into the next where every
/// operand steps over it as one run of the next: each dim's length and every
/// operand's step.
fn coalesce_together<const K: usize>(
    shape: &[usize],
    strides: [&[usize]; K],
) -> Vec<(usize, [usize; K])> {
    let mut dims: Vec<(usize, [usize; K])> = Vec::with_capacity(shape.len());
    for (d, &n) in shape.iter().enumerate().filter(|&(_, &n)| n != 1) {
        let steps = strides.map(|s| s[d]);
        match dims.last_mut() {
            Some((len, prev)) if (0..K).all(|k| prev[k] == steps[k] * n) => {
                *len *= n;
                *prev = steps;
            }
            _ => dims.push((n, steps)),
        }
    }
    dims
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn layout(shape: &[usize], strides: &[usize], offset: usize) -> Layout {
        Layout {
            shape: shape.into(),
            strides: strides.into(),
            offset,
        }
    }

    crate::unit_tests! {
        fn a_channel_bias_is_rows_of_one_value() {
            let x = Layout::contiguous(&[2, 3, 16, 16]);
            let b = layout(&[2, 3, 16, 16], &[0, 1, 0, 0], 5);
            let rows = Rows::plan([&x, &b]).expect("a row walk");
            let outer: Vec<usize> = rows.outer.iter().map(|&(n, _)| n).collect();
            assert_eq!((rows.len, outer, rows.inner), (256, vec![2, 3], [1, 0]));
            assert_eq!(rows.starts(4), [4 * 256, 5 + 1]);
        }

        fn contiguous_short_and_transposed_operands_keep_the_block_walk() {
            let x = Layout::contiguous(&[300, 300]);
            assert!(Rows::plan([&x, &x]).is_none());
            let short = layout(&[300, 64], &[0, 1], 0);
            assert!(Rows::plan([&Layout::contiguous(&[300, 64]), &short]).is_none());
            let t = layout(&[300, 300], &[1, 300], 0);
            assert!(Rows::plan([&x, &t]).is_none());
        }
    }
}
