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
    Relu "relu" float |x| if x > 0.0 { x } else if x.is_nan() { x } else { 0.0 }, int (|y| y.max(0));
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
        let p = [3.16112374387056560e00, 1.13864154151050156e02, 3.77485237685302021e02, 3.20937758913846947e03, 1.85777706184603153e-1];
        let q = [2.36012909523441209e01, 2.44024637934444173e02, 1.28261652607737228e03, 2.84423683343917062e03];
        let num = (((p[4] * t + p[0]) * t + p[1]) * t + p[2]) * t + p[3];
        let den = (((t + q[0]) * t + q[1]) * t + q[2]) * t + q[3];
        return x * num / den;
    } else if ax < 4.0 {
        let p = [5.64188496988670089e-1, 8.88314979438837594e00, 6.61191906371416295e01, 2.98635138197400131e02, 8.81952221241769090e02, 1.71204761263407058e03, 2.05107837782607147e03, 1.23033935479799725e03, 2.15311535474403846e-8];
        let q = [1.57449261107098347e01, 1.17693950891312499e02, 5.37181101862009858e02, 1.62138957456669019e03, 3.29079923573345963e03, 4.36261909014324716e03, 3.43936767414372164e03, 1.23033935480374942e03];
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
    if T::DTYPE.is_float() { T::wrap(float_kernel(op, v, l)) } else { T::wrap(int_kernel(op, v, l)) }
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
