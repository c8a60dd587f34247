//! Max pooling over `[N, C, H, W]` planes in one pass, and its gradient: each
//! output's maximum and where in its plane it came from, then the gradient
//! added back at those places. ATen's CPU kernels (`cpu_max_pool`) are the
//! model: the same scan order, `val > max || isnan(val)` (so the last NaN of a
//! window wins), and gradients added in output order where windows overlap.

use super::elem::{CpuStorage, Element, beats_max};
use super::scratch::{Out, filled_vec, written};
use super::strided::contiguous;
use super::window::strided_copy;
use crate::backend::Window;
use crate::error::{Result, dtype_err};
use crate::tensor::layout::Layout;
use crate::threads::ChunksMut;
use crate::with_storage;

/// Planes are shared among threads when there is this much work.
const PARALLEL: usize = 1 << 15;

/// How `planes` planes of `plane` elements each split among threads: whether
/// they do, and the planes in a run. A few runs per thread, each with one set
/// of buffers: a plane can be a few dozen outputs (max_pool1d), too little to
/// pay for a task and buffers of its own.
pub(super) fn plane_runs(planes: usize, plane: usize) -> (bool, usize) {
    let parallel = planes * plane >= PARALLEL && crate::threads::many();
    let runs = if parallel {
        4 * crate::threads::count()
    } else {
        1
    };
    (parallel, planes.div_ceil(runs).max(1))
}

/// The input rows or columns that output position `o` reads along one axis,
/// as ATen walks them: the first in-bounds tap, the end, and the step.
fn reach(o: usize, size: usize, win: &Window, d: usize) -> (usize, usize, usize) {
    let (stride, pad, dil) = (win.stride[d], win.pad_before[d], win.dilation[d]);
    let mut start = (o * stride) as i64 - pad as i64;
    let end = (start + ((win.kernel[d] - 1) * dil) as i64 + 1).min(size as i64);
    while start < 0 {
        start += dil as i64;
    }
    (start as usize, end.max(start) as usize, dil)
}

/// One output, scanning its window as ATen does.
fn pool_one<T: Element + PartialOrd>(
    src: &[T],
    w: usize,
    (y0, y1, dy): (usize, usize, usize),
    (x0, x1, dx): (usize, usize, usize),
) -> (T, i64) {
    let mut best = y0 * w + x0;
    // An empty window (PyTorch's padding limit rules it out) keeps ATen's -inf.
    if y0 >= y1 || x0 >= x1 {
        return (T::from_f64(f64::NEG_INFINITY), best as i64);
    }
    let mut max = src[best];
    for y in (y0..y1).step_by(dy) {
        if dx == 1 {
            // A window's row as a slice: a global pool's windows are whole
            // planes, and stepping by a runtime stride cost twice the scan.
            let row = y * w;
            for (at, &v) in (row + x0..).zip(&src[row + x0..row + x1]) {
                keep_max(v, &mut max, &mut best, at);
            }
        } else {
            for x in (x0..x1).step_by(dx) {
                keep_max(src[y * w + x], &mut max, &mut best, y * w + x);
            }
        }
    }
    (max, best as i64)
}

/// The output columns whose whole window lies inside the row: `[lo, hi)`.
fn inner_columns(win: &Window, w: usize) -> (usize, usize) {
    let (ow, s, p) = (win.out[1], win.stride[1], win.pad_before[1]);
    let reach = (win.kernel[1] - 1) * win.dilation[1] + 1;
    let lo = p.div_ceil(s).min(ow);
    // ox * s - p + reach <= w
    let hi = if w + p >= reach {
        ((w + p - reach) / s + 1).min(ow)
    } else {
        0
    };
    (lo, hi.max(lo))
}

/// What max pooling needs of an element type (all of them have it).
trait Pooled: Element + PartialOrd {}
impl<T: Element + PartialOrd> Pooled for T {}

/// Columns a tap's selects run at once: `m`, `at` and `picked` are whole
/// rounds of them, so that no round is left to a scalar tail.
const ROUND: usize = 16;

/// One tap across the inner columns: column `j` reads `line[j * s]`, and a
/// new maximum records the tap's `code`. Selects, not branches: on random
/// data a branch on each comparison was mispredicted often enough to make a
/// 3×3 pool over 2 MB take 10 ms. The line is first copied into `picked`
/// (a strided one too), so that the selects run over slices and vectorise
/// (over a strided iterator LLVM made branches of them again).
#[inline(always)]
fn tap<T: Copy + PartialOrd>(
    line: &[T],
    s: usize,
    picked: &mut [Out<T>],
    m: &mut [T],
    at: &mut [u32],
    code: u32,
) {
    let n = line.len().div_ceil(s);
    strided_copy(&mut picked[..n], line, s);
    // SAFETY: Row::new wrote every slot of picked, and strided_copy writes
    // only values.
    let picked = unsafe { written(picked) };
    // Whole rounds: the vector loop covers them all, and its scalar tail
    // (branches again) never runs.
    for ((m, at), &v) in m.iter_mut().zip(at).zip(picked) {
        keep_max(v, m, at, code);
    }
}

