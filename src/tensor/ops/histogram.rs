//! torch.histogram and torch.histogramdd: counts (or summed weights) of
//! points in a grid of bins, each dim's bins given by a count over a range or
//! by explicit edges. A point falls in the bin whose left edge is the last at
//! or below it; the last bin also holds its right edge; points outside the
//! edges (and NaN) count nowhere.

use crate::error::{Result, dtype_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::op::{BinaryOp, ReduceOp};
use crate::tensor::ops::arith::{bin, cmp, div, int, mul, sub, where_};
use crate::tensor::ops::creation::{linspace, zeros_on};
use crate::tensor::ops::index::{Idx, index, index_put_raw};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::scalar::item_f64;
use crate::tensor::ops::stats::searchsorted;
use crate::tensor::ops::view::{narrow, reshape, select};

/// How one dim is cut into bins.
pub enum Bins {
    /// This many equal bins over the range (the data's, when none is given).
    Count(i64),
    /// These edges (increasing).
    Edges(Tensor),
}

/// torch.histogram: the histogram of all of `x`'s elements, and the edges.
pub fn histogram(
    x: &Tensor,
    bins: Bins,
    range: Option<(f64, f64)>,
    weight: Option<&Tensor>,
    density: bool,
) -> Result<(Tensor, Tensor)> {
    let points = reshape(x, &[-1, 1])?;
    let range: Option<Vec<f64>> = range.map(|(lo, hi)| vec![lo, hi]);
    let weight = weight.map(|w| reshape(w, &[-1])).transpose()?;
    let (hist, mut edges) = histogramdd(
        &points,
        vec![bins],
        range.as_deref(),
        weight.as_ref(),
        density,
    )?;
    Ok((hist, edges.remove(0)))
}

/// torch.histogramdd: `x`'s last dim holds each point's D coordinates; the
/// result has one dim of bins per coordinate, and the edges of each.
pub fn histogramdd(
    x: &Tensor,
    bins: Vec<Bins>,
    range: Option<&[f64]>,
    weight: Option<&Tensor>,
    density: bool,
) -> Result<(Tensor, Vec<Tensor>)> {
    if !x.dtype().is_float() {
        return Err(dtype_err(format!(
            "torch.histogramdd: input tensor and bins tensors should have the same dtype, but got input {} and bins float",
            x.dtype().name()
        )));
    }
    let d = *x.shape().last().unwrap_or(&1);
    if x.ndim() < 2 && d != 1 || bins.len() != d {
        return Err(value_err(format!(
            "torch.histogramdd: expected {d} sequences of bin edges for each of the {d} input dimensions, but got {}",
            bins.len()
        )));
    }
    if let Some(r) = range
        && r.len() != 2 * d
    {
        return Err(value_err(format!(
            "torch.histogramdd: for a {d}-dimensional histogram range should have {} elements, but got {}",
            2 * d,
            r.len()
        )));
    }
    let points = reshape(x, &[-1, d as i64])?;
    let n = points.shape()[0];
    let mut edges = Vec::with_capacity(d);
    for (k, b) in bins.into_iter().enumerate() {
        edges.push(edges_of(
            &select(&points, 1, k as i64)?,
            b,
            range.map(|r| (r[2 * k], r[2 * k + 1])),
        )?);
    }
    let counts: Vec<usize> = edges.iter().map(|e| e.numel().saturating_sub(1)).collect();
    // Each point's flat bin, and whether it lies inside every dim's edges.
    let mut flat = zeros_on(&[n], crate::tensor::DType::I64, x.device())?;
    let mut inside =
        crate::tensor::ops::creation::full(&[n], 1.0, 1, crate::tensor::DType::Bool, x.device())?;
    for (k, e) in edges.iter().enumerate() {
        let col = select(&points, 1, k as i64)?;
        let nb = counts[k] as i64;
        let (first, last) = (narrow(e, 0, 0, 1)?, narrow(e, 0, nb, 1)?);
        let within = bin(
            BinaryOp::LogicalAnd,
            &cmp(BinaryOp::Ge, &col, &first)?,
            &cmp(BinaryOp::Le, &col, &last)?,
        )?;
        inside = bin(BinaryOp::LogicalAnd, &inside, &within)?;
        let pos = sub(&searchsorted(e, &col.contiguous()?, true, false)?, &int(1))?;
        let pos = where_(&cmp(BinaryOp::Eq, &col, &last)?, &int(nb - 1), &pos)?;
        let stride: usize = counts[k + 1..].iter().product();
        flat = bin(BinaryOp::Add, &flat, &mul(&pos, &int(stride as i64))?)?;
    }
    let total: usize = counts.iter().product();
    let hist = zeros_on(&[total], x.dtype(), x.device())?;
    let keep = |t: &Tensor| index(t, &[Idx::Tensor(inside.clone())]);
    let add = match weight {
        Some(w) => keep(&reshape(&w.to_dtype(x.dtype())?, &[-1])?)?,
        None => Tensor::scalar_f64(1.0, x.dtype()).to_device(x.device())?,
    };
    index_put_raw(&hist, &[Idx::Tensor(keep(&flat)?)], &add, true)?;
    let shape: Vec<i64> = counts.iter().map(|&c| c as i64).collect();
    let mut hist = reshape(&hist, &shape)?;
    if density {
        // Each bin's count per unit of its volume, over the total count.
        let mut volume = Tensor::scalar_f64(1.0, x.dtype()).to_device(x.device())?;
        for (k, e) in edges.iter().enumerate() {
            let nb = counts[k] as i64;
            let width = sub(&narrow(e, 0, 1, nb)?, &narrow(e, 0, 0, nb)?)?;
            let mut along = vec![1i64; d];
            along[k] = nb;
            volume = mul(&volume, &reshape(&width, &along)?)?;
        }
        let sum = reduce(&hist, ReduceOp::Sum, None, false)?;
        hist = div(&hist, &mul(&volume, &sum)?)?;
    }
    Ok((hist, edges))
}

/// One dim's edges: given, or `count` equal bins over the range (the
/// column's smallest to largest value without one; widened by a half on each
/// side when that is a single point).
fn edges_of(col: &Tensor, bins: Bins, range: Option<(f64, f64)>) -> Result<Tensor> {
    match bins {
        Bins::Edges(e) => {
            if e.ndim() != 1 || e.numel() == 0 {
                return Err(value_err(
                    "torch.histogramdd: bins tensor should have one dimension and at least 1 element",
                ));
            }
            e.to_dtype(col.dtype())?.to_device(col.device())
        }
        Bins::Count(c) => {
            if c <= 0 {
                return Err(value_err(format!(
                    "torch.histogramdd(): bins must be > 0, but got {c}"
                )));
            }
            let (mut lo, mut hi) = match range {
                Some(r) => r,
                None if col.numel() == 0 => (0.0, 0.0),
                None => (
                    item_f64(&reduce(col, ReduceOp::Min, None, false)?)?,
                    item_f64(&reduce(col, ReduceOp::Max, None, false)?)?,
                ),
            };
            if lo > hi {
                return Err(value_err(format!(
                    "torch.histogramdd: min should not exceed max, but got min {lo} max {hi}"
                )));
            }
            if !lo.is_finite() || !hi.is_finite() {
                return Err(value_err(format!(
                    "torch.histogramdd: range of [{lo}, {hi}] is not finite"
                )));
            }
            if lo == hi {
                lo -= 0.5;
                hi += 0.5;
            }
            linspace(lo, hi, c + 1, col.dtype(), col.device())
        }
    }
}
