//! Element types and how kernels compute on them. Kernels exist for three
//! compute types only (f32, f64, i64): float16 and bfloat16 blocks go through
//! f32, the narrower integers and bool through i64 (which wraps and truncates
//! as PyTorch's fixed-width arithmetic does). `CpuStorage` is an enum of typed
//! vectors; `with_storage!` and `with_dtype!` are the one place that matches
//! on dtype.

use half::{bf16, f16};

use super::half_blocks::{HalfBlock, widened};
use super::kernels::{BinaryKernels, PredicateKernels, UnaryKernels};
use super::scratch::{Out, scratch, written};
use crate::tensor::dtype::DType;

/// Elements per block of a kernel loop (scratch buffers live on the stack).
pub const BLOCK: usize = 2048;

pub trait Element: Copy + Send + Sync + PartialEq + Default + std::fmt::Debug + 'static {
    const DTYPE: DType;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
    fn to_i64(self) -> i64;
    /// Wrapping conversion, as a C cast from int64 (what PyTorch's integer ops do).
    fn from_i64(v: i64) -> Self;
    fn wrap(v: Vec<Self>) -> CpuStorage;
    fn slice(s: &CpuStorage) -> Option<&[Self]>;
    fn slice_mut(s: &mut CpuStorage) -> Option<&mut [Self]>;
    /// The slice as float32s, where this is float32 (kernels that compute in
    /// the element's own type, as exact ones such as max may).
    #[inline(always)]
    fn as_f32s(_: &[Self]) -> Option<&[f32]> {
        None
    }
    /// A block of a half dtype widened to float32 into `buf` (at most its
    /// length); None for the other dtypes.
    #[inline(always)]
    fn half_widened<'a>(_: &[Self], _: &'a mut [Out<f32>]) -> Option<&'a [f32]> {
        None
    }

    /// `dst = op(src)` for one block, in this type's compute type.
    fn unary_block(src: &[Self], dst: &mut [Out<Self>], k: &UnaryKernels);
    /// `dst = a op b` for one block.
    fn binary_block(a: &[Self], b: &[Self], dst: &mut [Out<Self>], k: &BinaryKernels);
    /// `dst = a cmp b` for one block.
    fn compare_block(a: &[Self], b: &[Self], dst: &mut [Out<bool>], k: &BinaryKernels);
    /// `dst = test(src)` for one block.
    fn predicate_block(src: &[Self], dst: &mut [Out<bool>], k: &PredicateKernels);
}

/// ATen's rule for a running maximum, `v > best || isnan(v)`: a NaN takes over
/// and then stays (nothing compares above it). Without a branch, so loops over
/// it vectorise. (`v != v` is NaN for every element type.)
#[inline(always)]
#[allow(clippy::eq_op)]
pub fn beats_max<T: PartialOrd>(v: T, best: T) -> bool {
    (v > best) | (v != v)
}

/// The same for a running minimum.
#[inline(always)]
#[allow(clippy::eq_op)]
pub fn beats_min<T: PartialOrd>(v: T, best: T) -> bool {
    (v < best) | (v != v)
}

/// max and min that propagate NaN, as selects.
#[inline(always)]
pub fn nan_max<T: PartialOrd + Copy>(a: T, x: T) -> T {
    if beats_max(x, a) { x } else { a }
}

#[inline(always)]
pub fn nan_min<T: PartialOrd + Copy>(a: T, x: T) -> T {
    if beats_min(x, a) { x } else { a }
}

/// Float → integer conversion as PyTorch's casts on x86 (cvttsd2si): truncate
/// toward zero, and NaN or a value outside the conversion's range gives its
/// minimum. Types narrower than 64 bits convert through int32 and then wrap, as
/// C does: 300.0 → uint8 is 44, NaN → int32 is -2147483648.
#[inline(always)]
fn float_to_int(v: f64, width: usize) -> i64 {
    const I64_END: f64 = 9_223_372_036_854_775_808.0;
    const I32_END: f64 = 2_147_483_648.0;
    // Selects, and the unchecked conversion of a value known to be in range
    // (an `as` cast saturates, which keeps the loops from vectorising).
    let (end, fail) = if width == 8 {
        (I64_END, i64::MIN)
    } else {
        (I32_END, i32::MIN as i64)
    };
    let fits = v >= -end && v < end;
    let t = if fits { v } else { 0.0 };
    let i = if width == 8 {
        // SAFETY: t is finite and inside i64's range.
        unsafe { t.to_int_unchecked::<i64>() }
    } else {
        // SAFETY: t is finite and inside i32's range.
        unsafe { t.to_int_unchecked::<i32>() as i64 }
    };
    if fits { i } else { fail }
}

macro_rules! storage_access {
    ($d:ident) => {
        fn wrap(v: Vec<Self>) -> CpuStorage {
            CpuStorage::$d(v)
        }
        fn slice(s: &CpuStorage) -> Option<&[Self]> {
            match s {
                CpuStorage::$d(v) => Some(v),
                _ => None,
            }
        }
        fn slice_mut(s: &mut CpuStorage) -> Option<&mut [Self]> {
            match s {
                CpuStorage::$d(v) => Some(v),
                _ => None,
            }
        }
    };
}

