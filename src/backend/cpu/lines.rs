//! Ops along one dim, line by line: cumulative sums and products (softmax.rs
//! and sort.rs walk lines the same way). A line is read from the input's
//! layout and written to the contiguous output at the same position.

use super::elem::{CpuStorage, Element, nan_max, nan_min};
use super::scratch::{Out, filled_vec};
use super::strided::parallel;
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::tensor::op::ScanOp;
use crate::threads::{Chunks, ChunksMut};
use crate::with_storage;

/// Where each line starts in the input and in the contiguous output, and the
/// step along the line in each.
pub struct Lines {
    pub len: usize,
    pub in_starts: Vec<usize>,
    pub in_stride: usize,
    pub out_starts: Vec<usize>,
    pub out_stride: usize,
}

impl Lines {
    pub fn new(l: &Layout, dim: usize) -> Lines {
        Lines::with_len(l, dim, l.shape[dim])
    }

    /// Lines whose output keeps `out_len` elements of each (topk keeps k).
    pub fn with_len(l: &Layout, dim: usize, out_len: usize) -> Lines {
        let mut shape = l.shape.clone();
        shape[dim] = out_len;
        let out = Layout::contiguous(&shape);
        let starts = |lay: &Layout| -> Vec<usize> {
            let kept = Layout {
                shape: (0..lay.ndim())
                    .filter(|&d| d != dim)
                    .map(|d| lay.shape[d])
                    .collect(),
                strides: (0..lay.ndim())
                    .filter(|&d| d != dim)
                    .map(|d| lay.strides[d])
                    .collect(),
                offset: lay.offset,
            };
            let mut v = Vec::with_capacity(kept.numel());
            super::strided::runs(&kept, 0, kept.numel(), &mut |off, stride, count| {
                v.extend((0..count).map(|k| off + k * stride));
            });
            v
        };
        Lines {
            len: l.shape[dim],
            in_starts: starts(l),
            in_stride: l.strides[dim],
            out_starts: starts(&out),
            out_stride: out.strides[dim],
        }
    }
}

/// Run `f(line_index, output)` over every line; each call writes only its line.
pub(super) fn each_line<U: Send + Sync + Copy + Default>(
    lines: &Lines,
    n: usize,
    f: impl Fn(usize, &mut Vec<U>) + Sync,
) -> Vec<U> {
    let mut out = vec![U::default(); n];
    let count = lines.in_starts.len();
    if lines.len == 0 || count == 0 {
        return out;
    }
    let compute = |i: usize| {
        let mut line = Vec::with_capacity(lines.len);
        f(i, &mut line);
        line
    };
    let results: Vec<Vec<U>> = if count > 1 && parallel(n) {
        crate::threads::map(count, compute)
    } else {
        (0..count).map(compute).collect()
    };
    for (i, line) in results.into_iter().enumerate() {
        let base = lines.out_starts[i];
        for (k, x) in line.into_iter().enumerate() {
            out[base + k * lines.out_stride] = x;
        }
    }
    out
}

/// One step of a running integer reduction (wrapping, as int64 arithmetic).
#[inline(always)]
fn step_i64(op: ScanOp, acc: i64, x: i64) -> i64 {
    match op {
        ScanOp::Sum => acc.wrapping_add(x),
        ScanOp::Prod => acc.wrapping_mul(x),
        ScanOp::Max => acc.max(x),
        ScanOp::Min => acc.min(x),
    }
}

