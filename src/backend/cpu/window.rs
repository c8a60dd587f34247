//! im2col and its adjoint, for convolution and pooling: every window of an
//! `[N, C, H, W]` input laid out as a column, planes in parallel.

use super::elem::{CpuStorage, Element};
use super::scratch::{Out, filled_vec};
use super::strided::contiguous;
use crate::backend::Window;
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::threads::ChunksMut;
use crate::with_storage;

/// For kernel tap `k` along one axis: the output positions whose window reads
/// inside the input, and the input coordinate for output position 0 (may be
/// negative: padding).
type Span = (usize, usize, i64);

fn span(out: usize, size: usize, stride: usize, tap: usize, pad: usize) -> Span {
    let first = tap as i64 - pad as i64;
    // Smallest o with first + o*stride >= 0, and the end of those below `size`.
    let lo = if first >= 0 {
        0
    } else {
        ((-first) as usize).div_ceil(stride)
    };
    let hi = if (size as i64) <= first {
        0
    } else {
        ((size as i64 - first) as usize).div_ceil(stride).min(out)
    };
    (lo.min(out), hi.max(lo.min(out)), first)
}

/// One kernel tap: its index, and along y and x the output positions whose
/// window reads inside the input (see `span`).
pub(super) type Tap = (usize, Span, Span);

/// Each kernel tap (ky, kx) in order. Computed once per op (its divisions
/// took an eighth of a small convolution when done per plane), and a list,
/// not a callback, so that the callers' loop bodies compile inline.
pub(super) fn taps(win: &Window, h: usize, w: usize) -> Vec<Tap> {
    let [kh, kw] = win.kernel;
    (0..kh * kw)
        .map(|tap| {
            let (ky, kx) = (tap / kw, tap % kw);
            let ys = span(
                win.out[0],
                h,
                win.stride[0],
                ky * win.dilation[0],
                win.pad_before[0],
            );
            let xs = span(
                win.out[1],
                w,
                win.stride[1],
                kx * win.dilation[1],
                win.pad_before[1],
            );
            (tap, ys, xs)
        })
        .collect()
}

crate::multiversion! {
    /// One plane's columns, a tap's `out` positions a row of `dst`, `ld`
    /// apart; every slot of those rows is written (padding or a copy). With
    /// AVX-512 a short row's copy is one load and one store.
    pub(super) fn unfold_plane<T: Element>(
    src: &[T],
    taps: &[Tap],
    w: usize,
    win: &Window,
    pad: T,
    dst: &mut [Out<T>],
    ld: usize,
) {
    let (oh, ow) = (win.out[0], win.out[1]);
    let pad = Out::new(pad);
    // At stride 1 along x (convolutions) a tap's rows inside the input are
    // copied first, then its padding is set. A short row's copy may run past
    // its end (one 64-byte copy, not a loop): the later rows, the padding and
    // the next tap's rows write those slots again. Other strides (pooling's
    // windows) go row by row, element by element.
    for &(tap, (ylo, yhi, y0), (xlo, xhi, x0)) in taps {
        let base = tap * ld;
        if win.stride[1] == 1 && ylo < yhi && xlo < xhi {
            if win.stride[0] == 1 && ow == w {
                same_width_rows(src, dst, (base, ow), (ylo, yhi, y0), (xlo, xhi, x0));
            } else {
                let from = (y0 + (ylo * win.stride[0]) as i64) as usize * w;
                let rows = (ylo, yhi, win.stride[0] * w);
                stride_one_rows(src, dst, (base, ow), rows, (xlo, xhi, from + (x0 + xlo as i64) as usize));
            }
            pad_outside(dst, (base, oh, ow), (ylo, yhi), (xlo, xhi), pad);
            continue;
        }
        for oy in 0..oh {
            let start = base + oy * ow;
            if oy < ylo || oy >= yhi {
                dst[start..start + ow].fill(pad);
                continue;
            }
            let line = (y0 + (oy * win.stride[0]) as i64) as usize * w;
            let to = start + xlo;
            let first = line + (x0 + (xlo * win.stride[1]) as i64) as usize;
            strided_copy(&mut dst[to..start + xhi], &src[first..], win.stride[1]);
            dst[start..to].fill(pad);
            dst[start + xhi..start + ow].fill(pad);
        }
    }
}
}

