//! More float32 functions computed in f64 and rounded once, built on
//! fastmath.rs's cores (or, for atan, a core of its own) so that loops over
//! them vectorise: libm's per-element calls ran 3-15x behind PyTorch's SIMD
//! versions. Each f64 result is within a few parts in 1e16, so the f32 one
//! is the correctly rounded result but for inputs within a hair of a
//! rounding boundary.

use super::fastmath::{exp_parts, ln_core, ln_times_f32, nearest_int, pow2_f64, sincos_core};
use super::math::horner_fma;

/// 2^x of an f32: 2^q · 2^s with q the nearest integer and s = x - q (both
/// exact), 2^s = exp(s ln 2) in f64; exact where x is an integer, so that
/// 2^-150, half the least subnormal, rounds to even (0) as the C library's
/// exp2f has it.
#[inline(always)]
pub fn exp2_f32(x: f32) -> f32 {
    // Below -150 the f32 result is 0, at 128 and above infinity.
    #[allow(clippy::manual_clamp)]
    let xc = (x as f64).max(-151.0).min(129.0);
    let (q, qi) = nearest_int(xc);
    let (p, scale) = exp_parts((xc - q) * std::f64::consts::LN_2);
    let e = ((p + 1.0) * scale * pow2_f64(qi)) as f32;
    if x.is_nan() { x } else { e }
}

#[inline(always)]
pub fn log2_f32(x: f32) -> f32 {
    ln_times_f32(x, std::f64::consts::LOG2_E)
}

#[inline(always)]
pub fn log10_f32(x: f32) -> f32 {
    ln_times_f32(x, std::f64::consts::LOG10_E)
}

/// tan of an f32 with |x| < SINCOS_RANGE: sin / cos in f64, rounded once.
#[inline(always)]
pub fn tan_f32(x: f32) -> f32 {
    let (s, c) = sincos_core(x as f64);
    let t = (s / c) as f32;
    // -0 keeps its sign (sin_core gives +0 for it).
    if x == 0.0 { x } else { t }
}

/// atan(j/4) for j = 1..4, the reduction points of atan_core.
const ATAN_QUARTERS: [f64; 4] = [
    0.244_978_663_126_864_14,
    0.463_647_609_000_806_1,
    0.643_501_108_793_284_4,
    std::f64::consts::FRAC_PI_4,
];

/// atan(a) in f64 for a >= 0 (infinity included): beyond 1 as
/// π/2 - atan(1/a); then t = a (or 1/a) in [0, 1] moves to the nearest
/// quarter c = j/4 by atan t = atan c + atan((t - c) / (1 + t c)), which
/// leaves |u| <= 1/8, where the series to u^19 is within 1e-19. For t = 1/a
/// the quotient is (1 - a c) / (a + c), so one f64 divide serves both (it
/// was two a lane); the quarter is picked from a float32 estimate of 1/a,
/// which may leave |u| a hair over 1/8.
#[inline(always)]
fn atan_core(a: f64) -> f64 {
    let inverted = a > 1.0;
    let t = if inverted { (1.0 / a as f32) as f64 } else { a };
    let j = (t * 4.0).round();
    let c = j * 0.25;
    let (num, den) = if inverted {
        // (inf · 0 would be NaN: atan(inf) is π/2 - 1/1e300.)
        let a = a.min(1e300);
        ((-a).mul_add(c, 1.0), a + c)
    } else {
        (a - c, a.mul_add(c, 1.0))
    };
    let u = num / den;
    let base = if j >= 4.0 {
        ATAN_QUARTERS[3]
    } else if j >= 3.0 {
        ATAN_QUARTERS[2]
    } else if j >= 2.0 {
        ATAN_QUARTERS[1]
    } else if j >= 1.0 {
        ATAN_QUARTERS[0]
    } else {
        0.0
    };
    let u2 = u * u;
    // (-1)^k / (2k+1) for k = 9 down to 1.
    const C: [f64; 9] = [
        -1.0 / 19.0,
        1.0 / 17.0,
        -1.0 / 15.0,
        1.0 / 13.0,
        -1.0 / 11.0,
        1.0 / 9.0,
        -1.0 / 7.0,
        1.0 / 5.0,
        -1.0 / 3.0,
    ];
    let p = horner_fma(&C, u2);
    let r = base + (u * u2).mul_add(p, u);
    if inverted {
        std::f64::consts::FRAC_PI_2 - r
    } else {
        r
    }
}

