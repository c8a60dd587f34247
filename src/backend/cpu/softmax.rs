//! softmax and log_softmax, in ATen's order of operations so that the results
//! are PyTorch's bits (a row of probabilities summing to `1.0000` or to `1.`
//! is visible in print).
//!
//! ATen has two kernels, both run at its vector width: 16 f32 (8 f64) where
//! it runs AVX-512 code, 8 (4) under AVX2 (unlike the sum kernel, see
//! cascade.rs). The last-dim kernel here folds AVX-512's lanes on every
//! processor (under AVX2 a row's sum can differ from PyTorch's in its last
//! bit: an 8-lane fold was exact there but 15% slower, LLVM splitting its
//! accumulators); the inner-dim kernel's vector positions follow the
//! processor, which costs nothing. Along the last dim (`_vec_softmax_lastdim`), a row is reduced lane by lane and the
//! lanes folded at the end; softmax is `exp * (1 / sum)` and log_softmax
//! `x - max - log(sum)`. Along any other dim (`_vec_softmax`), each position
//! sums down the dim one element at a time and divides by the sum. The f32
//! exponential is SLEEF's (`Vectorized<float>::exp`) where ATen runs a vector
//! and the C library's where it runs its scalar tail.

use super::elem::{CpuStorage, Element};
use super::lines::{Lines, each_line};
use super::mathfun::{exp_sleef, log_sleef};
use super::scratch::{Out, convert_into, filled_vec};
use super::simd::prefetch_line;
use super::strided::parallel;
use crate::error::Result;
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::fastmath::{EXP_SLEEF_NORMAL, exp_sleef_normal};
use crate::threads::{Chunks, ChunksMut};

/// ATen's `reduce_all` with `+` over vector lanes: a row shorter than a vector
/// adds up left to right; a longer one keeps one sum per lane (the tail added
/// into the first lanes) and folds the lanes, by halves for f32 (the AVX-512
/// shuffle specialisation) and left to right for f64 (the generic one).
fn lane_sum<T: Copy + std::ops::Add<Output = T>, const N: usize>(x: &[T], halves: bool) -> T {
    if x.len() < N {
        return x[1..].iter().fold(x[0], |a, &b| a + b);
    }
    let mut lanes = [x[0]; N];
    lanes.copy_from_slice(&x[..N]);
    for c in x[N..].chunks(N) {
        for (l, &v) in lanes.iter_mut().zip(c) {
            *l = *l + v;
        }
    }
    if !halves {
        return lanes[1..].iter().fold(lanes[0], |a, &b| a + b);
    }
    by_halves(lanes, |a, b| a + b)
}

/// Lanes folded by halves (lane i with lane i + N/2, then N/4, ...): the
/// order of AVX-512's shuffle reduction.
#[inline(always)]
fn by_halves<T: Copy, const N: usize>(mut lanes: [T; N], f: impl Fn(T, T) -> T) -> T {
    let mut step = N / 2;
    while step > 0 {
        let prev = lanes;
        for i in 0..N {
            lanes[i] = f(prev[i], prev[i ^ step]);
        }
        step /= 2;
    }
    lanes[0]
}

/// The largest element (NaN reaches the output through the sums). Lines are
/// never empty here: `softmax` and `each_line` skip a dim of size 0.
fn max_of<T: Copy + PartialOrd>(x: &[T]) -> T {
    x[1..].iter().fold(x[0], |a, &b| max2(a, b))
}