/// `run[i] = src[i·step]`, every slot of run written (the caller's
/// positions read inside src; a short src is a panic at the slice, never a
/// slot left unwritten). Stride 2 (a strided convolution's windows, a max
/// pool's taps) as the first of each pair: the per-element index and its
/// check kept the loop's step in memory. Stride 1 as a plain copy.
#[inline(always)]
pub(super) fn strided_copy<T: Copy>(run: &mut [Out<T>], src: &[T], step: usize) {
    if run.is_empty() {
        return;
    }
    let src = &src[..(run.len() - 1) * step + 1];
    if step == 1 {
        for (o, v) in run.iter_mut().zip(src) {
            o.write(*v);
        }
        return;
    }
    if step == 2 {
        // Whole pairs as fixed-size arrays, which vectorise (a load pair and
        // a permute per vector; `chunks(2)` kept a scalar loop); src ends
        // one element into its last pair, which is copied on its own.
        let (pairs, _) = src.as_chunks::<2>();
        let Some((last, head)) = run.split_last_mut() else {
            return;
        };
        for (o, pair) in head.iter_mut().zip(pairs) {
            o.write(pair[0]);
        }
        last.write(src[src.len() - 1]);
        return;
    }
    for (o, v) in run.iter_mut().zip(src.iter().step_by(step)) {
        o.write(*v);
    }
}

/// A tap's rows inside the input at stride 1 along x, in order with running
/// offsets, a run of up to 64 bytes as one vector copy (LeNet's 5×5 over
/// 14×14: rows of 10). Worked out row by row, the offsets and checks were
/// half of that convolution's time. A copy may run past its row; the rows
/// after it, `pad_outside` and the next tap's rows write those slots again.
/// `rows`: the first and end output row inside the input and the input's
/// step between them; `from`: where the first row's run starts in `src`.
#[inline(always)]
fn stride_one_rows<T: Copy>(
    src: &[T],
    dst: &mut [Out<T>],
    (base, ow): (usize, usize),
    (ylo, yhi, step): (usize, usize, usize),
    (xlo, xhi, from): (usize, usize, usize),
) {
    let wide = 64 / std::mem::size_of::<T>().max(1);
    let n = xhi - xlo;
    let (mut from, mut to) = (from, base + ylo * ow + xlo);
    for _ in ylo..yhi {
        let fits = n <= wide && from + wide <= src.len() && to + wide <= dst.len();
        if !(fits && copy_64_bytes(&src[from..], &mut dst[to..])) {
            for (o, &v) in dst[to..to + n].iter_mut().zip(&src[from..from + n]) {
                o.write(v);
            }
        }
        from += step;
        to += ow;
    }
}

/// A tap's rows inside the input where output rows are as wide as input rows
/// (stride 1, a "same" convolution: 3×3 with padding 1): each slot then lies a
/// fixed distance from the element it copies, so the rows are one copy (the
/// slots between rows get neighbouring elements, which `pad_outside` sets
/// again). Row by row, an 8×8 plane's nine taps were a fifth of its
/// convolution's time in per-row overhead.
#[inline(always)]
fn same_width_rows<T: Copy>(
    src: &[T],
    dst: &mut [Out<T>],
    (base, ow): (usize, usize),
    (ylo, yhi, y0): Span,
    (xlo, xhi, x0): Span,
) {
    let (d0, d1) = (base + ylo * ow + xlo, base + (yhi - 1) * ow + xhi);
    let s0 = ((y0 + ylo as i64) * ow as i64 + x0 + xlo as i64) as usize;
    for (o, &v) in dst[d0..d1].iter_mut().zip(&src[s0..s0 + (d1 - d0)]) {
        o.write(v);
    }
}

