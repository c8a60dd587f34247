//! Float sums in PyTorch's order, so that a float32 `sum`/`mean` rounds to the
//! bits PyTorch prints (`loss.item()` shows all of them).
//!
//! ATen sums floats in their own type with a "cascade": partial sums in four
//! levels, each level flushed into the next every 16 (or more) additions, so
//! only numbers of similar size meet. Which elements meet depends on how its
//! TensorIterator lays the loop out (dims sorted by stride, reduced dims first,
//! adjacent dims merged), on which of four 2-d kernels that layout picks, and,
//! above 32768 elements, on how the work is split between threads. All of it is
//! replayed here: `Plan` is the TensorIterator, `loop2d` the kernel choice, and
//! `sum` the serial or parallel walk. Lanes are AVX-512's (16 f32, 8 f64), the
//! vector width PyTorch's CPU kernels use on this hardware.

use crate::tensor::layout::{Dims, Layout, contiguous_strides};

/// ATen's `internal::GRAIN_SIZE`: below it a reduction runs on one thread.
const GRAIN: usize = 32768;

/// A float type summed in its own precision, with its vector width.
pub trait SumFloat: Copy + Send + Sync + std::ops::Add<Output = Self> + 'static {
    const ZERO: Self;
    /// Lanes in one 256-bit vector.
    const LANES: usize;
}

impl SumFloat for f32 {
    const ZERO: f32 = 0.0;
    const LANES: usize = 8;
}

impl SumFloat for f64 {
    const ZERO: f64 = 0.0;
    const LANES: usize = 4;
}

/// What the cascade adds up: a scalar, or a vector of lanes added lane-wise.
trait Acc: Copy {
    fn zero() -> Self;
    fn plus(self, o: Self) -> Self;
}

impl<T: SumFloat> Acc for T {
    #[inline(always)]
    fn zero() -> T {
        T::ZERO
    }
    #[inline(always)]
    fn plus(self, o: T) -> T {
        self + o
    }
}

/// One vector register: `N` lanes (N = T::LANES).
#[derive(Clone, Copy)]
struct Vector<T, const N: usize>([T; N]);

impl<T: SumFloat, const N: usize> Acc for Vector<T, N> {
    #[inline(always)]
    fn zero() -> Self {
        Vector([T::ZERO; N])
    }
    #[inline(always)]
    fn plus(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a = *a + b;
        }
        self
    }
}

/// `N` lanes from `v[at..at + N]`, without a bounds check (in the hot loops a
/// check per load cost more than the add it fed).
///
/// # Safety
/// `at + N <= v.len()`.
#[inline(always)]
unsafe fn load_unchecked<T: SumFloat, const N: usize>(v: &[T], at: usize) -> Vector<T, N> {
    debug_assert!(at + N <= v.len());
    // SAFETY: in bounds (the caller's promise); [T; N] is aligned as T is.
    Vector(unsafe { std::ptr::read(v.as_ptr().add(at).cast::<[T; N]>()) })
}

/// c10's `CeilLog2` (1 for 0, 1 and 2).
fn ceil_log2(x: usize) -> usize {
    if x <= 2 {
        1
    } else {
        (usize::BITS - (x - 1).leading_zeros()) as usize
    }
}