/// The largest and the smallest element, and whether any is NaN or
/// infinite, in four vectors of sixteen lanes: each step waits on the one
/// before it in its lane, so one vector of lanes ran at a quarter of the load
/// rate (the order does not matter for an extremum). The tail goes in
/// vectors too, padded with x[0] (which changes no extreme), and the lanes
/// fold as a tree: a short row's cost was its scalar tail and folds.
#[inline(always)]
fn lane_range_f32(x: &[f32]) -> (f32, f32, bool) {
    if x.len() < 64 {
        // Short rows: at most one vector of lanes, and the last few elements
        // in scalar chains. Sixty-four lanes cost more to fold than such a
        // row takes, and a padded vector made the processor wait on the
        // stores that filled it.
        let (sixteens, rest) = x.as_chunks::<16>();
        if sixteens.is_empty() {
            return range_chains(x, (x[0], x[0], 0.0));
        }
        let (mut his, mut los, mut odds) = ([x[0]; 16], [x[0]; 16], [0f32; 16]);
        for c in sixteens {
            for i in 0..16 {
                his[i] = max2(his[i], c[i]);
                los[i] = min2(los[i], c[i]);
                odds[i] += c[i] * 0.0;
            }
        }
        let lanes = (
            by_halves(his, max2::<f32>),
            by_halves(los, min2::<f32>),
            by_halves(odds, |a, b| a + b),
        );
        return range_chains(rest, lanes);
    }
    let (chunks, tail) = x.as_chunks::<64>();
    // Sums of x · 0: NaN once any x is NaN or infinite (bools in the lanes
    // would not vectorise as well).
    let (mut his, mut los, mut odds) = ([x[0]; 64], [x[0]; 64], [0f32; 64]);
    let mut take = |c: &[f32], lanes: usize| {
        for i in 0..lanes {
            his[i] = if c[i] > his[i] { c[i] } else { his[i] };
            los[i] = if c[i] < los[i] { c[i] } else { los[i] };
            odds[i] += c[i] * 0.0;
        }
    };
    for c in chunks {
        take(c, 64);
    }
    let (sixteens, rest) = tail.as_chunks::<16>();
    for c in sixteens {
        take(c, 16);
    }
    if !rest.is_empty() {
        let mut padded = [x[0]; 16];
        padded[..rest.len()].copy_from_slice(rest);
        take(&padded, 16);
    }
    let (hi, lo, odd) = (
        fold16(&his, max2::<f32>),
        fold16(&los, min2::<f32>),
        fold16(&odds, |a, b| a + b),
    );
    (hi, lo, odd.is_nan())
}

/// `lane_range_f32`'s maximum, minimum and sum of x · 0 carried on over `x`,
/// one element at a time.
#[inline(always)]
fn range_chains(x: &[f32], (mut hi, mut lo, mut odd): (f32, f32, f32)) -> (f32, f32, bool) {
    for &v in x {
        hi = max2(hi, v);
        lo = min2(lo, v);
        odd += v * 0.0;
    }
    (hi, lo, odd.is_nan())
}

fn max2<T: PartialOrd>(a: T, b: T) -> T {
    if b > a { b } else { a }
}

fn min2<T: PartialOrd>(a: T, b: T) -> T {
    if b < a { b } else { a }
}

/// 64 lanes folded by `f`: a vector of sixteen from four, then halves.
#[inline(always)]
fn fold16(lanes: &[f32; 64], f: impl Fn(f32, f32) -> f32) -> f32 {
    let mut v = [0f32; 16];
    for i in 0..16 {
        v[i] = f(f(lanes[i], lanes[i + 16]), f(lanes[i + 32], lanes[i + 48]));
    }
    by_halves(v, f)
}

/// exp(x - m) of sixteen values (a fixed-size loop, which vectorises).
#[inline(always)]
fn exp16(x: &[f32; 16], m: f32, exp: impl Fn(f32) -> f32) -> [f32; 16] {
    // A fixed-size array: bounds checks inside the loop would stop it
    // vectorising.
    let mut e = [0f32; 16];
    for i in 0..16 {
        e[i] = exp(x[i] - m);
    }
    e
}

