//! Reductions. The caller permutes the reduced dims to the end, so the elements
//! of each output form one contiguous group of `group` values in row-major order.
//! Floats reduce in f64, integers in i64 (sums wrap as PyTorch's int64 sums do).

use rayon::prelude::*;

use super::map::{PAR_THRESHOLD, to_f64_vec, to_i64_vec};
use crate::tensor::layout::Layout;
use crate::tensor::storage::Storage;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ReduceOp {
    Sum,
    Prod,
    Mean,
    Max,
    Min,
    ArgMax,
    ArgMin,
    /// Variance with Bessel's `correction` (1 = unbiased, PyTorch's default).
    Var(f64),
    Std(f64),
    All,
    Any,
    /// The p-norm; `inf` is the max-abs norm.
    Norm(f64),
    LogSumExp,
    CountNonzero,
}

/// A sum in eight interleaved lanes: the compiler vectorises it, and the partial
/// sums keep rounding error lower than one running total.
fn lane_sum(g: &[f64]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let chunks = g.chunks_exact(8);
    let tail: f64 = chunks.remainder().iter().sum();
    for c in chunks {
        for i in 0..8 {
            lanes[i] += c[i];
        }
    }
    lanes.iter().sum::<f64>() + tail
}

fn reduce_group_f64(op: ReduceOp, g: &[f64]) -> f64 {
    match op {
        ReduceOp::Sum => lane_sum(g),
        ReduceOp::Prod => g.iter().product(),
        ReduceOp::Mean => lane_sum(g) / g.len() as f64,
        ReduceOp::Max => g.iter().copied().fold(f64::NEG_INFINITY, |a, x| {
            if x.is_nan() || a.is_nan() {
                f64::NAN
            } else {
                a.max(x)
            }
        }),
        ReduceOp::Min => g.iter().copied().fold(f64::INFINITY, |a, x| {
            if x.is_nan() || a.is_nan() {
                f64::NAN
            } else {
                a.min(x)
            }
        }),
        ReduceOp::ArgMax => arg_best(g, |x, best| x > best) as f64,
        ReduceOp::ArgMin => arg_best(g, |x, best| x < best) as f64,
        ReduceOp::Var(c) | ReduceOp::Std(c) => {
            let n = g.len() as f64;
            let mean = lane_sum(g) / n;
            let ss: f64 = g.iter().map(|x| (x - mean) * (x - mean)).sum();
            let var = ss / (n - c).max(0.0);
            if matches!(op, ReduceOp::Std(_)) {
                var.sqrt()
            } else {
                var
            }
        }
        ReduceOp::All => g.iter().all(|&x| x != 0.0) as u8 as f64,
        ReduceOp::Any => g.iter().any(|&x| x != 0.0) as u8 as f64,
        ReduceOp::Norm(p) => {
            if p == f64::INFINITY {
                g.iter().fold(0.0, |a: f64, x| a.max(x.abs()))
            } else if p == 0.0 {
                g.iter().filter(|&&x| x != 0.0).count() as f64
            } else if p == 2.0 {
                g.iter().map(|x| x * x).sum::<f64>().sqrt()
            } else if p == 1.0 {
                g.iter().map(|x| x.abs()).sum()
            } else {
                g.iter().map(|x| x.abs().powf(p)).sum::<f64>().powf(1.0 / p)
            }
        }
        ReduceOp::LogSumExp => {
            let m = g.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if m.is_infinite() {
                return m;
            }
            m + g.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
        }
        ReduceOp::CountNonzero => g.iter().filter(|&&x| x != 0.0).count() as f64,
    }
}

/// Index of the first best element; a NaN wins at once, as in PyTorch.
fn arg_best(g: &[f64], better: impl Fn(f64, f64) -> bool) -> usize {
    let mut best = 0;
    for (i, &x) in g.iter().enumerate() {
        if x.is_nan() {
            return i;
        }
        if better(x, g[best]) {
            best = i;
        }
    }
    best
}

fn reduce_group_i64(op: ReduceOp, g: &[i64]) -> i64 {
    match op {
        ReduceOp::Sum => g.iter().fold(0i64, |a, &x| a.wrapping_add(x)),
        ReduceOp::Prod => g.iter().fold(1i64, |a, &x| a.wrapping_mul(x)),
        ReduceOp::Max => g.iter().copied().max().unwrap_or(i64::MIN),
        ReduceOp::Min => g.iter().copied().min().unwrap_or(i64::MAX),
        ReduceOp::ArgMax => g
            .iter()
            .enumerate()
            .fold(0, |b, (i, &x)| if x > g[b] { i } else { b }) as i64,
        ReduceOp::ArgMin => g
            .iter()
            .enumerate()
            .fold(0, |b, (i, &x)| if x < g[b] { i } else { b }) as i64,
        ReduceOp::All => g.iter().all(|&x| x != 0) as i64,
        ReduceOp::Any => g.iter().any(|&x| x != 0) as i64,
        ReduceOp::CountNonzero => g.iter().filter(|&&x| x != 0).count() as i64,
        // Unreachable from input: tensor::ops::reduce casts integer input to a
        // float dtype before asking for mean/std/var/prod-style float reductions.
        _ => unreachable!("float-only reductions run on float data"),
    }
}