#[inline(always)]
pub fn atan_f32(x: f32) -> f32 {
    let r = atan_core((x as f64).abs()) as f32;
    if x.is_nan() { x } else { r.copysign(x) }
}

/// R(z) = (asin(x) - x) / x³ with z = x² <= 1/4 as one polynomial of degree
/// 12, highest power first, fitted to the relative error of asin (4e-18:
/// scripts/fit/asin_f64.py). fdlibm's rational z·P(z) / (1 + z·Q(z)) needed
/// a divide beside the square root, both on the one divider: torch.asin's
/// bound.
const ASIN_R: [f64; 13] = [
    0.03252136677253647,
    -0.020827071058849313,
    0.021585730664082457,
    0.003756418384580855,
    0.010767050420932416,
    0.011401252713132394,
    0.013980537778747257,
    0.017351635152949296,
    0.022372213738795926,
    0.030381942749934335,
    0.04464285717380503,
    0.07499999999971521,
    0.16666666666666757,
];

/// asin(a) for a = |x| <= 1 as fdlibm reduces it: below 1/2, a + a·z·R(z)
/// with z = a²; beyond, π/2 - 2(s + s·z·R(z)) with z = (1 - a)/2 and s = √z
/// (1 - a is exact). Returns s + s·z·R(z) and whether a was below 1/2; NaN
/// beyond 1 (the square root's).
#[inline(always)]
fn asin_parts(a: f64) -> (f64, bool) {
    let small = a <= 0.5;
    let z = if small { a * a } else { (1.0 - a) * 0.5 };
    let s = if small { a } else { z.sqrt() };
    let r = z * horner_fma(&ASIN_R, z);
    (s.mul_add(r, s), small)
}

#[inline(always)]
pub fn asin_f32(x: f32) -> f32 {
    let (t, small) = asin_parts((x as f64).abs());
    let r = if small {
        t
    } else {
        std::f64::consts::FRAC_PI_2 - 2.0 * t
    };
    let r = (r as f32).copysign(x);
    if x.is_nan() || x.abs() > 1.0 {
        f32::NAN
    } else {
        r
    }
}

/// acos(x) from the same parts: π/2 ∓ t below |x| = 1/2; 2t (x > 0) or
/// π - 2t (x < 0) beyond, so that acos near 1 keeps its relative digits.
#[inline(always)]
pub fn acos_f32(x: f32) -> f32 {
    use std::f64::consts::{FRAC_PI_2, PI};
    let xd = x as f64;
    let (t, small) = asin_parts(xd.abs());
    let r = match (small, xd < 0.0) {
        (true, false) => FRAC_PI_2 - t,
        (true, true) => FRAC_PI_2 + t,
        (false, false) => 2.0 * t,
        (false, true) => PI - 2.0 * t,
    };
    if x.is_nan() || x.abs() > 1.0 {
        f32::NAN
    } else {
        r as f32
    }
}

/// atanh(x) = ln((1 + x) / (1 - x)) / 2. ln_core keeps its digits near 1
/// (it reduces to (m - 1) / (m + 1)), so the quotient's rounding is all
/// that is lost: 1e-16 of a result at least 2^-12. Below that x + x³/3 is
/// exact to f32's precision.
#[inline(always)]
pub fn atanh_f32(x: f32) -> f32 {
    let xd = x as f64;
    let a = xd.abs();
    let w = (1.0 + a) / (1.0 - a);
    let big = 0.5 * ln_core(w);
    let small = a + a * a * a / 3.0;
    let r = if a < 1.0 / 4096.0 { small } else { big };
    // One select on |x| < 1 over values computed for every element (as
    // ln_times_f32's): a chain of ifs here compiled to branches, and kept
    // the whole loop scalar (4x PyTorch's time).
    let special = if a == 1.0 { f32::INFINITY } else { f32::NAN };
    let r = if a < 1.0 { r as f32 } else { special };
    let r = r.copysign(x);
    if x.is_nan() { x } else { r }
}