/// Integers (and bool) compute through i64, fused per element (kernels.rs's
/// integer kernels).
macro_rules! via_i64 {
    ($field:ident) => {
        fn unary_block(src: &[Self], dst: &mut [Out<Self>], k: &UnaryKernels) {
            (k.$field)(src, dst)
        }
        fn binary_block(a: &[Self], b: &[Self], dst: &mut [Out<Self>], k: &BinaryKernels) {
            (k.$field.op)(a, b, dst)
        }
        fn compare_block(a: &[Self], b: &[Self], dst: &mut [Out<bool>], k: &BinaryKernels) {
            (k.$field.cmp)(a, b, dst)
        }
        fn predicate_block(src: &[Self], dst: &mut [Out<bool>], k: &PredicateKernels) {
            (k.$field)(src, dst)
        }
    };
}

macro_rules! int_element {
    ($t:ty, $d:ident, $field:ident) => {
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                float_to_int(v, std::mem::size_of::<$t>()) as $t
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            storage_access!($d);
            via_i64!($field);
        }
    };
}
int_element!(u8, U8, u8);
int_element!(i8, I8, i8);
int_element!(i16, I16, i16);
int_element!(i32, I32, i32);

impl Element for i64 {
    const DTYPE: DType = DType::I64;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        float_to_int(v, 8)
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v
    }
    storage_access!(I64);
    via_i64!(i64);
}

impl Element for bool {
    const DTYPE: DType = DType::Bool;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as u8 as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v != 0.0
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v != 0
    }
    storage_access!(Bool);
    via_i64!(bool);
}

impl Element for f32 {
    const DTYPE: DType = DType::F32;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        float_to_int(self as f64, 8)
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as f32
    }
    storage_access!(F32);
    #[inline(always)]
    fn as_f32s(s: &[Self]) -> Option<&[f32]> {
        Some(s)
    }
    fn unary_block(src: &[Self], dst: &mut [Out<Self>], k: &UnaryKernels) {
        (k.f32)(src, dst)
    }
    fn binary_block(a: &[Self], b: &[Self], dst: &mut [Out<Self>], k: &BinaryKernels) {
        (k.f32)(a, b, dst)
    }
    fn compare_block(a: &[Self], b: &[Self], dst: &mut [Out<bool>], k: &BinaryKernels) {
        (k.cmp_f32)(a, b, dst)
    }
    fn predicate_block(src: &[Self], dst: &mut [Out<bool>], k: &PredicateKernels) {
        (k.f32)(src, dst)
    }
}

impl Element for f64 {
    const DTYPE: DType = DType::F64;
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn to_i64(self) -> i64 {
        float_to_int(self, 8)
    }
    #[inline(always)]
    fn from_i64(v: i64) -> Self {
        v as f64
    }
    storage_access!(F64);
    fn unary_block(src: &[Self], dst: &mut [Out<Self>], k: &UnaryKernels) {
        (k.f64)(src, dst)
    }
    fn binary_block(a: &[Self], b: &[Self], dst: &mut [Out<Self>], k: &BinaryKernels) {
        (k.f64)(a, b, dst)
    }
    fn compare_block(a: &[Self], b: &[Self], dst: &mut [Out<bool>], k: &BinaryKernels) {
        (k.cmp_f64)(a, b, dst)
    }
    fn predicate_block(src: &[Self], dst: &mut [Out<bool>], k: &PredicateKernels) {
        (k.f64)(src, dst)
    }
}

/// float16 and bfloat16: stored in 16 bits, computed in f32 a block at a time.
macro_rules! half_element {
    ($t:ty, $d:ident) => {
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self.wide() as f64
            }
            /// Through float32, as c10's Half and BFloat16 are made from a
            /// double (two roundings; the half crate's direct conversion
            /// also drops the low bits it should round on).
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                <$t>::round_from(v as f32)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                float_to_int(self.wide() as f64, 8)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                <$t>::from_f32(v as f32)
            }
            storage_access!($d);
            #[inline(always)]
            fn half_widened<'a>(s: &[Self], buf: &'a mut [Out<f32>]) -> Option<&'a [f32]> {
                Some(widened(s, buf))
            }
            // Each block widened and narrowed by the block conversions
            // (half_blocks.rs), not element by element.
            fn unary_block(src: &[Self], dst: &mut [Out<Self>], k: &UnaryKernels) {
                let (mut a, mut o) = (scratch(), scratch());
                let n = src.len();
                (k.f32)(widened(src, &mut a), &mut o[..n]);
                // SAFETY: the kernel wrote o[..n].
                <$t>::narrow(unsafe { written(&o[..n]) }, dst);
            }
            fn binary_block(a: &[Self], b: &[Self], dst: &mut [Out<Self>], k: &BinaryKernels) {
                let (mut x, mut y, mut o) = (scratch(), scratch(), scratch());
                let n = a.len();
                let x = widened(a, &mut x);
                let y = widened(b, &mut y);
                (k.f32)(x, y, &mut o[..n]);
                // SAFETY: the kernel wrote o[..n].
                <$t>::narrow(unsafe { written(&o[..n]) }, dst);
            }
            fn compare_block(a: &[Self], b: &[Self], dst: &mut [Out<bool>], k: &BinaryKernels) {
                let (mut x, mut y) = (scratch(), scratch());
                let x = widened(a, &mut x);
                let y = widened(b, &mut y);
                (k.cmp_f32)(x, y, dst);
            }
            fn predicate_block(src: &[Self], dst: &mut [Out<bool>], k: &PredicateKernels) {
                let mut a = scratch();
                (k.f32)(widened(src, &mut a), dst);
            }
        }
    };
}
half_element!(f16, F16);
half_element!(bf16, BF16);

