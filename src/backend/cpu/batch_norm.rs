//! Batch normalisation by channel of an `[N, C, S]` layout, as ATen's CPU
//! kernels compute it: statistics and per-channel sums in f64 (one channel's
//! data is read twice while it sits in the cache), then the output or the
//! gradient in the dtype's arithmetic, sample by sample. Each phase runs in
//! parallel: the sums over channels, the element-wise pass over samples.

use super::elem::{CpuStorage, Element};
use super::norm::{line, opmath};
use super::reduce::lane_fold;
use super::scratch::{Out, filled_vec};
use super::strided::parallel;
use crate::error::{Result, dtype_err};
use crate::tensor::layout::Layout;
use crate::with_storage;

/// A float64 operand of the per-channel kind (statistics, α, β, w).
fn f64s(s: &CpuStorage) -> Result<&[f64]> {
    match s {
        CpuStorage::F64(v) => Ok(v),
        _ => Err(dtype_err("batch_norm: per-channel values must be float64")),
    }
}

/// The `[N, C, S]` geometry: sizes, and where line (n, c) starts.
struct Planes<'a> {
    l: &'a Layout,
}

impl Planes<'_> {
    fn sizes(&self) -> (usize, usize, usize) {
        (self.l.shape[0], self.l.shape[1], self.l.shape[2])
    }
    fn start(&self, n: usize, c: usize) -> usize {
        self.l.offset + n * self.l.strides[0] + c * self.l.strides[1]
    }
    fn line<'b, T: Copy>(&self, src: &'b [T], n: usize, c: usize, buf: &'b mut Vec<T>) -> &'b [T] {
        line(
            src,
            self.start(n, c),
            self.l.strides[2],
            self.l.shape[2],
            buf,
        )
    }
}

/// Runs `f` for each channel, in parallel when the tensor is large.
fn per_channel<R: Send>(c: usize, big: bool, f: impl Fn(usize) -> R + Sync + Send) -> Vec<R> {
    if big {
        crate::threads::map(c, f)
    } else {
        (0..c).map(f).collect()
    }
}

/// `[N, C, S]` output made a line (one sample's channel) at a time:
/// `f(n, ch, out)` fills line (n, ch)'s S. In parallel, runs of lines go to
/// the threads: whole samples where there are many, else parts of one (group
/// norm's `[1, N·C, S]`).
fn per_line<T: Send>(
    (nb, c, s): (usize, usize, usize),
    big: bool,
    f: impl Fn(usize, usize, &mut [Out<T>]) + Sync,
) -> Vec<T> {
    let lines = nb * c;
    let run = |first: usize, out: &mut [Out<T>]| {
        for (i, o) in out.chunks_mut(s).enumerate() {
            let line = first + i;
            f(line / c, line % c, o);
        }
    };
    filled_vec(lines * s, |out| {
        if lines * s == 0 {
            return;
        }
        if !big {
            return run(0, out);
        }
        let per_run = if nb >= 16 { c } else { lines.div_ceil(64) };
        let chunks = crate::threads::ChunksMut::new(out, per_run * s);
        crate::threads::zip(chunks, |i, o| run(i * per_run, o));
    })
}

crate::multiversion! {
    fn line_sum<T: Element>(x: &[T]) -> f64 {
        lane_fold(x, 0.0, |a, v| a + v, |a, b| a + b)
    }
}

crate::multiversion! {
    /// Σ (x - mean)², each difference and square in the dtype's arithmetic.
    fn line_squares<T: Element>(x: &[T], mean: f64) -> f64 {
        let r = opmath::<T>;
        lane_fold(x, 0.0, |a, v| { let d = r(v - mean); a + r(d * d) }, |a, b| a + b)
    }
}

