//! The element-wise kernels: for each op row, a tight loop over contiguous
//! slices per compute type (f32, f64, i64), monomorphised on the row's scalar
//! function so that it inlines and vectorises. The drivers (strided.rs and
//! friends) reach them through tables of function pointers, called once per
//! block, so the strided and broadcast machinery exists once per element type,
//! not once per op.

use std::mem::MaybeUninit as Out;

use super::elem::Element;
use crate::tensor::op::unary::f;
use crate::tensor::op::{
    BinaryFn, BinaryOp, BinaryVisitor, PredicateOp, UnaryFn, UnaryOp, UnaryVisitor,
};

pub struct UnaryKernels {
    pub f32: fn(&[f32], &mut [Out<f32>]),
    pub f64: fn(&[f64], &mut [Out<f64>]),
    pub i64: fn(&[i64], &mut [Out<i64>]),
    pub i32: fn(&[i32], &mut [Out<i32>]),
    pub u8: fn(&[u8], &mut [Out<u8>]),
    pub bool: fn(&[bool], &mut [Out<bool>]),
    pub i8: fn(&[i8], &mut [Out<i8>]),
    pub i16: fn(&[i16], &mut [Out<i16>]),
}

/// A binary row's kernels for one integer type (or bool).
pub struct IntKernels<T> {
    pub op: fn(&[T], &[T], &mut [Out<T>]),
    pub cmp: fn(&[T], &[T], &mut [Out<bool>]),
}

pub struct BinaryKernels {
    pub f32: fn(&[f32], &[f32], &mut [Out<f32>]),
    pub f64: fn(&[f64], &[f64], &mut [Out<f64>]),
    pub cmp_f32: fn(&[f32], &[f32], &mut [Out<bool>]),
    pub cmp_f64: fn(&[f64], &[f64], &mut [Out<bool>]),
    pub i64: IntKernels<i64>,
    pub i32: IntKernels<i32>,
    pub u8: IntKernels<u8>,
    pub bool: IntKernels<bool>,
    pub i8: IntKernels<i8>,
    pub i16: IntKernels<i16>,
}

pub struct PredicateKernels {
    pub f32: fn(&[f32], &mut [Out<bool>]),
    pub f64: fn(&[f64], &mut [Out<bool>]),
    pub i64: fn(&[i64], &mut [Out<bool>]),
    pub i32: fn(&[i32], &mut [Out<bool>]),
    pub i16: fn(&[i16], &mut [Out<bool>]),
    pub i8: fn(&[i8], &mut [Out<bool>]),
    pub u8: fn(&[u8], &mut [Out<bool>]),
    pub bool: fn(&[bool], &mut [Out<bool>]),
}

crate::multiversion! {
    /// Transcendental functions (exp, sigmoid) are compute-bound: this loop is
    /// compiled for the widest vectors the processor has (simd.rs).
    fn unary_f32<F: UnaryFn>(s: &[f32], d: &mut [Out<f32>]) {
        for (o, &x) in d.iter_mut().zip(s) {
            o.write(F::f32(x));
        }
    }
}

crate::multiversion! {
    fn unary_f64<F: UnaryFn>(s: &[f64], d: &mut [Out<f64>]) {
        for (o, &x) in d.iter_mut().zip(s) {
            o.write(F::f64(x));
        }
    }
}

/// The row's int64 function on each element of an integer type (or bool),
/// widened and wrapped back in the same expression: for the narrow types LLVM
/// narrows the arithmetic (a 32-bit add, a byte compare) and vectorises it at
/// the type's own width, where a pass through int64 scratch was 4-7x
/// PyTorch's time. The results are the int64 row's by construction.
fn unary_int<T: Element, F: UnaryFn>(s: &[T], d: &mut [Out<T>]) {
    for (o, &x) in d.iter_mut().zip(s) {
        o.write(T::from_i64(F::i64(x.to_i64())));
    }
}

struct MakeUnary;

