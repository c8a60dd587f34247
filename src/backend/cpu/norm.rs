//! Layer normalisation over the rows of a `[rows, n]` layout, forward and
//! backward each in one pass over memory: a row (a few KiB) is read into the
//! cache once and its statistics, output and gradient computed from there.
//! Statistics and sums run in f64 (two passes over the row for the variance),
//! so the results are exact to the last bit of the output dtype.

use std::borrow::Cow;

use super::elem::{CpuStorage, Element};
use super::reduce::lane_fold;
use super::scratch::{Out, filled_vec};
use super::strided::{PAR_MIN, contiguous};
use crate::error::{Result, dtype_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::threads::ChunksMut;
use crate::with_storage;

/// `n` elements from `start` at `stride`: borrowed where they are adjacent,
/// copied into `buf` where they are not (a transposed or broadcast operand,
/// such as the expanded gradient of a `.sum()`), so no operand is ever copied
/// whole.
pub(super) fn line<'b, T: Copy>(
    src: &'b [T],
    start: usize,
    stride: usize,
    n: usize,
    buf: &'b mut Vec<T>,
) -> &'b [T] {
    if n == 0 {
        return &[];
    }
    if stride == 1 || n == 1 {
        return &src[start..start + n];
    }
    buf.clear();
    if stride == 0 {
        buf.resize(n, src[start]);
    } else {
        buf.extend((0..n).map(|j| src[start + j * stride]));
    }
    buf
}

/// The rows of a 2-d layout, each through `line`.
struct Rows<'a, T> {
    src: &'a [T],
    l: &'a Layout,
}

impl<'a, T: Copy> Rows<'a, T> {
    fn new(src: &'a [T], l: &'a Layout) -> Rows<'a, T> {
        Rows { src, l }
    }

    fn row<'b>(&'b self, r: usize, buf: &'b mut Vec<T>) -> &'b [T] {
        let start = self.l.offset + r * self.l.strides[0];
        line(self.src, start, self.l.strides[1], self.l.shape[1], buf)
    }
}

/// The affine weight or bias as `n` contiguous elements, `fill` where absent
/// (multiplying by 1 and adding 0 in f64 change nothing).
fn param<'a, T: Element>(
    p: Option<(&'a CpuStorage, &Layout)>,
    n: usize,
    fill: f64,
) -> Result<Cow<'a, [T]>> {
    match p {
        Some((s, l)) => {
            let v = T::slice(s).ok_or_else(|| dtype_err("layer_norm: mixed dtypes"))?;
            Ok(contiguous(v, l))
        }
        None => Ok(Cow::Owned(vec![T::from_f64(fill); n])),
    }
}

/// Rows per parallel task: a few tasks per thread, or all rows in one when
/// the work is small.
fn rows_per_task(rows: usize, n: usize) -> usize {
    if rows * n < PAR_MIN {
        // One task: it runs on this thread.
        return rows.max(1);
    }
    rows.div_ceil(4 * crate::threads::count()).max(1)
}

crate::multiversion! {
    /// One row: y = (x - mean) / sqrt(var + eps) * w + b, and (mean, rstd).
    fn norm_row<T: Element>(x: &[T], w: &[T], b: &[T], eps: f64, y: &mut [Out<T>]) -> (f64, f64) {
        let n = x.len() as f64;
        let mean = lane_fold(x, 0.0, |a, v| a + v, |a, b| a + b) / n;
        let var = lane_fold(x, 0.0, |a, v| a + (v - mean) * (v - mean), |a, b| a + b) / n;
        let rstd = 1.0 / (var + eps).sqrt();
        for (((y, &x), &w), &b) in y.iter_mut().zip(x).zip(w).zip(b) {
            y.write(T::from_f64((x.to_f64() - mean) * rstd * w.to_f64() + b.to_f64()));
        }
        (mean, rstd)
    }
}

