//! Element-wise drivers: each walks its operands' layouts a block at a time and
//! hands contiguous blocks to the op's kernel (kernels.rs). A broadcast scalar
//! operand is filled into one block once and reused.

use super::elem::{BLOCK, CpuStorage, Element};
use super::kernels::{BinaryKernels, PredicateKernels, UnaryKernels};
use super::rows::Rows;
use super::scratch::{Out, filled_vec, scratch, splat};
use super::strided::{block, fill_blocks, is_scalar};
use crate::error::{Result, value_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::TernaryOp;
use crate::with_storage;

/// A kernel over one block of one operand.
type MapBlock<'a, T, U> = dyn Fn(&[T], &mut [Out<U>]) + Sync + 'a;

/// `block(x, out)` over consecutive blocks of one operand: its own slice where
/// it is gap-free, else rows or copied blocks.
fn mapwise<T: Element, U: Send>(src: &[T], l: &Layout, block: &MapBlock<'_, T, U>) -> Vec<U> {
    if let Some(x) = flat_block(src, l) {
        return filled_vec(x.len(), |out| block(x, out));
    }
    if let Some(rows) = Rows::plan([l]) {
        return rows.fill(&|[at], col, dst| {
            let mut buf = scratch();
            block(rows.operand(0, src, at, col, &mut buf[..dst.len()]), dst);
        });
    }
    fill_blocks(l.numel(), &|start, dst| {
        let mut buf = scratch();
        let s = super::strided::block(src, l, start, &mut buf[..dst.len()]);
        block(s, dst);
    })
}

pub fn unary(s: &CpuStorage, l: &Layout, k: &UnaryKernels) -> CpuStorage {
    with_storage!(s, v => Element::wrap(mapwise(v, l, &|x, d| Element::unary_block(x, d, k))))
}

pub fn predicate(s: &CpuStorage, l: &Layout, k: &PredicateKernels) -> CpuStorage {
    with_storage!(s, v => CpuStorage::Bool(mapwise(v, l, &|x, d| Element::predicate_block(x, d, k))))
}

/// A block of one operand: its own slice or scratch, or the pre-filled scalar block.
pub(super) fn operand<'a, T: Copy>(
    src: &'a [T],
    l: &Layout,
    scalar: Option<&'a [T]>,
    start: usize,
    buf: &'a mut [Out<T>],
) -> &'a [T] {
    match scalar {
        Some(s) => &s[..buf.len()],
        None => block(src, l, start, buf),
    }
}

pub(super) fn filled<T: Copy + Default>(src: &[T], l: &Layout) -> Option<Vec<T>> {
    let n = l.numel();
    (is_scalar(l) && n > 0).then(|| vec![src[l.offset]; BLOCK.min(n)])
}

/// A gap-free operand of at most one block, as its own slice: a small op's
/// operands skip the walk (the planning was most of the op's time).
pub(super) fn flat_block<'a, T>(src: &'a [T], l: &Layout) -> Option<&'a [T]> {
    let n = l.numel();
    (n > 0 && n <= BLOCK && l.is_contiguous()).then(|| &src[l.offset..l.offset + n])
}

/// A kernel over one block of each operand.
type PairBlock<'a, T, U> = dyn Fn(&[T], &[T], &mut [Out<U>]) + Sync + 'a;