/// ATen's `multi_row_sum`: four columns summed down `size` rows at once, in
/// four levels; level j is flushed into j+1 every 2^(power·j) rows.
#[inline(always)]
fn multi_row_sum<A: Acc>(size: usize, at: impl Fn(usize, usize) -> A) -> [A; 4] {
    const LEVELS: usize = 4;
    let power = (ceil_log2(size) / LEVELS).max(4);
    let step = 1usize << power;
    let mask = step - 1;
    // Level 0 on its own, so that it stays in registers through the inner
    // loop (in one array with the levels above, indexed by a loop variable,
    // it lived on the stack: a load and a store per add).
    let mut low = [A::zero(); 4];
    let mut high = [[A::zero(); 4]; LEVELS - 1];
    let mut i = 0;
    while i + step <= size {
        for _ in 0..step {
            for (k, a) in low.iter_mut().enumerate() {
                *a = a.plus(at(i, k));
            }
            i += 1;
        }
        carry(&mut low, &mut high, i, power, mask);
    }
    for i in i..size {
        for (k, a) in low.iter_mut().enumerate() {
            *a = a.plus(at(i, k));
        }
    }
    // The levels above, bottom first. A level never flushed into is +0, and
    // x + 0 + 0 is x + 0 (which turns -0 into +0), so one add of zero stands
    // for all of them: short rows skip most of the adds.
    let touched = match i >> power {
        0 => 0,
        f if f < 1 << power => 1,
        f if f < 1 << (2 * power) => 2,
        _ => 3,
    };
    let mut out = low;
    for level in &high[..touched] {
        for k in 0..4 {
            out[k] = out[k].plus(level[k]);
        }
    }
    if touched < LEVELS - 1 {
        for o in out.iter_mut() {
            *o = o.plus(A::zero());
        }
    }
    out
}

/// multi_row_sum's flush after `i` rows: level 0 into level 1, and each
/// level whose count came round into the one above. Not inlined, so that the
/// levels live in memory: inlined, their twelve vectors held registers the
/// hot loop over level 0 needed.
#[inline(never)]
fn carry<A: Acc>(low: &mut [A; 4], high: &mut [[A; 4]; 3], i: usize, power: usize, mask: usize) {
    for (a, b) in high[0]
        .iter_mut()
        .zip(std::mem::replace(low, [A::zero(); 4]))
    {
        *a = a.plus(b);
    }
    for j in 2..=high.len() {
        if i & (mask << ((j - 1) * power)) != 0 {
            break;
        }
        let lower = std::mem::replace(&mut high[j - 2], [A::zero(); 4]);
        for (a, b) in high[j - 1].iter_mut().zip(lower) {
            *a = a.plus(b);
        }
    }
}

/// Rows of four below which `multi_row_sum` never flushes a level: its step
/// is at least 2^4.
const SHORT_QUADS: usize = 16;

/// ATen's `row_sum`: one row read as rows of four, the leftovers added to the
/// first column, then the four columns added together.
#[inline(always)]
fn row_sum<A: Acc>(size: usize, at: impl Fn(usize) -> A) -> A {
    if size / 4 < SHORT_QUADS {
        return short_row_sum(size, at);
    }
    long_row_sum(size, at)
}

/// `row_sum` of a row too short to flush a level (a 100-float row is twelve
/// vectors): the same adds, with four accumulators and no levels above them.
/// Through the general form, the unused levels' sixteen vectors took every
/// register, and `sum(1)` over short rows spilled on each add.
#[inline(always)]
fn short_row_sum<A: Acc>(size: usize, at: impl Fn(usize) -> A) -> A {
    let quads = size / 4;
    let mut p = [A::zero(); 4];
    for i in 0..quads {
        for (k, a) in p.iter_mut().enumerate() {
            *a = a.plus(at(i * 4 + k));
        }
    }
    // multi_row_sum's closing add of its (empty) levels: -0 becomes +0.
    for a in p.iter_mut() {
        *a = a.plus(A::zero());
    }
    for i in quads * 4..size {
        p[0] = p[0].plus(at(i));
    }
    p[0].plus(p[1]).plus(p[2]).plus(p[3])
}

#[inline(always)]
fn long_row_sum<A: Acc>(size: usize, at: impl Fn(usize) -> A) -> A {
    let quads = size / 4;
    let mut p = multi_row_sum(quads, |i, k| at(i * 4 + k));
    for i in quads * 4..size {
        p[0] = p[0].plus(at(i));
    }
    p[0].plus(p[1]).plus(p[2]).plus(p[3])
}