/// A tap's slots outside the input, once its rows are copied: the rows above
/// and below, and each copied row's columns left and right.
#[inline(always)]
fn pad_outside<T: Copy>(
    dst: &mut [Out<T>],
    (base, oh, ow): (usize, usize, usize),
    (ylo, yhi): (usize, usize),
    (xlo, xhi): (usize, usize),
    pad: Out<T>,
) {
    dst[base..base + ylo * ow].fill(pad);
    if xlo > 0 || xhi < ow {
        for oy in ylo..yhi {
            let start = base + oy * ow;
            dst[start..start + xlo].fill(pad);
            dst[start + xhi..start + ow].fill(pad);
        }
    }
    dst[base + yhi * ow..base + oh * ow].fill(pad);
}

/// The first 64 bytes of `src` into `dst` as a fixed-size copy (one vector
/// load and store, where a loop of variable length became a memmove call):
/// false, nothing written, for element sizes other than 4 and 8 bytes.
#[inline(always)]
fn copy_64_bytes<T: Copy>(src: &[T], dst: &mut [Out<T>]) -> bool {
    fn fixed<T: Copy, const N: usize>(src: &[T], dst: &mut [Out<T>]) -> bool {
        let (Some(s), Some(d)) = (src.first_chunk::<N>(), dst.first_chunk_mut::<N>()) else {
            return false;
        };
        for (o, &v) in d.iter_mut().zip(s) {
            o.write(v);
        }
        true
    }
    match std::mem::size_of::<T>() {
        4 => fixed::<T, 16>(src, dst),
        8 => fixed::<T, 8>(src, dst),
        _ => false,
    }
}

fn unfold_typed<T: Element>(v: &[T], l: &Layout, win: &Window, pad: f64) -> Vec<T> {
    let x = contiguous(v, l);
    let (n, c, h, w) = (l.shape[0], l.shape[1], l.shape[2], l.shape[3]);
    let per = win.kernel[0] * win.kernel[1] * win.out[0] * win.out[1];
    let pad = T::from_f64(pad);
    let taps = taps(win, h, w);
    let ld = win.out[0] * win.out[1];
    filled_vec(n * c * per, |out| {
        if per == 0 {
            return;
        }
        let plane = |p: usize, dst: &mut [Out<T>]| {
            unfold_plane(&x[p * h * w..(p + 1) * h * w], &taps, w, win, pad, dst, ld);
        };
        if out.len() >= 1 << 15 && crate::threads::many() {
            crate::threads::zip(ChunksMut::new(out, per), plane);
        } else {
            out.chunks_mut(per)
                .enumerate()
                .for_each(|(p, d)| plane(p, d));
        }
    })
}

pub fn unfold(s: &CpuStorage, l: &Layout, win: &Window, pad: f64) -> Result<CpuStorage> {
    Ok(with_storage!(s, v => Element::wrap(unfold_typed(v, l, win, pad))))
}

crate::multiversion! {
    /// One plane's columns summed back into it (in f64, rounded once). A
    /// stride-1 row adds as one slice into another, which vectorises.
    fn fold_plane<T: Element>(cols: &[T], taps: &[Tap], w: usize, win: &Window, dst: &mut [T]) {
        let (oh, ow) = (win.out[0], win.out[1]);
        let l = oh * ow;
        let mut acc = vec![0.0f64; dst.len()];
        for &(tap, (ylo, yhi, y0), (xlo, xhi, x0)) in taps {
            let row = &cols[tap * l..][..l];
            for oy in ylo..yhi {
                let y = (y0 + (oy * win.stride[0]) as i64) as usize;
                let from = &row[oy * ow + xlo..oy * ow + xhi];
                if win.stride[1] == 1 {
                    let x = (x0 + xlo as i64) as usize;
                    for (a, v) in acc[y * w + x..][..from.len()].iter_mut().zip(from) {
                        *a += v.to_f64();
                    }
                    continue;
                }
                for (i, v) in from.iter().enumerate() {
                    let x = (x0 + ((xlo + i) * win.stride[1]) as i64) as usize;
                    acc[y * w + x] += v.to_f64();
                }
            }
        }
        for (d, a) in dst.iter_mut().zip(acc) {
            *d = T::from_f64(a);
        }
    }
}

