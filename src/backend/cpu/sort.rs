//! Sorting along a dim, and unique. Elements compare in their own type, so int64
//! values beyond 2^53 keep their order; NaN sorts above every number, as in
//! PyTorch.

use std::cmp::Ordering;

use super::elem::{CpuStorage, Element};
use super::lines::Lines;
use super::strided::gather;
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::with_storage;

/// PyTorch's order: numbers ascending, every NaN after them.
fn order<T: Element>(x: T, y: T) -> Ordering {
    if T::DTYPE.is_float() {
        let (a, b) = (x.to_f64(), y.to_f64());
        match (a.is_nan(), b.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Greater,
            (false, true) => Ordering::Less,
            _ => a.total_cmp(&b),
        }
    } else {
        x.to_i64().cmp(&y.to_i64())
    }
}

fn sort_typed<T: Element>(v: &[T], l: &Layout, dim: usize, descending: bool) -> (Vec<T>, Vec<i64>) {
    let n = l.numel();
    let lines = Lines::new(l, dim);
    let mut values = vec![T::default(); n];
    let mut indices = vec![0i64; n];
    for (i, &s) in lines.in_starts.iter().enumerate() {
        let line: Vec<T> = (0..lines.len).map(|k| v[s + k * lines.in_stride]).collect();
        let mut idx: Vec<usize> = (0..lines.len).collect();
        // A stable sort; descending reverses the comparison, so equal elements
        // keep their order either way.
        idx.sort_by(|&a, &b| {
            let o = order(line[a], line[b]);
            if descending { o.reverse() } else { o }
        });
        let base = lines.out_starts[i];
        for (k, &j) in idx.iter().enumerate() {
            values[base + k * lines.out_stride] = line[j];
            indices[base + k * lines.out_stride] = j as i64;
        }
    }
    (values, indices)
}

pub fn sort(
    s: &CpuStorage,
    l: &Layout,
    dim: usize,
    descending: bool,
) -> Result<(CpuStorage, CpuStorage)> {
    Ok(with_storage!(s, v => {
        let (values, indices) = sort_typed(v, l, dim, descending);
        (Element::wrap(values), CpuStorage::I64(indices))
    }))
}

fn unique_typed<T: Element>(v: &[T], l: &Layout) -> (Vec<T>, Vec<i64>, Vec<i64>) {
    let flat = gather(v, l);
    let mut idx: Vec<usize> = (0..flat.len()).collect();
    idx.sort_by(|&a, &b| order(flat[a], flat[b]));
    let mut uniq: Vec<T> = Vec::new();
    let mut counts: Vec<i64> = Vec::new();
    let mut inverse = vec![0i64; flat.len()];
    for &j in &idx {
        let x = flat[j];
        // NaN equals nothing, so each NaN stays apart (as PyTorch's unique).
        let same = uniq.last().is_some_and(|&u| {
            if T::DTYPE.is_float() {
                u.to_f64() == x.to_f64()
            } else {
                u.to_i64() == x.to_i64()
            }
        });
        if !same {
            uniq.push(x);
            counts.push(0);
        }
        let slot = uniq.len() - 1;
        counts[slot] += 1;
        inverse[j] = slot as i64;
    }
    (uniq, inverse, counts)
}

pub fn unique(s: &CpuStorage, l: &Layout) -> Result<(CpuStorage, CpuStorage, CpuStorage)> {
    Ok(with_storage!(s, v => {
        let (u, i, c) = unique_typed(v, l);
        (Element::wrap(u), CpuStorage::I64(i), CpuStorage::I64(c))
    }))
}