/// asinh(x) = ln(|x| + sqrt(x² + 1)) with the sign of x, in f64 (ln_core
/// keeps its digits near 1); below |x| = 2^-12 x - x³/6 is exact to f32's
/// precision. (Rust's f32 asinh works in f32, through libm's hypotf and
/// log1pf: slow, and one ulp off for an eighth of inputs.)
#[inline(always)]
pub fn asinh_f32(x: f32) -> f32 {
    let a = (x as f64).abs();
    let big = ln_core(a + (a * a + 1.0).sqrt());
    let small = a - a * a * a / 6.0;
    let r = if a < 1.0 / 4096.0 { small } else { big };
    let r = (r as f32).copysign(x);
    if x.is_finite() { r } else { x }
}

/// acosh(x) = ln(x + sqrt(x² - 1)) for x >= 1, in f64: x² - 1 is exact near
/// 1 (x² has 48 bits), and acosh there is at least sqrt(2^-23), far above
/// the 1e-16 that the logarithm's argument loses.
#[inline(always)]
pub fn acosh_f32(x: f32) -> f32 {
    let xd = x as f64;
    let r = ln_core(xd + (xd * xd - 1.0).sqrt()) as f32;
    if x >= 1.0 && x.is_finite() {
        r
    } else if x == f32::INFINITY {
        x
    } else {
        f32::NAN
    }
}

/// atan2(y, x) of f32s in f64: atan(|y| / |x|), then π minus it where x's
/// sign bit is set, with y's sign. The quotient is inf where x = 0 (π/2),
/// 0 where y = 0 (0 or π, as IEEE has atan2(±0, ∓0)), and NaN where both
/// are 0 or both infinite, which are decided by the signs alone.
#[inline(always)]
pub fn atan2_f32(y: f32, x: f32) -> f32 {
    use std::f64::consts::{FRAC_PI_4, PI};
    let (ay, ax) = ((y as f64).abs(), (x as f64).abs());
    let left = x.is_sign_negative();
    let r = atan_core(ay / ax);
    // 0/0 gives 0 (π on the left), inf/inf π/4 (3π/4 on the left).
    let r = if ay == 0.0 && ax == 0.0 { 0.0 } else { r };
    let r = if ay.is_infinite() && ax.is_infinite() {
        FRAC_PI_4
    } else {
        r
    };
    let r = if left { PI - r } else { r };
    let r = (r as f32).copysign(y);
    if x.is_nan() || y.is_nan() {
        f32::NAN
    } else {
        r
    }
}

/// C's fmod of f32s, a - trunc(a / b)·b in f64, and whether that is exact:
/// it is for a finite b and a quotient under 2^26 (a block of such pairs
/// takes the vector loop; the kernel redoes any other block with libm's).
/// The f64 quotient's rounding (2^-53 of a quotient under 2^26) is below
/// the distance from a non-integral a / b to the nearest integer (2^-24 at
/// least, as a - k b is a nonzero multiple of the smaller ulp), and k·b and
/// the difference fit in 53 bits. A zero takes a's sign.
#[inline(always)]
pub fn fmod_f32(a: f32, b: f32) -> (f32, bool) {
    let (ad, bd) = (a as f64, b as f64);
    let q = ad / bd;
    let exact = b.is_finite() && q.abs() < 67_108_864.0;
    let r = (ad - q.trunc() * bd) as f32;
    (if r == 0.0 { 0.0f32.copysign(a) } else { r }, exact)
}