/// A running reduction along `dim`, accumulating in `A` (f64 for floats,
/// PyTorch's CPU accumulator for float; i64 for integers). The input is seen
/// as [outer, len, inner] slabs: along the last dim each line runs in one
/// register; along another, a row of `inner` accumulators steps down the dim a
/// whole row at a time (vectorised), a slab per task.
fn scan_slabs<T: Element, A: Copy, U: Copy + Send + Sync>(
    v: &[T],
    l: &Layout,
    dim: usize,
    into: impl Fn(T) -> A + Sync,
    step: impl Fn(A, A) -> A + Sync,
    out: impl Fn(A) -> U + Sync,
) -> Vec<U> {
    let n = l.numel();
    let (len, inner) = (l.shape[dim], l.shape[dim + 1..].iter().product::<usize>());
    if n == 0 {
        return Vec::new();
    }
    let gathered;
    let src = if l.is_contiguous() {
        &v[l.offset..l.offset + n]
    } else {
        gathered = super::strided::gather(v, l);
        &gathered[..]
    };
    let slab = len * inner;
    if inner == 1 {
        // Lines along the last dim: each a chain of dependent steps, so four
        // lines run interleaved (one at a time, each step waited on the last).
        let lines = n / len;
        let per_task = if parallel(n) {
            (lines.div_ceil(4 * crate::threads::count())).next_multiple_of(4)
        } else {
            lines
        };
        let work = |o: &mut [Out<U>], x: &[T]| scan_lines(x, o, len, &into, &step, &out);
        // scan_lines writes every slot: the lines cover [0, n).
        return filled_vec(n, |result| {
            if per_task < lines {
                let chunk = per_task * len;
                let tasks = (ChunksMut::new(result, chunk), Chunks::new(src, chunk));
                crate::threads::zip(tasks, |_, (o, x)| work(o, x));
            } else {
                work(result, src);
            }
        });
    }
    // Every slot written: a slab's first row, then each row below it.
    let work = |o: &mut [Out<U>], x: &[T]| {
        let mut acc: Vec<A> = x[..inner].iter().map(|&x| into(x)).collect();
        for (y, &a) in o[..inner].iter_mut().zip(&acc) {
            y.write(out(a));
        }
        for k in 1..len {
            let row = &x[k * inner..(k + 1) * inner];
            let orow = &mut o[k * inner..(k + 1) * inner];
            for ((a, &x), y) in acc.iter_mut().zip(row).zip(orow) {
                *a = step(*a, into(x));
                y.write(out(*a));
            }
        }
    };
    filled_vec(n, |result| {
        if n > slab && parallel(n) {
            let tasks = (ChunksMut::new(result, slab), Chunks::new(src, slab));
            crate::threads::zip(tasks, |_, (o, x)| work(o, x));
        } else {
            result
                .chunks_mut(slab)
                .zip(src.chunks(slab))
                .for_each(|(o, x)| work(o, x));
        }
    })
}

/// Whole lines of `len` (contiguous, `x` and `o` holding the same number),
/// each scanned on its own; four at a time, their steps interleaved.
#[inline(always)]
fn scan_lines<T: Copy, A: Copy, U>(
    x: &[T],
    o: &mut [Out<U>],
    len: usize,
    into: impl Fn(T) -> A,
    step: impl Fn(A, A) -> A,
    out: impl Fn(A) -> U,
) {
    let mut xs = x.chunks_exact(4 * len);
    let mut os = o.chunks_exact_mut(4 * len);
    for (x, o) in (&mut xs).zip(&mut os) {
        let (x0, r) = x.split_at(len);
        let (x1, r) = r.split_at(len);
        let (x2, x3) = r.split_at(len);
        let (o0, r) = o.split_at_mut(len);
        let (o1, r) = r.split_at_mut(len);
        let (o2, o3) = r.split_at_mut(len);
        let mut a = [into(x0[0]), into(x1[0]), into(x2[0]), into(x3[0])];
        for k in 0..len {
            if k > 0 {
                a = [
                    step(a[0], into(x0[k])),
                    step(a[1], into(x1[k])),
                    step(a[2], into(x2[k])),
                    step(a[3], into(x3[k])),
                ];
            }
            o0[k].write(out(a[0]));
            o1[k].write(out(a[1]));
            o2[k].write(out(a[2]));
            o3[k].write(out(a[3]));
        }
    }
    for (x, o) in xs
        .remainder()
        .chunks_exact(len)
        .zip(os.into_remainder().chunks_exact_mut(len))
    {
        let mut acc = into(x[0]);
        o[0].write(out(acc));
        for k in 1..len {
            acc = step(acc, into(x[k]));
            o[k].write(out(acc));
        }
    }
}

fn scan_float<T: Element>(v: &[T], l: &Layout, op: ScanOp, dim: usize) -> Vec<T> {
    // One loop per op (the op chosen once, not at every step).
    fn run<T: Element>(
        v: &[T],
        l: &Layout,
        dim: usize,
        step: impl Fn(f64, f64) -> f64 + Sync,
    ) -> Vec<T> {
        scan_slabs(v, l, dim, |x| x.to_f64(), step, T::from_f64)
    }
    match op {
        ScanOp::Sum => run(v, l, dim, |a, x| a + x),
        ScanOp::Prod => run(v, l, dim, |a, x| a * x),
        ScanOp::Max => run(v, l, dim, nan_max),
        ScanOp::Min => run(v, l, dim, nan_min),
    }
}

fn scan_int<T: Element>(v: &[T], l: &Layout, op: ScanOp, dim: usize) -> Vec<i64> {
    scan_slabs(v, l, dim, |x| x.to_i64(), |a, x| step_i64(op, a, x), |a| a)
}

