//! Scalar ports of the vector math PyTorch's CPU kernels call, so that their
//! results match bit for bit: the Cephes-derived `log256_ps` and `sincos256_ps`
//! of avx_mathfun.h, which its normal sampler uses for float32 blocks of 16
//! (normal_fill_16_AVX2), and SLEEF's `expf` (u10), which `Vectorized<float>::exp`
//! is (softmax). Same constants and the same order of operations, with the
//! FMAs of the vector code; constants written as the sources write them.
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

pub use crate::tensor::op::fastmath::exp_sleef;
use crate::tensor::op::fastmath::{fused, ldexp2, pow2, whole_i32};

const SQRTHF: f32 = std::f32::consts::FRAC_1_SQRT_2;
const LOG_P: [f32; 9] = [
    7.0376836292E-2,
    -1.1514610310E-1,
    1.1676998740E-1,
    -1.2420140846E-1,
    1.4249322787E-1,
    -1.6668057665E-1,
    2.0000714765E-1,
    -2.4999993993E-1,
    3.3333331174E-1,
];
const LOG_Q1: f32 = -2.12194440e-4;
const LOG_Q2: f32 = 0.693359375;

/// Natural log as log256_ps computes it (NaN for x <= 0).
#[inline(always)]
pub fn log_ps(x: f32) -> f32 {
    let invalid = x <= 0.0;
    let x = x.max(f32::MIN_POSITIVE);
    let bits = x.to_bits();
    let exponent = (bits >> 23) as i32 - 0x7f;
    // The mantissa, scaled into [0.5, 1).
    let mut x = f32::from_bits((bits & !0x7f80_0000) | 0.5f32.to_bits());
    let mut e = exponent as f32 + 1.0;
    let small = x < SQRTHF;
    let tmp = if small { x } else { 0.0 };
    x -= 1.0;
    e -= if small { 1.0 } else { 0.0 };
    x += tmp;
    let z = x * x;
    let mut y = LOG_P[0];
    for p in &LOG_P[1..] {
        y = fused(y, x, *p);
    }
    y *= x;
    y = fused(y, z, e * LOG_Q1);
    y = fused(-z, 0.5, y);
    x += y;
    x = fused(e, LOG_Q2, x);
    if invalid { f32::NAN } else { x }
}

const FOPI: f32 = 1.27323954473516;
const DP1: f32 = -0.78515625;
const DP2: f32 = -2.4187564849853515625e-4;
const DP3: f32 = -3.77489497744594108e-8;
const SIN_P: [f32; 3] = [-1.9515295891E-4, 8.3321608736E-3, -1.6666654611E-1];
const COS_P: [f32; 3] = [
    2.443315711809948E-005,
    -1.388731625493765E-003,
    4.166664568298827E-002,
];

/// Truncation to i32 as cvttps2dq does; an `as` cast saturates, which keeps
/// LLVM from vectorising. Inputs here are non-negative and below 2^22.
#[inline(always)]
fn trunc_small(x: f32) -> i32 {
    // 1.5 * 2^23 added to the truncated value leaves it in the low mantissa bits.
    ((x.trunc() + 12_582_912.0).to_bits() as i32) - 0x4B40_0000
}

/// (sin x, cos x) as sincos256_ps computes them.
#[inline(always)]
pub fn sincos_ps(x: f32) -> (f32, f32) {
    let sign_sin = x.to_bits() & 0x8000_0000;
    let mut x = x.abs();
    // The octant, rounded up to even (Cephes' j = (j + 1) & ~1).
    // (x·4/π is below 8 for every angle the sampler passes: 0 <= x < 2π.)
    let mut j = trunc_small(x * FOPI);
    j = (j + 1) & !1;
    let y = j as f32;
    let swap_sign_sin = ((j & 4) as u32) << 29;
    let poly_is_sin = (j & 2) != 0;
    // Extended precision modular arithmetic: x - y·π/4 in three parts.
    x = fused(y, DP1, x);
    x = fused(y, DP2, x);
    x = fused(y, DP3, x);
    let sign_cos = ((!(j - 2) & 4) as u32) << 29;
    let sign_sin = sign_sin ^ swap_sign_sin;
    let z = x * x;
    let mut c = COS_P[0];
    c = fused(c, z, COS_P[1]);
    c = fused(c, z, COS_P[2]);
    c *= z;
    c = fused(c, z, -(z * 0.5));
    c += 1.0;
    let mut s = SIN_P[0];
    s = fused(s, z, SIN_P[1]);
    s = fused(s, z, SIN_P[2]);
    s *= z;
    s = fused(s, x, x);
    let (sin, cos) = if poly_is_sin { (c, s) } else { (s, c) };
    (
        f32::from_bits(sin.to_bits() ^ sign_sin),
        f32::from_bits(cos.to_bits() ^ sign_cos),
    )
}