/// `block(a, b, out)` over consecutive blocks of the two operands (each its own
/// slice, a copied block, or the pre-filled scalar block).
fn pairwise<T: Element, U: Send>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    block: &PairBlock<'_, T, U>,
) -> Vec<U> {
    if la.shape == lb.shape {
        // Small operands skip the walk; so does a number broadcast against
        // one (`x * 2.0`).
        match (flat_block(a, la), flat_block(b, lb)) {
            (Some(x), Some(y)) => return filled_vec(x.len(), |out| block(x, y, out)),
            (Some(x), None) if is_scalar(lb) => return by_number(x, b[lb.offset], false, block),
            (None, Some(y)) if is_scalar(la) => return by_number(y, a[la.offset], true, block),
            _ => {}
        }
    }
    if let Some(rows) = Rows::plan([la, lb]) {
        return rows.fill(&|[i, j], col, dst| {
            let (mut ba, mut bb) = (scratch(), scratch());
            let n = dst.len();
            let x = rows.operand(0, a, i, col, &mut ba[..n]);
            let y = rows.operand(1, b, j, col, &mut bb[..n]);
            block(x, y, dst);
        });
    }
    // A transposed operand is copied in tiles first: read block by block in
    // the result's order, every element would be a cache and TLB miss.
    let ta = super::strided::transposed(la).map(|_| super::strided::gather(a, la));
    let tb = super::strided::transposed(lb).map(|_| super::strided::gather(b, lb));
    let flat_a = ta.as_ref().map(|_| Layout::contiguous(&la.shape));
    let flat_b = tb.as_ref().map(|_| Layout::contiguous(&lb.shape));
    let (a, la) = (ta.as_deref().unwrap_or(a), flat_a.as_ref().unwrap_or(la));
    let (b, lb) = (tb.as_deref().unwrap_or(b), flat_b.as_ref().unwrap_or(lb));
    let (fa, fb) = (filled(a, la), filled(b, lb));
    fill_blocks(la.numel(), &|start, dst| {
        let (mut ba, mut bb) = (scratch(), scratch());
        let n = dst.len();
        let x = operand(a, la, fa.as_deref(), start, &mut ba[..n]);
        let y = operand(b, lb, fb.as_deref(), start, &mut bb[..n]);
        block(x, y, dst);
    })
}

/// `block(x, c)` (`block(c, x)` when `first`) for one block `x` and a number
/// `c`, filled into a block of its own. Apart from `pairwise`, whose every
/// call would otherwise reserve the block's stack.
#[inline(never)]
fn by_number<T: Element, U: Send>(
    x: &[T],
    c: T,
    first: bool,
    block: &PairBlock<'_, T, U>,
) -> Vec<U> {
    let mut buf = scratch();
    let c = splat(c, &mut buf[..x.len()]);
    let (x, y) = if first { (c, x) } else { (x, c) };
    filled_vec(x.len(), |out| block(x, y, out))
}

/// Does any element `l` describes equal zero? (Integer division guards.)
fn any_zero<T: Element>(v: &[T], l: &Layout) -> bool {
    // A broadcast dim repeats the same elements: each is read once (`iv // 7`
    // read its one divisor a million times, serially, before the division).
    let mut l = l.clone();
    for (n, &s) in l.shape.iter_mut().zip(&l.strides) {
        if s == 0 {
            *n = (*n).min(1);
        }
    }
    let mut zero = false;
    super::strided::runs(&l, 0, l.numel(), &mut |off, stride, count| {
        if !zero {
            zero = (0..count).any(|k| v[off + k * stride].to_i64() == 0);
        }
    });
    zero
}

/// What PyTorch refuses in integer arithmetic: division by zero. (Negative
/// Python-number exponents are refused by the tensor layer, which knows them.)
pub fn check_integer_op(
    op: crate::tensor::op::BinaryOp,
    a: &CpuStorage,
    b: &CpuStorage,
    lb: &Layout,
) -> Result<()> {
    use crate::tensor::op::BinaryOp::*;
    if a.dtype().is_float() {
        return Ok(());
    }
    match op {
        Div | FloorDiv | Rem | Fmod if with_storage!(b, v => any_zero(v, lb)) => Err(value_err(
            "integer division by zero",
        )
        .hint("integer tensors have no inf or nan; convert to float first (e.g. a.float() / b) to get inf")),
        _ => Ok(()),
    }
}

pub fn binary(
    a: &CpuStorage,
    la: &Layout,
    b: &CpuStorage,
    lb: &Layout,
    compare: bool,
    k: &BinaryKernels,
) -> CpuStorage {
    with_storage!(a, x => {
        // Unreachable: the tensor layer casts both operands to one dtype.
        let y = Element::slice(b).expect("binary operands share a dtype");
        if compare {
            CpuStorage::Bool(pairwise(x, la, y, lb, &|x, y, d| Element::compare_block(x, y, d, k)))
        } else {
            Element::wrap(pairwise(x, la, y, lb, &|x, y, d| Element::binary_block(x, y, d, k)))
        }
    })
}

/// A kernel over one block of each of three operands.
type TripleBlock<'a, A, B, C, U> = dyn Fn(&[A], &[B], &[C], &mut [Out<U>]) + Sync + 'a;