pub fn scan(s: &CpuStorage, l: &Layout, op: ScanOp, dim: usize) -> Result<CpuStorage> {
    let out_dtype = op.output_dtype(s.dtype());
    Ok(if s.dtype().is_float() {
        with_storage!(s, v => Element::wrap(scan_float(v, l, op, dim)))
    } else {
        CpuStorage::from_i64s(&with_storage!(s, v => scan_int(v, l, op, dim)), out_dtype)
    })
}

/// cummax (`max`) or cummin along `dim`: the running extreme in the input's
/// dtype and its int64 position. ATen's rule: a NaN takes over (and a later
/// NaN takes its place), and a tie moves the position to the later element.
pub fn cum_extreme(
    s: &CpuStorage,
    l: &Layout,
    dim: usize,
    max: bool,
) -> Result<(CpuStorage, CpuStorage)> {
    fn typed<T: Element, A: Copy + PartialOrd>(
        v: &[T],
        l: &Layout,
        dim: usize,
        max: bool,
        key: impl Fn(T) -> A + Sync,
    ) -> (CpuStorage, CpuStorage) {
        // `a != a`: NaN (never for integers). Each op one loop.
        #[allow(clippy::eq_op)]
        let (vals, pos) = if max {
            extremes(v, l, dim, &key, |a, b| a != a || a >= b)
        } else {
            extremes(v, l, dim, &key, |a, b| a != a || a <= b)
        };
        (T::wrap(vals), CpuStorage::I64(pos))
    }
    Ok(if s.dtype().is_float() {
        with_storage!(s, v => typed(v, l, dim, max, |x| x.to_f64()))
    } else {
        with_storage!(s, v => typed(v, l, dim, max, |x| x.to_i64()))
    })
}

/// The running extremes of [outer, len, inner] slabs (a slab per task): along
/// the last dim a line at a time, else a row of `inner` extremes stepping down
/// the dim a whole row at a time. `beats(x, best)` takes `x` in.
fn extremes<T: Element, A: Copy>(
    v: &[T],
    l: &Layout,
    dim: usize,
    key: &(impl Fn(T) -> A + Sync),
    beats: impl Fn(A, A) -> bool + Sync,
) -> (Vec<T>, Vec<i64>) {
    let n = l.numel();
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    let src = super::strided::contiguous(v, l);
    let (len, inner) = (l.shape[dim], l.shape[dim + 1..].iter().product::<usize>());
    let slab = len * inner;
    // Every slot of a slab written: its first row, then each row below it.
    let work = |vo: &mut [Out<T>], po: &mut [Out<i64>], x: &[T]| {
        for ((vo, po), x) in vo
            .chunks_mut(slab)
            .zip(po.chunks_mut(slab))
            .zip(x.chunks(slab))
        {
            if inner == 1 {
                // One line: its extreme in registers.
                let (mut b, mut kb, mut at) = (x[0], key(x[0]), 0);
                for (k, ((&x, v), p)) in x.iter().zip(vo).zip(po).enumerate() {
                    let kx = key(x);
                    if beats(kx, kb) {
                        (b, kb, at) = (x, kx, k as i64);
                    }
                    v.write(b);
                    p.write(at);
                }
                continue;
            }
            let mut best: Vec<(T, A, i64)> = x[..inner].iter().map(|&x| (x, key(x), 0)).collect();
            for k in 0..len {
                let row = k * inner..(k + 1) * inner;
                for (((b, &x), v), p) in best
                    .iter_mut()
                    .zip(&x[row.clone()])
                    .zip(&mut vo[row.clone()])
                    .zip(&mut po[row])
                {
                    let kx = key(x);
                    if beats(kx, b.1) {
                        *b = (x, kx, k as i64);
                    }
                    v.write(b.0);
                    p.write(b.2);
                }
            }
        }
    };
    let slabs = n / slab;
    let per_task = slabs.div_ceil(4 * crate::threads::count()).max(1);
    let mut vals = Vec::new();
    let pos = filled_vec(n, |po| {
        vals = filled_vec(n, |vo| {
            if slabs > 1 && parallel(n) {
                let chunk = per_task * slab;
                let tasks = (
                    (ChunksMut::new(vo, chunk), ChunksMut::new(po, chunk)),
                    Chunks::new(&src[..], chunk),
                );
                crate::threads::zip(tasks, |_, ((vo, po), x)| work(vo, po, x));
            } else {
                work(vo, po, &src);
            }
        })
    });
    (vals, pos)
}