crate::multiversion! {
    /// Σ g and Σ (x - mean)·g over one line, in eight lanes each, the
    /// products in the dtype's arithmetic.
    fn grad_line_sums<T: Element>(g: &[T], x: &[T], mean: f64) -> (f64, f64) {
        let r = opmath::<T>;
        let (mut sg, mut sd) = ([0.0f64; 8], [0.0f64; 8]);
        for (g, x) in g.chunks_exact(8).zip(x.chunks_exact(8)) {
            for i in 0..8 {
                let gv = g[i].to_f64();
                sg[i] += gv;
                sd[i] += r(r(x[i].to_f64() - mean) * gv);
            }
        }
        let join = |l: [f64; 8]| l.iter().fold(0.0, |a, b| a + b);
        let (mut a, mut b) = (join(sg), join(sd));
        let tail = x.len() / 8 * 8;
        for (g, x) in g[tail..].iter().zip(&x[tail..]) {
            a += g.to_f64();
            b += r(r(x.to_f64() - mean) * g.to_f64());
        }
        (a, b)
    }
}

crate::multiversion! {
    /// y = x · α + β in the dtype's arithmetic.
    fn affine_line<T: Element>(x: &[T], alpha: f64, beta: f64, y: &mut [Out<T>]) {
        let r = opmath::<T>;
        for (y, &x) in y.iter_mut().zip(x) {
            y.write(T::from_f64(r(r(x.to_f64() * alpha) + beta)));
        }
    }
}

crate::multiversion! {
    /// ATen's dx in the dtype's arithmetic: ((g - ḡ) - (x - mean)·k)·σ⁻¹·w in
    /// training, g·σ⁻¹·w in evaluation.
    fn grad_line<T: Element>(g: &[T], x: &[T], terms: Terms, training: bool, dx: &mut [Out<T>]) {
        let r = opmath::<T>;
        let Terms { mean, invstd, w, k, gbar } = terms;
        for ((dx, &g), &x) in dx.iter_mut().zip(g).zip(x) {
            let g = g.to_f64();
            let v = if training {
                r(r(r(g - gbar) - r(r(x.to_f64() - mean) * k)) * invstd)
            } else {
                r(g * invstd)
            };
            dx.write(T::from_f64(r(v * w)));
        }
    }
}

/// One channel's values as ATen's kernels hold them (in the dtype's
/// arithmetic): the mean, 1/σ and the weight; for the gradient also
/// k = Σ(x - mean)·g · σ⁻² / count and ḡ = Σ g / count.
#[derive(Clone, Copy)]
struct Terms {
    mean: f64,
    invstd: f64,
    w: f64,
    k: f64,
    gbar: f64,
}

/// 1/σ of a channel: from the batch's variance in f64 (ATen's VarTransform),
/// from a running variance in the dtype's arithmetic.
fn invstd<T: Element>(var: f64, eps: f64, training: bool) -> f64 {
    let r = opmath::<T>;
    if training {
        r(1.0 / (var + eps).sqrt())
    } else {
        r(1.0 / r(r(var + r(eps)).sqrt()))
    }
}

pub fn batch_norm(
    s: &CpuStorage,
    l: &Layout,
    stats: Option<(&CpuStorage, &CpuStorage)>,
    w: Option<&CpuStorage>,
    b: Option<&CpuStorage>,
    eps: f64,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let stats = match stats {
        Some((m, v)) => Some((f64s(m)?, f64s(v)?)),
        None => None,
    };
    let (w, b) = (w.map(f64s).transpose()?, b.map(f64s).transpose()?);
    with_storage!(s, v => forward(v, l, stats, w, b, eps))
}

