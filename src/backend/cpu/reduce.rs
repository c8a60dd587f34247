//! Reductions. The reduced dims split a layout into groups, one per output
//! element. Three ways to walk them, fastest first: a group that is one
//! contiguous run is reduced straight from the buffer; groups that sit side by
//! side in memory (a sum over the leading dim of a row-major matrix) are reduced
//! row by row into a block of accumulators; anything else is gathered first.
//! Floats accumulate in f64, integers in wrapping i64.

use super::elem::{CpuStorage, Element, nan_max, nan_min};
use super::extrema::{arg_best, arg_rows, best_columns_f32, lane_best};
use super::strided::{PAR_MIN, parallel, runs};
use super::{cascade, column_folds, float_folds, int_folds};
use crate::error::Result;
use crate::tensor::DType;
use crate::tensor::layout::{Layout, contiguous_strides};
use crate::tensor::op::ReduceOp;
use crate::tensor::op::fastmath::exp_lse_term;
use crate::with_storage;

/// The groups of a reduction: where each output's group starts, and the shape
/// and strides of a group.
pub(super) struct Groups {
    /// One layout over the kept dims: its offsets are the groups' starts.
    pub(super) kept: Layout,
    /// One group, relative to its start.
    pub(super) group: Layout,
}

impl Groups {
    pub(super) fn new(l: &Layout, dims: &[usize]) -> Groups {
        let keep: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
        let pick = |ds: &[usize]| -> (Vec<usize>, Vec<usize>) {
            (
                ds.iter().map(|&d| l.shape[d]).collect(),
                ds.iter().map(|&d| l.strides[d]).collect(),
            )
        };
        let (ks, kst) = pick(&keep);
        let (gs, gst) = pick(dims);
        Groups {
            kept: Layout {
                shape: ks.into(),
                strides: kst.into(),
                offset: l.offset,
            },
            group: Layout {
                shape: gs.into(),
                strides: gst.into(),
                offset: 0,
            },
        }
    }
    pub(super) fn outputs(&self) -> usize {
        self.kept.numel()
    }
    pub(super) fn size(&self) -> usize {
        self.group.numel()
    }
    /// Is one group a single contiguous run in memory?
    pub(super) fn group_contiguous(&self) -> bool {
        dense(&self.group)
    }
    /// How many groups in a row start one element apart: the kept dims'
    /// innermost dense run (`x.amax(1)` of a row-major [B, R, C] has runs of
    /// C, each a matrix's columns side by side).
    pub(super) fn side_run(&self) -> usize {
        let mut run = 1;
        for (&n, &s) in self.kept.shape.iter().zip(self.kept.strides.iter()).rev() {
            if n == 1 {
                continue;
            }
            if s != run {
                break;
            }
            run *= n;
        }
        run
    }
    /// Are the groups side by side in runs long enough to reduce a block of
    /// them row by row (a row a few cache lines at least)?
    pub(super) fn side_by_side(&self) -> bool {
        let run = self.side_run();
        self.outputs() > 1 && (run >= 8 || run == self.outputs())
    }
}

/// Strides of a row-major layout of its shape (size-1 dims ignored).
fn dense(l: &Layout) -> bool {
    let want = contiguous_strides(&l.shape);
    l.shape
        .iter()
        .zip(l.strides.iter().zip(&want))
        .all(|(&s, (&a, &b))| s <= 1 || a == b)
}

/// The memory offsets of a group's elements, relative to its start.
pub(super) fn group_offsets(g: &Layout) -> Vec<usize> {
    let mut out = Vec::with_capacity(g.numel());
    runs(g, 0, g.numel(), &mut |off, stride, count| {
        out.extend((0..count).map(|k| off + k * stride));
    });
    out
}

/// The start of every group.
pub(super) fn starts(kept: &Layout) -> Vec<usize> {
    group_offsets(kept)
}