/// Typed element buffers in host memory.
#[derive(Clone, Debug)]
pub enum CpuStorage {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

/// Run `$body` with `$v` bound to the typed buffer inside a storage (by reference
/// or by mutable reference, as `$s` is given).
#[macro_export]
macro_rules! with_storage {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            $crate::backend::cpu::CpuStorage::Bool($v) => $body,
            $crate::backend::cpu::CpuStorage::U8($v) => $body,
            $crate::backend::cpu::CpuStorage::I8($v) => $body,
            $crate::backend::cpu::CpuStorage::I16($v) => $body,
            $crate::backend::cpu::CpuStorage::I32($v) => $body,
            $crate::backend::cpu::CpuStorage::I64($v) => $body,
            $crate::backend::cpu::CpuStorage::F16($v) => $body,
            $crate::backend::cpu::CpuStorage::BF16($v) => $body,
            $crate::backend::cpu::CpuStorage::F32($v) => $body,
            $crate::backend::cpu::CpuStorage::F64($v) => $body,
        }
    };
}

/// Run `$body` with the type alias `$T` set to the Rust element type of a dtype.
#[macro_export]
macro_rules! with_dtype {
    ($d:expr, $T:ident => $body:expr) => {
        match $d {
            $crate::tensor::dtype::DType::Bool => {
                type $T = bool;
                $body
            }
            $crate::tensor::dtype::DType::U8 => {
                type $T = u8;
                $body
            }
            $crate::tensor::dtype::DType::I8 => {
                type $T = i8;
                $body
            }
            $crate::tensor::dtype::DType::I16 => {
                type $T = i16;
                $body
            }
            $crate::tensor::dtype::DType::I32 => {
                type $T = i32;
                $body
            }
            $crate::tensor::dtype::DType::I64 => {
                type $T = i64;
                $body
            }
            $crate::tensor::dtype::DType::F16 => {
                type $T = half::f16;
                $body
            }
            $crate::tensor::dtype::DType::BF16 => {
                type $T = half::bf16;
                $body
            }
            $crate::tensor::dtype::DType::F32 => {
                type $T = f32;
                $body
            }
            // A complex buffer is its (re, im) pairs; the tensor layer passes
            // complex data to a backend only as the real dtype (never this way).
            $crate::tensor::dtype::DType::F64 | $crate::tensor::dtype::DType::C128 => {
                type $T = f64;
                $body
            }
            $crate::tensor::dtype::DType::C64 => {
                type $T = f32;
                $body
            }
        }
    };
}

impl CpuStorage {
    pub fn dtype(&self) -> DType {
        fn of<T: Element>(_: &[T]) -> DType {
            T::DTYPE
        }
        with_storage!(self, v => of(v))
    }
    pub fn len(&self) -> usize {
        with_storage!(self, v => v.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as f64 (printing and scalars; not for loops).
    pub fn get_f64(&self, i: usize) -> f64 {
        with_storage!(self, v => v[i].to_f64())
    }
    pub fn get_i64(&self, i: usize) -> i64 {
        with_storage!(self, v => v[i].to_i64())
    }
    /// Every element as f64 / i64, in order (host-side readers: printing, files).
    pub fn to_f64_vec(&self) -> Vec<f64> {
        with_storage!(self, v => v.iter().map(|x| x.to_f64()).collect())
    }
    pub fn to_i64_vec(&self) -> Vec<i64> {
        with_storage!(self, v => v.iter().map(|x| x.to_i64()).collect())
    }
    /// A buffer of `dtype` from f64 values (floats) or i64 values (the rest).
    /// (`<T as Element>`: half's inherent from_f64 would shadow the trait's.)
    pub fn from_f64s(v: &[f64], dtype: DType) -> CpuStorage {
        crate::with_dtype!(dtype, T => T::wrap(v.iter().map(|&x| <T as Element>::from_f64(x)).collect()))
    }
    pub fn from_i64s(v: &[i64], dtype: DType) -> CpuStorage {
        crate::with_dtype!(dtype, T => T::wrap(v.iter().map(|&x| T::from_i64(x)).collect()))
    }
}