impl UnaryVisitor for MakeUnary {
    type Out = UnaryKernels;
    fn visit<F: UnaryFn>(self) -> UnaryKernels {
        UnaryKernels {
            f32: unary_f32::<F>,
            f64: unary_f64::<F>,
            i64: unary_int::<i64, F>,
            i32: unary_int::<i32, F>,
            u8: unary_int::<u8, F>,
            bool: unary_int::<bool, F>,
            i8: unary_int::<i8, F>,
            i16: unary_int::<i16, F>,
        }
    }
}

pub fn unary_kernels(op: UnaryOp) -> UnaryKernels {
    let mut k = op.visit(MakeUnary);
    let avx512 = super::simd::isa() == super::simd::Isa::Avx512;
    // float32 sin, cos and tan vectorise where the block's arguments allow
    // the simple reduction by π (nearly always); the row's libm call otherwise.
    match op {
        UnaryOp::Sin => k.f32 = sin_f32,
        UnaryOp::Cos => k.f32 = cos_f32,
        UnaryOp::Tan => k.f32 = tan_f32,
        UnaryOp::Sigmoid => k.f32 = sigmoid_vec::<f::Sigmoid>,
        UnaryOp::Silu => k.f32 = silu_vec::<f::Silu>,
        UnaryOp::Exp2 => k.f32 = exp2_vec::<f::Exp2>,
        UnaryOp::Exp => k.f64 = super::exp_f64::exp_f64,
        // The same bits as the rows' own loop, its table read by permutes.
        UnaryOp::Log if avx512 => k.f32 = super::ln_avx512::ln,
        UnaryOp::Log2 if avx512 => k.f32 = super::ln_avx512::log2,
        UnaryOp::Log10 if avx512 => k.f32 = super::ln_avx512::log10,
        UnaryOp::Log1p if avx512 => k.f32 = super::ln_avx512::log1p,
        _ => {}
    }
    k
}

/// ATen's vectorized_loop: whole runs of 32 elements (two AVX-512 vectors)
/// through the vector function, the rest through the op row's scalar one
/// (which calls the C library's expf, as ATen's scalar loop does). So
/// float32 sigmoid, silu, exp2 and softplus agree with PyTorch's bit for bit,
/// SLEEF's 1-ulp functions included, on long tensors and short ones alike.
/// (torch.exp, torch.log and F.gelu run MKL's and oneDNN's own code on long
/// tensors, which nothing here reproduces; their rows stay correctly rounded.)
const VECTOR_RUN: usize = 32;

macro_rules! vector_kernel {
    ($name:ident, $vector:path) => {
        crate::multiversion! {
            fn $name<F: UnaryFn>(s: &[f32], d: &mut [Out<f32>]) {
                use $vector as vector;
                let whole = s.len() / VECTOR_RUN * VECTOR_RUN;
                let (d_vec, d_rest) = d.split_at_mut(whole);
                for (o, &x) in d_vec.iter_mut().zip(&s[..whole]) {
                    o.write(vector(x));
                }
                for (o, &x) in d_rest.iter_mut().zip(&s[whole..]) {
                    o.write(F::f32(x));
                }
            }
        }
    };
    (binary $name:ident, $vector:path) => {
        crate::multiversion! {
            fn $name<F: BinaryFn>(a: &[f32], b: &[f32], d: &mut [Out<f32>]) {
                use $vector as vector;
                let whole = a.len() / VECTOR_RUN * VECTOR_RUN;
                let (d_vec, d_rest) = d.split_at_mut(whole);
                for ((o, &x), &y) in d_vec.iter_mut().zip(&a[..whole]).zip(&b[..whole]) {
                    o.write(vector(x, y));
                }
                for ((o, &x), &y) in d_rest.iter_mut().zip(&a[whole..]).zip(&b[whole..]) {
                    o.write(F::f32(x, y));
                }
            }
        }
    };
}
vector_kernel!(sigmoid_vec, super::mathfun::sigmoid_aten);
vector_kernel!(silu_vec, super::mathfun::silu_aten);
vector_kernel!(exp2_vec, super::mathfun::exp2_sleef);
vector_kernel!(binary softplus_vec, super::mathfun::softplus_aten);
// SLEEF's powf (ATen's vector loop) is within an ulp of the correctly
// rounded result and equal to it on 98% of inputs; the tail takes the C
// library's powf as ATen's scalar loop does.
vector_kernel!(binary pow_vec, crate::tensor::op::fastmath_derived::pow_f32);

