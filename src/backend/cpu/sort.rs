//! Sorting along a dim, and unique. Elements compare in their own type, so int64
//! values beyond 2^53 keep their order; NaN sorts above every number, as in
//! PyTorch.

use super::elem::{CpuStorage, Element};
use super::lines::Lines;
use super::strided::{gather, parallel};
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::with_storage;

/// A key whose unsigned order is PyTorch's order of the elements: numbers
/// ascending (-0 equal to 0), every NaN after them, all NaNs equal.
#[inline(always)]
fn key<T: Element>(x: T) -> u64 {
    if T::DTYPE.is_float() {
        let f = x.to_f64();
        // + 0.0 turns -0 into +0. Negatives flip all bits, positives the sign
        // bit; both without a branch (signs of random data mispredict).
        let b = (f + 0.0).to_bits();
        let k = b ^ (((b as i64) >> 63) as u64 | 1 << 63);
        if f.is_nan() { u64::MAX } else { k }
    } else {
        (x.to_i64() as u64) ^ (1 << 63)
    }
}

/// `key` in 32 bits, for elements of 32 bits or fewer (the same order: a
/// float32, half or bfloat16 converts exactly, and so does a small int).
#[inline(always)]
fn key32<T: Element>(x: T) -> u32 {
    if T::DTYPE.is_float() {
        let f = x.to_f64() as f32;
        let b = (f + 0.0).to_bits();
        let k = b ^ (((b as i32) >> 31) as u32 | 1 << 31);
        if f.is_nan() { u32::MAX } else { k }
    } else {
        (x.to_i64() as i32 as u32) ^ (1 << 31)
    }
}

/// A whole line of narrow elements sorted as single u64s, key above position:
/// half the data of (key, position) pairs and one compare each (a 32-wide
/// line spent its time in the pairs' sort). Returns the positions in order.
fn sort_narrow<T: Element>(
    v: &[T],
    start: usize,
    stride: usize,
    len: usize,
    descending: bool,
    packed: &mut Vec<u64>,
) -> impl Iterator<Item = u32> {
    pack_narrow(v, start, stride, len, descending, packed);
    packed.sort_unstable();
    packed.iter().map(|&p| p as u32)
}

/// A line of narrow elements as u64s, key (flipped for descending) above
/// position, into `packed`.
fn pack_narrow<T: Element>(
    v: &[T],
    start: usize,
    stride: usize,
    len: usize,
    descending: bool,
    packed: &mut Vec<u64>,
) {
    packed.clear();
    packed.extend((0..len).map(|j| {
        let key = key32(v[start + j * stride]);
        let key = if descending { !key } else { key };
        (key as u64) << 32 | j as u64
    }));
}

/// Element `j` of a line as (key, position), the key flipped for descending.
#[inline(always)]
fn keyed_at<T: Element>(
    v: &[T],
    start: usize,
    stride: usize,
    descending: bool,
) -> impl Fn(usize) -> (u64, u32) {
    move |j| {
        let key = key(v[start + j * stride]);
        (if descending { !key } else { key }, j as u32)
    }
}

/// The first `k` positions of one line in sorted order. Keys tie-broken by
/// position make the order total, so an unstable sort (or a selection of the
/// first k, for topk) gives exactly the stable sort's order; descending flips
/// the keys, not the positions, so equal elements keep their order either way.
#[allow(clippy::too_many_arguments)]
fn sort_line<T: Element>(
    v: &[T],
    start: usize,
    stride: usize,
    len: usize,
    descending: bool,
    k: usize,
    keyed: &mut Vec<(u64, u32)>,
) -> Vec<(u64, u32)> {
    let keyed_at = keyed_at(v, start, stride, descending);
    if k <= 64 && k * 8 <= len {
        return smallest(k, (0..len).map(keyed_at));
    }
    keyed.clear();
    keyed.extend((0..len).map(keyed_at));
    if k < len && k > 0 {
        keyed.select_nth_unstable(k - 1);
    }
    let first = &mut keyed[..k];
    first.sort_unstable();
    first.to_vec()
}

/// The `k` smallest keys, sorted, by one pass that keeps them in a sorted
/// buffer: past the first few, an element rarely beats the k-th and costs one
/// comparison (topk with a small k).
fn smallest(k: usize, keys: impl Iterator<Item = (u64, u32)>) -> Vec<(u64, u32)> {
    let mut best: Vec<(u64, u32)> = Vec::with_capacity(k + 1);
    for kv in keys {
        if best.len() == k {
            if k == 0 || kv >= best[k - 1] {
                continue;
            }
            best.pop();
        }
        let at = best.partition_point(|&b| b < kv);
        best.insert(at, kv);
    }
    best
}