/// `block(a, b, c, out)` over consecutive blocks of three operands of one
/// shape: a row walk where it applies, else blocks (a broadcast scalar
/// operand filled into one block once).
#[allow(clippy::too_many_arguments)]
fn triplewise<A, B, C, U>(
    a: &[A],
    la: &Layout,
    b: &[B],
    lb: &Layout,
    c: &[C],
    lc: &Layout,
    block: &TripleBlock<'_, A, B, C, U>,
) -> Vec<U>
where
    A: Copy + Default + Sync,
    B: Copy + Default + Sync,
    C: Copy + Default + Sync,
    U: Send,
{
    if la.shape == lb.shape
        && la.shape == lc.shape
        && let (Some(x), Some(y), Some(z)) =
            (flat_block(a, la), flat_block(b, lb), flat_block(c, lc))
    {
        return filled_vec(x.len(), |out| block(x, y, z, out));
    }
    if let Some(rows) = Rows::plan([la, lb, lc]) {
        return rows.fill(&|[i, j, k], col, dst| {
            let n = dst.len();
            let (mut b0, mut b1, mut b2) = (scratch(), scratch(), scratch());
            let x = rows.operand(0, a, i, col, &mut b0[..n]);
            let y = rows.operand(1, b, j, col, &mut b1[..n]);
            let z = rows.operand(2, c, k, col, &mut b2[..n]);
            block(x, y, z, dst);
        });
    }
    let (fa, fb, fc) = (filled(a, la), filled(b, lb), filled(c, lc));
    fill_blocks(la.numel(), &|start, dst| {
        let n = dst.len();
        let (mut b0, mut b1, mut b2) = (scratch(), scratch(), scratch());
        let x = operand(a, la, fa.as_deref(), start, &mut b0[..n]);
        let y = operand(b, lb, fb.as_deref(), start, &mut b1[..n]);
        let z = operand(c, lc, fc.as_deref(), start, &mut b2[..n]);
        block(x, y, z, dst);
    })
}

/// `cond ? a : b`, element by element.
fn select_block<T: Copy>(c: &[bool], x: &[T], y: &[T], dst: &mut [Out<T>]) {
    for i in 0..dst.len() {
        // An index, not a branch: conditions like relu's mask are random.
        dst[i].write([y[i], x[i]][c[i] as usize]);
    }
}

crate::multiversion! {
    /// Compiled with FMA, which PyTorch's lerp and add with alpha use (and
    /// their bits need).
    pub(super) fn float_ternary_block<T: Element>(op: TernaryOp, p: &[T], q: &[T], r: &[T], dst: &mut [Out<T>]) {
        let wide = matches!(T::DTYPE, crate::tensor::DType::F64);
        let n = dst.len();
        let (p, q, r) = (&p[..n], &q[..n], &r[..n]);
        macro_rules! each {
            ($t:ty, $f:ident) => {
                for i in 0..n {
                    let v = $f(p[i].to_f64() as $t, q[i].to_f64() as $t, r[i].to_f64() as $t);
                    dst[i].write(T::from_f64(v as f64));
                }
            };
        }
        match (wide, op) {
            (true, TernaryOp::Lerp) => each!(f64, lerp_f64),
            (false, TernaryOp::Lerp) => each!(f32, lerp_f32),
            (true, TernaryOp::AddScaled) => each!(f64, add_scaled_f64),
            (false, TernaryOp::AddScaled) => each!(f32, add_scaled_f32),
            (true, _) => each!(f64, clamp_f64),
            (false, _) => each!(f32, clamp_f32),
        }
    }
}

crate::multiversion! {
    /// clamp to two numbers, neither NaN (clamp(min=0), hardtanh): `x` through
    /// ATen's `min(hi, max(lo, x))` in x86's order, which passes a NaN `x` on
    /// and keeps -0 against a +0 bound: two instructions a vector, where the
    /// bounds as operands took three loads and NaN tests of each.
    pub(super) fn clamp_numbers_block<T: Element>(p: &[T], lo: f64, hi: f64, dst: &mut [Out<T>]) {
        let n = dst.len();
        let p = &p[..n];
        macro_rules! each {
            ($t:ty) => {{
                let (lo, hi) = (lo as $t, hi as $t);
                for i in 0..n {
                    let x = p[i].to_f64() as $t;
                    let y = if lo > x { lo } else { x };
                    let y = if hi < y { hi } else { y };
                    dst[i].write(T::from_f64(y as f64));
                }
            }};
        }
        if matches!(T::DTYPE, crate::tensor::DType::F64) {
            each!(f64)
        } else {
            each!(f32)
        }
    }
}

