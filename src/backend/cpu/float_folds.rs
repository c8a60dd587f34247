//! float32 products and 1- and 2-norms over dims in float32, in the order
//! ATen's CPU kernels take, so that the results are PyTorch's bits (and read
//! half the bytes of an f64 accumulator's converts). ATen's reduce kernels
//! run at AVX2 width (eight float32 lanes) also on AVX-512 machines.
//!
//! - A group that is one contiguous run (`x.prod(-1)`, `x.norm(dim=-1)`):
//!   prod through `binary_kernel_reduce_vec`'s `reduction128` (four vectors
//!   of lanes over whole blocks of 32, the rest one by one); the 2-norm
//!   through the last-dim kernel (one vector of lanes of `acc + x·x`, then
//!   its tail); the 1-norm element by element.
//! - Groups side by side in memory (`x.prod(0)` of a row-major matrix), and
//!   strided groups (`diagonal().prod()`): each output folded down its group
//!   element by element.
//!
//! One strided group of 32768 elements or more keeps the f64 reductions of
//! reduce.rs, and so does a whole large tensor's 1-norm. (One group of 32768
//! elements or more, ATen splits over its threads for the product and the
//! 1-norm, so those bits depend on its thread count; the 2-norm's last-dim
//! kernel runs on one.)

use super::reduce::{Groups, by_column_blocks, each_row, group_offsets};
use super::strided::parallel;
use crate::tensor::op::ReduceOp;

/// A fold of float32s: its first accumulator and its step.
trait Fold: Copy + Sync {
    const INIT: f32;
    /// Whether the group's fold is one chain of dependent steps (ATen's
    /// generic reduce): a whole large tensor folded so would run on one core
    /// at a fraction of reduce.rs's lanes, and ATen splits it over its
    /// threads anyway.
    const CHAIN: bool = false;
    fn step(self, acc: f32, x: f32) -> f32;
    /// The reduction of one contiguous group, in ATen's order for it.
    fn run(self, g: &[f32]) -> f32 {
        g.iter().fold(Self::INIT, |a, &x| self.step(a, x))
    }
}

#[derive(Clone, Copy)]
struct Prod;
impl Fold for Prod {
    const INIT: f32 = 1.0;
    #[inline(always)]
    fn step(self, acc: f32, x: f32) -> f32 {
        acc * x
    }
    fn run(self, g: &[f32]) -> f32 {
        prod_run(g)
    }
}

#[derive(Clone, Copy)]
struct SumAbs;
impl Fold for SumAbs {
    const INIT: f32 = 0.0;
    const CHAIN: bool = true;
    #[inline(always)]
    fn step(self, acc: f32, x: f32) -> f32 {
        acc + x.abs()
    }
}

#[derive(Clone, Copy)]
struct SumSquares;
impl Fold for SumSquares {
    const INIT: f32 = 0.0;
    #[inline(always)]
    fn step(self, acc: f32, x: f32) -> f32 {
        // Rounded twice, as ATen's loops do (no fused multiply-add).
        acc + x * x
    }
    fn run(self, g: &[f32]) -> f32 {
        squares_run(g)
    }
}

crate::multiversion! {
    /// `reduction128` at eight lanes: four vectors start as the first 32
    /// elements and multiply in each further whole block of 32; they combine
    /// as (v0·v1)·(v2·v3), its lanes left to right; the tail follows one by
    /// one.
    fn prod_run(g: &[f32]) -> f32 {
        let (blocks, tail) = g.as_chunks::<32>();
        let mut out = 1.0f32;
        if let Some((first, rest)) = blocks.split_first() {
            let mut acc = *first;
            for c in rest {
                for i in 0..32 {
                    acc[i] *= c[i];
                }
            }
            // Opaque to the optimiser: else it lays the lanes out for this
            // combining step and the loop above runs in shuffled quarters.
            let acc = std::hint::black_box(acc);
            let mut v = [0f32; 8];
            for j in 0..8 {
                v[j] = (acc[j] * acc[8 + j]) * (acc[16 + j] * acc[24 + j]);
            }
            out = v[1..].iter().fold(v[0], |a, &x| a * x);
        }
        tail.iter().fold(out, |a, &x| a * x)
    }
}

crate::multiversion! {
    /// The 2-norm's last-dim kernel: one vector of eight lanes of `acc + x·x`
    /// over whole vectors, its lanes added left to right, then the tail as
    /// the compiler built ATen's scalar loop: four elements squared as a
    /// vector and added in order, if there are four, and the rest by fused
    /// multiply-adds. (Matched against PyTorch on every row length to 41.)
    fn squares_run(g: &[f32]) -> f32 {
        let mut acc = [0f32; 8];
        let (vectors, tail) = g.as_chunks::<8>();
        for c in vectors {
            for j in 0..8 {
                acc[j] += c[j] * c[j];
            }
        }
        let sum = acc[1..].iter().fold(acc[0], |a, &x| a + x);
        let (four, rest) = tail.split_at(if tail.len() >= 4 { 4 } else { 0 });
        let sum = four.iter().fold(sum, |a, &x| a + x * x);
        rest.iter().fold(sum, |a, &x| x.mul_add(x, a))
    }
}