/// ATen's `map_reduce_all(exp(x - m), +)` over sixteen lanes, as `lane_sum`
/// adds them; with `y`, each exponential is also written there.
#[inline(always)]
fn exp_sum_f32(
    x: &[f32],
    m: f32,
    mut y: Option<&mut [Out<f32>]>,
    exp: impl Fn(f32) -> f32 + Copy,
    ahead: &[f32],
) -> f32 {
    if x.len() < 16 {
        // Shorter than a vector: left to right, one exponential at a time
        // (each lane of ATen's padded vector computes the same bits). A padded
        // vector made the processor wait on the stores that filled it.
        let mut sum = 0f32;
        for (i, &v) in x.iter().enumerate() {
            let e = exp(v - m);
            sum = if i == 0 { e } else { sum + e };
            if let Some(y) = y.as_deref_mut() {
                y[i].write(e);
            }
        }
        return sum;
    }
    let (vectors, tail) = x.as_chunks::<16>();
    let whole = x.len() - tail.len();
    let mut lanes = [0f32; 16];
    for (k, c) in vectors.iter().enumerate() {
        // The next row's matching line, read while this row's exponentials
        // are computed (its first pass otherwise waited on memory, the
        // exponentials on the arithmetic, one after the other).
        if let Some(line) = ahead.get(k * 16..) {
            prefetch_line(line, 1);
        }
        let e = exp16(c, m, exp);
        for i in 0..16 {
            // The first vector starts the lanes (no 0 + x, which turns -0 into 0).
            lanes[i] = if k == 0 { e[i] } else { lanes[i] + e[i] };
        }
        if let Some(y) = y.as_deref_mut() {
            y[k * 16..k * 16 + 16].write_copy_of_slice(&e);
        }
    }
    let rest = x.len() - whole;
    if rest > 0 {
        // The tail goes into the first lanes only.
        let mut padded = [m; 16];
        padded[..rest].copy_from_slice(&x[whole..]);
        let e = exp16(&padded, m, exp);
        for i in 0..rest {
            lanes[i] += e[i];
        }
        if let Some(y) = y {
            y[whole..].write_copy_of_slice(&e[..rest]);
        }
    }
    by_halves(lanes, |a, b| a + b)
}

crate::multiversion! {
    /// One row along the last dim, f32; `ahead`, the row after it.
    fn last_dim_f32(x: &[f32], y: &mut [Out<f32>], log: bool, ahead: &[f32]) {
        let (m, lo, odd) = lane_range_f32(x);
        // Where every exponential is a normal float (all but rows with a far
        // tail), exp_sleef's short form gives its bits.
        if !odd && EXP_SLEEF_NORMAL.contains(&(lo - m)) {
            last_dim_with(x, y, log, m, exp_sleef_normal, ahead);
        } else {
            last_dim_with(x, y, log, m, exp_sleef, ahead);
        }
    }
}

crate::multiversion! {
    /// Rows along the last dim, f32 (whole rows of `len`), sixteen at a time
    /// for log_softmax: the logarithms of a group's sums are one vector of
    /// SLEEF's log, which, row by row, waited on its own long chain.
    fn last_dim_rows_f32(x: &[f32], y: &mut [Out<f32>], len: usize, log: bool) {
        if !log {
            for (k, (r, yr)) in x.chunks(len).zip(y.chunks_mut(len)).enumerate() {
                let ahead = x.get((k + 1) * len..).unwrap_or(&[]);
                last_dim_f32(r, yr, false, ahead);
            }
            return;
        }
        for (g, (xs, ys)) in x.chunks(16 * len).zip(y.chunks_mut(16 * len)).enumerate() {
            let (mut maxima, mut sums) = ([0f32; 16], [1f32; 16]);
            for (k, r) in xs.chunks(len).enumerate() {
                let ahead = x.get((16 * g + k + 1) * len..).unwrap_or(&[]);
                let (m, lo, odd) = lane_range_f32(r);
                maxima[k] = m;
                sums[k] = if !odd && EXP_SLEEF_NORMAL.contains(&(lo - m)) {
                    exp_sum_f32(r, m, None, exp_sleef_normal, ahead)
                } else {
                    exp_sum_f32(r, m, None, exp_sleef, ahead)
                };
            }
            let mut logs = [0f32; 16];
            for i in 0..16 {
                logs[i] = log_sleef(sums[i]);
            }
            for (k, (r, yr)) in xs.chunks(len).zip(ys.chunks_mut(len)).enumerate() {
                let (m, ln_sum) = (maxima[k], logs[k]);
                convert_into(r, yr, |v| v - m - ln_sum);
            }
        }
    }
}