/// A sum in eight interleaved lanes (lanes_sum); a half dtype's widened to
/// float32 a block at a time first (read element by element, its
/// conversions kept the loop scalar: 18x PyTorch's time).
fn lane_sum<T: Element>(g: &[T]) -> f64 {
    if !matches!(T::DTYPE, DType::F16 | DType::BF16) {
        return lanes_sum(g);
    }
    let mut buf = super::scratch::scratch();
    plus(
        g.chunks(super::elem::BLOCK)
            .map(|c| T::half_widened(c, &mut buf).map_or(0.0, lanes_sum)),
    )
}

crate::multiversion! {
    /// A sum in eight interleaved lanes: it vectorises, and the partial sums
    /// keep rounding error lower than one running total.
    fn lanes_sum<T: Element>(g: &[T]) -> f64 {
        let mut lanes = [0.0f64; 8];
        let chunks = g.chunks_exact(8);
        let tail: f64 = chunks.remainder().iter().map(|x| x.to_f64()).sum();
        for c in chunks {
            for i in 0..8 {
                lanes[i] += c[i].to_f64();
            }
        }
        lanes.iter().sum::<f64>() + tail
    }
}

/// A sum from +0.0: Rust's float `sum()` starts from -0.0, so an empty group
/// would print `-0.` where PyTorch prints `0.`.
fn plus(xs: impl Iterator<Item = f64>) -> f64 {
    xs.fold(0.0, |a, x| a + x)
}

/// `step` folded over `g` in eight independent lanes (they vectorise: no lane
/// waits for another), then the lanes joined with `join` and the tail stepped in.
#[inline(always)]
pub(super) fn lane_fold<T: Element>(
    g: &[T],
    init: f64,
    step: impl Fn(f64, f64) -> f64,
    join: impl Fn(f64, f64) -> f64,
) -> f64 {
    lanes_fold::<T, 8>(g, init, step, join)
}

#[inline(always)]
pub(super) fn lanes_fold<T: Element, const W: usize>(
    g: &[T],
    init: f64,
    step: impl Fn(f64, f64) -> f64,
    join: impl Fn(f64, f64) -> f64,
) -> f64 {
    fold_lanes::<T, f64, W>(g, init, |x| x.to_f64(), step, join)
}

/// `lanes_fold` with an accumulator of any type: each element read as one by
/// `read` (integers fold in i64 lanes).
#[inline(always)]
pub(super) fn fold_lanes<T: Copy, A: Copy, const W: usize>(
    g: &[T],
    init: A,
    read: impl Fn(T) -> A,
    step: impl Fn(A, A) -> A,
    join: impl Fn(A, A) -> A,
) -> A {
    let mut lanes = [init; W];
    let chunks = g.chunks_exact(W);
    let tail = chunks.remainder();
    for c in chunks {
        for i in 0..W {
            lanes[i] = step(lanes[i], read(c[i]));
        }
    }
    let acc = lanes.into_iter().fold(init, &join);
    tail.iter().fold(acc, |a, &x| step(a, read(x)))
}

