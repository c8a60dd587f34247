//! Scalar functions the op rows use where the standard library's are not what
//! the kernels need: the error function, Python's integer division and power
//! rules. (float32 transcendental functions that vectorise: fastmath.rs.)

/// The C library's functions that Rust's std does not offer; Python's math
/// module calls the same ones, so the digits agree; tensors' erfc uses them too.
pub mod libm {
    unsafe extern "C" {
        #[link_name = "erf"]
        fn c_erf(x: f64) -> f64;
        #[link_name = "erfc"]
        fn c_erfc(x: f64) -> f64;
        #[link_name = "lgamma"]
        fn c_lgamma(x: f64) -> f64;
        #[link_name = "lgammaf"]
        fn c_lgammaf(x: f32) -> f32;
    }
    // SAFETY (all): functions of a double, defined for every input (lgamma
    // also sets the C library's signgam, which nothing here reads);
    // std links the C math library on every platform tsh builds for.
    pub fn erf(x: f64) -> f64 {
        unsafe { c_erf(x) }
    }
    pub fn erfc(x: f64) -> f64 {
        unsafe { c_erfc(x) }
    }
    pub fn lgamma(x: f64) -> f64 {
        unsafe { c_lgamma(x) }
    }
    pub fn lgammaf(x: f32) -> f32 {
        unsafe { c_lgammaf(x) }
    }
}

/// W. J. Cody's rational approximations of erf: x·P1(x²)/Q1(x²) below |x| =
/// 0.5, 1 - e^(-x²)·P2(|x|)/Q2(|x|) up to 4 (Q monic; highest powers first).
pub(crate) const ERF_P1: [f64; 5] = [
    1.857_777_061_846_031_5e-1,
    3.161_123_743_870_565_5,
    1.138_641_541_510_501_6e2,
    3.774_852_376_853_02e2,
    3.209_377_589_138_469_4e3,
];
pub(crate) const ERF_Q1: [f64; 4] = [
    2.360_129_095_234_412_2e1,
    2.440_246_379_344_441_7e2,
    1.282_616_526_077_372_3e3,
    2.844_236_833_439_171e3,
];
pub(crate) const ERF_P2: [f64; 9] = [
    2.153_115_354_744_038_3e-8,
    5.641_884_969_886_701e-1,
    8.883_149_794_388_377,
    6.611_919_063_714_163e1,
    2.986_351_381_974_001e2,
    8.819_522_212_417_69e2,
    1.712_047_612_634_070_7e3,
    2.051_078_377_826_071_6e3,
    1.230_339_354_797_997_2e3,
];
pub(crate) const ERF_Q2: [f64; 8] = [
    1.574_492_611_070_983_5e1,
    1.176_939_508_913_125e2,
    5.371_811_018_620_099e2,
    1.621_389_574_566_690_3e3,
    3.290_799_235_733_459_7e3,
    4.362_619_090_143_247e3,
    3.439_367_674_143_721_6e3,
    1.230_339_354_803_749_5e3,
];

/// A polynomial by Horner's rule, highest power first.
#[inline(always)]
pub(crate) fn horner(coeffs: &[f64], x: f64) -> f64 {
    coeffs[1..].iter().fold(coeffs[0], |acc, c| acc * x + c)
}

/// The same with a leading coefficient of 1 (not stored).
#[inline(always)]
pub(crate) fn horner_monic(coeffs: &[f64], x: f64) -> f64 {
    coeffs.iter().fold(1.0, |acc, c| acc * x + c)
}

/// Horner's rule with FMAs, highest power first: the multiversioned kernels
/// that inline it (the float32 cores of fastmath*.rs) compile each step to
/// the instruction, half the operations of a multiply and an add.
#[inline(always)]
pub(crate) fn horner_fma(coeffs: &[f64], x: f64) -> f64 {
    coeffs[1..]
        .iter()
        .fold(coeffs[0], |acc, c| acc.mul_add(x, *c))
}

/// The same with a leading coefficient of 1 (not stored).
#[inline(always)]
pub(crate) fn horner_fma_monic(coeffs: &[f64], x: f64) -> f64 {
    coeffs.iter().fold(1.0, |acc, c| acc.mul_add(x, *c))
}

/// erf in f64 by Cody's approximations, accurate to ~1e-15.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    let r = if ax < 0.5 {
        let t = x * x;
        return x * horner(&ERF_P1, t) / horner_monic(&ERF_Q1, t);
    } else if ax < 4.0 {
        1.0 - horner(&ERF_P2, ax) / horner_monic(&ERF_Q2, ax) * (-ax * ax).exp()
    } else {
        1.0
    };
    if x < 0.0 { -r } else { r }
}

