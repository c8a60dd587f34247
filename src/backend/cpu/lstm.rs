//! One step of an LSTM cell, fused: the four gate activations, the new cell
//! state and the new hidden state in one pass over the gates (eleven tensor
//! ops and their backward nodes before: three sigmoids, two tanh, three
//! products, two sums, a chunk), and its gradient in one pass. The arithmetic is
//! the composite's, in its order and with its roundings (ATen's LSTMCell:
//! σ(f)·c + σ(i)·tanh(g), σ(o)·tanh(c'); the gradients as the sigmoid, tanh
//! and product rules give them), so the fused cell changes no digit. float32
//! sigmoid splits each gate's row as ATen's vectorised loop does a row of a
//! chunked view: whole runs of 32 through SLEEF's exp, the rest through the
//! op row's scalar formula.

use std::ops::{Add, Mul, Sub};

use super::elem::CpuStorage;
use super::mathfun::sigmoid_aten;
use super::scratch::{Out, convert_into, filled_vec};
use super::strided::contiguous;
use crate::error::{Result, value_err};
use crate::tensor::layout::Layout;
use crate::tensor::op::UnaryFn;
use crate::tensor::op::unary::f;
use crate::threads::{Chunks, ChunksMut};

/// The element types the fused cell runs in, with the activations of the
/// element-wise op rows.
trait Cell: Copy + Send + Sync + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    const ONE: Self;
    /// σ on the elements in whole runs of 32 from a row's start.
    fn sigmoid_run(x: Self) -> Self;
    /// σ on the rest of a row.
    fn sigmoid_rest(x: Self) -> Self;
    fn tanh(x: Self) -> Self;
}

impl Cell for f32 {
    const ONE: f32 = 1.0;
    #[inline(always)]
    fn sigmoid_run(x: f32) -> f32 {
        sigmoid_aten(x)
    }
    #[inline(always)]
    fn sigmoid_rest(x: f32) -> f32 {
        f::Sigmoid::f32(x)
    }
    #[inline(always)]
    fn tanh(x: f32) -> f32 {
        f::Tanh::f32(x)
    }
}

impl Cell for f64 {
    const ONE: f64 = 1.0;
    #[inline(always)]
    fn sigmoid_run(x: f64) -> f64 {
        f::Sigmoid::f64(x)
    }
    #[inline(always)]
    fn sigmoid_rest(x: f64) -> f64 {
        f::Sigmoid::f64(x)
    }
    #[inline(always)]
    fn tanh(x: f64) -> f64 {
        f::Tanh::f64(x)
    }
}

/// The run of 32 ATen's vectorised loop takes whole (kernels.rs VECTOR_RUN).
const RUN: usize = 32;

/// Rows per task when the batch is split between threads: at least 4096
/// gate elements a task, so that nn.LSTM's usual batch (32 × 128 hidden)
/// splits in two. (A whole layer's step ran alike split or not on a
/// 2-core Xeon: the gates come from the calling thread's cache.)
fn rows_per_task(rows: usize, h: usize) -> usize {
    let per_row = 4 * h.max(1);
    let min_rows = (1usize << 12).div_ceil(per_row);
    min_rows.max(rows.div_ceil(4 * crate::threads::count().max(1)))
}

pub fn lstm_cell(
    g: &CpuStorage,
    l: &Layout,
    (c, cl): (&CpuStorage, &Layout),
) -> Result<(CpuStorage, CpuStorage)> {
    let (b, h) = (l.shape[0], l.shape[1] / 4);
    match (g, c) {
        (CpuStorage::F32(g), CpuStorage::F32(c)) => {
            let (out, work) = forward(&contiguous(g, l), &contiguous(c, cl), b, h);
            Ok((CpuStorage::F32(out), CpuStorage::F32(work)))
        }
        (CpuStorage::F64(g), CpuStorage::F64(c)) => {
            let (out, work) = forward(&contiguous(g, l), &contiguous(c, cl), b, h);
            Ok((CpuStorage::F64(out), CpuStorage::F64(work)))
        }
        _ => Err(value_err(
            "internal: the fused LSTM cell takes float32 or float64 operands of one dtype",
        )),
    }
}