macro_rules! sincos_kernel {
    ($name:ident, $fast:path, $libm:ident) => {
        crate::multiversion! {
            fn $name(s: &[f32], d: &mut [Out<f32>]) {
                use crate::tensor::op::fastmath::SINCOS_RANGE;
                use $fast as fast;
                // One pass that also learns whether every argument was in
                // range (no early exit, so that it vectorises: the check
                // alone, as `all`, was a scalar loop and a third of sin's
                // time); the libm call redoes a block that was not.
                let mut inside = true;
                for (o, &x) in d.iter_mut().zip(s) {
                    inside &= x.abs() < SINCOS_RANGE;
                    o.write(fast(x));
                }
                if !inside {
                    for (o, &x) in d.iter_mut().zip(s) {
                        o.write(x.$libm());
                    }
                }
            }
        }
    };
}
sincos_kernel!(sin_f32, crate::tensor::op::fastmath::sin_f32, sin);
sincos_kernel!(cos_f32, crate::tensor::op::fastmath::cos_f32, cos);
sincos_kernel!(tan_f32, crate::tensor::op::fastmath_derived::tan_f32, tan);

macro_rules! binary_loop {
    ($name:ident, $t:ty, $out:ty, $f:ident) => {
        fn $name<F: BinaryFn>(a: &[$t], b: &[$t], d: &mut [Out<$out>]) {
            for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
                o.write(F::$f(x, y));
            }
        }
    };
    // Also compiled for AVX2/AVX-512: float32 arithmetic on in-cache operands
    // runs 2-3x faster at the full vector width than in SSE2.
    (wide $name:ident, $t:ty, $out:ty, $f:ident) => {
        crate::multiversion! {
            fn $name<F: BinaryFn>(a: &[$t], b: &[$t], d: &mut [Out<$out>]) {
                for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
                    o.write(F::$f(x, y));
                }
            }
        }
    };
}
binary_loop!(wide binary_f32, f32, f32, f32);
binary_loop!(binary_f64, f64, f64, f64);
binary_loop!(compare_f32, f32, bool, cmp_f32);
binary_loop!(compare_f64, f64, bool, cmp_f64);

crate::multiversion! {
    /// As `unary_int`, for a binary row; at the full vector width (int32
    /// products and int64 compares have no SSE2 instruction: tril's mask was
    /// 3x PyTorch's time).
    fn binary_int<T: Element, F: BinaryFn>(a: &[T], b: &[T], d: &mut [Out<T>]) {
        for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
            o.write(T::from_i64(F::i64(x.to_i64(), y.to_i64())));
        }
    }
}

crate::multiversion! {
    fn compare_int<T: Element, F: BinaryFn>(a: &[T], b: &[T], d: &mut [Out<bool>]) {
        for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
            o.write(F::cmp_i64(x.to_i64(), y.to_i64()));
        }
    }
}

fn int_kernels<T: Element, F: BinaryFn>() -> IntKernels<T> {
    IntKernels {
        op: binary_int::<T, F>,
        cmp: compare_int::<T, F>,
    }
}

struct MakeBinary;

impl BinaryVisitor for MakeBinary {
    type Out = BinaryKernels;
    fn visit<F: BinaryFn>(self) -> BinaryKernels {
        BinaryKernels {
            f32: binary_f32::<F>,
            f64: binary_f64::<F>,
            cmp_f32: compare_f32::<F>,
            cmp_f64: compare_f64::<F>,
            i64: int_kernels::<i64, F>(),
            i32: int_kernels::<i32, F>(),
            u8: int_kernels::<u8, F>(),
            bool: int_kernels::<bool, F>(),
            i8: int_kernels::<i8, F>(),
            i16: int_kernels::<i16, F>(),
        }
    }
}