fn fold_typed<T: Element>(
    v: &[T],
    l: &Layout,
    win: &Window,
    channels: usize,
    hw: [usize; 2],
) -> Vec<T> {
    let cols = contiguous(v, l);
    let n = l.shape[0];
    let per = win.kernel[0] * win.kernel[1] * win.out[0] * win.out[1];
    let (h, w) = (hw[0], hw[1]);
    let mut out = vec![T::default(); n * channels * h * w];
    if h * w == 0 {
        return out;
    }
    let taps = taps(win, h, w);
    let plane = |p: usize, dst: &mut [T]| {
        fold_plane(&cols[p * per..(p + 1) * per], &taps, w, win, dst);
    };
    if out.len() >= 1 << 15 && crate::threads::many() {
        crate::threads::zip(ChunksMut::new(&mut out, h * w), plane);
    } else {
        out.chunks_mut(h * w)
            .enumerate()
            .for_each(|(p, d)| plane(p, d));
    }
    out
}

pub fn fold(
    s: &CpuStorage,
    l: &Layout,
    win: &Window,
    channels: usize,
    hw: [usize; 2],
) -> Result<CpuStorage> {
    Ok(with_storage!(s, v => Element::wrap(fold_typed(v, l, win, channels, hw))))
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Every window's columns as the definition gives them, element by
    /// element: `cols[tap][oy][ox]` reads input (oy·s + ky·d − p, ox·s +
    /// kx·d − p), or the pad value outside the input.
    fn reference(src: &[f32], h: usize, w: usize, win: &Window) -> Vec<f32> {
        let [kh, kw] = win.kernel;
        let [oh, ow] = win.out;
        let mut out = Vec::new();
        for tap in 0..kh * kw {
            let (ky, kx) = (tap / kw, tap % kw);
            for oy in 0..oh {
                for ox in 0..ow {
                    let y = (oy * win.stride[0] + ky * win.dilation[0]) as i64
                        - win.pad_before[0] as i64;
                    let x = (ox * win.stride[1] + kx * win.dilation[1]) as i64
                        - win.pad_before[1] as i64;
                    let inside = (0..h as i64).contains(&y) && (0..w as i64).contains(&x);
                    out.push(if inside {
                        src[y as usize * w + x as usize]
                    } else {
                        -1.0
                    });
                }
            }
        }
        out
    }

    crate::unit_tests! {
        /// Rows as wide out as in ("same" convolutions, which take one copy per
        /// tap), rows that fit one vector copy, and the rest (row by row) give
        /// the definition's columns.
        fn unfold_plane_matches_the_definition() {
            // (h, w, kernel, stride, pad, dilation)
            let cases = [
                (8, 8, 3, 1, 1, 1),
                (7, 9, 5, 1, 2, 1),
                (6, 6, 3, 1, 2, 2),
                (5, 5, 1, 1, 0, 1),
                (3, 3, 5, 1, 2, 1),
                (14, 14, 5, 1, 0, 1),
                (9, 9, 3, 2, 1, 1),
                (4, 20, 3, 1, 1, 1),
                (10, 12, 3, 1, 0, 2),
                (28, 28, 5, 1, 0, 1),
                (5, 40, 3, 1, 1, 1),
                (7, 12, 3, 1, 1, 2),
            ];
            for (h, w, k, s, p, d) in cases {
                let out = |n: usize| (n + 2 * p - d * (k - 1) - 1) / s + 1;
                let win = Window {
                    kernel: [k, k],
                    stride: [s, s],
                    pad_before: [p, p],
                    pad_total: [2 * p, 2 * p],
                    dilation: [d, d],
                    out: [out(h), out(w)],
                };
                let src: Vec<f32> = (0..h * w).map(|i| i as f32).collect();
                let want = reference(&src, h, w, &win);
                let mut dst = vec![Out::uninit(); want.len()];
                unfold_plane(
                    &src,
                    &taps(&win, h, w),
                    w,
                    &win,
                    -1.0,
                    &mut dst,
                    win.out[0] * win.out[1],
                );
                // SAFETY: unfold_plane writes every slot.
                let got: Vec<f32> = dst.iter().map(|o| unsafe { o.assume_init() }).collect();
                assert_eq!(
                    got, want,
                    "{h}x{w}, kernel {k}, stride {s}, pad {p}, dilation {d}"
                );
            }
        }
    }
}