/// Where the output goes: `+=` into a buffer (ATen's `CastStoreAccumulate`).
struct Out<T>(*mut T, usize);

// SAFETY: tasks given one `Out` write disjoint indices (each output element is
// reduced by exactly one task), and the buffer outlives them.
unsafe impl<T> Sync for Out<T> {}

impl<T: SumFloat> Out<T> {
    #[inline(always)]
    fn add(&self, i: usize, x: T) {
        assert!(i < self.1);
        // SAFETY: in bounds (checked), and no other task writes index i.
        unsafe { *self.0.add(i) = *self.0.add(i) + x }
    }
}

/// One call of cascade_sum's 2-d loop: dim 0 and dim 1 of the iteration, with
/// the input and output strides of each (in elements).
struct Loop2d {
    inp: usize,
    out: usize,
    in_s: [usize; 2],
    out_s: [usize; 2],
    size: [usize; 2],
}

fn loop2d<T: SumFloat, const N: usize>(v: &[T], o: &Out<T>, l: Loop2d) {
    match N {
        8 => loop2d_8(v, o, l),
        _ => loop2d_4(v, o, l),
    }
}

// Compiled for AVX2 and AVX-512 too (simd.rs): the sums only add, in the
// order written, so every version rounds alike, and the wider registers hold
// the cascade's levels that SSE2 spilled to the stack (sum(1) ran 2.7x
// behind PyTorch).
crate::multiversion! {
    fn loop2d_8<T: SumFloat>(v: &[T], o: &Out<T>, l: Loop2d) {
        loop2d_any::<T, 8>(v, o, l)
    }
}

crate::multiversion! {
    fn loop2d_4<T: SumFloat>(v: &[T], o: &Out<T>, l: Loop2d) {
        loop2d_any::<T, 4>(v, o, l)
    }
}

#[inline(always)]
fn loop2d_any<T: SumFloat, const N: usize>(v: &[T], o: &Out<T>, mut l: Loop2d) {
    if l.out_s[0] != 0 && l.out_s[1] == 0 {
        l.in_s.swap(0, 1);
        l.out_s.swap(0, 1);
        l.size.swap(0, 1);
    }
    let [s0, s1] = l.size;
    if l.out_s[0] != 0 && l.out_s[1] != 0 {
        // Nothing reduced here: each output takes its one element.
        for j in 0..s1 {
            for i in 0..s0 {
                let x = v[l.inp + i * l.in_s[0] + j * l.in_s[1]];
                o.add(l.out + i * l.out_s[0] + j * l.out_s[1], x);
            }
        }
        return;
    }
    let store = |j: usize, x: T| o.add(l.out + j * l.out_s[1], x);
    if l.in_s[0] == 1 && s0 >= N {
        inner_vectorized::<T, N>(v, &l, store);
    } else if l.in_s[1] == 1 && s1 >= N {
        outer_vectorized::<T, N>(v, &l, store);
    } else if l.in_s[0] < l.in_s[1] {
        for j in 0..s1 {
            let row = l.inp + j * l.in_s[1];
            store(j, row_sum(s0, |i| v[row + i * l.in_s[0]]));
        }
    } else {
        outer_scalar(v, &l, store);
    }
}

/// ATen's `vectorized_inner_sum`: each row summed as vectors, its tail as
/// scalars, then the lanes added to the tail's sum one by one.
#[inline(always)]
fn inner_vectorized<T: SumFloat, const N: usize>(v: &[T], l: &Loop2d, store: impl Fn(usize, T)) {
    let [s0, s1] = l.size;
    let vectors = s0 / N;
    for j in 0..s1 {
        let row = l.inp + j * l.in_s[1];
        let r = &v[row..row + vectors * N];
        // SAFETY: row_sum reads only indices below the size it is given.
        let lanes = row_sum(vectors, |i| unsafe { load_unchecked::<T, N>(r, i * N) });
        let mut total = T::ZERO;
        for k in vectors * N..s0 {
            total = total + v[row + k];
        }
        for x in lanes.0 {
            total = total + x;
        }
        store(j, total);
    }
}