/// Floor division as Python's float `//` and ATen's `div_floor_floating`
/// compute it: from the exact remainder, so `1.0 // 0.1` is 9 (0.1 is a bit
/// more than a tenth), where floor(1.0 / 0.1) rounds to 10. Division by zero
/// gives IEEE's a / b.
macro_rules! div_floor {
    ($name:ident, $of_rem:ident, $t:ty, $rem:expr) => {
        #[inline(always)]
        pub fn $name(a: $t, b: $t) -> $t {
            $of_rem($rem(a, b), a, b)
        }

        /// The same from r = fmod(a, b), in selects rather than branches so
        /// that a loop over it vectorises.
        #[inline(always)]
        pub fn $of_rem(r: $t, a: $t, b: $t) -> $t {
            let div = (a - r) / b;
            let div = if r != 0.0 && ((b < 0.0) != (r < 0.0)) {
                div - 1.0
            } else {
                div
            };
            let floor = div.floor();
            let nearest = if div - floor > 0.5 {
                floor + 1.0
            } else {
                floor
            };
            let q = if div == 0.0 {
                (0.0 as $t).copysign(a / b)
            } else {
                nearest
            };
            if b == 0.0 { a / b } else { q }
        }
    };
}
div_floor!(
    div_floor_f64,
    div_floor_of_fmod_f64,
    f64,
    |a: f64, b: f64| a % b
);
div_floor!(div_floor_f32, div_floor_of_fmod_f32, f32, fmod_f32);

/// fmod of float32s (C's fmodf, Rust's `%`), exactly, without the library call
/// where the quotient is below 2^28: the remainder is a - n·b with n the
/// truncated quotient, and in f64 the quotient cannot round up to the next
/// integer (a/b is at least 2^-24 from it, more than half an f64 ulp of n),
/// n·b fits 53 bits and the difference is exact. Larger quotients, infinite
/// divisors and NaN go to the library (the call was most of `x // y`'s time).
#[inline(always)]
pub fn fmod_f32(a: f32, b: f32) -> f32 {
    let (ad, bd) = (a as f64, b as f64);
    let n = (ad / bd).trunc();
    if n.abs() < 268_435_456.0 && bd.is_finite() {
        // The remainder takes a's sign, also when it is zero.
        ((ad - n * bd) as f32).copysign(a)
    } else {
        a % b
    }
}

/// Python's modulo: the result takes the divisor's sign.
#[inline(always)]
pub fn py_fmod(a: f64, b: f64) -> f64 {
    let r = a % b;
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}

#[inline(always)]
pub fn py_fmod_f32(a: f32, b: f32) -> f32 {
    py_mod_of_fmod_f32(fmod_f32(a, b), b)
}

/// Python's modulo from C's remainder r = fmod(a, b): r + b where r is
/// nonzero and its sign differs from b's (rounded in f32, as ATen adds).
#[inline(always)]
pub fn py_mod_of_fmod_f32(r: f32, b: f32) -> f32 {
    if r != 0.0 && ((r < 0.0) != (b < 0.0)) {
        r + b
    } else {
        r
    }
}

#[inline(always)]
pub fn py_floordiv_int(a: i64, b: i64) -> i64 {
    if b == 0 {
        // Refused before the kernel runs; 0 keeps the loop total.
        return 0;
    }
    // wrapping_*: i64::MIN // -1 wraps as in PyTorch instead of panicking.
    let q = a.wrapping_div(b);
    if (a.wrapping_rem(b) != 0) && ((a < 0) != (b < 0)) {
        q.wrapping_sub(1)
    } else {
        q
    }
}

#[inline(always)]
pub fn py_mod_int(a: i64, b: i64) -> i64 {
    if b == 0 {
        return 0;
    }
    let r = a.wrapping_rem(b);
    if r != 0 && ((r < 0) != (b < 0)) {
        r.wrapping_add(b)
    } else {
        r
    }
}

/// Integer power by squaring, wrapping like PyTorch's integer `pow`.
#[inline(always)]
pub fn int_pow(mut base: i64, mut exp: i64) -> i64 {
    if exp < 0 {
        // Only reachable for bases ±1 (others are refused before the kernel).
        return match base {
            1 => 1,
            -1 => {
                if exp % 2 == 0 {
                    1
                } else {
                    -1
                }
            }
            _ => 0,
        };
    }
    let mut acc: i64 = 1;
    while exp > 0 {
        if exp & 1 == 1 {
            acc = acc.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        exp >>= 1;
    }
    acc
}

/// maximum/minimum propagate NaN, as PyTorch's do.
#[inline(always)]
pub fn nan_max_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    }
}

#[inline(always)]
pub fn nan_min_f64(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.min(y)
    }
}