/// `m = v` and `at = code` where v beats m (ATen's `val > max || isnan(val)`),
/// as selects.
#[inline(always)]
fn keep_max<T: Copy + PartialOrd, I: Copy>(v: T, m: &mut T, at: &mut I, code: I) {
    let beats = beats_max(v, *m);
    *m = if beats { v } else { *m };
    *at = if beats { code } else { *at };
}

/// Each output plane's slots with its input plane: a run's planes one by
/// one. By the output's planes: an empty input plane still has its outputs
/// (-inf, as ATen's).
fn planes<'a, T>(
    src: &'a [T],
    plane: usize,
    vals: &'a mut [Out<T>],
    idx: &'a mut [Out<i64>],
    per: usize,
) -> impl Iterator<Item = (&'a [T], Slots<'a, T>)> {
    let slots = vals.chunks_mut(per).zip(idx.chunks_mut(per));
    slots
        .enumerate()
        .map(move |(k, slots)| (&src[k * plane..(k + 1) * plane], slots))
}

// A run of whole planes (`src`, `vals` and `idx` hold the same ones), with
// one set of row buffers. Compiled for AVX2 and AVX-512 too (simd.rs): the
// taps' compares and selects run a vector of columns at a time.
crate::multiversion! {
    fn pool_plane<T: Pooled>(
        src: &[T],
        hw: [usize; 2],
        win: &Window,
        vals: &mut [Out<T>],
        idx: &mut [Out<i64>]
    ) {
        pool_plane_any(src, hw, win, vals, idx)
    }
}

#[inline(always)]
fn pool_plane_any<T: Pooled>(
    src: &[T],
    hw: [usize; 2],
    win: &Window,
    vals: &mut [Out<T>],
    idx: &mut [Out<i64>],
) {
    let (oh, ow, w) = (win.out[0], win.out[1], hw[1]);
    // Tap codes are u32 positions in the plane; larger planes take the
    // output-by-output path. So do rows of fewer than NARROW inner columns
    // (global pooling has one): there a tap's setup costs more than its work.
    let (lo, hi) = match inner_columns(win, w) {
        (lo, hi) if hw[0] * w < u32::MAX as usize && hi - lo >= NARROW => (lo, hi),
        _ => (ow, ow),
    };
    let mut bufs = Row::new((hi - lo).next_multiple_of(ROUND));
    for (src, (vals, idx)) in planes(src, hw[0] * w, vals, idx, oh * ow) {
        one_plane(src, hw, win, (lo, hi), &mut bufs, vals, idx);
    }
}

/// A row's running maxima, their tap codes, and a tap's line, for
/// `pool_plane`'s columns `lo..hi` (rounded up to whole rounds).
struct Row<T> {
    m: Vec<T>,
    at: Vec<u32>,
    picked: Vec<Out<T>>,
}

impl<T: Copy + Default> Row<T> {
    fn new(width: usize) -> Row<T> {
        Row {
            m: vec![T::default(); width],
            at: vec![0; width],
            picked: vec![Out::new(T::default()); width],
        }
    }
}

/// Inner columns below this many go one output at a time.
const NARROW: usize = 4;