/// ATen's `vectorized_outer_sum`: columns side by side in memory, summed down
/// the rows 4 vectors at a time, then one vector, then one column at a time.
#[inline(always)]
fn outer_vectorized<T: SumFloat, const N: usize>(v: &[T], l: &Loop2d, store: impl Fn(usize, T)) {
    let [s0, s1] = l.size;
    let step = l.in_s[0];
    // The blocks of 4 vectors: every column summed down the rows in
    // multi_row_sum's order, a strip of columns at a time.
    let full = s1 / (4 * N) * (4 * N);
    let mut j = 0;
    while j < full {
        let width = STRIP.min(full - j);
        let sums = strip_sum(v, l.inp + j, step, s0, width);
        for (k, &x) in sums.iter().enumerate() {
            store(j + k, x);
        }
        j += width;
    }
    while j + N <= s1 {
        let base = l.inp + j;
        let end = if s0 == 0 {
            base
        } else {
            base + (s0 - 1) * step + N
        };
        let col = &v[base..end];
        // SAFETY: row_sum reads only rows below s0, which `col` holds.
        let s = row_sum(s0, |i| unsafe { load_unchecked::<T, N>(col, i * step) });
        for (lane, &x) in s.0.iter().enumerate() {
            store(j + lane, x);
        }
        j += N;
    }
    for j in j..s1 {
        let base = l.inp + j;
        store(j, row_sum(s0, |i| v[base + i * step]));
    }
}

/// Columns per `strip_sum` call: a 4 KiB row of float32 (each page of the
/// input is then walked once), 16 KiB of accumulators in all, in L1.
const STRIP: usize = 1024;

/// `width` columns side by side (column c at `base + c`, rows `step` apart),
/// each summed down its `size` rows in exactly multi_row_sum's order, level
/// by level; as plain loops over the strip, which the compiler vectorises.
fn strip_sum<T: SumFloat>(v: &[T], base: usize, step: usize, size: usize, width: usize) -> Vec<T> {
    const LEVELS: usize = 4;
    let power = (ceil_log2(size) / LEVELS).max(4);
    let block = 1usize << power;
    let mask = block - 1;
    let mut acc = vec![vec![T::ZERO; width]; LEVELS];
    let row = |i: usize| &v[base + i * step..][..width];
    let mut i = 0;
    while i + block <= size {
        // A block is a multiple of 16 rows: four at a time, each column's
        // additions still one after another in row order.
        for _ in 0..block / 4 {
            add_rows(&mut acc[0], &[row(i), row(i + 1), row(i + 2), row(i + 3)]);
            i += 4;
        }
        for j in 1..LEVELS {
            let (lower, upper) = acc.split_at_mut(j);
            for (a, b) in upper[0].iter_mut().zip(lower[j - 1].iter_mut()) {
                *a = *a + *b;
                *b = T::ZERO;
            }
            if i & (mask << (j * power)) != 0 {
                break;
            }
        }
    }
    for i in i..size {
        add_rows(&mut acc[0], &[row(i)]);
    }
    let (first, rest) = acc.split_at_mut(1);
    for level in rest.iter() {
        for (a, &b) in first[0].iter_mut().zip(level) {
            *a = *a + b;
        }
    }
    acc.swap_remove(0)
}

crate::multiversion! {
    /// `acc[c] += rows[0][c]; acc[c] += rows[1][c]; ...` for every column,
    /// compiled for AVX2 and AVX-512 too (eight or sixteen columns per
    /// instruction; the additions per column are the same).
    fn add_rows<T: SumFloat>(acc: &mut [T], rows: &[&[T]]) {
        let n = acc.len();
        match rows {
            [a, b, c, d] => {
                let (a, b, c, d) = (&a[..n], &b[..n], &c[..n], &d[..n]);
                for k in 0..n {
                    acc[k] = acc[k] + a[k] + b[k] + c[k] + d[k];
                }
            }
            _ => {
                for r in rows {
                    for (x, &y) in acc.iter_mut().zip(&r[..n]) {
                        *x = *x + y;
                    }
                }
            }
        }
    }
}