/// x^y of f32s: e^(y ln|x|) in f64 (within a few parts in 1e15 for every
/// result f32 can hold), rounded once, with C's special cases as selects so
/// that the loop vectorises (libm's powf per element ran at 2.5x PyTorch's
/// SLEEF powf; both are within an ulp of this, which is the correctly
/// rounded result but for inputs within a hair of a rounding boundary).
#[inline(always)]
pub fn pow_f32(x: f32, y: f32) -> f32 {
    let (xd, yd) = (x as f64, y as f64);
    let ax = xd.abs();
    // ln|x|, with IEEE's log of 0 and of infinity; NaN stays NaN.
    let l = ln_core(ax);
    let l = if ax == 0.0 { f64::NEG_INFINITY } else { l };
    let l = if ax.is_infinite() || ax.is_nan() {
        ax
    } else {
        l
    };
    // Beyond ±200 the f32 result is 0 or infinity (selects in this order
    // pass NaN through).
    let t = yd * l;
    let t = if t < -200.0 { -200.0 } else { t };
    let t = if t > 200.0 { 200.0 } else { t };
    let (q, scale) = exp_parts(t);
    let m = (q + 1.0) * scale;
    // Every f32 of magnitude 2^24 or more is an even integer.
    let big = yd.abs() >= 16_777_216.0;
    let (n, ni) = nearest_int(if big { 0.0 } else { yd });
    let integral = big || n == yd;
    let odd = !big && n == yd && ni & 1 == 1;
    let m = if x.is_sign_negative() && odd { -m } else { m };
    // A finite negative base to a fractional power has no real value.
    let m = if xd < 0.0 && xd.is_finite() && !integral {
        f64::NAN
    } else {
        m
    };
    // x^0 = 1 and 1^y = 1 even for NaN, and (-1)^±inf = 1.
    let one = yd == 0.0 || xd == 1.0 || (ax == 1.0 && yd.is_infinite());
    (if one { 1.0 } else { m }) as f32
}