fn forward<T: Element>(
    x: &[T],
    l: &Layout,
    stats: Option<(&[f64], &[f64])>,
    w: Option<&[f64]>,
    b: Option<&[f64]>,
    eps: f64,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let p = Planes { l };
    let (nb, c, s) = p.sizes();
    let big = parallel(nb * c * s);
    let (mean, var) = match stats {
        Some((m, v)) => (m.to_vec(), v.to_vec()),
        None => {
            let count = (nb * s) as f64;
            let moments = per_channel(c, big, |ch| {
                let mut buf = Vec::new();
                let sum: f64 = (0..nb).fold(0.0, |a, n| a + line_sum(p.line(x, n, ch, &mut buf)));
                let mean = opmath::<T>(sum / count);
                let sq = (0..nb).fold(0.0, |a, n| {
                    a + line_squares(p.line(x, n, ch, &mut buf), mean)
                });
                (mean, sq / count)
            });
            moments.into_iter().unzip()
        }
    };
    // ATen's α = w·σ⁻¹ and β = b - mean·α, in the dtype's arithmetic.
    let r = opmath::<T>;
    let training = stats.is_none();
    let (alpha, beta): (Vec<f64>, Vec<f64>) = (0..c)
        .map(|ch| {
            let alpha = r(invstd::<T>(var[ch], eps, training) * w.map_or(1.0, |w| w[ch]));
            (alpha, r(b.map_or(0.0, |b| b[ch]) - r(mean[ch] * alpha)))
        })
        .unzip();
    let y = per_line((nb, c, s), big, |n, ch, out| {
        let mut buf = Vec::new();
        affine_line(p.line(x, n, ch, &mut buf), alpha[ch], beta[ch], out);
    });
    Ok((T::wrap(y), CpuStorage::F64(mean), CpuStorage::F64(var)))
}

pub fn batch_norm_backward(
    g: &CpuStorage,
    gl: &Layout,
    x: (&CpuStorage, &Layout),
    (mean, var): (&CpuStorage, &CpuStorage),
    w: Option<&CpuStorage>,
    (eps, training): (f64, bool),
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let (mean, var, w) = (f64s(mean)?, f64s(var)?, w.map(f64s).transpose()?);
    with_storage!(g, v => backward(v, gl, x, (mean, var), w, (eps, training)))
}

fn backward<T: Element>(
    g: &[T],
    gl: &Layout,
    (x, xl): (&CpuStorage, &Layout),
    (mean, var): (&[f64], &[f64]),
    w: Option<&[f64]>,
    (eps, training): (f64, bool),
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let x = T::slice(x).ok_or_else(|| dtype_err("batch_norm: mixed dtypes"))?;
    let (pg, px) = (Planes { l: gl }, Planes { l: xl });
    let (nb, c, s) = pg.sizes();
    let big = parallel(nb * c * s);
    let r = opmath::<T>;
    let sums = per_channel(c, big, |ch| {
        let (mut gb, mut xb) = (Vec::new(), Vec::new());
        (0..nb).fold((0.0, 0.0), |(a, d), n| {
            let (gl, xl) = (pg.line(g, n, ch, &mut gb), px.line(x, n, ch, &mut xb));
            let (sa, sd) = grad_line_sums(gl, xl, r(mean[ch]));
            (a + sa, d + sd)
        })
    });
    let count = (nb * s) as f64;
    let terms: Vec<Terms> = (0..c)
        .map(|ch| {
            let (sum_g, dot) = sums[ch];
            let invstd = invstd::<T>(var[ch], eps, training);
            Terms {
                mean: r(mean[ch]),
                invstd,
                w: r(w.map_or(1.0, |w| w[ch])),
                k: r(r(r(r(dot) * invstd) * invstd) / count),
                gbar: r(sum_g / count),
            }
        })
        .collect();
    let dx = per_line((nb, c, s), big, |n, ch, out| {
        let (mut gb, mut xb) = (Vec::new(), Vec::new());
        let (gl, xl) = (pg.line(g, n, ch, &mut gb), px.line(x, n, ch, &mut xb));
        grad_line(gl, xl, terms[ch], training, out);
    });
    // ATen's dw = Σ(x - mean)·g · σ⁻¹ and db = Σ g, in f64.
    let (sum_g, dw): (Vec<f64>, Vec<f64>) = (0..c)
        .map(|ch| (sums[ch].0, sums[ch].1 * terms[ch].invstd))
        .unzip();
    Ok((T::wrap(dx), CpuStorage::F64(sum_g), CpuStorage::F64(dw)))
}