pub fn lstm_cell_backward(
    d: &CpuStorage,
    l: &Layout,
    (c, cl): (&CpuStorage, &Layout),
    out: &CpuStorage,
    work: &CpuStorage,
) -> Result<(CpuStorage, CpuStorage)> {
    let (b, h) = (l.shape[1], l.shape[2]);
    match (d, c, out, work) {
        (CpuStorage::F32(d), CpuStorage::F32(c), CpuStorage::F32(o), CpuStorage::F32(w)) => {
            let (dg, dc) = backward(&contiguous(d, l), &contiguous(c, cl), o, w, b, h);
            Ok((CpuStorage::F32(dg), CpuStorage::F32(dc)))
        }
        (CpuStorage::F64(d), CpuStorage::F64(c), CpuStorage::F64(o), CpuStorage::F64(w)) => {
            let (dg, dc) = backward(&contiguous(d, l), &contiguous(c, cl), o, w, b, h);
            Ok((CpuStorage::F64(dg), CpuStorage::F64(dc)))
        }
        _ => Err(value_err(
            "internal: the fused LSTM cell's gradient takes float32 or float64 operands of one dtype",
        )),
    }
}

/// `[2, B, H]` (hy, then cy) and the activated gates `[B, 4H]`.
fn forward<T: Cell>(g: &[T], c: &[T], b: usize, h: usize) -> (Vec<T>, Vec<T>) {
    if b * h == 0 {
        return (Vec::new(), Vec::new());
    }
    let mut work = Vec::new();
    let out = filled_vec(2 * b * h, |out| {
        work = filled_vec(4 * b * h, |w| {
            let (hy, cy) = out.split_at_mut(b * h);
            let k = rows_per_task(b, h);
            if k >= b || !crate::threads::many() {
                forward_rows(g, c, hy, cy, w, h);
                return;
            }
            let tasks = (
                (Chunks::new(g, k * 4 * h), Chunks::new(c, k * h)),
                (
                    (ChunksMut::new(hy, k * h), ChunksMut::new(cy, k * h)),
                    ChunksMut::new(w, k * 4 * h),
                ),
            );
            crate::threads::zip(tasks, |_, ((g, c), ((hy, cy), w))| {
                forward_rows(g, c, hy, cy, w, h)
            });
        })
    });
    (out, work)
}

crate::multiversion! {
    /// Rows of the forward (`h` > 0).
    fn forward_rows<T: Cell>(
        g: &[T],
        c: &[T],
        hy: &mut [Out<T>],
        cy: &mut [Out<T>],
        w: &mut [Out<T>],
        h: usize,
    ) {
        let rows = g
            .chunks_exact(4 * h)
            .zip(c.chunks_exact(h))
            .zip(hy.chunks_exact_mut(h))
            .zip(cy.chunks_exact_mut(h))
            .zip(w.chunks_exact_mut(4 * h));
        for ((((g, c), hy), cy), w) in rows {
            forward_row(g, c, hy, cy, w);
        }
    }
}

/// One row: each gate's activations, then cy, then hy. Loops with one
/// output each (they vectorise; one loop writing all six did not).
#[inline(always)]
fn forward_row<T: Cell>(g: &[T], c: &[T], hy: &mut [Out<T>], cy: &mut [Out<T>], w: &mut [Out<T>]) {
    let h = c.len();
    let run = h / RUN * RUN;
    for (k, (src, dst)) in g.chunks_exact(h).zip(w.chunks_exact_mut(h)).enumerate() {
        if k == 2 {
            convert_into(src, dst, T::tanh);
        } else {
            convert_into(&src[..run], &mut dst[..run], T::sigmoid_run);
            convert_into(&src[run..], &mut dst[run..], T::sigmoid_rest);
        }
    }
    // SAFETY: the loop above wrote each of the four gates' h slots of w.
    let w = unsafe { w.assume_init_ref() };
    let (i, f, gg, o) = (&w[..h], &w[h..2 * h], &w[2 * h..3 * h], &w[3 * h..]);
    let terms = c.iter().zip(f).zip(i).zip(gg);
    for (d, (((&c, &f), &i), &gg)) in cy.iter_mut().zip(terms) {
        d.write(f * c + i * gg);
    }
    // SAFETY: the loop above wrote every slot of cy (as long as c).
    let cy = unsafe { cy.assume_init_ref() };
    for (d, (&o, &cn)) in hy.iter_mut().zip(o.iter().zip(cy)) {
        d.write(o * T::tanh(cn));
    }
}