crate::multiversion! {
    /// nan_to_num: NaN, +inf and -inf become `with`'s three numbers (already
    /// in the dtype), the rest stays; ATen's order of tests, as selects.
    fn nan_to_num_block<T: Element>(p: &[T], with: [f64; 3], dst: &mut [Out<T>]) {
        let n = dst.len();
        let p = &p[..n];
        macro_rules! each {
            ($t:ty) => {{
                let [nan, pos, neg] = with.map(|v| v as $t);
                for i in 0..n {
                    let x = p[i].to_f64() as $t;
                    let y = if x == <$t>::INFINITY { pos } else { x };
                    let y = if x == <$t>::NEG_INFINITY { neg } else { y };
                    let y = if x.is_nan() { nan } else { y };
                    dst[i].write(T::from_f64(y as f64));
                }
            }};
        }
        if matches!(T::DTYPE, DType::F64) {
            each!(f64)
        } else {
            each!(f32)
        }
    }
}

/// nan_to_num of a float tensor in one pass: NaN, +inf and -inf replaced by
/// `with` (rounded to the dtype first, as ATen casts its scalars).
pub fn nan_to_num(s: &CpuStorage, l: &Layout, with: [f64; 3]) -> Result<CpuStorage> {
    if !s.dtype().is_float() {
        return Err(value_err("internal: nan_to_num of a dtype without NaN"));
    }
    fn typed<T: Element>(v: &[T], l: &Layout, with: [f64; 3]) -> Vec<T> {
        let with = with.map(|w| T::from_f64(w).to_f64());
        mapwise(v, l, &|p, d| nan_to_num_block(p, with, d))
    }
    Ok(with_storage!(s, v => Element::wrap(typed(v, l, with))))
}

fn clamp_int_block<T: Element>(p: &[T], q: &[T], r: &[T], dst: &mut [Out<T>]) {
    for (i, d) in dst.iter_mut().enumerate() {
        d.write(T::from_i64(
            p[i].to_i64().max(q[i].to_i64()).min(r[i].to_i64()),
        ));
    }
}

macro_rules! clamp_lerp {
    ($t:ty, $clamp:ident, $lerp:ident) => {
        /// clamp: NaN stays NaN (in x or a bound); a lower bound above the upper
        /// gives the upper.
        #[inline(always)]
        fn $clamp(x: $t, lo: $t, hi: $t) -> $t {
            let y = x.max(lo).min(hi);
            if x.is_nan() || lo.is_nan() || hi.is_nan() {
                <$t>::NAN
            } else {
                y
            }
        }

        /// PyTorch's lerp: start + w * (end - start), or end - (end - start) * (1 - w)
        /// when |w| >= 0.5, for accuracy near the end; each a fused multiply-add.
        #[inline(always)]
        fn $lerp(start: $t, end: $t, w: $t) -> $t {
            let diff = end - start;
            let near = w.mul_add(diff, start);
            let far = (-diff).mul_add(1.0 - w, end);
            if w.abs() < 0.5 { near } else { far }
        }
    };
}
clamp_lerp!(f32, clamp_f32, lerp_f32);
clamp_lerp!(f64, clamp_f64, lerp_f64);

/// `x + y * z` as one fused multiply-add: PyTorch's add with alpha and its
/// addcmul (ATen's vector and scalar loops both contract them).
#[inline(always)]
fn add_scaled_f32(x: f32, y: f32, z: f32) -> f32 {
    y.mul_add(z, x)
}

#[inline(always)]
fn add_scaled_f64(x: f64, y: f64, z: f64) -> f64 {
    y.mul_add(z, x)
}