crate::multiversion! {
/// One group of floats reduced in f64: a slice of the buffer itself, or a
/// gathered f64 copy (each element converted as it is read, so both give the
/// same result). Compiled for AVX2 and AVX-512 too: max over f32 lanes is
/// compute-bound.
pub(super) fn reduce_f64<T: Element>(op: ReduceOp, g: &[T]) -> f64 {
    let xs = || g.iter().map(|x| x.to_f64());
    match op {
        ReduceOp::Sum | ReduceOp::SumInOrder => lane_sum(g),
        ReduceOp::Prod => lane_fold(g, 1.0, |a, x| a * x, |a, x| a * x),
        ReduceOp::Mean => lane_sum(g) / g.len() as f64,
        ReduceOp::Max => lane_best(g, true),
        ReduceOp::Min => lane_best(g, false),
        ReduceOp::ArgMax => arg_best(g, true) as f64,
        ReduceOp::ArgMin => arg_best(g, false) as f64,
        ReduceOp::Var(c) | ReduceOp::Std(c) => {
            let n = g.len() as f64;
            let mean = lane_sum(g) / n;
            let add = |a: f64, x: f64| a + x;
            let ss = lane_fold(g, 0.0, |a, x| a + (x - mean) * (x - mean), add);
            let var = ss / (n - c).max(0.0);
            if matches!(op, ReduceOp::Std(_)) {
                var.sqrt()
            } else {
                var
            }
        }
        ReduceOp::All => xs().all(|x| x != 0.0) as u8 as f64,
        ReduceOp::Any => xs().any(|x| x != 0.0) as u8 as f64,
        ReduceOp::Norm(p) => {
            // A NaN wins, as in PyTorch (f64::max would skip it).
            if p == f64::INFINITY {
                xs().fold(0.0, |a: f64, x| nan_max(a, x.abs()))
            } else if p == f64::NEG_INFINITY {
                xs().fold(f64::INFINITY, |a: f64, x| nan_min(a, x.abs()))
            } else if p == 0.0 {
                xs().filter(|&x| x != 0.0).count() as f64
            } else if p == 2.0 {
                lane_fold(g, 0.0, |a, x| a + x * x, |a, x| a + x).sqrt()
            } else if p == 1.0 {
                lane_fold(g, 0.0, |a, x| a + x.abs(), |a, x| a + x)
            } else {
                plus(xs().map(|x| x.abs().powf(p))).powf(1.0 / p)
            }
        }
        ReduceOp::LogSumExp => {
            let m = lane_best(g, true);
            if m.is_infinite() {
                return m;
            }
            let add = |a: f64, x: f64| a + x;
            m + lane_fold(g, 0.0, |a, x| a + exp_lse_term(x - m), add).ln()
        }
        ReduceOp::CountNonzero => xs().filter(|&x| x != 0.0).count() as f64,
    }
}
}

/// Can partial results over pieces of one group be combined into the whole's?
fn splittable(op: ReduceOp) -> bool {
    matches!(
        op,
        ReduceOp::Sum | ReduceOp::SumInOrder | ReduceOp::Mean | ReduceOp::Max | ReduceOp::Min
    )
}

/// Float reductions: one f64 per output.
fn reduce_float<T: Element>(v: &[T], l: &Layout, op: ReduceOp, dims: &[usize]) -> Vec<f64> {
    let gr = Groups::new(l, dims);
    let (outputs, size) = (gr.outputs(), gr.size());
    if size == 0 {
        return vec![reduce_f64::<f64>(op, &[]); outputs];
    }
    let starts = starts(&gr.kept);
    if let Some(f) = T::as_f32s(v)
        && let Some(out) = float_folds::reduce(f, &gr, &starts, op)
    {
        return out;
    }
    // One big group: pieces on every core, combined.
    if outputs == 1 && size >= PAR_MIN && splittable(op) {
        let base = starts[0];
        let piece_op = if op == ReduceOp::Mean {
            ReduceOp::Sum
        } else {
            op
        };
        // Pieces of a fixed size, on one thread or many: the same bits.
        let piece = PAR_MIN / 2;
        let partial: Vec<f64> = if gr.group_contiguous() {
            let group = &v[base..base + size];
            crate::threads::map(size.div_ceil(piece), |i| {
                let c = &group[i * piece..((i + 1) * piece).min(size)];
                match piece_op {
                    ReduceOp::Sum => lane_sum(c),
                    _ => reduce_f64(piece_op, c),
                }
            })
        } else {
            let offsets = group_offsets(&gr.group);
            crate::threads::map(size.div_ceil(piece), |i| {
                let c = &offsets[i * piece..((i + 1) * piece).min(size)];
                let vals: Vec<f64> = c.iter().map(|&o| v[base + o].to_f64()).collect();
                reduce_f64(piece_op, &vals)
            })
        };
        let total = match op {
            ReduceOp::Max => partial.into_iter().fold(f64::NEG_INFINITY, nan_max),
            ReduceOp::Min => partial.into_iter().fold(f64::INFINITY, nan_min),
            _ => plus(partial.iter().copied()),
        };
        return vec![if op == ReduceOp::Mean {
            total / size as f64
        } else {
            total
        }];
    }
    // Groups side by side: accumulate rows into blocks of outputs.
    if gr.side_by_side() && !gr.group_contiguous() {
        if splittable(op) {
            return reduce_rows(v, &gr, &starts, op);
        }
        if matches!(op, ReduceOp::ArgMax | ReduceOp::ArgMin) {
            return arg_rows(v, &gr, &starts, op == ReduceOp::ArgMax);
        }
        return column_folds::reduce_columns(v, &gr, &starts, op);
    }
    let contiguous = gr.group_contiguous();
    let offs = if contiguous {
        Vec::new()
    } else {
        group_offsets(&gr.group)
    };
    let one = |&s: &usize| -> f64 {
        if contiguous {
            return reduce_f64(op, &v[s..s + size]);
        }
        let vals: Vec<f64> = offs.iter().map(|&o| v[s + o].to_f64()).collect();
        reduce_f64(op, &vals)
    };
    if outputs > 1 && parallel(outputs * size) {
        crate::threads::map(starts.len(), |i| one(&starts[i]))
    } else {
        starts.iter().map(one).collect()
    }
}