/// A float-float pair (hi + lo), SLEEF's `vfloat2`.
#[derive(Clone, Copy)]
struct F2(f32, f32);

/// SLEEF's df.h helpers, FMA variants.
fn add2_ff(x: f32, y: f32) -> F2 {
    let s = x + y;
    let v = s - x;
    F2(s, (x - (s - v)) + (y - v))
}

fn add_f2f2(x: F2, y: F2) -> F2 {
    let s = x.0 + y.0;
    F2(s, (((x.0 - s) + y.0) + x.1) + y.1)
}

fn add_f2f(x: F2, y: f32) -> F2 {
    let s = x.0 + y;
    F2(s, ((x.0 - s) + y) + x.1)
}

fn mul_f2f(x: F2, y: f32) -> F2 {
    let s = x.0 * y;
    F2(s, fused(x.1, y, fused(x.0, y, -s)))
}

fn div_f2f2(n: F2, d: F2) -> F2 {
    let t = 1.0 / d.0;
    let s = n.0 * t;
    let u = fused(t, n.0, -s);
    let v = fused(-d.1, t, fused(-d.0, t, 1.0));
    F2(s, fused(s, v, fused(n.1, t, u)))
}

/// SLEEF's `xexp2f` (1 ulp), as `Sleef_exp2f16_u10` computes it with FMA:
/// x = q + s with q the nearest integer, 2^s by a degree-6 polynomial, then
/// scaled by 2^q in two halves (torch.exp2's vector loop: its bits exactly).
#[inline(always)]
pub fn exp2_sleef(d: f32) -> f32 {
    let q = d.round_ties_even();
    let s = d - q;
    let mut u = 0.153_592_089_2e-3_f32;
    u = fused(u, s, 0.133_926_270_1e-2);
    u = fused(u, s, 0.961_838_476_4e-2);
    u = fused(u, s, 0.555_034_726_9e-1);
    u = fused(u, s, 0.240_226_447_6);
    u = fused(u, s, 0.693_147_182_5);
    let u = ldexp2(fused(u, s, 1.0), q);
    let u = if d >= 128.0 { f32::INFINITY } else { u };
    let u = if d < -150.0 { 0.0 } else { u };
    if d.is_nan() { d } else { u }
}

