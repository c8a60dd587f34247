//! Unary element-wise kernels: one row per op, a float formula and, where the op
//! keeps integer dtypes (abs, neg, sign...), an integer formula.

use super::map::map;
use crate::tensor::layout::Layout;
use crate::tensor::storage::{Element, Storage};
use crate::with_storage;

macro_rules! unary_ops {
    ($( $Var:ident $name:literal float |$x:ident| $f:expr, int $int:tt; )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum UnaryOp { $($Var),* }

        impl UnaryOp {
            pub fn name(self) -> &'static str {
                match self { $(UnaryOp::$Var => $name),* }
            }
            pub fn from_name(name: &str) -> Option<UnaryOp> {
                match name { $($name => Some(UnaryOp::$Var),)* _ => None }
            }
            /// Does this op keep integer dtypes (rather than promote them to float)?
            pub fn keeps_int(self) -> bool {
                match self { $(UnaryOp::$Var => unary_ops!(@has $int)),* }
            }
        }

        fn float_kernel<T: Element>(op: UnaryOp, v: &[T], l: &Layout) -> Vec<T> {
            match op {
                $(UnaryOp::$Var => map(v, l, |p: T| { let $x = p.to_f64(); T::from_f64($f) }),)*
            }
        }

        fn int_kernel<T: Element>(op: UnaryOp, v: &[T], l: &Layout) -> Vec<T> {
            match op {
                $(UnaryOp::$Var => unary_ops!(@int $int, v, l, T),)*
            }
        }
    };
    (@has none) => { false };
    (@has (|$y:ident| $g:expr)) => { true };
    // Unreachable from input: ops without an integer kernel get float input
    // (tensor::ops::elementwise promotes integers before dispatch).
    (@int none, $v:expr, $l:expr, $T:ty) => { unreachable!("this op promotes integers to float first") };
    (@int (|$y:ident| $g:expr), $v:expr, $l:expr, $T:ty) => {
        map($v, $l, |p: $T| { let $y = p.to_i64(); <$T>::from_i64($g) })
    };
}

unary_ops! {
    Neg "neg" float |x| -x, int (|y| y.wrapping_neg());
    Abs "abs" float |x| x.abs(), int (|y| y.wrapping_abs());
    Sign "sign" float |x| if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else if x.is_nan() { f64::NAN } else { 0.0 }, int (|y| y.signum());
    Square "square" float |x| x * x, int (|y| y.wrapping_mul(y));
    Relu "relu" float |x| if x > 0.0 || x.is_nan() { x } else { 0.0 }, int (|y| y.max(0));
    Floor "floor" float |x| x.floor(), int (|y| y);
    Ceil "ceil" float |x| x.ceil(), int (|y| y);
    // PyTorch rounds half to even.
    Round "round" float |x| x.round_ties_even(), int (|y| y);
    Trunc "trunc" float |x| x.trunc(), int (|y| y);
    BitNot "bitwise_not" float |x| x, int (|y| !y);
    Exp "exp" float |x| x.exp(), int none;
    Exp2 "exp2" float |x| x.exp2(), int none;
    Expm1 "expm1" float |x| x.exp_m1(), int none;
    Log "log" float |x| x.ln(), int none;
    Log2 "log2" float |x| x.log2(), int none;
    Log10 "log10" float |x| x.log10(), int none;
    Log1p "log1p" float |x| x.ln_1p(), int none;
    Sqrt "sqrt" float |x| x.sqrt(), int none;
    Rsqrt "rsqrt" float |x| 1.0 / x.sqrt(), int none;
    Sin "sin" float |x| x.sin(), int none;
    Cos "cos" float |x| x.cos(), int none;
    Tan "tan" float |x| x.tan(), int none;
    Asin "asin" float |x| x.asin(), int none;
    Acos "acos" float |x| x.acos(), int none;
    Atan "atan" float |x| x.atan(), int none;
    Sinh "sinh" float |x| x.sinh(), int none;
    Cosh "cosh" float |x| x.cosh(), int none;
    Tanh "tanh" float |x| x.tanh(), int none;
    Sigmoid "sigmoid" float |x| 1.0 / (1.0 + (-x).exp()), int none;
    Reciprocal "reciprocal" float |x| 1.0 / x, int none;
    Erf "erf" float |x| erf(x), int none;
    Frac "frac" float |x| x - x.trunc(), int none;
}

