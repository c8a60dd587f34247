//! Ops along one dim, line by line: cumulative sums and products (softmax.rs
//! and sort.rs walk lines the same way). A line is read from the input's
//! layout and written to the contiguous output at the same position.

use rayon::prelude::*;

use super::elem::{CpuStorage, Element};
use super::strided::PAR_MIN;
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::tensor::op::ScanOp;
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