/// The gates' gradient `[B, 4H]` and cx's `[B, H]` from d = d(hy, cy).
fn backward<T: Cell>(
    d: &[T],
    c: &[T],
    out: &[T],
    work: &[T],
    b: usize,
    h: usize,
) -> (Vec<T>, Vec<T>) {
    if b * h == 0 {
        return (Vec::new(), Vec::new());
    }
    let (dh, dc) = d.split_at(b * h);
    let cy = &out[b * h..];
    let mut dcx = Vec::new();
    let dg = filled_vec(4 * b * h, |dg| {
        dcx = filled_vec(b * h, |dcx| {
            let k = rows_per_task(b, h);
            if k >= b || !crate::threads::many() {
                backward_rows(work, c, cy, dh, dc, dg, dcx, h);
                return;
            }
            let tasks = (
                (Chunks::new(work, k * 4 * h), Chunks::new(c, k * h)),
                (
                    (Chunks::new(cy, k * h), Chunks::new(dh, k * h)),
                    (
                        Chunks::new(dc, k * h),
                        (ChunksMut::new(dg, k * 4 * h), ChunksMut::new(dcx, k * h)),
                    ),
                ),
            );
            crate::threads::zip(tasks, |_, ((w, c), ((cy, dh), (dc, (dg, dcx))))| {
                backward_rows(w, c, cy, dh, dc, dg, dcx, h)
            });
        })
    });
    (dg, dcx)
}

crate::multiversion! {
    /// Rows of the backward (`h` > 0).
    #[allow(clippy::too_many_arguments)]
    fn backward_rows<T: Cell>(
        w: &[T],
        c: &[T],
        cy: &[T],
        dh: &[T],
        dc: &[T],
        dg: &mut [Out<T>],
        dcx: &mut [Out<T>],
        h: usize,
    ) {
        let rows = w
            .chunks_exact(4 * h)
            .zip(c.chunks_exact(h))
            .zip(cy.chunks_exact(h))
            .zip(dh.chunks_exact(h))
            .zip(dc.chunks_exact(h))
            .zip(dg.chunks_exact_mut(4 * h))
            .zip(dcx.chunks_exact_mut(h));
        for ((((((w, c), cy), dh), dc), dg), dcx) in rows {
            backward_row([w, c, cy, dh, dc], dg, dcx);
        }
    }
}

/// One row of the backward. Each product's gradient is the incoming one
/// times the other factor; σ' = y·(1 - y), tanh' = 1 - y². Loops with one
/// output each, tanh(cy) and cy's whole gradient kept in the slots of the
/// g gate's and i gate's gradients until those are written.
#[inline(always)]
fn backward_row<T: Cell>([w, c, cy, dh, dc]: [&[T]; 5], dg: &mut [Out<T>], dcx: &mut [Out<T>]) {
    let h = c.len();
    let (i, f, g, o) = (&w[..h], &w[h..2 * h], &w[2 * h..3 * h], &w[3 * h..]);
    let (dgi, rest) = dg.split_at_mut(h);
    let (dgf, rest) = rest.split_at_mut(h);
    let (dgg, dgo) = rest.split_at_mut(h);
    let one = T::ONE;
    convert_into(cy, dgg, T::tanh);
    // SAFETY: written just above (dgg is as long as cy).
    let tc = unsafe { dgg.assume_init_mut() };
    for (d, ((&dh, &o), &tc)) in dgo.iter_mut().zip(dh.iter().zip(o).zip(tc.iter())) {
        d.write(dh * tc * (o * (one - o)));
    }
    let parts = dh.iter().zip(o).zip(tc.iter()).zip(dc);
    for (d, (((&dh, &o), &tc), &dc)) in dgi.iter_mut().zip(parts) {
        d.write(dh * o * (one - tc * tc) + dc);
    }
    // SAFETY: written just above (dgi is as long as dh).
    let dcy = unsafe { dgi.assume_init_mut() };
    for (d, ((&dcy, &c), &f)) in dgf.iter_mut().zip(dcy.iter().zip(c).zip(f)) {
        d.write(dcy * c * (f * (one - f)));
    }
    for (d, ((&dcy, &i), &g)) in tc.iter_mut().zip(dcy.iter().zip(i).zip(g)) {
        *d = dcy * i * (one - g * g);
    }
    for (d, (&dcy, &f)) in dcx.iter_mut().zip(dcy.iter().zip(f)) {
        d.write(dcy * f);
    }
    for (d, (&i, &g)) in dcy.iter_mut().zip(i.iter().zip(g)) {
        *d = *d * g * (i * (one - i));
    }
}