/// `v` rounded as the dtype's arithmetic rounds it: float32 for float32 and
/// the half types (ATen computes those in float), float64 for float64.
#[inline(always)]
pub(super) fn opmath<T: Element>(v: f64) -> f64 {
    if T::DTYPE == DType::F64 {
        v
    } else {
        v as f32 as f64
    }
}

crate::multiversion! {
    /// One row's gradient in ATen's form, dx = a·g·w + b·x + c with
    /// b = (Σg·w · mean - Σg·w·x) · a³ / n and c = -b · mean - Σg·w · a / n
    /// (a = rstd), its last steps in the dtype's arithmetic: where the terms
    /// cancel (the gradient of `layer_norm(x).sum()`) the result is PyTorch's
    /// exact 0, not a rounding residue. g·x̂ and g go into the parameters' sums.
    fn grad_row<T: Element>(g: &[T], x: &[T], w: &[T], stats: (f64, f64), dx: &mut [Out<T>], dw: &mut [f64], db: &mut [f64]) {
        let (scale, (mean, rstd)) = (1.0 / x.len() as f64, stats);
        // Two passes over the row (in L1): one accumulator array each, which
        // vectorises; both in one loop ran scalar.
        let sum_g = lanes_of_products(g, w, None);
        let sum_gx = lanes_of_products(g, w, Some(x));
        let b = (sum_g * mean - sum_gx) * rstd * rstd * rstd * scale;
        let c = -b * mean - sum_g * rstd * scale;
        let r = opmath::<T>;
        let (a, b, c) = (r(rstd), r(b), r(c));
        let out = dx.iter_mut().zip(dw.iter_mut()).zip(db.iter_mut());
        for ((((dx, dw), db), (&g, &x)), &w) in out.zip(g.iter().zip(x)).zip(w) {
            let (g, x) = (g.to_f64(), x.to_f64());
            dx.write(T::from_f64(r(r(r(r(a * g) * w.to_f64()) + r(b * x)) + c)));
            *dw += g * ((x - mean) * rstd);
            *db += g;
        }
    }
}

/// Σ a·b (·c) in eight lanes, joined in order, then the tail added one by one.
#[inline(always)]
fn lanes_of_products<T: Element>(a: &[T], b: &[T], c: Option<&[T]>) -> f64 {
    let mut lanes = [0.0f64; 8];
    let ((ac, _), (bc, _)) = (a.as_chunks::<8>(), b.as_chunks::<8>());
    match c {
        None => {
            for (a, b) in ac.iter().zip(bc) {
                for i in 0..8 {
                    lanes[i] += a[i].to_f64() * b[i].to_f64();
                }
            }
        }
        Some(c) => {
            for ((a, b), c) in ac.iter().zip(bc).zip(c.as_chunks::<8>().0) {
                for i in 0..8 {
                    lanes[i] += a[i].to_f64() * b[i].to_f64() * c[i].to_f64();
                }
            }
        }
    }
    let mut sum = lanes.iter().fold(0.0, |s, l| s + l);
    let tail = a.len() / 8 * 8;
    for (k, (a, b)) in a[tail..].iter().zip(&b[tail..]).enumerate() {
        let ab = a.to_f64() * b.to_f64();
        sum += c.map_or(ab, |c| ab * c[tail + k].to_f64());
    }
    sum
}

/// The forward of `x` (`[rows, n]`): `(y, mean, rstd)`, the statistics f64.
pub fn layer_norm(
    s: &CpuStorage,
    l: &Layout,
    w: Option<(&CpuStorage, &Layout)>,
    b: Option<(&CpuStorage, &Layout)>,
    eps: f64,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    with_storage!(s, v => forward(v, l, w, b, eps))
}