/// ATen's `scalar_outer_sum`: four columns at a time, then one at a time.
#[inline(always)]
fn outer_scalar<T: SumFloat>(v: &[T], l: &Loop2d, store: impl Fn(usize, T)) {
    let [s0, s1] = l.size;
    let [a, b] = l.in_s;
    let mut j = 0;
    while j + 3 < s1 {
        let base = l.inp + j * b;
        let sums = multi_row_sum(s0, |i, k| v[base + i * a + k * b]);
        for (k, &x) in sums.iter().enumerate() {
            store(j + k, x);
        }
        j += 4;
    }
    for j in j..s1 {
        let base = l.inp + j * b;
        store(j, row_sum(s0, |i| v[base + i * a]));
    }
}

/// TensorIterator's layout of a reduction: dims ordered fastest first (reduced
/// dims before kept ones, then by stride), adjacent dims merged where memory
/// allows. Strides in elements; the output's are 0 on reduced dims.
#[derive(Clone, Debug, PartialEq)]
struct Plan {
    shape: Dims,
    inp: Dims,
    out: Dims,
    in_base: usize,
    out_base: usize,
}

impl Plan {
    fn new(l: &Layout, dims: &[usize]) -> Plan {
        Plan::whole_run(l, dims).unwrap_or_else(|| Plan::ordered(l, dims))
    }

    /// A gap-free tensor of more than one element reduced whole (`x.sum()`):
    /// one run, which is what ordering and coalescing its dims come to.
    fn whole_run(l: &Layout, dims: &[usize]) -> Option<Plan> {
        let all = (0..l.ndim()).all(|d| dims.contains(&d));
        (all && l.numel() > 1 && l.is_contiguous()).then(|| Plan {
            shape: smallvec::smallvec![l.numel()],
            inp: smallvec::smallvec![1],
            out: smallvec::smallvec![0],
            in_base: l.offset,
            out_base: 0,
        })
    }

    fn ordered(l: &Layout, dims: &[usize]) -> Plan {
        let nd = l.ndim();
        let kept: Dims = (0..nd).filter(|d| !dims.contains(d)).collect();
        let kept_shape: Dims = kept.iter().map(|&d| l.shape[d]).collect();
        let kept_strides = contiguous_strides(&kept_shape);
        let mut out: Dims = smallvec::smallvec![0; nd];
        for (k, &d) in kept.iter().enumerate() {
            out[d] = kept_strides[k];
        }
        let mut perm: Dims = (0..nd).rev().collect();
        // TensorIterator's insertion sort with its three-way comparison.
        for i in 1..nd {
            let mut d1 = i;
            for d0 in (0..i).rev() {
                match should_swap(l, &out, perm[d0], perm[d1]) {
                    1 => {
                        perm.swap(d0, d1);
                        d1 = d0;
                    }
                    -1 => break,
                    _ => {}
                }
            }
        }
        let pick = |s: &[usize]| perm.iter().map(|&d| s[d]).collect::<Dims>();
        let mut plan = Plan {
            shape: pick(&l.shape),
            inp: pick(&l.strides),
            out: pick(&out),
            in_base: l.offset,
            out_base: 0,
        };
        plan.coalesce();
        plan
    }