pub fn binary_kernels(op: BinaryOp) -> BinaryKernels {
    let mut k = op.visit(MakeBinary);
    // float32 fmod, remainder and floor division: C's fmod, exactly, in f64
    // arithmetic that vectorises, where the block's quotients allow it
    // (nearly always).
    match op {
        BinaryOp::Fmod => {
            k.f32 = fmod_f32;
            set_int_division::<CRemainder, crate::tensor::op::binary::f::Fmod>(&mut k);
        }
        BinaryOp::Rem => {
            k.f32 = remainder_f32;
            set_int_division::<PyRemainder, crate::tensor::op::binary::f::Rem>(&mut k);
        }
        BinaryOp::FloorDiv => {
            k.f32 = floor_div_f32;
            set_int_division::<FloorQuotient, crate::tensor::op::binary::f::FloorDiv>(&mut k);
        }
        BinaryOp::Softplus => k.f32 = softplus_vec::<crate::tensor::op::binary::f::Softplus>,
        BinaryOp::Pow => k.f32 = pow_vec::<crate::tensor::op::binary::f::Pow>,
        _ => {}
    }
    k
}

/// Integer floor division, Python's modulo and C's fmod in float64, whose
/// division vectorises (`idiv` is a scalar instruction of 10-20 cycles), where
/// a block's operands are nonzero and under 2^31 in magnitude (nearly always):
/// their float64 quotient then rounds to no integer it does not equal (its
/// distance from one is at least 1/|y|, above half its ulp), so its floor and
/// trunc are exact, as are the products and differences after. A block with
/// another operand takes the row's int64 division.
trait IntDivision {
    fn of(x: f64, y: f64) -> f64;
}

struct FloorQuotient;
struct PyRemainder;
struct CRemainder;

impl IntDivision for FloorQuotient {
    #[inline(always)]
    fn of(x: f64, y: f64) -> f64 {
        (x / y).floor()
    }
}

impl IntDivision for PyRemainder {
    #[inline(always)]
    fn of(x: f64, y: f64) -> f64 {
        x - y * (x / y).floor()
    }
}

impl IntDivision for CRemainder {
    #[inline(always)]
    fn of(x: f64, y: f64) -> f64 {
        x - y * (x / y).trunc()
    }
}

crate::multiversion! {
    fn int_division<T: Element, D: IntDivision, F: BinaryFn>(a: &[T], b: &[T], d: &mut [Out<T>]) {
        const END: i64 = 1 << 31;
        let mut exact = true;
        for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
            let (x, y) = (x.to_i64(), y.to_i64());
            // `&`, not `&&`: branches would keep the loop scalar.
            let fits = (x > -END) & (x < END) & (y > -END) & (y < END) & (y != 0);
            exact &= fits;
            // Operands selected, not the result, so that nothing branches
            // around the division (0 / 1 stands in for a pair that fails).
            let (x, y) = if fits { (x, y) } else { (0, 1) };
            let v = D::of(x as f64, y as f64);
            // SAFETY: v is an integer under 2^31 in magnitude (|quotient| <=
            // |x|, |remainder| < |y|).
            o.write(T::from_i64(unsafe { v.to_int_unchecked::<i32>() } as i64));
        }
        if !exact {
            for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
                o.write(T::from_i64(F::i64(x.to_i64(), y.to_i64())));
            }
        }
    }
}

/// Every integer type's kernel of a division row through `int_division`.
fn set_int_division<D: IntDivision, F: BinaryFn>(k: &mut BinaryKernels) {
    k.i64.op = int_division::<i64, D, F>;
    k.i32.op = int_division::<i32, D, F>;
    k.i16.op = int_division::<i16, D, F>;
    k.i8.op = int_division::<i8, D, F>;
    k.u8.op = int_division::<u8, D, F>;
}

macro_rules! fmod_kernel {
    ($name:ident, $from_fmod:expr, $row:expr) => {
        crate::multiversion! {
            fn $name(a: &[f32], b: &[f32], d: &mut [Out<f32>]) {
                use crate::tensor::op::fastmath_derived::fmod_f32;
                // One pass that also learns whether every pair was exact (no
                // early exit, so that it vectorises); the row's libm call
                // redoes a block that was not.
                let mut exact = true;
                for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
                    let (r, ok) = fmod_f32(x, y);
                    exact &= ok;
                    o.write($from_fmod(r, x, y));
                }
                if !exact {
                    for ((o, &x), &y) in d.iter_mut().zip(a).zip(b) {
                        o.write($row(x, y));
                    }
                }
            }
        }
    };
}
// fmod itself, and Python's modulo from it.
fmod_kernel!(fmod_f32, |r: f32, _: f32, _: f32| r, |x: f32, y: f32| x % y);
fmod_kernel!(
    remainder_f32,
    |r: f32, _: f32, y: f32| crate::tensor::op::math::py_mod_of_fmod_f32(r, y),
    crate::tensor::op::math::py_fmod_f32
);
fmod_kernel!(
    floor_div_f32,
    crate::tensor::op::math::div_floor_of_fmod_f32,
    crate::tensor::op::math::div_floor_f32
);