crate::multiversion! {
    /// One row of the groups' elements folded into their accumulators.
    fn fold_row<F: Fold>(f: F, acc: &mut [f32], row: &[f32]) {
        let row = &row[..acc.len()];
        for (a, &x) in acc.iter_mut().zip(row) {
            *a = f.step(*a, x);
        }
    }
}

/// The reduction of every group, where `op` and the layout have an order
/// here (else None: reduce.rs reduces them in f64).
pub(super) fn reduce(v: &[f32], gr: &Groups, starts: &[usize], op: ReduceOp) -> Option<Vec<f64>> {
    match op {
        ReduceOp::Prod => groups(v, gr, starts, Prod),
        ReduceOp::Norm(1.0) => groups(v, gr, starts, SumAbs),
        ReduceOp::Norm(2.0) => {
            let mut out = groups(v, gr, starts, SumSquares)?;
            // The square root in float32 too.
            out.iter_mut().for_each(|x| *x = (*x as f32).sqrt() as f64);
            Some(out)
        }
        _ => None,
    }
}

fn groups<F: Fold>(v: &[f32], gr: &Groups, starts: &[usize], f: F) -> Option<Vec<f64>> {
    let (outputs, size) = (starts.len(), gr.size());
    if gr.group_contiguous() {
        if F::CHAIN {
            if outputs == 1 && size >= super::strided::PAR_MIN {
                return None;
            }
            return Some(chains(v, starts, size, f));
        }
        let one = |&s: &usize| f.run(&v[s..s + size]) as f64;
        return Some(if outputs > 1 && parallel(outputs * size) {
            crate::threads::map(outputs, |i| one(&starts[i]))
        } else {
            starts.iter().map(one).collect()
        });
    }
    let offs = group_offsets(&gr.group);
    if !gr.side_by_side() {
        if outputs == 1 && size >= super::strided::PAR_MIN {
            return None;
        }
        // Strided groups (a diagonal's product, `x[:, ::2].norm(dim=-1)`):
        // ATen's scalar loop folds each down its group in order.
        let one = |&s: &usize| offs.iter().fold(F::INIT, |a, &o| f.step(a, v[s + o])) as f64;
        return Some(starts.iter().map(one).collect());
    }
    let mut out = vec![0.0; outputs];
    by_column_blocks(
        starts,
        gr.side_run(),
        offs.len(),
        &mut out,
        |first, block| {
            let c0 = starts[first];
            let mut acc = vec![F::INIT; block.len()];
            each_row(v, c0, &offs, block.len(), |row| fold_row(f, &mut acc, row));
            block.iter_mut().zip(acc).for_each(|(b, a)| *b = a as f64);
        },
    );
    Some(out)
}

/// Contiguous groups folded one element at a time each, sixteen groups side
/// by side: the sixteen chains of dependent steps overlap (one chain alone
/// waits on each add, a quarter of the speed of loads). A last batch of
/// fewer goes one group at a time.
fn chains<F: Fold>(v: &[f32], starts: &[usize], size: usize, f: F) -> Vec<f64> {
    let batch = |b: usize| -> Vec<f64> {
        let group = &starts[b * 16..((b + 1) * 16).min(starts.len())];
        match <&[usize; 16]>::try_from(group) {
            Ok(sixteen) => chain16(f, v, sixteen, size).map(f64::from).to_vec(),
            Err(_) => group
                .iter()
                .map(|&s| f.run(&v[s..s + size]) as f64)
                .collect(),
        }
    };
    let batches = starts.len().div_ceil(16);
    let folded: Vec<Vec<f64>> = if parallel(starts.len() * size) {
        crate::threads::map(batches, batch)
    } else {
        (0..batches).map(batch).collect()
    };
    folded.concat()
}

crate::multiversion! {
    /// Sixteen groups of `size` elements from `starts`, each folded in order.
    fn chain16<F: Fold>(f: F, v: &[f32], starts: &[usize; 16], size: usize) -> [f32; 16] {
        let rows: [&[f32]; 16] = std::array::from_fn(|i| &v[starts[i]..starts[i] + size]);
        let mut acc = [F::INIT; 16];
        for k in 0..size {
            for i in 0..16 {
                // SAFETY: each row holds `size` elements (sliced just above).
                acc[i] = f.step(acc[i], unsafe { *rows[i].get_unchecked(k) });
            }
        }
        acc
    }
}