fn run<T: Send + Sync + Copy, U: Send>(
    data: &[T],
    group: usize,
    f: impl Fn(&[T]) -> U + Sync + Send,
) -> Vec<U> {
    if group == 0 {
        return Vec::new();
    }
    if data.len() >= PAR_THRESHOLD && data.len() / group > 1 {
        data.par_chunks(group).map(f).collect()
    } else {
        data.chunks(group).map(f).collect()
    }
}

/// Reduce each group of `group` consecutive elements (in `l`'s row-major order) in f64.
/// `outputs` is the number of groups (needed when `group` is 0: reductions of empty dims).
pub fn reduce_f64(op: ReduceOp, s: &Storage, l: &Layout, group: usize, outputs: usize) -> Vec<f64> {
    if group == 0 {
        return vec![reduce_group_f64(op, &[]); outputs];
    }
    if outputs == 1 && group >= PAR_THRESHOLD && matches!(op, ReduceOp::Sum | ReduceOp::Mean) {
        // One large sum: partial sums on every core.
        let data = to_f64_vec(s, l);
        let total: f64 = data.par_chunks(PAR_THRESHOLD).map(lane_sum).sum();
        return vec![if op == ReduceOp::Mean {
            total / group as f64
        } else {
            total
        }];
    }
    run(&to_f64_vec(s, l), group, |g| reduce_group_f64(op, g))
}

pub fn reduce_i64(op: ReduceOp, s: &Storage, l: &Layout, group: usize, outputs: usize) -> Vec<i64> {
    if group == 0 {
        return vec![reduce_group_i64(op, &[]); outputs];
    }
    run(&to_i64_vec(s, l), group, |g| reduce_group_i64(op, g))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScanOp {
    Sum,
    Prod,
    Max,
    Min,
}

/// Running sums/products along each group (the scanned dim permuted last).
pub fn scan_f64(op: ScanOp, s: &Storage, l: &Layout, group: usize) -> Vec<f64> {
    let mut data = to_f64_vec(s, l);
    if group > 0 {
        for g in data.chunks_mut(group) {
            for i in 1..g.len() {
                g[i] = match op {
                    ScanOp::Sum => g[i - 1] + g[i],
                    ScanOp::Prod => g[i - 1] * g[i],
                    ScanOp::Max => {
                        if g[i].is_nan() || g[i - 1].is_nan() {
                            f64::NAN
                        } else {
                            g[i - 1].max(g[i])
                        }
                    }
                    ScanOp::Min => {
                        if g[i].is_nan() || g[i - 1].is_nan() {
                            f64::NAN
                        } else {
                            g[i - 1].min(g[i])
                        }
                    }
                };
            }
        }
    }
    data
}

pub fn scan_i64(op: ScanOp, s: &Storage, l: &Layout, group: usize) -> Vec<i64> {
    let mut data = to_i64_vec(s, l);
    if group > 0 {
        for g in data.chunks_mut(group) {
            for i in 1..g.len() {
                g[i] = match op {
                    ScanOp::Sum => g[i - 1].wrapping_add(g[i]),
                    ScanOp::Prod => g[i - 1].wrapping_mul(g[i]),
                    ScanOp::Max => g[i - 1].max(g[i]),
                    ScanOp::Min => g[i - 1].min(g[i]),
                };
            }
        }
    }
    data
}

/// A stable sort of each group; returns the sorted values and their source indices.
/// NaN sorts as the largest value, as in PyTorch.
pub fn sort_groups(values: &[f64], group: usize, descending: bool) -> (Vec<f64>, Vec<i64>) {
    let mut out_v = Vec::with_capacity(values.len());
    let mut out_i = Vec::with_capacity(values.len());
    if group == 0 {
        return (out_v, out_i);
    }
    for g in values.chunks(group) {
        let mut idx: Vec<usize> = (0..g.len()).collect();
        let key = |i: &usize| g[*i];
        idx.sort_by(|a, b| {
            let (x, y) = (key(a), key(b));
            let ord = x.total_cmp(&y);
            // total_cmp puts -NaN first; PyTorch puts every NaN last (ascending).
            let ord = match (x.is_nan(), y.is_nan()) {
                (true, true) => std::cmp::Ordering::Equal,
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                _ => ord,
            };
            if descending { ord.reverse() } else { ord }
        });
        for i in idx {
            out_v.push(g[i]);
            out_i.push(i as i64);
        }
    }
    (out_v, out_i)
}