/// SLEEF's `xlogf_u1` (1 ulp), as `Sleef_logf16_u10` computes it: d = 2^e m
/// with m in [0.75, 1.5), ln m from atanh((m-1)/(m+1)) in float-float.
#[inline(always)]
pub fn log_sleef(d: f32) -> f32 {
    // AVX-512's getexp/getmant without the instructions: for a normal d =
    // 2^E s with s in [1, 2), m = s and e = E, or s/2 and E + 1 where s >= 1.5
    // (getexp of d·(1/0.75) agrees: the product rounds below 2 for every s
    // under 1.5). Subnormals are scaled into the normal range first. Bit
    // operations and selects only, so that loops over log_sleef vectorise.
    let sub = d < f32::MIN_POSITIVE;
    let bits = if sub { d * 33_554_432.0 } else { d }.to_bits();
    let high = (bits >> 22) & 1;
    let biased = ((bits >> 23) & 0xff) as i32 + high as i32;
    let e = (biased - if sub { 152 } else { 127 }) as f32;
    let m = f32::from_bits((bits & 0x007f_ffff) | ((127 - high) << 23));
    let mut s = mul_f2f(
        F2(0.693_147_182_464_599_609_38, -1.904_654_323_148_236_017e-09),
        e,
    );
    let x = div_f2f2(add2_ff(-1.0, m), add2_ff(1.0, m));
    let x2 = x.0 * x.0;
    let mut t = 0.302_729_487_4_f32;
    t = fused(t, x2, 0.399_610_817_4);
    t = fused(t, x2, 0.666_669_488_0);
    s = add_f2f2(s, F2(x.0 * 2.0, x.1 * 2.0));
    s = add_f2f(s, (x2 * x.0) * t);
    let y = s.0 + s.1;
    let y = if d == f32::INFINITY { d } else { y };
    let y = if d == 0.0 { f32::NEG_INFINITY } else { y };
    if d.is_nan() || d < 0.0 { f32::NAN } else { y }
}

/// SLEEF's `xlog1pf` (1 ulp), as `Sleef_log1pf16_u10` computes it with
/// AVX-512: e from getexp((1 + d)/0.75), m = d·2^-e + (2^-e - 1) by one FMA
/// (so a small d keeps its digits), ln(1 + m) from atanh(m / (2 + m)) in
/// float-float, as log_sleef.
#[inline(always)]
pub fn log1p_sleef(d: f32) -> f32 {
    let dp1 = d + 1.0;
    // getexp of dp1 / 0.75 (dp1 >= 0 here; below, the guards decide).
    let q = dp1 * (1.0 / 0.75);
    let e = getexp(q);
    let e = if q == f32::INFINITY { 128.0 } else { e };
    let t = pow2(-(whole_i32(e)));
    let m = fused(d, t, t - 1.0);
    let s = mul_f2f(
        F2(0.693_147_182_464_599_609_38, -1.904_654_323_148_236_017e-09),
        e,
    );
    let x = div_f2f2(F2(m, 0.0), add2_ff(2.0, m));
    let x2 = x.0 * x.0;
    let mut p = 0.302_729_487_4_f32;
    p = fused(p, x2, 0.399_610_817_4);
    p = fused(p, x2, 0.666_669_488_0);
    let s = add_f2f2(s, F2(x.0 * 2.0, x.1 * 2.0));
    let s = add_f2f(s, (x2 * x.0) * p);
    let r = s.0 + s.1;
    let r = if d > 1e38 { f32::INFINITY } else { r };
    let r = if d < -1.0 || d.is_nan() { f32::NAN } else { r };
    let r = if d == -1.0 { f32::NEG_INFINITY } else { r };
    if d == 0.0 && d.is_sign_negative() {
        -0.0
    } else {
        r
    }
}

/// AVX-512's getexp for a positive x: floor(log2 x) as an f32 (of a
/// subnormal too), from its bits and selects only.
#[inline(always)]
fn getexp(x: f32) -> f32 {
    let sub = x < f32::MIN_POSITIVE;
    let bits = if sub { x * 16_777_216.0 } else { x }.to_bits();
    let biased = ((bits >> 23) & 0xff) as i32;
    (biased - if sub { 151 } else { 127 }) as f32
}

/// The vector forms of ATen's float32 activation kernels, in its order of
/// operations. Its loops run these on whole vectors and its scalar formulas
/// (the op rows of tensor/op/unary.rs) on the leftover elements.
#[inline(always)]
pub fn sigmoid_aten(x: f32) -> f32 {
    1.0 / (exp_sleef(0.0 - x) + 1.0)
}

#[inline(always)]
pub fn silu_aten(x: f32) -> f32 {
    x / (1.0 + exp_sleef(-x))
}