/// Sum/mean/max/min of groups whose starts are consecutive in memory: for each
/// element of a group, add a whole row of outputs at once (vectorised), a block
/// of outputs per task.
pub(super) fn reduce_rows<T: Element>(
    v: &[T],
    gr: &Groups,
    starts: &[usize],
    op: ReduceOp,
) -> Vec<f64> {
    let offs = group_offsets(&gr.group);
    let init = match op {
        ReduceOp::Max => f64::NEG_INFINITY,
        ReduceOp::Min => f64::INFINITY,
        _ => 0.0,
    };
    let mut out = vec![init; starts.len()];
    let f32s = T::as_f32s(v).filter(|_| matches!(op, ReduceOp::Max | ReduceOp::Min));
    by_column_blocks(starts, gr.side_run(), offs.len(), &mut out, |first, acc| {
        let c0 = starts[first];
        if let Some(f) = f32s {
            // float32 max/min in their own type: twice the lanes, no converts.
            let best = best_columns_f32(op == ReduceOp::Max, f, c0, &offs, acc.len());
            acc.iter_mut().zip(best).for_each(|(a, b)| *a = b as f64);
            return;
        }
        each_row(v, c0, &offs, acc.len(), |row| add_row(op, acc, row));
    });
    if op == ReduceOp::Mean {
        let n = offs.len() as f64;
        out.iter_mut().for_each(|x| *x /= n);
    }
    out
}

/// Groups side by side (`rows` elements each; their starts consecutive in
/// runs of `run`): the outputs cut into blocks of columns within a run, and
/// `work(first, block)` run on each, `first` being the block's first output.
/// Many runs go a run per task; few are cut into blocks small enough that
/// every core gets a few.
pub(super) fn by_column_blocks<A: Send>(
    starts: &[usize],
    run: usize,
    rows: usize,
    out: &mut [A],
    work: impl Fn(usize, &mut [A]) + Sync,
) {
    let run = run.clamp(1, out.len().max(1));
    let threads = crate::threads::count();
    let par = parallel(starts.len() * rows);
    // At least 256 groups a block: narrower blocks of a matrix with long rows
    // read a few cache lines and then cross a page, row after row (prod(0)
    // of 4096x1024 ran at half speed in blocks of 128).
    let cols = (run / (threads * 4)).clamp(256, 2048);
    let blocks = |first: usize, run_out: &mut [A]| {
        for (j, b) in run_out.chunks_mut(cols).enumerate() {
            work(first + j * cols, b);
        }
    };
    let runs = out.len().div_ceil(run);
    if par && runs >= 2 * threads {
        return crate::threads::zip(crate::threads::ChunksMut::new(out, run), |r, o| {
            blocks(r * run, o)
        });
    }
    for (r, run_out) in out.chunks_mut(run).enumerate() {
        if par {
            let one = |j: usize, b: &mut [A]| work(r * run + j * cols, b);
            crate::threads::zip(crate::threads::ChunksMut::new(run_out, cols), one);
        } else {
            blocks(r * run, run_out);
        }
    }
}