/// One plane: every output slot of `vals` and `idx` is written. Columns
/// `lo..hi` (whose window lies inside the row) are done tap by tap across the
/// whole row (each output still sees its taps in ATen's order); the others
/// one at a time.
#[inline(always)]
fn one_plane<T: Pooled>(
    src: &[T],
    hw: [usize; 2],
    win: &Window,
    (lo, hi): (usize, usize),
    bufs: &mut Row<T>,
    vals: &mut [Out<T>],
    idx: &mut [Out<i64>],
) {
    let (oh, ow, w) = (win.out[0], win.out[1], hw[1]);
    let (sx, px, dx) = (win.stride[1], win.pad_before[1], win.dilation[1]);
    let Row { m, at, picked } = bufs;
    for oy in 0..oh {
        let ys = reach(oy, hw[0], win, 0);
        let (y0, y1, dy) = ys;
        let row = oy * ow;
        // Edge columns one at a time; all of them when the rows are empty
        // (ruled out by PyTorch's padding limit, but then ATen's -inf).
        let tapped = lo < hi && y0 < y1;
        let (left, right) = if tapped {
            (0..lo, hi..ow)
        } else {
            (0..ow, ow..ow)
        };
        for ox in left.chain(right) {
            let (v, i) = pool_one(src, w, ys, reach(ox, w, win, 1));
            vals[row + ox].write(v);
            idx[row + ox].write(i);
        }
        if !tapped {
            continue;
        }
        // The first tap (y0, kx = 0) starts every maximum.
        let first = y0 * w + lo * sx - px;
        for (j, (m, at)) in m.iter_mut().zip(at.iter_mut()).take(hi - lo).enumerate() {
            *m = src[first + j * sx];
            *at = (y0 * w) as u32;
        }
        for y in (y0..y1).step_by(dy) {
            for kx in 0..win.kernel[1] {
                if y == y0 && kx == 0 {
                    continue;
                }
                // Column lo + j reads y*w + (lo + j)*sx + kx*dx - px.
                let base = y * w + lo * sx + kx * dx - px;
                let line = &src[base..base + (hi - lo - 1) * sx + 1];
                let code = (y * w + kx * dx) as u32;
                tap(line, sx, picked, m, at, code);
            }
        }
        let slots = vals[row + lo..row + hi]
            .iter_mut()
            .zip(&mut idx[row + lo..row + hi]);
        for (j, ((val, i), (&v, &code))) in slots.zip(m.iter().zip(at.iter())).enumerate() {
            val.write(v);
            i.write((code as usize + (lo + j) * sx - px) as i64);
        }
    }
}

/// A run of planes' value and index slots.
type Slots<'a, T> = (&'a mut [Out<T>], &'a mut [Out<i64>]);

/// The kernel for a run of planes: the general one, or a specialised one.
type PlaneFn<T> = fn(&[T], [usize; 2], &Window, &mut [Out<T>], &mut [Out<i64>]);

fn pool_typed<T: Pooled>(
    v: &[T],
    l: &Layout,
    win: &Window,
    plane_fn: PlaneFn<T>,
) -> (Vec<T>, Vec<i64>) {
    let x = contiguous(v, l);
    let planes = l.shape[0] * l.shape[1];
    let hw = [l.shape[2], l.shape[3]];
    let (plane, per) = (hw[0] * hw[1], win.out[0] * win.out[1]);
    let mut idx_out = Vec::with_capacity(planes * per);
    let vals = filled_vec(planes * per, |vals| {
        let idx = &mut idx_out.spare_capacity_mut()[..planes * per];
        if per == 0 {
            return;
        }
        let (parallel, run) = plane_runs(planes, plane);
        let job = |r: usize, (v, i): Slots<T>| {
            let first = r * run * plane;
            plane_fn(&x[first..first + v.len() / per * plane], hw, win, v, i);
        };
        if parallel {
            let chunks = (
                ChunksMut::new(vals, run * per),
                ChunksMut::new(idx, run * per),
            );
            crate::threads::zip(chunks, job);
        } else {
            job(0, (vals, idx));
        }
    });
    // SAFETY: pool_plane wrote every index slot alongside its value.
    unsafe { idx_out.set_len(planes * per) };
    (vals, idx_out)
}

/// `(values, indices)`: each window's maximum and its flat position in its
/// H×W plane (int64), for a 4-d `[N, C, H, W]` input.
pub fn max_pool(s: &CpuStorage, l: &Layout, win: &Window) -> Result<(CpuStorage, CpuStorage)> {
    if let CpuStorage::F32(v) = s
        && is_pairs(win, [l.shape[2], l.shape[3]])
    {
        let (vals, idx) = pool_typed(v, l, win, pool_pairs_f32);
        return Ok((CpuStorage::F32(vals), CpuStorage::I64(idx)));
    }
    Ok(with_storage!(s, v => {
        let (vals, idx) = pool_typed(v, l, win, pool_plane);
        (Element::wrap(vals), CpuStorage::I64(idx))
    }))
}

/// `MaxPool2d(2)`, by far the commonest pooling, and `max_pool1d(x, 2)` (a
/// 1×2 window over planes one row high): pairs of columns side by side, in
/// one row or two, every window inside the image.
fn is_pairs(win: &Window, hw: [usize; 2]) -> bool {
    let kh = win.kernel[0];
    (kh == 1 || kh == 2)
        && win.kernel[1] == 2
        && win.stride == [kh, 2]
        && win.pad_before == [0, 0]
        && win.dilation == [1, 1]
        && kh * win.out[0] <= hw[0]
        && 2 * win.out[1] <= hw[1]
}

