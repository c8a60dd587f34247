//! Maxima, minima and their positions: exact, so computed in the element's own
//! type where it is float32 and in any order of lanes (reduce.rs has the sums).

use super::elem::{Element, nan_max, nan_min};
use super::reduce::{Groups, by_column_blocks, each_row, group_offsets, lanes_fold};

/// The running maximum or minimum (exact, so the lanes' order is free):
/// float32 in its own type, other types in 32 f64 lanes, four vectors whose
/// compare-and-select chains overlap (eight lanes waited on one chain).
#[inline(always)]
pub(super) fn lane_best<T: Element>(g: &[T], max: bool) -> f64 {
    if let Some(f) = T::as_f32s(g) {
        return best_f32(f, max) as f64;
    }
    if max {
        lanes_fold::<T, 32>(g, f64::NEG_INFINITY, nan_max, nan_max)
    } else {
        lanes_fold::<T, 32>(g, f64::INFINITY, nan_min, nan_min)
    }
}

/// Index of the first best element (a NaN is best, as in PyTorch): the best
/// value found first, vectorised, then its first position, a block at a time
/// (one compare-and-branch per element ran at a third of PyTorch's speed).
#[inline(always)]
pub(super) fn arg_best<T: Element>(g: &[T], max: bool) -> usize {
    let best = lane_best(g, max);
    let hit = |x: &T| {
        let x = x.to_f64();
        x == best || (best.is_nan() && x.is_nan())
    };
    const B: usize = 64;
    for (i, c) in g.chunks(B).enumerate() {
        if c.iter().fold(false, |f, x| f | hit(x)) {
            return i * B + c.iter().position(hit).unwrap_or(0);
        }
    }
    0
}

/// The running maximum (minimum) `a` of float32s against `x` as ATen's
/// vectorised maximum: the larger of the two (`a` where they tie, so -0 and
/// 0 keep the first, as max(dim)'s values need), or all ones, a NaN, where
/// either is NaN. Three instructions (max, unordered compare, or), where
/// nan_max's select takes four: two compares, an or and a blend. Only a
/// NaN's bits differ from nan_max's (its sign, as in some of PyTorch's).
#[inline(always)]
#[allow(clippy::eq_op)]
fn lane_max(a: f32, x: f32, max: bool) -> f32 {
    let m = if max {
        if x > a { x } else { a }
    } else if x < a {
        x
    } else {
        a
    };
    let nan = (a != a) | (x != x);
    f32::from_bits(m.to_bits() | if nan { u32::MAX } else { 0 })
}

/// The maximum or minimum of float32s in their own type (no conversion: 16
/// lanes per vector), 64 lanes whose chains overlap, joined pairwise.
#[inline(always)]
fn best_f32(g: &[f32], max: bool) -> f32 {
    const W: usize = 64;
    const SHORT: usize = 32;
    let pick = |a: f32, x: f32| lane_max(a, x, max);
    let init = if max {
        f32::NEG_INFINITY
    } else {
        f32::INFINITY
    };
    if g.len() <= SHORT {
        // Short: one chain, left to right. Filling lanes in
        // memory and reading them back as vectors made the processor wait on
        // those stores (a wide load over narrow stores is not forwarded),
        // which cost more than the chain.
        return g.iter().fold(init, |a, &x| pick(a, x));
    }
    let mut lanes = [init; W];
    let chunks = g.chunks_exact(W);
    let tail = chunks.remainder();
    for c in chunks {
        for i in 0..W {
            lanes[i] = pick(lanes[i], c[i]);
        }
    }
    // The tail into the lanes too (one short vector pass, not a serial chain).
    for (l, &x) in lanes.iter_mut().zip(tail) {
        *l = pick(*l, x);
    }
    let mut w = W;
    while w > 1 {
        w /= 2;
        for i in 0..w {
            lanes[i] = pick(lanes[i], lanes[i + w]);
        }
    }
    lanes[0]
}

crate::multiversion! {
    /// The maxima (or minima) of `width` float32 groups side by side from
    /// `c0`, their rows `offs` apart: each row against the running best,
    /// the new best written to a second row. Into the best itself, LLVM
    /// turned the write of a value that often stays into a masked store,
    /// which AVX2 processors (Zen 3) run many times slower than a store.
    /// One call for all the rows: a call per row cost a third of `amax(1)`
    /// of a [64, 128, 256] tensor.
    pub(super) fn best_columns_f32(max: bool, v: &[f32], c0: usize, offs: &[usize], width: usize) -> Vec<f32> {
        let init = if max { f32::NEG_INFINITY } else { f32::INFINITY };
        let (mut best, mut next) = (vec![init; width], vec![0f32; width]);
        each_row(v, c0, offs, width, |row| {
            let rows = next.iter_mut().zip(best.iter().zip(row));
            if max {
                rows.for_each(|(o, (&a, &x))| *o = lane_max(a, x, true));
            } else {
                rows.for_each(|(o, (&a, &x))| *o = lane_max(a, x, false));
            }
            std::mem::swap(&mut best, &mut next);
        });
        best
    }
}