fn sort_typed<T: Element>(
    v: &[T],
    l: &Layout,
    dim: usize,
    descending: bool,
    k: usize,
) -> (Vec<T>, Vec<i64>) {
    let lines = Lines::with_len(l, dim, k);
    let n = lines.in_starts.len() * k;
    let mut values = vec![T::default(); n];
    let mut indices = vec![0i64; n];
    if n == 0 {
        return (values, indices);
    }
    if T::DTYPE.size() <= 4 && k == lines.len && !parallel(lines.len * lines.in_starts.len()) {
        // A whole sort of narrow elements, small enough for one thread:
        // straight into the outputs.
        let mut packed = Vec::with_capacity(lines.len);
        for (&s, &base) in lines.in_starts.iter().zip(&lines.out_starts) {
            let order = sort_narrow(v, s, lines.in_stride, lines.len, descending, &mut packed);
            for (i, j) in order.enumerate() {
                values[base + i * lines.out_stride] = v[s + j as usize * lines.in_stride];
                indices[base + i * lines.out_stride] = j as i64;
            }
        }
        return (values, indices);
    }
    // Each task keys its lines in one reused buffer and keeps only the first k.
    let one = |keyed: &mut Vec<(u64, u32)>, &s: &usize| {
        sort_line(v, s, lines.in_stride, lines.len, descending, k, keyed)
    };
    let sorted: Vec<Vec<(u64, u32)>> = if parallel(lines.len * lines.in_starts.len()) {
        let per = lines.in_starts.len().div_ceil(4 * crate::threads::count());
        let tasks = crate::threads::Chunks::new(&lines.in_starts, per);
        let sorted = crate::threads::zip_map(tasks, |_, starts| {
            let mut keyed = Vec::new();
            starts
                .iter()
                .map(|s| one(&mut keyed, s))
                .collect::<Vec<_>>()
        });
        sorted.into_iter().flatten().collect()
    } else {
        let mut keyed = Vec::new();
        lines.in_starts.iter().map(|s| one(&mut keyed, s)).collect()
    };
    for ((line, &s), &base) in sorted.iter().zip(&lines.in_starts).zip(&lines.out_starts) {
        for (i, &(_, j)) in line.iter().enumerate() {
            values[base + i * lines.out_stride] = v[s + j as usize * lines.in_stride];
            indices[base + i * lines.out_stride] = j as i64;
        }
    }
    (values, indices)
}

/// Sort along `dim`, keeping the first `k` of each line (k = its length for a
/// whole sort; fewer for topk).
pub fn sort(
    s: &CpuStorage,
    l: &Layout,
    dim: usize,
    descending: bool,
    k: usize,
) -> Result<(CpuStorage, CpuStorage)> {
    Ok(with_storage!(s, v => {
        let (values, indices) = sort_typed(v, l, dim, descending, k);
        (Element::wrap(values), CpuStorage::I64(indices))
    }))
}

/// The position of the `k`-th (0-based) element of one line in stable-sort
/// order: a selection on keys tie-broken by position, packed into single
/// u64s for narrow elements (as `sort_narrow`).
fn kth_position<T: Element>(
    v: &[T],
    start: usize,
    stride: usize,
    len: usize,
    k: usize,
    (packed, keyed): &mut (Vec<u64>, Vec<(u64, u32)>),
) -> u32 {
    if T::DTYPE.size() <= 4 {
        pack_narrow(v, start, stride, len, false, packed);
        return *packed.select_nth_unstable(k).1 as u32;
    }
    keyed.clear();
    keyed.extend((0..len).map(keyed_at(v, start, stride, false)));
    keyed.select_nth_unstable(k).1.1
}

/// The `k`-th smallest (0-based, k < the dim's length) of each line along
/// `dim` and its position, by selection: a whole sort of each line made
/// kthvalue and median 3x PyTorch's time.
fn kth_typed<T: Element>(v: &[T], l: &Layout, dim: usize, k: usize) -> (Vec<T>, Vec<i64>) {
    let lines = Lines::with_len(l, dim, 1);
    let one = |bufs: &mut (Vec<u64>, Vec<(u64, u32)>), &s: &usize| {
        kth_position(v, s, lines.in_stride, lines.len, k, bufs)
    };
    let positions: Vec<u32> = if parallel(lines.len * lines.in_starts.len()) {
        let per = lines.in_starts.len().div_ceil(4 * crate::threads::count());
        let tasks = crate::threads::Chunks::new(&lines.in_starts, per);
        let picked = crate::threads::zip_map(tasks, |_, starts| {
            let mut bufs = Default::default();
            starts.iter().map(|s| one(&mut bufs, s)).collect::<Vec<_>>()
        });
        picked.into_iter().flatten().collect()
    } else {
        let mut bufs = Default::default();
        lines.in_starts.iter().map(|s| one(&mut bufs, s)).collect()
    };
    let n = lines.in_starts.len();
    let (mut values, mut indices) = (vec![T::default(); n], vec![0i64; n]);
    for ((&j, &s), &base) in positions
        .iter()
        .zip(&lines.in_starts)
        .zip(&lines.out_starts)
    {
        values[base] = v[s + j as usize * lines.in_stride];
        indices[base] = j as i64;
    }
    (values, indices)
}