/// Abramowitz–Stegun 7.1.26 is too coarse for gelu; this is W. J. Cody's rational
/// approximation as used by many libms, accurate to ~1e-15.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let r = if ax < 0.5 {
        let t = x * x;
        let p = [
            3.161_123_743_870_565_5,
            1.138_641_541_510_501_6e2,
            3.774_852_376_853_02e2,
            3.209_377_589_138_469_4e3,
            1.857_777_061_846_031_5e-1,
        ];
        let q = [
            2.360_129_095_234_412_2e1,
            2.440_246_379_344_441_7e2,
            1.282_616_526_077_372_3e3,
            2.844_236_833_439_171e3,
        ];
        let num = (((p[4] * t + p[0]) * t + p[1]) * t + p[2]) * t + p[3];
        let den = (((t + q[0]) * t + q[1]) * t + q[2]) * t + q[3];
        return x * num / den;
    } else if ax < 4.0 {
        let p = [
            5.641_884_969_886_701e-1,
            8.883_149_794_388_377,
            6.611_919_063_714_163e1,
            2.986_351_381_974_001e2,
            8.819_522_212_417_69e2,
            1.712_047_612_634_070_7e3,
            2.051_078_377_826_071_6e3,
            1.230_339_354_797_997_2e3,
            2.153_115_354_744_038_3e-8,
        ];
        let q = [
            1.574_492_611_070_983_5e1,
            1.176_939_508_913_125e2,
            5.371_811_018_620_099e2,
            1.621_389_574_566_690_3e3,
            3.290_799_235_733_459_7e3,
            4.362_619_090_143_247e3,
            3.439_367_674_143_721_6e3,
            1.230_339_354_803_749_5e3,
        ];
        let mut num = p[8] * ax;
        let mut den = ax;
        for i in 0..7 {
            num = (num + p[i]) * ax;
            den = (den + q[i]) * ax;
        }
        let erfc = (num + p[7]) / (den + q[7]) * (-ax * ax).exp();
        1.0 - erfc
    } else {
        1.0
    };
    if x < 0.0 { -r } else { r }
}

fn typed<T: Element>(op: UnaryOp, v: &[T], l: &Layout) -> Storage {
    if T::DTYPE.is_float() {
        T::wrap(float_kernel(op, v, l))
    } else {
        T::wrap(int_kernel(op, v, l))
    }
}

/// `op` over a storage; integer inputs only for ops with `keeps_int()`.
pub fn unary(op: UnaryOp, s: &Storage, l: &Layout) -> Storage {
    with_storage!(s, v => typed(op, v, l))
}

/// An arbitrary float map (clamp bounds, leaky slopes...), same dtype out.
pub fn map_float(s: &Storage, l: &Layout, f: impl Fn(f64) -> f64 + Sync + Send) -> Storage {
    fn go<T: Element>(v: &[T], l: &Layout, f: impl Fn(f64) -> f64 + Sync + Send) -> Storage {
        T::wrap(map(v, l, |p| T::from_f64(f(p.to_f64()))))
    }
    with_storage!(s, v => go(v, l, &f))
}

/// An arbitrary integer map, same dtype out.
pub fn map_int(s: &Storage, l: &Layout, f: impl Fn(i64) -> i64 + Sync + Send) -> Storage {
    fn go<T: Element>(v: &[T], l: &Layout, f: impl Fn(i64) -> i64 + Sync + Send) -> Storage {
        T::wrap(map(v, l, |p| T::from_i64(f(p.to_i64()))))
    }
    with_storage!(s, v => go(v, l, &f))
}

/// A predicate over elements as f64 → bool storage (isnan, isinf, isfinite, nonzero).
pub fn test(s: &Storage, l: &Layout, f: impl Fn(f64) -> bool + Sync + Send) -> Storage {
    with_storage!(s, v => Storage::Bool(map(v, l, |p| f(p.to_f64()))))
}