/// A float clamp whose bounds are numbers: one operand's pass where neither
/// is NaN (else the general kernel, whose answer is then all NaN).
fn clamp_to_numbers<T: Element>(
    x: &[T],
    la: &Layout,
    b: (&CpuStorage, &Layout),
    c: (&CpuStorage, &Layout),
) -> Result<CpuStorage> {
    let mismatch = || value_err("internal: the operands of a ternary op differ in dtype");
    let lo: &[T] = Element::slice(b.0).ok_or_else(mismatch)?;
    let hi: &[T] = Element::slice(c.0).ok_or_else(mismatch)?;
    let bounds = (lo.get(b.1.offset), hi.get(c.1.offset));
    Ok(Element::wrap(match bounds {
        (Some(l), Some(h)) if !l.to_f64().is_nan() && !h.to_f64().is_nan() => {
            let (l, h) = (l.to_f64(), h.to_f64());
            mapwise(x, la, &|p, d| clamp_numbers_block(p, l, h, d))
        }
        _ => triplewise(x, la, lo, b.1, hi, c.1, &|p, q, r, d| {
            float_ternary_block(TernaryOp::Clamp, p, q, r, d)
        }),
    }))
}

pub fn ternary(
    a: &CpuStorage,
    la: &Layout,
    b: (&CpuStorage, &Layout),
    c: (&CpuStorage, &Layout),
    op: TernaryOp,
) -> Result<CpuStorage> {
    let mismatch = || value_err("internal: the operands of a ternary op differ in dtype");
    Ok(match op {
        TernaryOp::Where => {
            let CpuStorage::Bool(cond) = a else {
                return Err(value_err("internal: where's condition must be bool"));
            };
            with_storage!(b.0, x => {
                let y = Element::slice(c.0).ok_or_else(mismatch)?;
                Element::wrap(triplewise(cond, la, x, b.1, y, c.1, &select_block))
            })
        }
        TernaryOp::AddScaled if !matches!(a.dtype(), DType::F32 | DType::F64) => {
            return Err(value_err(
                "internal: a fused add with alpha reached the backend for an integer or half dtype",
            ));
        }
        TernaryOp::Clamp if a.dtype().is_float() && is_scalar(b.1) && is_scalar(c.1) => {
            with_storage!(a, x => clamp_to_numbers(x, la, b, c)?)
        }
        TernaryOp::Clamp | TernaryOp::Lerp | TernaryOp::AddScaled => with_storage!(a, x => {
            let lo = Element::slice(b.0).ok_or_else(mismatch)?;
            let hi = Element::slice(c.0).ok_or_else(mismatch)?;
            // float clamp and lerp in PyTorch's compute type: f64 for float64,
            // f32 for the rest (float16 and bfloat16 round once at the end).
            Element::wrap(if op == TernaryOp::Clamp && !a.dtype().is_float() {
                triplewise(x, la, lo, b.1, hi, c.1, &clamp_int_block)
            } else {
                triplewise(x, la, lo, b.1, hi, c.1, &|p, q, r, d| float_ternary_block(op, p, q, r, d))
            })
        }),
    })
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::backend::cpu::kernels::binary_kernels;
    use crate::tensor::op::BinaryOp;

    /// The float32s of `s` (none for another dtype, which the comparisons
    /// below then fail on).
    fn floats(s: CpuStorage) -> Vec<f32> {
        match s {
            CpuStorage::F32(v) => v,
            _ => Vec::new(),
        }
    }

    crate::unit_tests! {
        fn a_number_broadcast_on_either_side_of_a_small_operand() {
            // `x - c` and `c - x` (the order matters), from one block and from a
            // view that is not gap-free (the walk), against the plain formula.
            let x: Vec<f32> = (0..37).map(|i| i as f32 * 0.37 - 3.0).collect();
            let c = CpuStorage::F32(vec![2.5]);
            let lc = Layout::contiguous(&[]).expand(&[37]);
            let lx = Layout::contiguous(&[37]);
            let k = binary_kernels(BinaryOp::Sub);
            let xs = CpuStorage::F32(x.clone());
            let minus = floats(binary(&xs, &lx, &c, &lc, false, &k));
            let from = floats(binary(&c, &lc, &xs, &lx, false, &k));
            assert_eq!(minus, x.iter().map(|v| v - 2.5).collect::<Vec<_>>());
            assert_eq!(from, x.iter().map(|v| 2.5 - v).collect::<Vec<_>>());
            // Every other element of a 74-long buffer: the same numbers, walked.
            let wide = CpuStorage::F32(x.iter().flat_map(|&v| [v, f32::NAN]).collect());
            let mut lw = Layout::contiguous(&[37]);
            lw.strides[0] = 2;
            assert_eq!(floats(binary(&wide, &lw, &c, &lc, false, &k)), minus);
            assert_eq!(floats(binary(&c, &lc, &wide, &lw, false, &k)), from);
        }
    }
}