    /// TensorIterator's `coalesce_dimensions`.
    fn coalesce(&mut self) {
        if self.shape.len() <= 1 {
            return;
        }
        let mut prev = 0;
        for d in 1..self.shape.len() {
            let (a, b) = (self.shape[prev], self.shape[d]);
            let joins = |s: &[usize]| a * s[prev] == s[d];
            if a == 1 || b == 1 || (joins(&self.inp) && joins(&self.out)) {
                if a == 1 {
                    self.inp[prev] = self.inp[d];
                    self.out[prev] = self.out[d];
                }
                self.shape[prev] *= b;
            } else {
                prev += 1;
                if prev != d {
                    self.inp[prev] = self.inp[d];
                    self.out[prev] = self.out[d];
                    self.shape[prev] = self.shape[d];
                }
            }
        }
        self.shape.truncate(prev + 1);
        self.inp.truncate(prev + 1);
        self.out.truncate(prev + 1);
    }

    fn numel(&self) -> usize {
        self.shape.iter().product()
    }

    /// `serial_for_each` over the flat range `[begin, end)`: 2-d slices of the
    /// iteration, each handed to the kernel.
    fn walk<T: SumFloat, const N: usize>(&self, v: &[T], o: &Out<T>, begin: usize, end: usize) {
        if begin >= end {
            return;
        }
        let s2 = |s: &[usize], k: usize| s.get(k).copied().unwrap_or(0);
        let strides = |k| [s2(&self.inp, k), s2(&self.out, k)];
        if self.shape.len() <= 1 {
            let [i0, o0] = strides(0);
            let l = Loop2d {
                inp: self.in_base + begin * i0,
                out: self.out_base + begin * o0,
                in_s: [i0, 0],
                out_s: [o0, 0],
                size: [end - begin, 1],
            };
            return loop2d::<T, N>(v, o, l);
        }
        let mut values = unravel(&self.shape, begin);
        let mut offset = begin;
        while offset < end {
            let step0 = (self.shape[0] - values[0]).min(end - offset);
            let step1 = if values[0] == 0 {
                (self.shape[1] - values[1]).min((end - offset) / self.shape[0])
            } else {
                1
            };
            let at = |s: &[usize], base: usize| {
                base + values.iter().zip(s).map(|(&i, &st)| i * st).sum::<usize>()
            };
            let l = Loop2d {
                inp: at(&self.inp, self.in_base),
                out: at(&self.out, self.out_base),
                in_s: [self.inp[0], self.inp[1]],
                out_s: [self.out[0], self.out[1]],
                size: [step0, step1],
            };
            loop2d::<T, N>(v, o, l);
            offset += step0 * step1;
            increment(&self.shape, &mut values, step0, step1);
        }
    }
}

/// TensorIterator's `reorder_dimensions` comparison: 1 to swap, -1 to keep.
fn should_swap(l: &Layout, out: &[usize], d0: usize, d1: usize) -> i32 {
    // The output first: reduced dims (stride 0) go to the front.
    let (o0, o1) = (out[d0], out[d1]);
    if (o0 == 0) != (o1 == 0) {
        return if o1 == 0 { 1 } else { -1 };
    }
    for s in [out, &l.strides[..]] {
        let (a, b) = (s[d0], s[d1]);
        if a == 0 || b == 0 {
            continue;
        }
        if a != b {
            return if a < b { -1 } else { 1 };
        }
        if l.shape[d0] > l.shape[d1] {
            return 1;
        }
    }
    0
}

fn unravel(shape: &[usize], mut flat: usize) -> Vec<usize> {
    shape
        .iter()
        .map(|&n| {
            let i = flat % n;
            flat /= n;
            i
        })
        .collect()
}

/// `DimCounter::increment`.
fn increment(shape: &[usize], values: &mut [usize], step0: usize, step1: usize) {
    let (mut i, mut overflow) = if step1 != 1 { (1, step1) } else { (0, step0) };
    while i < shape.len() && overflow > 0 {
        let value = values[i] + overflow;
        if value >= shape[i] {
            overflow = 1;
            values[i] = value - shape[i];
        } else {
            overflow = 0;
            values[i] = value;
        }
        i += 1;
    }
}

/// ATen's `parallel_for` split: how many threads run and how much each takes.
fn chunks(n: usize, grain: usize, threads: usize) -> (usize, usize) {
    let used = threads.min(n.div_ceil(grain.max(1))).max(1);
    (used, n.div_ceil(used))
}