/// The integer forms test the element as a float64 (exact for the test:
/// only 0 is 0.0), in one loop per type that LLVM folds to an integer test
/// (isnan of an integer is false; logical_not is a compare with 0).
macro_rules! predicate_table {
    ($op:expr, $($Var:ident |$x:ident| $e:expr;)*) => {
        match $op {
            $(PredicateOp::$Var => PredicateKernels {
                f32: |s, d| for (o, &$x) in d.iter_mut().zip(s) { o.write($e); },
                f64: |s, d| for (o, &$x) in d.iter_mut().zip(s) { o.write($e); },
                i64: |s, d| predicate_table!(@int s, d, $x, $e),
                i32: |s, d| predicate_table!(@int s, d, $x, $e),
                i16: |s, d| predicate_table!(@int s, d, $x, $e),
                i8: |s, d| predicate_table!(@int s, d, $x, $e),
                u8: |s, d| predicate_table!(@int s, d, $x, $e),
                bool: |s, d| predicate_table!(@int s, d, $x, $e),
            },)*
        }
    };
    (@int $s:ident, $d:ident, $x:ident, $e:expr) => {
        for (o, &v) in $d.iter_mut().zip($s) {
            let $x = Element::to_f64(v);
            o.write($e);
        }
    };
}

pub fn predicate_kernels(op: PredicateOp) -> PredicateKernels {
    predicate_table! { op,
        IsNan |x| x.is_nan();
        IsInf |x| x.is_infinite();
        IsPosInf |x| x.is_infinite() && x > 0.0;
        IsNegInf |x| x.is_infinite() && x < 0.0;
        IsFinite |x| x.is_finite();
        LogicalNot |x| x == 0.0;
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        /// Whole runs of 32 take the vector form and the rest the row's scalar
        /// formula, whatever the block's length, as ATen's loop does.
        fn vector_kernels_split_as_aten() {
            let sig = unary_kernels(UnaryOp::Sigmoid).f32;
            for n in [0, 1, 31, 32, 33, 64, 100] {
                let x: Vec<f32> = (0..n).map(|i| (i as f32 - 50.0) * 0.173).collect();
                let mut out = vec![Out::uninit(); n];
                sig(&x, &mut out);
                for (i, (o, &v)) in out.iter().zip(&x).enumerate() {
                    // SAFETY: the kernel wrote every element.
                    let got = unsafe { o.assume_init() };
                    let want = if i < n / 32 * 32 {
                        super::super::mathfun::sigmoid_aten(v)
                    } else {
                        <f::Sigmoid as UnaryFn>::f32(v)
                    };
                    assert_eq!(got.to_bits(), want.to_bits(), "n={n} i={i}");
                }
                // softplus (a binary row: x and its threshold) splits the same way.
                let t = vec![20.0f32; n];
                let mut out = vec![Out::uninit(); n];
                (binary_kernels(BinaryOp::Softplus).f32)(&x, &t, &mut out);
                for (i, (o, &v)) in out.iter().zip(&x).enumerate() {
                    // SAFETY: the kernel wrote every element.
                    let got = unsafe { o.assume_init() };
                    let want = if i < n / 32 * 32 {
                        super::super::mathfun::softplus_aten(v, 20.0)
                    } else {
                        <crate::tensor::op::binary::f::Softplus as BinaryFn>::f32(v, 20.0)
                    };
                    assert_eq!(got.to_bits(), want.to_bits(), "softplus n={n} i={i}");
                }
            }
        }
    }
}