/// sqrt(x² + y²) of f32s in f64, where the squares are exact and cannot
/// overflow or underflow, rounded once (libm's hypotf per element ran at
/// 2.6x PyTorch's SLEEF hypotf); an infinite side gives infinity, NaN or not.
#[inline(always)]
pub fn hypot_f32(x: f32, y: f32) -> f32 {
    let (xd, yd) = (x as f64, y as f64);
    let h = (xd * xd + yd * yd).sqrt() as f32;
    if x.is_infinite() || y.is_infinite() {
        f32::INFINITY
    } else {
        h
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::tensor::op::fastmath::SINCOS_RANGE;

    /// Inputs over every binade from 1e-38 to 1e4, both signs, with the
    /// special values.
    fn grid(limit: f32) -> Vec<f32> {
        let mut xs = Vec::new();
        let mut x = 1e-38f32;
        while x < limit {
            xs.push(x);
            xs.push(-x);
            x *= 1.000_37;
        }
        xs.extend([0.0, -0.0, 0.5, 1.0, -1.0, 0.999_999_94, f32::INFINITY]);
        xs.extend([f32::NEG_INFINITY, 127.9, 128.0, -149.5, -150.0, -160.0]);
        xs
    }

    /// Each function against libm's f64 version rounded once: equal but for
    /// a few inputs within a hair of a rounding boundary, never more than one
    /// ulp away, NaN where it is NaN, and the sign of zero kept.
    fn check(name: &str, f: fn(f32) -> f32, reference: fn(f64) -> f64, limit: f32) {
        crate::tensor::op::fastmath::tests::check_on(name, f, reference, &grid(limit), 10_000);
        assert!(f(f32::NAN).is_nan(), "{name}(nan)");
    }

    /// atan2 against libm's f64 atan2 rounded once (IEEE's signed zeros and
    /// infinities included), and fmod against Rust's `%` (C's fmod) bit for
    /// bit wherever the fast form claims exactness.
    fn check_atan2_and_fmod() {
        let mut xs: Vec<f32> = grid(1e4).into_iter().step_by(37).collect();
        xs.extend([
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-45,
            -3.0,
            7.5,
        ]);
        let (mut differ, mut total) = (0, 0);
        for &y in &xs {
            for &x in &xs {
                let want = (y as f64).atan2(x as f64) as f32;
                let got = atan2_f32(y, x);
                total += 1;
                if want.is_nan() {
                    assert!(got.is_nan(), "atan2({y}, {x}) = {got}");
                } else if got.to_bits() != want.to_bits() {
                    differ += 1;
                    let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
                    assert!(ulps <= 1, "atan2({y}, {x}) = {got}, want {want}");
                }
                if let (got, true) = fmod_f32(y, x) {
                    let want = y % x;
                    assert!(
                        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                        "fmod({y}, {x}) = {got}, want {want}"
                    );
                }
            }
        }
        assert!(differ * 10_000 < total, "atan2: {differ} of {total} differ");
    }

    /// pow against libm's f64 pow rounded once and hypot against its f64
    /// hypot: within an ulp and equal but for a hair's-breadth few; C's special
    /// cases (zeros, infinities, NaN, negative bases) equal f32::powf's.
    fn check_pow_and_hypot() {
        let mut xs: Vec<f32> = grid(1e4).into_iter().step_by(41).collect();
        let specials = [
            0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 2.5, -2.5,
        ];
        xs.extend(specials);
        xs.extend([
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-45,
            -1e-45,
            4097.0,
        ]);
        xs.extend([16_777_216.0, -16_777_217.0, 1e30, -1e30]);
        let (mut differ, mut total) = (0, 0);
        for &x in &xs {
            for &y in &xs {
                for (name, got, want, exact) in [
                    (
                        "pow",
                        pow_f32(x, y),
                        x.powf(y),
                        (x as f64).powf(y as f64) as f32,
                    ),
                    (
                        "hypot",
                        hypot_f32(x, y),
                        x.hypot(y),
                        (x as f64).hypot(y as f64) as f32,
                    ),
                ] {
                    total += 1;
                    if want.is_nan() || exact.is_nan() {
                        assert!(got.is_nan(), "{name}({x}, {y}) = {got}, want NaN");
                    } else if !exact.is_finite() || exact == 0.0 || want == 0.0 {
                        assert_eq!(got.to_bits(), want.to_bits(), "{name}({x}, {y})");
                    } else if got.to_bits() != exact.to_bits() {
                        differ += 1;
                        let ulps = (got.to_bits() as i64 - exact.to_bits() as i64).abs();
                        assert!(ulps <= 1, "{name}({x}, {y}) = {got}, want {exact}");
                    }
                }
            }
        }
        assert!(
            differ * 10_000 < total,
            "pow, hypot: {differ} of {total} differ"
        );
        assert_eq!(pow_f32(2.0, 10.0), 1024.0);
        assert_eq!(pow_f32(-2.0, 3.0), -8.0);
        assert_eq!(pow_f32(-0.0, -3.0), f32::NEG_INFINITY);
        assert_eq!(pow_f32(f32::NAN, 0.0), 1.0);
        assert_eq!(pow_f32(1.0, f32::NAN), 1.0);
        assert_eq!(hypot_f32(3.0, 4.0), 5.0);
        assert_eq!(hypot_f32(f32::NAN, f32::NEG_INFINITY), f32::INFINITY);
    }

    crate::unit_tests! {
        fn derived_functions_are_correctly_rounded() {
            check("exp2", exp2_f32, f64::exp2, 1e4);
            assert_eq!(exp2_f32(-150.0), 0.0);
            assert_eq!(exp2_f32(-149.0), f32::from_bits(1));
            check("log2", log2_f32, f64::log2, 1e4);
            check("log10", log10_f32, f64::log10, 1e4);
            check("atan", atan_f32, f64::atan, 1e4);
            check("asin", asin_f32, f64::asin, 2.0);
            check("acos", acos_f32, f64::acos, 2.0);
            check("atanh", atanh_f32, f64::atanh, 2.0);
            check("asinh", asinh_f32, f64::asinh, 1e4);
            check("acosh", acosh_f32, f64::acosh, 1e4);
            let tan: fn(f32) -> f32 = |x| {
                if x.abs() < SINCOS_RANGE {
                    tan_f32(x)
                } else {
                    x.tan()
                }
            };
            check("tan", tan, f64::tan, 1e4);
            assert_eq!(log2_f32(8.0), 3.0);
            check_atan2_and_fmod();
            check_pow_and_hypot();
            assert_eq!(log10_f32(1000.0), 3.0);
            assert_eq!(exp2_f32(-3.0), 0.125);
            assert_eq!(atanh_f32(-1.0), f32::NEG_INFINITY);
            assert_eq!(atan_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        }
    }
}