/// sin(pi x) / (pi x), 1 at 0, in the element's own precision (as PyTorch).
#[inline(always)]
pub fn sinc_f32(x: f32) -> f32 {
    if x == 0.0 {
        return 1.0;
    }
    let px = std::f32::consts::PI * x;
    px.sin() / px
}

#[inline(always)]
pub fn sinc_f64(x: f64) -> f64 {
    if x == 0.0 {
        return 1.0;
    }
    let px = std::f64::consts::PI * x;
    px.sin() / px
}

/// log(exp(x) + exp(y)) as PyTorch computes it: the larger plus
/// log1p(exp(-|x - y|)), and x itself when both are the same infinity.
#[inline(always)]
pub fn logaddexp(x: f64, y: f64) -> f64 {
    if x.is_infinite() && x == y {
        return x;
    }
    let m = if x.is_nan() || y.is_nan() {
        f64::NAN
    } else {
        x.max(y)
    };
    m + (-(x - y).abs()).exp().ln_1p()
}

#[inline(always)]
pub fn logaddexp_f32(x: f32, y: f32) -> f32 {
    if x.is_infinite() && x == y {
        return x;
    }
    let m = if x.is_nan() || y.is_nan() {
        f32::NAN
    } else {
        x.max(y)
    };
    m + (-(x - y).abs()).exp().ln_1p()
}

#[inline(always)]
pub fn xlogy_f32(x: f32, y: f32) -> f32 {
    if y.is_nan() {
        f32::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x * y.ln()
    }
}

/// x * log(y), 0 where x is 0 (NaN stays NaN), as PyTorch's xlogy.
#[inline(always)]
pub fn xlogy(x: f64, y: f64) -> f64 {
    if y.is_nan() {
        f64::NAN
    } else if x == 0.0 {
        0.0
    } else {
        x * y.ln()
    }
}

#[inline(always)]
pub fn nan_max_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else {
        x.max(y)
    }
}

#[inline(always)]
pub fn nan_min_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else {
        x.min(y)
    }
}

#[inline(always)]
pub fn sign_f64(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else if x.is_nan() {
        f64::NAN
    } else {
        0.0
    }
}

#[inline(always)]
pub fn sign_f32(x: f32) -> f32 {
    sign_f64(x as f64) as f32
}

#[inline(always)]
pub fn shl_int(x: i64, y: i64) -> i64 {
    if (0..64).contains(&y) {
        x.wrapping_shl(y as u32)
    } else {
        0
    }
}

#[inline(always)]
pub fn shr_int(x: i64, y: i64) -> i64 {
    if (0..64).contains(&y) {
        x >> y
    } else if x < 0 {
        -1
    } else {
        0
    }
}

/// C's nextafter: the neighbouring float of x in the direction of y (y when
/// they are equal, so nextafter(-0., 0.) is 0.).
pub fn nextafter(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        f64::NAN
    } else if x == y {
        y
    } else if x < y {
        x.next_up()
    } else {
        x.next_down()
    }
}

pub fn nextafter_f32(x: f32, y: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else if x == y {
        y
    } else if x < y {
        x.next_up()
    } else {
        x.next_down()
    }
}

#[doc(hidden)]
pub mod tests {
    use super::fmod_f32;

    crate::unit_tests! {
        /// fmod_f32 gives the library's fmodf bits for every kind of pair: random
        /// bit patterns (all exponents, subnormals, infinities, NaN), quotients
        /// near integers and near the 2^28 edge, zeros of both signs.
        fn fmod_matches_the_library() {
            let same = |a: f32, b: f32| {
                let (got, want) = (fmod_f32(a, b), a % b);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "fmod({a:e}, {b:e}): {got:e}, the library {want:e}"
                );
            };
            let mut s = 0x2545_f491_4f6c_dd1du64;
            let mut next = || {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            };
            for _ in 0..200_000 {
                let r = next();
                same(f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32));
                // Operands within a few binades of each other: small quotients.
                let b = f32::from_bits((r >> 32) as u32 & 0x807f_ffff | 0x3f00_0000);
                let a = b * ((r & 0xffff) as f32 + 0.5)
                    + f32::from_bits(r as u32 & 0x007f_ffff | 0x3400_0000);
                same(a, b);
                same(-a, b);
                same(a, -b);
            }
            for (a, b) in [
                (1.0, 0.1),
                (-4.0, 2.0),
                (4.0, -2.0),
                (-0.0, 3.0),
                (0.0, -3.0),
                (7.5, f32::INFINITY),
                (f32::INFINITY, 2.0),
                (268_435_455.0, 1.0),
                (268_435_456.0, 1.0),
                (3.0e38, 1.0e-38),
                (1.0e-45, 3.0e-45),
                (16_777_217.0, 0.3),
            ] {
                same(a, b);
            }
        }
    }
}