fn forward<T: Element>(
    x: &[T],
    l: &Layout,
    w: Option<(&CpuStorage, &Layout)>,
    b: Option<(&CpuStorage, &Layout)>,
    eps: f64,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let (rows, n) = (l.shape[0], l.shape[1]);
    if rows * n == 0 {
        // An empty row's statistics are 0/0, as PyTorch's.
        let nan = vec![f64::NAN; if n == 0 { rows } else { 0 }];
        return Ok((
            T::wrap(Vec::new()),
            CpuStorage::F64(nan.clone()),
            CpuStorage::F64(nan),
        ));
    }
    let (w, b) = (param::<T>(w, n, 1.0)?, param::<T>(b, n, 0.0)?);
    let xs = Rows::new(x, l);
    let (mut mean, mut rstd) = (vec![0.0; rows], vec![0.0; rows]);
    let k = rows_per_task(rows, n);
    let y = filled_vec(rows * n, |y| {
        let tasks = (
            (ChunksMut::new(y, k * n), ChunksMut::new(&mut mean, k)),
            ChunksMut::new(&mut rstd, k),
        );
        crate::threads::zip(tasks, |t, ((y, mean), rstd)| {
            let mut buf = Vec::new();
            for (i, y) in y.chunks_exact_mut(n).enumerate() {
                let x = xs.row(t * k + i, &mut buf);
                (mean[i], rstd[i]) = norm_row(x, &w, &b, eps, y);
            }
        });
    });
    Ok((T::wrap(y), CpuStorage::F64(mean), CpuStorage::F64(rstd)))
}

/// The backward, given the gradient `g` of y: `(dx, dw, db)`, dw and db the
/// sums over rows of g·x̂ and of g, in x's dtype.
pub fn layer_norm_backward(
    g: &CpuStorage,
    gl: &Layout,
    x: (&CpuStorage, &Layout),
    stats: (&CpuStorage, &CpuStorage),
    w: Option<(&CpuStorage, &Layout)>,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let (CpuStorage::F64(mean), CpuStorage::F64(rstd)) = stats else {
        return Err(dtype_err("layer_norm: statistics must be float64"));
    };
    with_storage!(g, v => backward(v, gl, x, (mean, rstd), w))
}

fn backward<T: Element>(
    g: &[T],
    gl: &Layout,
    (x, xl): (&CpuStorage, &Layout),
    (mean, rstd): (&[f64], &[f64]),
    w: Option<(&CpuStorage, &Layout)>,
) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    let (rows, n) = (gl.shape[0], gl.shape[1]);
    let x = T::slice(x).ok_or_else(|| dtype_err("layer_norm: mixed dtypes"))?;
    if rows * n == 0 {
        let zeros = || T::wrap(vec![T::from_f64(0.0); n]);
        return Ok((T::wrap(Vec::new()), zeros(), zeros()));
    }
    let w = param::<T>(w, n, 1.0)?;
    let (gs, xs) = (Rows::new(g, gl), Rows::new(x, xl));
    let k = rows_per_task(rows, n);
    let mut partial = Vec::new();
    let dx = filled_vec(rows * n, |dx| {
        partial = crate::threads::zip_map(ChunksMut::new(dx, k * n), |t, dx| {
            let (mut dw, mut db) = (vec![0.0; n], vec![0.0; n]);
            let (mut gb, mut xb) = (Vec::new(), Vec::new());
            for (i, dx) in dx.chunks_exact_mut(n).enumerate() {
                let r = t * k + i;
                let (g, x) = (gs.row(r, &mut gb), xs.row(r, &mut xb));
                grad_row(g, x, &w, (mean[r], rstd[r]), dx, &mut dw, &mut db);
            }
            (dw, db)
        });
    });
    let (mut dw, mut db) = (vec![0.0; n], vec![0.0; n]);
    for (pw, pb) in &partial {
        dw.iter_mut().zip(pw).for_each(|(a, b)| *a += b);
        db.iter_mut().zip(pb).for_each(|(a, b)| *a += b);
    }
    let typed = |v: Vec<f64>| T::wrap(v.into_iter().map(T::from_f64).collect());
    Ok((T::wrap(dx), typed(dw), typed(db)))
}