/// See `BackendStorage::kth`.
pub fn kth(s: &CpuStorage, l: &Layout, dim: usize, k: usize) -> Result<(CpuStorage, CpuStorage)> {
    if k >= l.shape[dim] {
        return Err(crate::error::index_err(
            "internal: kth beyond its line reached the backend",
        ));
    }
    Ok(with_storage!(s, v => {
        let (values, indices) = kth_typed(v, l, dim, k);
        (Element::wrap(values), CpuStorage::I64(indices))
    }))
}

/// The positions of `keys` in ascending order, equal keys in position order.
/// Keys within a range of 2^32 (integers, mostly) take an LSD radix sort of
/// one pass per byte of their range; others a comparison sort of (key,
/// position). (An index sort comparing keys through the positions took
/// torch.unique of 10^6 small ints to 3x PyTorch's time.)
/// `lo` and `hi` are the least and greatest key.
fn sorted_positions(keys: &[u64], lo: u64, hi: u64) -> Vec<usize> {
    let bytes = (64 - (hi - lo).leading_zeros() as usize).div_ceil(8);
    if bytes > 4 {
        let mut pairs: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
        pairs.sort_unstable();
        return pairs.into_iter().map(|(_, p)| p).collect();
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    let mut next = vec![0usize; keys.len()];
    for byte in 0..bytes {
        let digit = |p: usize| ((keys[p] - lo) >> (8 * byte)) as usize & 255;
        let mut starts = [0usize; 257];
        for &p in &order {
            starts[digit(p) + 1] += 1;
        }
        for d in 0..256 {
            starts[d + 1] += starts[d];
        }
        for &p in &order {
            let d = digit(p);
            next[starts[d]] = p;
            starts[d] += 1;
        }
        std::mem::swap(&mut order, &mut next);
    }
    order
}

/// unique of integers whose range is no wider than their count (labels,
/// classes, token ids): a count per value of the range, with no sort.
fn unique_dense<T: Element>(
    flat: &[T],
    keys: &[u64],
    lo: u64,
    range: usize,
) -> (Vec<T>, Vec<i64>, Vec<i64>) {
    let mut per_key = vec![0i64; range];
    for &k in keys {
        per_key[(k - lo) as usize] += 1;
    }
    // Each present value's slot among the distinct values, in key order.
    let mut slot = vec![0i64; range];
    let (mut uniq, mut counts) = (Vec::new(), Vec::new());
    let mut rep = vec![T::default(); range];
    for (&x, &k) in flat.iter().zip(keys) {
        rep[(k - lo) as usize] = x;
    }
    for (r, &c) in per_key.iter().enumerate() {
        if c > 0 {
            slot[r] = uniq.len() as i64;
            uniq.push(rep[r]);
            counts.push(c);
        }
    }
    let inverse = keys.iter().map(|&k| slot[(k - lo) as usize]).collect();
    (uniq, inverse, counts)
}

fn unique_typed<T: Element>(v: &[T], l: &Layout) -> (Vec<T>, Vec<i64>, Vec<i64>) {
    let flat = gather(v, l);
    let keys: Vec<u64> = flat.iter().map(|&x| key(x)).collect();
    if keys.is_empty() {
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let (lo, hi) = (keys.iter()).fold((u64::MAX, 0), |(lo, hi), &k| (lo.min(k), hi.max(k)));
    if !T::DTYPE.is_float() && hi - lo < keys.len() as u64 {
        return unique_dense(&flat, &keys, lo, (hi - lo) as usize + 1);
    }
    let idx = sorted_positions(&keys, lo, hi);
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

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn narrow_keys_order_as_the_wide_ones() {
            let floats = [
                f32::NAN,
                f32::NEG_INFINITY,
                -3.5,
                -f32::MIN_POSITIVE / 4.0,
                -0.0,
                0.0,
                1e-45,
                2.0,
                f32::MAX,
                f32::INFINITY,
            ];
            for &a in &floats {
                for &b in &floats {
                    assert_eq!(key32(a).cmp(&key32(b)), key(a).cmp(&key(b)), "{a} vs {b}");
                }
            }
            let ints = [i32::MIN, -7, -1, 0, 1, 9, i32::MAX];
            for &a in &ints {
                for &b in &ints {
                    assert_eq!(key32(a).cmp(&key32(b)), key(a).cmp(&key(b)), "{a} vs {b}");
                }
            }
        }
    }
}
