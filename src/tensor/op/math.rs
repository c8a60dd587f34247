//! Scalar functions the op rows use where the standard library's are not what
//! the kernels need: an `exp` that vectorises, the error function, and Python's
//! integer division and power rules.

/// exp(x) of an f32, computed in f64 and rounded once, so the result is the
/// correctly rounded one (as PyTorch's is for about 99% of inputs: `exp(4.)`
/// prints its digits),
/// without a library call so that loops over slices vectorise: x = n ln 2 + r
/// with |r| <= ln 2 / 2, exp(r) by its Taylor polynomial to r^13 (error below
/// 2e-16), then 2^n put in the exponent bits.
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    const LN2_HI: f64 = 6.931_471_803_691_238e-1;
    const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;
    // 1.5 * 2^52: adding it rounds to the nearest integer.
    const ROUND: f64 = 6_755_399_441_055_744.0;
    // Below -104 the f32 result is 0, above 89 infinity.
    #[allow(clippy::manual_clamp)]
    let xc = (x as f64).max(-104.0).min(89.0);
    let t = xc * LOG2E + ROUND;
    let n = t - ROUND;
    let ni = (t.to_bits() as i64).wrapping_sub(0x4338_0000_0000_0000);
    let r = xc - n * LN2_HI - n * LN2_LO;
    // 1/k! for k = 13 down to 2.
    const C: [f64; 12] = [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
    ];
    let mut p = C[0];
    for c in &C[1..] {
        p = p * r + c;
    }
    let y = p * r * r + r + 1.0;
    let scale = f64::from_bits(((ni + 1023) as u64) << 52);
    let e = (y * scale) as f32;
    if x.is_nan() { x } else { e }
}

/// ln(x) of an f32, computed in f64 and rounded once (correctly rounded, as
/// PyTorch's is for about 95% of inputs; its SLEEF logf is off by one ulp for
/// the rest), without a library call: x =
/// 2^e m with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(s) with s = (m-1)/(m+1)
/// by its series to s^23 (|s| < 0.172, error below 1e-17).
#[inline(always)]
pub fn ln_f32(x: f32) -> f32 {
    let xd = x as f64;
    let bits = xd.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let s = (m - 1.0) / (m + 1.0);
    let s2 = s * s;
    // 1/(2k+1) for k = 11 down to 1.
    const C: [f64; 11] = [
        1.0 / 23.0,
        1.0 / 21.0,
        1.0 / 19.0,
        1.0 / 17.0,
        1.0 / 15.0,
        1.0 / 13.0,
        1.0 / 11.0,
        1.0 / 9.0,
        1.0 / 7.0,
        1.0 / 5.0,
        1.0 / 3.0,
    ];
    let mut p = C[0];
    for c in &C[1..] {
        p = p * s2 + c;
    }
    let ln_m = 2.0 * s + 2.0 * s * s2 * p;
    let y = (e as f64 * std::f64::consts::LN_2 + ln_m) as f32;
    // f32 subnormals are normal f64s, so only these need their own answers.
    if x > 0.0 && x.is_finite() {
        y
    } else if x == 0.0 {
        f32::NEG_INFINITY
    } else if x == f32::INFINITY {
        x
    } else {
        f32::NAN
    }
}

/// The earlier f32-only exp (about 1 ulp), kept for the softmax lines, whose
/// sums PyTorch also computes with a fast vectorised exp.
#[inline(always)]
pub fn exp_f32_fast(x: f32) -> f32 {
    const LOG2E: f32 = std::f32::consts::LOG2_E;
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // 1.5 * 2^23: adding it rounds to the nearest integer (ties to even), and
    // leaves that integer in the low bits of the sum.
    const ROUND: f32 = 12_582_912.0;
    // Below -104 the result is 0, above 89 infinity. (max/min vectorise where
    // clamp does not; NaN is put back at the end.)
    #[allow(clippy::manual_clamp)]
    let xc = x.max(-104.0).min(89.0);
    let t = xc * LOG2E + ROUND;
    let n = t - ROUND;
    let ni = t.to_bits() as i32 - 0x4B40_0000;
    let r = xc - n * LN2_HI - n * LN2_LO;
    let mut p: f32 = 1.987_569_1e-4;
    p = p * r + 1.398_199_9e-3;
    p = p * r + 8.333_452e-3;
    p = p * r + 4.166_579_6e-2;
    p = p * r + 1.666_666_5e-1;
    p = p * r + 0.5;
    let y = p * r * r + r + 1.0;
    let half = ni >> 1;
    let f1 = f32::from_bits(((half + 127) << 23) as u32);
    let f2 = f32::from_bits(((ni - half + 127) << 23) as u32);
    let e = y * f1 * f2;
    if x.is_nan() { x } else { e }
}

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

/// W. J. Cody's rational approximation of erf, accurate to ~1e-15.
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
    let r = a % b;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// exp and ln of f32s are the f64 results rounded once: exact on this grid,
    /// subnormals included.
    #[test]
    fn exp_and_ln_f32_are_correctly_rounded() {
        let mut x = -110.0f32;
        while x < 95.0 {
            assert_eq!(exp_f32(x), (x as f64).exp() as f32, "exp({x})");
            if x > 0.0 {
                assert_eq!(ln_f32(x), (x as f64).ln() as f32, "ln({x})");
            }
            x += 0.0137;
        }
        for x in [f32::MIN_POSITIVE, 1e-45, 3.4e38, 1.0, 2.718_281_7, 0.5, 1.5] {
            assert_eq!(ln_f32(x), (x as f64).ln() as f32, "ln({x})");
        }
        assert_eq!(ln_f32(0.0), f32::NEG_INFINITY);
        assert_eq!(ln_f32(f32::INFINITY), f32::INFINITY);
        assert!(ln_f32(-1.0).is_nan() && ln_f32(f32::NAN).is_nan());
        assert_eq!(exp_f32(4.0).to_bits(), 0x425A_6481);
    }

    #[test]
    fn exp_f32_fast_is_within_two_ulp_everywhere() {
        let mut worst = 0u32;
        let mut x = -110.0f32;
        while x < 95.0 {
            let want = (x as f64).exp() as f32;
            let got = exp_f32_fast(x);
            let ulps = if want.is_infinite() || want == 0.0 {
                (got != want && !(want == 0.0 && got.abs() < 1e-44)) as u32 * 100
            } else {
                (got.to_bits() as i64 - want.to_bits() as i64).unsigned_abs() as u32
            };
            // Subnormal results keep fewer significant bits; their error is absolute.
            if want.abs() >= f32::MIN_POSITIVE {
                worst = worst.max(ulps);
            }
            x += 0.0137;
        }
        assert!(worst <= 2, "worst error {worst} ulp");
        assert!(exp_f32_fast(f32::NAN).is_nan());
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(exp_f32(0.0), 1.0);
    }
}
