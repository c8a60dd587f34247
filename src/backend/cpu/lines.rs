//! Ops along one dim, line by line: cumulative sums and products, softmax and
//! log_softmax. A line is read from the input's layout and written to the
//! contiguous output at the same position.

use rayon::prelude::*;

use super::elem::{CpuStorage, Element};
use super::scratch::{Out, convert_into, filled_vec};
use super::strided::PAR_MIN;
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::tensor::op::ScanOp;
use crate::tensor::op::math::exp_f32_fast as exp_f32;
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
        let out = Layout::contiguous(&l.shape);
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
fn each_line<U: Send + Sync + Copy + Default>(
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
    let results: Vec<Vec<U>> = if n >= PAR_MIN && count > 1 {
        (0..count).into_par_iter().map(compute).collect()
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

fn scan_float<T: Element>(v: &[T], l: &Layout, op: ScanOp, dim: usize) -> Vec<f64> {
    let lines = Lines::new(l, dim);
    each_line(&lines, l.numel(), |i, line| {
        let s = lines.in_starts[i];
        let mut acc = 0.0f64;
        for k in 0..lines.len {
            let x = v[s + k * lines.in_stride].to_f64();
            acc = if k == 0 {
                x
            } else {
                match op {
                    ScanOp::Sum => acc + x,
                    ScanOp::Prod => acc * x,
                    ScanOp::Max if x.is_nan() || acc.is_nan() => f64::NAN,
                    ScanOp::Max => acc.max(x),
                    ScanOp::Min if x.is_nan() || acc.is_nan() => f64::NAN,
                    ScanOp::Min => acc.min(x),
                }
            };
            line.push(acc);
        }
    })
}

fn scan_int<T: Element>(v: &[T], l: &Layout, op: ScanOp, dim: usize) -> Vec<i64> {
    let lines = Lines::new(l, dim);
    each_line(&lines, l.numel(), |i, line| {
        let s = lines.in_starts[i];
        let mut acc = 0i64;
        for k in 0..lines.len {
            let x = v[s + k * lines.in_stride].to_i64();
            acc = if k == 0 {
                x
            } else {
                match op {
                    ScanOp::Sum => acc.wrapping_add(x),
                    ScanOp::Prod => acc.wrapping_mul(x),
                    ScanOp::Max => acc.max(x),
                    ScanOp::Min => acc.min(x),
                }
            };
            line.push(acc);
        }
    })
}

pub fn scan(s: &CpuStorage, l: &Layout, op: ScanOp, dim: usize) -> Result<CpuStorage> {
    let out_dtype = op.output_dtype(s.dtype());
    Ok(if s.dtype().is_float() {
        CpuStorage::from_f64s(&with_storage!(s, v => scan_float(v, l, op, dim)), out_dtype)
    } else {
        CpuStorage::from_i64s(&with_storage!(s, v => scan_int(v, l, op, dim)), out_dtype)
    })
}

/// The largest element, in sixteen lanes so that it vectorises. NaN is skipped
/// here: it reaches every output through the sum of exponentials.
#[inline(always)]
fn lane_max_f32(x: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 16];
    let chunks = x.chunks_exact(16);
    let tail = chunks
        .remainder()
        .iter()
        .fold(f32::NEG_INFINITY, |a, &b| a.max(b));
    for c in chunks {
        for i in 0..16 {
            lanes[i] = if c[i] > lanes[i] { c[i] } else { lanes[i] };
        }
    }
    lanes.iter().fold(tail, |a, &b| a.max(b))
}

/// The sum of `exp(x - m)`, in sixteen f32 lanes (as PyTorch's vectorised
/// softmax); with `y`, each exponential is also written there.
#[inline(always)]
fn exp_sum_f32(x: &[f32], m: f32, mut y: Option<&mut [Out<f32>]>) -> f32 {
    let mut lanes = [0f32; 16];
    let whole = x.len() / 16 * 16;
    for (k, c) in x[..whole].chunks_exact(16).enumerate() {
        let mut e = [0f32; 16];
        for i in 0..16 {
            e[i] = exp_f32(c[i] - m);
            lanes[i] += e[i];
        }
        if let Some(y) = y.as_deref_mut() {
            y[k * 16..k * 16 + 16].write_copy_of_slice(&e);
        }
    }
    let mut tail = 0f32;
    for (i, &v) in x.iter().enumerate().skip(whole) {
        let e = exp_f32(v - m);
        tail += e;
        if let Some(y) = y.as_deref_mut() {
            y[i].write(e);
        }
    }
    lanes.iter().sum::<f32>() + tail
}

crate::multiversion! {
    /// softmax (log: log_softmax) of the f32 line `x`, written to `y`.
    fn softmax_line_f32(x: &[f32], y: &mut [Out<f32>], log: bool) {
        let m = lane_max_f32(x);
        if log {
            let lse = m + exp_sum_f32(x, m, None).ln();
            convert_into(x, y, |v| v - lse);
        } else {
            let inv = 1.0 / exp_sum_f32(x, m, Some(&mut *y));
            // SAFETY: exp_sum_f32 wrote every slot of y.
            let y = unsafe { y.assume_init_mut() };
            y.iter_mut().for_each(|v| *v *= inv);
        }
    }
}

crate::multiversion! {
    fn softmax_line_f64(x: &[f64], y: &mut [Out<f64>], log: bool) {
        let m = x.iter().copied().fold(
            f64::NEG_INFINITY,
            |a, b| if b > a || b.is_nan() { b } else { a },
        );
        if log {
            let sum: f64 = x.iter().map(|&v| (v - m).exp()).sum();
            let lse = m + sum.ln();
            convert_into(x, y, |v| v - lse);
        } else {
            convert_into(x, y, |v| (v - m).exp());
            // SAFETY: convert_into wrote every slot of y.
            let y = unsafe { y.assume_init_mut() };
            let sum: f64 = y.iter().sum();
            y.iter_mut().for_each(|v| *v /= sum);
        }
    }
}

/// softmax along a dim whose lines are contiguous in the input and the output.
fn softmax_rows_f32(v: &[f32], l: &Layout, len: usize, log: bool) -> Vec<f32> {
    let n = l.numel();
    let x = &v[l.offset..l.offset + n];
    filled_vec(n, |out| {
        let work = |(src, dst): (&[f32], &mut [Out<f32>])| softmax_line_f32(src, dst, log);
        if n >= PAR_MIN {
            x.par_chunks(len)
                .zip(out.par_chunks_mut(len))
                .for_each(work);
        } else {
            x.chunks(len).zip(out.chunks_mut(len)).for_each(work);
        }
    })
}

fn softmax_typed<T: Element>(v: &[T], l: &Layout, dim: usize, log: bool) -> Vec<T> {
    let lines = Lines::new(l, dim);
    let lines = &lines;
    let read = |i: usize| {
        let start = lines.in_starts[i];
        (0..lines.len).map(move |k| v[start + k * lines.in_stride])
    };
    if T::DTYPE == crate::tensor::DType::F64 {
        each_line(lines, l.numel(), |i, line| {
            let x: Vec<f64> = read(i).map(|e| e.to_f64()).collect();
            let y = filled_vec(x.len(), |y| softmax_line_f64(&x, y, log));
            line.extend(y.into_iter().map(T::from_f64));
        })
    } else {
        each_line(lines, l.numel(), |i, line| {
            let x: Vec<f32> = read(i).map(|e| e.to_f64() as f32).collect();
            let y = filled_vec(x.len(), |y| softmax_line_f32(&x, y, log));
            line.extend(y.into_iter().map(|e| T::from_f64(e as f64)));
        })
    }
}

pub fn softmax(s: &CpuStorage, l: &Layout, dim: usize, log: bool) -> Result<CpuStorage> {
    if let CpuStorage::F32(v) = s
        && l.is_contiguous()
        && dim + 1 == l.ndim()
        && l.shape[dim] > 0
    {
        return Ok(CpuStorage::F32(softmax_rows_f32(v, l, l.shape[dim], log)));
    }
    Ok(with_storage!(s, v => Element::wrap(softmax_typed(v, l, dim, log))))
}