/// argmax/argmin of groups side by side (`x.argmax(0)`, `x.min(0)`): each
/// row of the groups' elements, in order, updates a row of best values and
/// their positions, as arg_best does one group (a NaN wins and stays, ties
/// keep the first). float32 is compared in its own type with 32-bit
/// positions: eight lanes a vector, where f64 values and positions held four.
pub(super) fn arg_rows<T: Element>(v: &[T], gr: &Groups, starts: &[usize], max: bool) -> Vec<f64> {
    let offs = group_offsets(&gr.group);
    if T::as_f32s(v).is_some() && u32::try_from(offs.len()).is_ok() {
        return arg_rows_as::<T, f32>(v, &offs, starts, gr.side_run(), max);
    }
    arg_rows_as::<T, f64>(v, &offs, starts, gr.side_run(), max)
}

/// The type best values are kept in, and their positions' type: of one width,
/// so that a compare's mask picks positions lane for lane.
pub(super) trait ArgLane: Copy + PartialOrd + Default + Send + Sync {
    type Pos: Copy + Default + Send + Sync;
    fn of<T: Element>(x: T) -> Self;
    fn pos(k: usize) -> Self::Pos;
    fn index(p: Self::Pos) -> f64;
}

impl ArgLane for f64 {
    type Pos = f64;
    #[inline(always)]
    fn of<T: Element>(x: T) -> f64 {
        x.to_f64()
    }
    fn pos(k: usize) -> f64 {
        k as f64
    }
    fn index(p: f64) -> f64 {
        p
    }
}

impl ArgLane for f32 {
    type Pos = u32;
    /// Only float32 elements come here: the round trip is exact.
    #[inline(always)]
    fn of<T: Element>(x: T) -> f32 {
        x.to_f64() as f32
    }
    fn pos(k: usize) -> u32 {
        k as u32
    }
    fn index(p: u32) -> f64 {
        p as f64
    }
}

fn arg_rows_as<T: Element, K: ArgLane>(
    v: &[T],
    offs: &[usize],
    starts: &[usize],
    run: usize,
    max: bool,
) -> Vec<f64> {
    let mut out = vec![0.0; starts.len()];
    by_column_blocks(starts, run, offs.len(), &mut out, |first, pos| {
        let (n, c0) = (pos.len(), starts[first]);
        let mut best: Vec<K> = v[c0..c0 + n].iter().map(|&x| K::of(x)).collect();
        let mut at = vec![K::Pos::default(); n];
        let (mut next, mut next_at) = (vec![K::default(); n], vec![K::Pos::default(); n]);
        let mut k = 0;
        each_row(v, c0, offs, n, |row| {
            if k > 0 {
                arg_row(max, K::pos(k), (&best, &at), row, (&mut next, &mut next_at));
                std::mem::swap(&mut best, &mut next);
                std::mem::swap(&mut at, &mut next_at);
            }
            k += 1;
        });
        pos.iter_mut().zip(at).for_each(|(p, a)| *p = K::index(a));
    });
    out
}

crate::multiversion! {
    /// Row `k` of the groups' elements against the best so far, the new
    /// best and positions written to `out` (not in place: see best_columns_f32).
    fn arg_row<T: Element, K: ArgLane>(max: bool, k: K::Pos, best: (&[K], &[K::Pos]), row: &[T], out: (&mut [K], &mut [K::Pos])) {
        let (best, pos) = best;
        let (out_best, out_pos) = out;
        let n = out_best.len();
        let (best, pos, row, out_pos) = (&best[..n], &pos[..n], &row[..n], &mut out_pos[..n]);
        for i in 0..n {
            let (b, x) = (best[i], K::of(row[i]));
            let better = if max { x > b } else { x < b };
            // NaN is the only value unequal to itself.
            #[allow(clippy::eq_op)]
            let take = (b == b) & (better | (x != x));
            out_best[i] = if take { x } else { b };
            out_pos[i] = if take { k } else { pos[i] };
        }
    }
}