/// One row along the last dim, f32, given its maximum and an exponential.
#[inline(always)]
fn last_dim_with(
    x: &[f32],
    y: &mut [Out<f32>],
    log: bool,
    m: f32,
    exp: impl Fn(f32) -> f32 + Copy,
    ahead: &[f32],
) {
    if log {
        let ln_sum = log_sleef(exp_sum_f32(x, m, None, exp, ahead));
        convert_into(x, y, |v| v - m - ln_sum);
    } else {
        let inv = 1.0 / exp_sum_f32(x, m, Some(&mut *y), exp, ahead);
        // SAFETY: exp_sum_f32 wrote every slot of y.
        let y = unsafe { y.assume_init_mut() };
        y.iter_mut().for_each(|v| *v *= inv);
    }
}

/// One row along the last dim, f64.
fn last_dim_f64(x: &[f64], y: &mut [Out<f64>], log: bool) {
    let m = max_of(x);
    let e: Vec<f64> = x.iter().map(|&v| (v - m).exp()).collect();
    let sum = lane_sum::<f64, 8>(&e, false);
    if log {
        let ln_sum = sum.ln();
        convert_into(x, y, |v| v - m - ln_sum);
    } else {
        let inv = 1.0 / sum;
        convert_into(&e, y, |v| v * inv);
    }
}

/// One line across an inner dim: the sum runs down the line from zero.
fn across<T>(x: &[T], log: bool, exp: impl Fn(T) -> T, ln: impl Fn(T) -> T, zero: T) -> Vec<T>
where
    T: Copy
        + PartialOrd
        + std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Div<Output = T>,
{
    let m = max_of(x);
    let e: Vec<T> = x.iter().map(|&v| exp(v - m)).collect();
    let sum = e.iter().fold(zero, |a, &b| a + b);
    if log {
        let ln_sum = ln(sum);
        x.iter().map(|&v| v - m - ln_sum).collect()
    } else {
        e.into_iter().map(|v| v / sum).collect()
    }
}

/// Along the last dim of a contiguous f32 tensor: rows straight from memory.
fn rows_f32(v: &[f32], l: &Layout, len: usize, log: bool) -> Vec<f32> {
    let n = l.numel();
    let x = &v[l.offset..l.offset + n];
    filled_vec(n, |out| {
        if parallel(n) {
            // Pieces of whole groups of sixteen rows.
            let rows = (Chunks::new(x, 16 * len), ChunksMut::new(out, 16 * len));
            crate::threads::zip(rows, |_, (src, dst)| last_dim_rows_f32(src, dst, len, log));
        } else {
            last_dim_rows_f32(x, out, len, log);
        }
    })
}

/// Which positions ATen's `_vec_softmax` / `_vec_logsoftmax` (a dim other than
/// the last) compute in vectors, with SLEEF's exp; the rest run its scalar
/// tail with the C library's. A vector is 16 floats where ATen runs its
/// AVX-512 kernels and 8 elsewhere (AVX2). `inner` is the size of the dims
/// after `dim`, `total` the number of positions (lines).
fn vector_positions(total: usize, inner: usize, dim_size: usize, log: bool) -> Vec<bool> {
    let lanes: usize = match super::simd::isa() {
        super::simd::Isa::Avx512 => 16,
        _ => 8,
    };
    let mut vec = vec![false; total];
    if log {
        // Blocks of CHUNK positions per row; within one, all but the last
        // size % lanes are vectorised.
        let chunk = ((128 * 1024 / dim_size.max(1) / 4).max(lanes)) / lanes * lanes;
        for (p, v) in vec.iter_mut().enumerate() {
            let i = p % inner;
            let start = i / chunk * chunk;
            let size = chunk.min(inner - start);
            *v = i - start < size - size % lanes;
        }
        return vec;
    }
    // parallel_for over positions, each thread walking its range: a vector
    // wherever a vector of positions of one row fits inside the range. (The grain is
    // PyTorch 2.15's: a softmax(0) of 300x10 splits in two.)
    let grain = (32768 / (16 * dim_size.max(1))).max(1);
    let threads = crate::threads::count();
    let (used, chunk) = if total > grain && threads > 1 {
        let used = threads.min(total.div_ceil(grain));
        (used, total.div_ceil(used))
    } else {
        (1, total)
    };
    for t in 0..used {
        let (mut idx, end) = (t * chunk, total.min((t + 1) * chunk));
        while idx < end {
            let i = idx % inner;
            if i + lanes <= inner && idx + lanes <= end {
                vec[idx..idx + lanes].iter_mut().for_each(|v| *v = true);
                idx += lanes;
            } else {
                idx += if idx + lanes > end {
                    end - idx
                } else {
                    inner - i
                };
            }
        }
    }
    vec
}

