//! Typed element buffers. `Storage` is an enum of `Vec<T>`, and `with_storage!`
//! is the one place that matches on it: kernels are written once, generic over
//! `Element`, and this macro stamps them out per dtype.

use half::{bf16, f16};

use super::dtype::DType;

/// What every element type offers kernels: its dtype and lossless-enough moves
/// through the two wide types the arithmetic runs in (f64 for floats, i64 for ints).
pub trait Element: Copy + Send + Sync + PartialEq + Default + std::fmt::Debug + 'static {
    const DTYPE: DType;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
    fn to_i64(self) -> i64;
    /// Wrapping conversion, as a C cast from int64 (what PyTorch's integer ops do).
    fn from_i64(v: i64) -> Self;
    fn wrap(v: Vec<Self>) -> Storage;
    fn slice(s: &Storage) -> Option<&[Self]>;
}

macro_rules! int_element {
    ($t:ty, $d:ident) => {
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                // As PyTorch's casts on x86 (cvttsd2si): truncate toward zero, and NaN
                // or a value outside the conversion's range gives its minimum. Types
                // narrower than 64 bits convert through int32 and then wrap, as C
                // does: 300.0 → uint8 is 44, NaN → int32 is -2147483648.
                const I64_END: f64 = 9_223_372_036_854_775_808.0;
                const I32_END: f64 = 2_147_483_648.0;
                if std::mem::size_of::<$t>() == 8 {
                    if v.is_nan() || !(-I64_END..I64_END).contains(&v) {
                        i64::MIN as $t
                    } else {
                        v as i64 as $t
                    }
                } else if v.is_nan() || !(-I32_END..I32_END).contains(&v) {
                    i32::MIN as $t
                } else {
                    v as i32 as $t
                }
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            fn wrap(v: Vec<Self>) -> Storage {
                Storage::$d(v)
            }
            fn slice(s: &Storage) -> Option<&[Self]> {
                match s {
                    Storage::$d(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}
int_element!(u8, U8);
int_element!(i8, I8);
int_element!(i16, I16);
int_element!(i32, I32);
int_element!(i64, I64);

macro_rules! float_element {
    ($t:ty, $d:ident, $to:expr, $from:expr) => {
        impl Element for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                $to(self)
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                $from(v)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                $to(self) as i64
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                $from(v as f64)
            }
            fn wrap(v: Vec<Self>) -> Storage {
                Storage::$d(v)
            }
            fn slice(s: &Storage) -> Option<&[Self]> {
                match s {
                    Storage::$d(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}
float_element!(f32, F32, |x: f32| x as f64, |v: f64| v as f32);
float_element!(f64, F64, |x: f64| x, |v: f64| v);
float_element!(f16, F16, |x: f16| x.to_f64(), f16::from_f64);
float_element!(bf16, BF16, |x: bf16| x.to_f64(), bf16::from_f64);

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
    fn wrap(v: Vec<Self>) -> Storage {
        Storage::Bool(v)
    }
    fn slice(s: &Storage) -> Option<&[Self]> {
        match s {
            Storage::Bool(v) => Some(v),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub enum Storage {
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
/// or by mutable reference, as `$s` is given). The only match on dtype for kernels.
#[macro_export]
macro_rules! with_storage {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            $crate::tensor::storage::Storage::Bool($v) => $body,
            $crate::tensor::storage::Storage::U8($v) => $body,
            $crate::tensor::storage::Storage::I8($v) => $body,
            $crate::tensor::storage::Storage::I16($v) => $body,
            $crate::tensor::storage::Storage::I32($v) => $body,
            $crate::tensor::storage::Storage::I64($v) => $body,
            $crate::tensor::storage::Storage::F16($v) => $body,
            $crate::tensor::storage::Storage::BF16($v) => $body,
            $crate::tensor::storage::Storage::F32($v) => $body,
            $crate::tensor::storage::Storage::F64($v) => $body,
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
            $crate::tensor::dtype::DType::F64 => {
                type $T = f64;
                $body
            }
        }
    };
}

impl Storage {
    pub fn dtype(&self) -> DType {
        with_storage!(self, v => element_dtype(v.as_slice()))
    }
    pub fn len(&self) -> usize {
        with_storage!(self, v => v.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Element `i` as f64 (for printing and scalars; not for hot loops).
    pub fn get_f64(&self, i: usize) -> f64 {
        with_storage!(self, v => v[i].to_f64())
    }
    pub fn get_i64(&self, i: usize) -> i64 {
        with_storage!(self, v => v[i].to_i64())
    }
}

fn element_dtype<T: Element>(_: &[T]) -> DType {
    T::DTYPE
}