crate::multiversion! {
    /// Float32 planes of 2×2 or 1×2 windows (a run of them, as
    /// `pool_plane`): each window's taps in ATen's order (top-left,
    /// top-right, then bottom-left, bottom-right), compared and selected
    /// without branches across a whole output row, which compiles to vector
    /// code; the winner is kept as a tap number and turned into its plane
    /// position afterwards.
    fn pool_pairs_f32(
        src: &[f32],
        hw: [usize; 2],
        win: &Window,
        vals: &mut [Out<f32>],
        idx: &mut [Out<i64>],
    ) {
        let (oh, ow, w, kh) = (win.out[0], win.out[1], hw[1], win.kernel[0]);
        let mut m = vec![0f32; ow];
        let mut tap = vec![0u8; ow];
        for (src, (vals, idx)) in planes(src, hw[0] * w, vals, idx, oh * ow) {
            for oy in 0..oh {
                let top = &src[kh * oy * w..][..2 * ow];
                let pairs = m.iter_mut().zip(tap.iter_mut()).zip(top.chunks_exact(2));
                if kh == 1 {
                    for ((m, t), p) in pairs {
                        let (mut v, mut k) = (p[0], 0u8);
                        keep_max(p[1], &mut v, &mut k, 1);
                        *m = v;
                        *t = k;
                    }
                } else {
                    let bottom = &src[(2 * oy + 1) * w..][..2 * ow];
                    for (((m, t), p), q) in pairs.zip(bottom.chunks_exact(2)) {
                        let (mut v, mut k) = (p[0], 0u8);
                        for (x, n) in [(p[1], 1u8), (q[0], 2), (q[1], 3)] {
                            keep_max(x, &mut v, &mut k, n);
                        }
                        *m = v;
                        *t = k;
                    }
                }
                let row = oy * ow;
                for (j, (&v, &k)) in m.iter().zip(&tap).enumerate() {
                    vals[row + j].write(v);
                    let (dy, dx) = ((k >> 1) as usize, (k & 1) as usize);
                    idx[row + j].write(((kh * oy + dy) * w + 2 * j + dx) as i64);
                }
            }
        }
    }
}

/// `grad_input[n, c, idx] += grad[n, c, o]` per plane, in output order.
fn unpool_typed<T: Element + std::ops::Add<Output = T>>(
    g: &[T],
    gl: &Layout,
    idx: &[i64],
    il: &Layout,
    hw: [usize; 2],
) -> Result<Vec<T>> {
    let (g, idx) = (contiguous(g, gl), contiguous(idx, il));
    let planes = gl.shape[0] * gl.shape[1];
    let per = gl.shape[2] * gl.shape[3];
    let plane = hw[0] * hw[1];
    let mut out = vec![T::default(); planes * plane];
    if plane == 0 || per == 0 {
        return Ok(out);
    }
    // Indices come from max_pool, but a user's own (max_unpool) may be out of range.
    if idx.iter().any(|&i| i < 0 || i as usize >= plane) {
        return Err(crate::error::index_err(format!(
            "a pooling index is outside the {}x{} plane",
            hw[0], hw[1]
        )));
    }
    let job = |p: usize, dst: &mut [T]| {
        let (g, idx) = (&g[p * per..(p + 1) * per], &idx[p * per..(p + 1) * per]);
        for (&v, &i) in g.iter().zip(idx) {
            let d = &mut dst[i as usize];
            *d = *d + v;
        }
    };
    each_plane(&mut out, plane, job);
    Ok(out)
}

/// `job(p, plane p of out)` for every plane, among threads when there is
/// enough work (a gradient's scatter into the input's planes).
pub(super) fn each_plane<T: Send>(
    out: &mut [T],
    plane: usize,
    job: impl Fn(usize, &mut [T]) + Sync,
) {
    if out.len() >= PARALLEL && crate::threads::many() {
        crate::threads::zip(ChunksMut::new(out, plane), job);
    } else {
        out.chunks_mut(plane)
            .enumerate()
            .for_each(|(p, d)| job(p, d));
    }
}

/// max_pool's gradient: `[N, C, oh, ow]` gradients added into `[N, C, H, W]`
/// at the positions `idx` recorded.
pub fn max_unpool(
    g: &CpuStorage,
    gl: &Layout,
    idx: &CpuStorage,
    il: &Layout,
    hw: [usize; 2],
) -> Result<CpuStorage> {
    let CpuStorage::I64(idx) = idx else {
        return Err(dtype_err("pooling indices must be int64"));
    };
    match g {
        CpuStorage::F32(v) => Ok(CpuStorage::F32(unpool_typed(v, gl, idx, il, hw)?)),
        CpuStorage::F64(v) => Ok(CpuStorage::F64(unpool_typed(v, gl, idx, il, hw)?)),
        CpuStorage::F16(v) => Ok(CpuStorage::F16(unpool_typed(v, gl, idx, il, hw)?)),
        CpuStorage::BF16(v) => Ok(CpuStorage::BF16(unpool_typed(v, gl, idx, il, hw)?)),
        other => Err(dtype_err(format!(
            "max pooling's gradient is for floating-point tensors, not {}",
            other.dtype()
        ))),
    }
}