/// float64 (and empty inputs of any dtype), line by line: its exp is the C
/// library's, in f64.
fn lines_typed<T: Element>(v: &[T], l: &Layout, dim: usize, log: bool) -> Vec<T> {
    let lines = Lines::new(l, dim);
    let lines = &lines;
    let last = dim + 1 == l.ndim();
    each_line(lines, l.numel(), |i, line| {
        let start = lines.in_starts[i];
        let x: Vec<f64> = (0..lines.len)
            .map(|k| v[start + k * lines.in_stride].to_f64())
            .collect();
        let y = if last {
            filled_vec(x.len(), |y| last_dim_f64(&x, y, log))
        } else {
            across(&x, log, f64::exp, f64::ln, 0.0)
        };
        line.extend(y.into_iter().map(T::from_f64));
    })
}

/// Positions side by side per block of `inner_f32`.
const BLOCK_POSITIONS: usize = 64;

crate::multiversion! {
    /// One block of `w` neighbouring positions of a slab `[len, inner]` (from
    /// column `j0`), each computed exactly as `across` computes its line (the
    /// same folds in the same order, the same exp per position), but walked
    /// down the dim a row of the block at a time: reads are runs of memory, not
    /// one element per cache line. Returns the block as `[len, w]`.
    /// Compiled for AVX2 and AVX-512 too, where SLEEF's `mul_add`s are
    /// FMA instructions rather than calls (the same roundings).
    fn block_f32(slab: &[f32], len: usize, inner: usize, j0: usize, w: usize, log: bool, vector: &[bool]) -> Vec<f32> {
        let row = |k: usize| &slab[k * inner + j0..][..w];
        let (mut m, mut next) = (row(0).to_vec(), vec![0f32; w]);
        for k in 1..len {
            // The row eight ahead asked for: each row of the block is a few
            // cache lines, the next `inner` away, and the hardware prefetcher
            // does not follow such steps across pages.
            if k + 8 < len {
                prefetch_line(&slab[(k + 8) * inner + j0..], w);
            }
            // Into a second row: in place, LLVM made the update a masked
            // store, many times slower on AVX2 processors.
            for ((n, &a), &b) in next.iter_mut().zip(&m).zip(row(k)) {
                *n = if b > a { b } else { a };
            }
            std::mem::swap(&mut m, &mut next);
        }
        // SLEEF's exp at every position, in vectors; then ATen's scalar tail,
        // the C library's exp, at the positions no vector of its covered
        // (each position's sum runs down the dim on its own, so redoing one
        // gives the bits one pass with its exp would). A choice of exp per
        // element kept the loop from vectorising: softmax(0) was 2x PyTorch.
        let mut sum = vec![0f32; w];
        let mut out = vec![0f32; len * w];
        for (k, o) in out.chunks_exact_mut(w).enumerate() {
            for ((o, s), (&v, &mx)) in o.iter_mut().zip(&mut sum).zip(row(k).iter().zip(&m)) {
                let e = exp_sleef(v - mx);
                *s += e;
                *o = e;
            }
        }
        for jj in (0..w).filter(|&jj| !vector[jj]) {
            let mut s = 0f32;
            for k in 0..len {
                let e = (row(k)[jj] - m[jj]).exp();
                out[k * w + jj] = e;
                s += e;
            }
            sum[jj] = s;
        }
        let ln: Vec<f32> = if log {
            sum.iter().map(|&s| log_sleef(s)).collect()
        } else {
            Vec::new()
        };
        for (k, o) in out.chunks_exact_mut(w).enumerate() {
            if log {
                for (jj, (o, &v)) in o.iter_mut().zip(row(k)).enumerate() {
                    *o = v - m[jj] - ln[jj];
                }
            } else {
                for (o, &s) in o.iter_mut().zip(&sum) {
                    *o /= s;
                }
            }
        }
        out
    }
}