/// `f(row)` for the run of `width` elements at `c0 + o`, for each row offset
/// `o` in order, the run eight rows ahead asked for first. Each run is a few
/// cache lines of a row, the next a page or more away: the hardware
/// prefetcher, which follows streams within a page, missed every run's start,
/// and `amax(0)` of 4096x1024 waited on memory at 3-4x PyTorch's time.
#[inline(always)]
pub(super) fn each_row<T>(
    v: &[T],
    c0: usize,
    offs: &[usize],
    width: usize,
    mut f: impl FnMut(&[T]),
) {
    const AHEAD: usize = 8;
    for (k, &o) in offs.iter().enumerate() {
        if let Some(&ahead) = offs.get(k + AHEAD) {
            super::simd::prefetch_line(&v[c0 + ahead..], width);
        }
        f(&v[c0 + o..c0 + o + width]);
    }
}

crate::multiversion! {
    /// One row of a group's elements folded into the outputs' accumulators.
    fn add_row<T: Element>(op: ReduceOp, acc: &mut [f64], row: &[T]) {
        let row = &row[..acc.len()];
        match op {
            ReduceOp::Max => acc.iter_mut().zip(row).for_each(|(a, x)| *a = nan_max(*a, x.to_f64())),
            ReduceOp::Min => acc.iter_mut().zip(row).for_each(|(a, x)| *a = nan_min(*a, x.to_f64())),
            _ => acc.iter_mut().zip(row).for_each(|(a, x)| *a += x.to_f64()),
        }
    }
}

/// Reduce `dims` of the elements `l` describes; the output holds the kept dims.
pub fn reduce(s: &CpuStorage, l: &Layout, op: ReduceOp, dims: &[usize]) -> Result<CpuStorage> {
    let input = s.dtype();
    let out_dtype = op.output_dtype(input)?;
    let float = input.is_float();
    if op == ReduceOp::SumInOrder {
        match s {
            CpuStorage::F32(v) => return Ok(CpuStorage::F32(cascade::sum_in_order(v, l, dims))),
            CpuStorage::F64(v) => return Ok(CpuStorage::F64(cascade::sum_in_order(v, l, dims))),
            _ => {}
        }
    }
    if matches!(op, ReduceOp::Sum | ReduceOp::Mean) {
        // PyTorch's own summation order, in the input's precision.
        let n = dims.iter().map(|&d| l.shape[d]).product::<usize>();
        match s {
            CpuStorage::F32(v) => {
                let mut r = cascade::sum(v, l, dims);
                if op == ReduceOp::Mean {
                    r.iter_mut().for_each(|x| *x /= n as f32);
                }
                return Ok(CpuStorage::F32(r));
            }
            CpuStorage::F64(v) => {
                let mut r = cascade::sum(v, l, dims);
                if op == ReduceOp::Mean {
                    r.iter_mut().for_each(|x| *x /= n as f64);
                }
                return Ok(CpuStorage::F64(r));
            }
            _ => {}
        }
    }
    Ok(if float {
        let r = with_storage!(s, v => reduce_float(v, l, op, dims));
        match op {
            ReduceOp::ArgMax | ReduceOp::ArgMin | ReduceOp::CountNonzero => {
                CpuStorage::I64(r.into_iter().map(|x| x as i64).collect())
            }
            _ => CpuStorage::from_f64s(&r, out_dtype),
        }
    } else {
        let r = with_storage!(s, v => int_folds::reduce_int(v, l, op, dims));
        CpuStorage::from_i64s(&r, out_dtype)
    })
}