/// F.softplus with beta = 1: x above the threshold, else log1p(exp(x)).
#[inline(always)]
pub fn softplus_aten(x: f32, threshold: f32) -> f32 {
    if x > threshold {
        x
    } else {
        log1p_sleef(exp_sleef(x))
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn ulps(a: f32, b: f32) -> i64 {
        (a.to_bits() as i64 - b.to_bits() as i64).abs()
    }

    crate::unit_tests! {
        /// SLEEF's exp and log are within one ulp of the exact result over every
        /// binade (subnormals included), with IEEE's special values.
        fn sleef_exp_and_log_within_one_ulp() {
            let mut x = 1e-44f32;
            while x < 3e38 {
                assert!(ulps(log_sleef(x), (x as f64).ln() as f32) <= 1, "log({x})");
                if x < 88.0 {
                    for v in [x, -x] {
                        assert!(ulps(exp_sleef(v), (v as f64).exp() as f32) <= 1, "exp({v})");
                    }
                }
                // At least one step of the f32 grid (subnormals scale in place).
                x = (x * 1.000_7).max(f32::from_bits(x.to_bits() + 1));
            }
            assert_eq!(log_sleef(0.0), f32::NEG_INFINITY);
            assert_eq!(log_sleef(f32::INFINITY), f32::INFINITY);
            assert!(log_sleef(-1.0).is_nan() && log_sleef(f32::NAN).is_nan());
            assert_eq!(log_sleef(1.0), 0.0);
            assert_eq!(exp_sleef(f32::NEG_INFINITY), 0.0);
            assert_eq!(exp_sleef(f32::INFINITY), f32::INFINITY);
            assert!(exp_sleef(f32::NAN).is_nan());
        }

        /// SLEEF's log1p and exp2 within one ulp over every binade, both signs
        /// (log1p down to -1), with IEEE's special values.
        fn sleef_log1p_and_exp2_within_one_ulp() {
            let mut x = 1e-44f32;
            while x < 3e38 {
                for v in [x, -x] {
                    // Above 1e38 SLEEF's log1p gives infinity (as PyTorch's does).
                    if v > -1.0 && v <= 1e38 {
                        let want = (v as f64).ln_1p() as f32;
                        assert!(ulps(log1p_sleef(v), want) <= 1, "log1p({v})");
                    }
                    if v.abs() < 150.0 {
                        assert!(
                            ulps(exp2_sleef(v), (v as f64).exp2() as f32) <= 1,
                            "exp2({v})"
                        );
                    }
                }
                x = (x * 1.000_7).max(f32::from_bits(x.to_bits() + 1));
            }
            assert_eq!(log1p_sleef(-1.0), f32::NEG_INFINITY);
            assert_eq!(log1p_sleef(f32::INFINITY), f32::INFINITY);
            assert_eq!(log1p_sleef(2e38), f32::INFINITY);
            assert_eq!(log1p_sleef(-0.0).to_bits(), (-0.0f32).to_bits());
            assert!(log1p_sleef(-2.0).is_nan() && log1p_sleef(f32::NAN).is_nan());
            assert_eq!(exp2_sleef(128.0), f32::INFINITY);
            assert_eq!(exp2_sleef(-151.0), 0.0);
            assert_eq!(exp2_sleef(3.0), 8.0);
            assert!(exp2_sleef(f32::NAN).is_nan());
        }

        /// The activation forms keep one ulp of SLEEF's exp and one rounding of
        /// their own: within 3 ulp of the exact value, and exact at the ends.
        fn sigmoid_and_silu_forms() {
            let mut x = -30.0f32;
            while x < 30.0 {
                let e = (-(x as f64)).exp();
                assert!(
                    ulps(sigmoid_aten(x), (1.0 / (1.0 + e)) as f32) <= 3,
                    "sigmoid({x})"
                );
                assert!(
                    ulps(silu_aten(x), (x as f64 / (1.0 + e)) as f32) <= 3,
                    "silu({x})"
                );
                x += 0.0173;
            }
            assert_eq!(sigmoid_aten(-200.0), 0.0);
            assert_eq!(sigmoid_aten(200.0), 1.0);
            assert_eq!(silu_aten(200.0), 200.0);
            assert!(sigmoid_aten(f32::NAN).is_nan());
        }
    }
}