/// Along a dim other than the last of a contiguous f32 tensor, by blocks of
/// neighbouring positions (`block_f32`), in parallel, then put in place:
/// by each task into its own slabs where there are slabs enough to share out,
/// else block by block at the end.
fn inner_f32(v: &[f32], l: &Layout, dim: usize, log: bool) -> Vec<f32> {
    let n = l.numel();
    let x = &v[l.offset..l.offset + n];
    let len = l.shape[dim];
    let inner: usize = l.shape[dim + 1..].iter().product();
    let (slab_len, outer) = (len * inner, n / (len * inner));
    let vectors = vector_positions(outer * inner, inner, len, log);
    let block = |o: usize, j0: usize| {
        let w = BLOCK_POSITIONS.min(inner - j0);
        let slab = &x[o * slab_len..(o + 1) * slab_len];
        let at = o * inner + j0;
        block_f32(slab, len, inner, j0, w, log, &vectors[at..at + w])
    };
    // A block's rows into the output rows of its slab.
    let place = |dst: &mut [Out<f32>], j0: usize, b: &[f32]| {
        let w = BLOCK_POSITIONS.min(inner - j0);
        for (k, r) in b.chunks_exact(w).enumerate() {
            convert_into(r, &mut dst[k * inner + j0..][..w], |e| e);
        }
    };
    let starts = || (0..inner).step_by(BLOCK_POSITIONS);
    let threads = crate::threads::count();
    // Every slot is written: the blocks of each slab cover its positions.
    filled_vec(n, |out| {
        if parallel(n) && outer >= 2 * threads {
            let slabs = ChunksMut::new(out, slab_len);
            crate::threads::zip(slabs, |o, dst| {
                starts().for_each(|j0| place(dst, j0, &block(o, j0)))
            });
            return;
        }
        let tasks: Vec<(usize, usize)> = (0..outer)
            .flat_map(|o| starts().map(move |j0| (o, j0)))
            .collect();
        let blocks: Vec<Vec<f32>> = if parallel(n) {
            crate::threads::map(tasks.len(), |i| block(tasks[i].0, tasks[i].1))
        } else {
            tasks.iter().map(|&(o, j0)| block(o, j0)).collect()
        };
        for (&(o, j0), b) in tasks.iter().zip(&blocks) {
            place(&mut out[o * slab_len..(o + 1) * slab_len], j0, b);
        }
    })
}

pub fn softmax(s: &CpuStorage, l: &Layout, dim: usize, log: bool) -> Result<CpuStorage> {
    if l.shape[dim] == 0 || l.numel() == 0 {
        return Ok(crate::with_storage!(s, v => Element::wrap(lines_typed(v, l, dim, log))));
    }
    match s {
        CpuStorage::F32(v) if l.is_contiguous() => Ok(CpuStorage::F32(if dim + 1 == l.ndim() {
            rows_f32(v, l, l.shape[dim], log)
        } else {
            inner_f32(v, l, dim, log)
        })),
        // A strided float32 input is made contiguous first, as ATen's
        // host_softmax does, and a half one widened to float32 (a block at a
        // time): both then take the float32 kernels above.
        CpuStorage::F32(_) | CpuStorage::F16(_) | CpuStorage::BF16(_) => {
            let wide = super::cast::cast(s, l, DType::F32);
            let flat = Layout::contiguous(&l.shape);
            let y = softmax(&wide, &flat, dim, log)?;
            Ok(match s.dtype() {
                DType::F32 => y,
                half => super::cast::cast(&y, &flat, half),
            })
        }
        _ => Ok(crate::with_storage!(s, v => Element::wrap(lines_typed(v, l, dim, log)))),
    }
}