/// The sum of the `dims` of `l` over `v`, one value per kept element in
/// row-major order, as PyTorch's CPU `sum` computes it.
pub fn sum<T: SumFloat>(v: &[T], l: &Layout, dims: &[usize]) -> Vec<T> {
    match T::LANES {
        8 => sum_with::<T, 8>(v, l, dims),
        _ => sum_with::<T, 4>(v, l, dims),
    }
}

fn sum_with<T: SumFloat, const N: usize>(v: &[T], l: &Layout, dims: &[usize]) -> Vec<T> {
    let outputs: usize = (0..l.ndim())
        .filter(|d| !dims.contains(d))
        .map(|d| l.shape[d])
        .product();
    let mut out = vec![T::ZERO; outputs];
    let plan = Plan::new(l, dims);
    let numel = plan.numel();
    if numel == 0 {
        return out;
    }
    let threads = crate::threads::count();
    if numel < GRAIN || threads == 1 {
        let o = Out(out.as_mut_ptr(), out.len());
        plan.walk::<T, N>(v, &o, 0, numel);
    } else if outputs == 1 {
        out[0] = two_pass::<T, N>(v, &plan, threads);
    } else {
        split_dim::<T, N>(v, &plan, threads, &mut out);
    }
    out
}

/// One output: each thread sums its share of the flat range into its own slot,
/// then the slots are summed as one more reduction.
fn two_pass<T: SumFloat, const N: usize>(v: &[T], plan: &Plan, threads: usize) -> T {
    let numel = plan.numel();
    let (used, chunk) = chunks(numel, GRAIN, threads);
    let mut slots = vec![T::ZERO; threads];
    let each_slot = crate::threads::ChunksMut::new(&mut slots[..used], 1);
    crate::threads::zip(each_slot, |t, slot| {
        let o = Out(slot.as_mut_ptr(), 1);
        let mut p = plan.clone();
        p.out = smallvec::smallvec![0; p.out.len()];
        p.walk::<T, N>(v, &o, t * chunk, numel.min((t + 1) * chunk));
    });
    let mut total = T::ZERO;
    let o = Out(&mut total as *mut T, 1);
    let l = Loop2d {
        inp: 0,
        out: 0,
        in_s: [1, 0],
        out_s: [0, 0],
        size: [threads, 1],
    };
    loop2d::<T, N>(&slots, &o, l);
    total
}

/// Many outputs: one kept dim is cut between the threads (columns rounded to
/// 128 bytes where they sit side by side), each piece walked on its own.
fn split_dim<T: SumFloat, const N: usize>(v: &[T], plan: &Plan, threads: usize, out: &mut [T]) {
    let reduced = |d: usize| plan.out[d] == 0;
    let nd = plan.shape.len();
    let mut dim = nd - 1;
    let mut best = dim;
    loop {
        if reduced(dim) {
            dim = best;
            break;
        }
        if plan.shape[dim] >= threads {
            break;
        }
        if plan.shape[dim] > plan.shape[best] {
            best = dim;
        }
        if dim == 0 {
            dim = best;
            break;
        }
        dim -= 1;
    }
    let cols = plan.shape[dim];
    let (used, chunk) = chunks(cols, 1, threads);
    let per_line = 128 / std::mem::size_of::<T>();
    let round = plan.inp[dim] == 1;
    let o = Out(out.as_mut_ptr(), out.len());
    crate::threads::each(used, |t| {
        let (mut begin, mut end) = (t * chunk, cols.min((t + 1) * chunk));
        if begin >= end {
            return;
        }
        if round {
            begin -= begin % per_line;
            if end != cols {
                end -= end % per_line;
            }
        }
        if begin == end {
            return;
        }
        let mut p = plan.clone();
        p.shape[dim] = end - begin;
        p.in_base += begin * plan.inp[dim];
        p.out_base += begin * plan.out[dim];
        p.walk::<T, N>(v, &o, 0, p.numel());
    });
}

/// `ReduceOp::SumInOrder`: each group's elements (row-major over `dims`) added
/// one at a time into level 0 of eight; after element b, level j moves up
/// into j+1 while b's bits under level j+1 are zero (so the first element goes
/// straight to the top), as ATen's nll_loss does; the levels are then added
/// from zero, bottom first.
pub fn sum_in_order<T: SumFloat>(v: &[T], l: &Layout, dims: &[usize]) -> Vec<T> {
    const LEVELS: usize = 8;
    let kept: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
    let pick = |ds: &[usize], base: usize| Layout {
        shape: ds.iter().map(|&d| l.shape[d]).collect(),
        strides: ds.iter().map(|&d| l.strides[d]).collect(),
        offset: base,
    };
    let group = pick(dims, 0);
    let size = group.numel();
    let power = (ceil_log2(size) / LEVELS).max(4);
    let mask = (1usize << power) - 1;
    let offsets = |g: &Layout| -> Vec<usize> {
        let mut out = Vec::with_capacity(g.numel());
        super::strided::runs(g, 0, g.numel(), &mut |off, stride, count| {
            out.extend((0..count).map(|k| off + k * stride));
        });
        out
    };
    let inner = offsets(&group);
    offsets(&pick(&kept, l.offset))
        .into_iter()
        .map(|start| {
            let mut acc = [T::ZERO; LEVELS];
            for (b, &o) in inner.iter().enumerate() {
                acc[0] = acc[0] + v[start + o];
                for j in 0..LEVELS - 1 {
                    if b & (mask << (j * power)) != 0 {
                        break;
                    }
                    acc[j + 1] = acc[j + 1] + acc[j];
                    acc[j] = T::ZERO;
                }
            }
            acc.iter().fold(T::ZERO, |a, &x| a + x)
        })
        .collect()
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn short_rows_add_as_the_general_row_sum() {
            // Values of many sizes and both zeros, so that any other order or a
            // missing +0 shows in the bits.
            let v: Vec<f32> = (0..600)
                .map(|i| match i % 7 {
                    0 => -0.0,
                    1 => 1e8,
                    _ => (i as f32 * 0.731).sin() * 10f32.powi(i % 5),
                })
                .collect();
            for size in 0..4 * SHORT_QUADS {
                for start in [0, 1, 5] {
                    let at = |i: usize| v[start + i];
                    assert_eq!(
                        short_row_sum(size, at).to_bits(),
                        long_row_sum(size, at).to_bits(),
                        "size {size}"
                    );
                    let lanes =
                        |i: usize| Vector::<f32, 8>(std::array::from_fn(|k| v[start + 8 * i + k]));
                    let (a, b) = (short_row_sum(size, lanes).0, long_row_sum(size, lanes).0);
                    assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "size {size}");
                }
            }
            assert_eq!(short_row_sum(1, |_| -0.0f32).to_bits(), 0.0f32.to_bits());
        }

        fn a_whole_run_is_the_ordered_plan_of_a_gap_free_tensor() {
            let layouts = [
                Layout::contiguous(&[7]),
                Layout::contiguous(&[3, 5]),
                Layout::contiguous(&[2, 1, 4]),
                Layout::contiguous(&[1, 6]),
                Layout {
                    shape: smallvec::smallvec![4, 1],
                    strides: smallvec::smallvec![1, 9],
                    offset: 3,
                },
            ];
            for l in &layouts {
                let all: Vec<usize> = (0..l.ndim()).collect();
                assert_eq!(Plan::whole_run(l, &all), Some(Plan::ordered(l, &all)));
            }
            let some = Layout::contiguous(&[3, 5]);
            assert_eq!(Plan::whole_run(&some, &[1]), None);
            assert_eq!(Plan::whole_run(&Layout::contiguous(&[1]), &[0]), None);
        }
    }
}
