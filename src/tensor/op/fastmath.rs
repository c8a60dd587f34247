//! float32 transcendental functions computed in f64 and rounded once, without
//! library calls or branches, so that the kernels' loops over slices vectorise
//! (libm's per-element calls ran 5-15x behind PyTorch's SIMD versions). The f64
//! cores are accurate to a few parts in 1e16, far inside float32's half ulp
//! (3e-8), so each result is the correctly rounded one but for inputs within
//! 1e-16 of a rounding boundary; PyTorch's SLEEF versions (1 ulp) agree with
//! correct rounding for all but a few percent of inputs.

use super::math::horner_fma;

const LOG2E: f64 = std::f64::consts::LOG2_E;
pub(crate) const LN2_HI: f64 = 6.931_471_803_691_238e-1;
pub(crate) const LN2_LO: f64 = 1.908_214_929_270_587_7e-10;

/// The nearest integer to t (|t| < 2^51), as an f64 and as an i64: adding
/// 1.5·2^52 rounds it into the low bits (an `as` cast would not vectorise).
#[inline(always)]
pub(super) fn nearest_int(t: f64) -> (f64, i64) {
    const ROUND: f64 = 6_755_399_441_055_744.0;
    let s = t + ROUND;
    (
        s - ROUND,
        (s.to_bits() as i64).wrapping_sub(0x4338_0000_0000_0000),
    )
}

/// 2^k as an f64, for k within the normal range [-1022, 1023].
#[inline(always)]
pub(super) fn pow2_f64(k: i64) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// exp(x) = scale · (1 + q): x = n ln 2 + r with |r| <= ln 2 / 2, q = e^r - 1
/// as r + r² p(r), p of degree 9 fitted to minimise the relative error of
/// e^r (1e-17, below f64's rounding; the Taylor polynomial needed degree 11
/// for it: scripts/fit/exp_f64.py), scale = 2^n. The caller keeps x within
/// [-745, 709] so that 2^n is a normal f64.
#[inline(always)]
pub(super) fn exp_parts(x: f64) -> (f64, f64) {
    let (n, ni) = nearest_int(x * LOG2E);
    // (Not two fused steps: in logsumexp's eight-lane fold they led the
    // vectoriser into a half-scalar loop, 3x slower.)
    let r = x - n * LN2_HI - n * LN2_LO;
    const C: [f64; 10] = [
        2.50246452096493e-08,
        2.7631125446226205e-07,
        2.755750728541229e-06,
        2.480149034623507e-05,
        0.00019841269597118904,
        0.0013888888946678828,
        0.008333333333451433,
        0.04166666666651632,
        0.16666666666666483,
        0.5000000000000012,
    ];
    // FMAs: the multiversioned kernels that inline this compile them to the
    // instruction (half the operations of separate multiplies and adds).
    let p = horner_fma(&C, r);
    let q = (p * r).mul_add(r, r);
    (q, pow2_f64(ni))
}

/// e^x in f64 for the terms of a log-sum-exp (x <= 0), accurate to a few
/// parts in 1e16 and without a library call, so that loops over it vectorise.
/// Below -708 it gives e^-708 (3e-308), nothing beside the largest term, 1;
/// NaN stays NaN.
#[inline(always)]
pub fn exp_lse_term(x: f64) -> f64 {
    let xc = if x < -708.0 { -708.0 } else { x };
    let (q, scale) = exp_parts(xc);
    (q + 1.0) * scale
}

/// e^x - 1 in f64, accurate relative to the result also near 0 (no
/// cancellation: q carries e^r - 1 itself). x within [-745, 709].
#[inline(always)]
fn expm1_core(x: f64) -> f64 {
    let (q, scale) = exp_parts(x);
    scale * q + (scale - 1.0)
}

/// exp(x) of an f32, computed in f64 and rounded once, so the result is the
/// correctly rounded one (as PyTorch's is for about 99% of inputs: `exp(4.)`
/// prints its digits).
#[inline(always)]
pub fn exp_f32(x: f32) -> f32 {
    // Below -104 the f32 result is 0, above 89 infinity. Selects in this
    // order pass NaN through (each is one max or min instruction), and NaN
    // stays NaN through the arithmetic.
    let xd = x as f64;
    let xc = if xd < -104.0 { -104.0 } else { xd };
    let xc = if xc > 89.0 { 89.0 } else { xc };
    let (q, scale) = exp_parts(xc);
    ((q + 1.0) * scale) as f32
}

/// e^x - 1 of an f32 (expm1), rounded once.
#[inline(always)]
pub fn expm1_f32(x: f32) -> f32 {
    // Below -104 the f32 result is -1, above 89 infinity.
    #[allow(clippy::manual_clamp)]
    let xc = (x as f64).max(-104.0).min(89.0);
    let e = expm1_core(xc) as f32;
    // NaN stays NaN, and -0 stays -0.
    if x.is_nan() || x == 0.0 { x } else { e }
}

/// tanh of an f32: (e^2|x| - 1) / (e^2|x| + 1) with the sign of x, from expm1
/// so that small |x| keeps its digits. Beyond |x| = 20 the f32 result is ±1.
#[inline(always)]
pub fn tanh_f32(x: f32) -> f32 {
    let a = (x as f64).abs().min(20.0);
    let e = expm1_core(2.0 * a);
    let t = (e / (e + 2.0)) as f32;
    if x.is_nan() { x } else { t.copysign(x) }
}

/// The table and polynomial of ln_core (scripts/fit/ln_f64.py): a row's
/// 1/c and -ln(1/c), and ln(1 + r) = r + r² p(r) on |r| <= 1/32, p of degree
/// 7 (relative error 1e-17, below f64's rounding).
pub(crate) const LN_OFF: u64 = 0x3fe7_8000_0000_0000;
pub(crate) const LN_INV_C: [f64; 16] = [
    1.333_333_333_333_333_3,
    1.28,
    1.230_769_230_769_230_8,
    1.185_185_185_185_185_1,
    1.142_857_142_857_142_8,
    1.103_448_275_862_069,
    1.066_666_666_666_666_7,
    1.032_258_064_516_129,
    1.0,
    0.941_176_470_588_235_3,
    0.888_888_888_888_888_8,
    0.842_105_263_157_894_7,
    0.8,
    0.761_904_761_904_761_9,
    0.727_272_727_272_727_3,
    0.695_652_173_913_043_5,
];
pub(crate) const LN_LOG_C: [f64; 16] = [
    -0.287_682_072_451_780_85,
    -0.246_860_077_931_525_8,
    -0.207_639_364_778_244_55,
    -0.169_899_036_795_397_42,
    -0.133_531_392_624_522_57,
    -0.098_440_072_813_252_51,
    -0.064_538_521_137_571_16,
    -0.031_748_698_314_580_27,
    0.0,
    0.060_624_621_816_434_854,
    0.117_783_035_656_383_51,
    0.171_850_256_926_659_28,
    0.223_143_551_314_209_7,
    0.271_933_715_483_641_8,
    0.318_453_731_118_534_6,
    0.362_905_493_689_368_5,
];
pub(crate) const LN_P: [f64; 8] = [
    0.110_560_329_587_673_02,
    -0.125_204_196_180_935_76,
    0.142_858_154_790_679_1,
    -0.166_666_527_284_343_28,
    0.199_999_999_509_799_44,
    -0.250_000_000_035_360_5,
    0.333_333_333_333_397_76,
    -0.499_999_999_999_997_56,
];

/// ln(x) in f64 of a positive, finite, normal f64 (subnormal f32 inputs are
/// normal here), without a divide (the atanh series' divide, 16 cycles for
/// 8 lanes, bounded torch.log): x = 2^k z, z in [0.734, 1.469), read from the bits
/// minus LN_OFF; the next four bits pick the row whose c lies within 1/32 of
/// z, and ln x = k ln 2 + ln c + ln(1 + r), r = z/c - 1 by one FMA. The row
/// around 1.0 has c = 1, so ln x near 1 is r + r² p(r) with nothing to
/// cancel. backend::cpu::ln_avx512 computes the same in the same order.
#[inline(always)]
pub(crate) fn ln_core(xd: f64) -> f64 {
    let bits = xd.to_bits();
    let tmp = bits.wrapping_sub(LN_OFF);
    let k = (tmp as i64 >> 52) as f64;
    let i = ((tmp >> 48) & 15) as usize;
    let z = f64::from_bits(bits.wrapping_sub(tmp & 0xfff0_0000_0000_0000));
    let r = z.mul_add(LN_INV_C[i], -1.0);
    let p = horner_fma(&LN_P, r);
    // k ln 2 + ln c carried as hi + lo (k·LN2_HI is exact, and |k ln 2| >
    // |ln c| where k is not 0), so that only the last addition rounds at
    // the result's scale: rounding hi alone missed one float32 in 2^31.
    let t = k * LN2_HI;
    let hi = t + LN_LOG_C[i];
    let lo = k.mul_add(LN2_LO, (t - hi) + LN_LOG_C[i]);
    hi + (r + (r * r).mul_add(p, lo))
}

/// ln(x) of an f32, rounded once (correctly rounded, as PyTorch's is for about
/// 95% of inputs; its SLEEF logf is off by one ulp for the rest).
#[inline(always)]
pub fn ln_f32(x: f32) -> f32 {
    ln_times_f32(x, 1.0)
}

/// ln(x) · factor, rounded once (log2 and log10 too); log(0), and log of
/// infinity, negatives and NaN, as IEEE's log has them.
#[inline(always)]
pub(crate) fn ln_times_f32(x: f32, factor: f64) -> f32 {
    let y = (ln_core(x as f64) * factor) as f32;
    // f32 subnormals are normal f64s, so only these need their own answers
    // (as selects: compares against constants, not bit tests, which
    // vectorised into twice the mask operations).
    let special = if x == 0.0 {
        f32::NEG_INFINITY
    } else if x == f32::INFINITY {
        x
    } else {
        f32::NAN
    };
    if x > 0.0 && x < f32::INFINITY {
        y
    } else {
        special
    }
}

/// ln(1 + x) of an f32, rounded once. 1 + x is exact in f64 for |x| >= 2^-29
/// (and for larger x its rounding is far below float32's); below that
/// ln(1 + x) is x to float32 precision.
#[inline(always)]
pub fn log1p_f32(x: f32) -> f32 {
    let xd = x as f64;
    let u = 1.0 + xd;
    let y = ln_core(u) as f32;
    let y = if xd.abs() < 1.0 / 536_870_912.0 { x } else { y };
    if x > -1.0 && x.is_finite() {
        y
    } else if x == -1.0 {
        f32::NEG_INFINITY
    } else if x == f32::INFINITY {
        x
    } else {
        f32::NAN
    }
}

/// erf of an f32 in f32 arithmetic, 16 lanes to a vector (the f64 rational
/// ran at half PyTorch's speed, and F.gelu at a sixth): within one ulp
/// of the correctly rounded result, and equal to it for about 95% of inputs
/// (PyTorch's MKL erf, for 99%). Below |x| = 0.921875 x·P(x²), with the
/// leading 2/√π split in two so that one FMA rounds the sum; up to 3.92
/// 1 - e^(-x² + G(x)), G fitted to ln erfc(x) + x² around 2.42; beyond, ±1
/// (erfc(3.92) is under half an ulp of 1). Fitted at Chebyshev nodes by
/// scripts/fit/erf_f32.py (degrees 6 and 8, errors 1e-9 and 3e-8 before
/// rounding).
#[inline(always)]
pub fn erf_f32(x: f32) -> f32 {
    const SPLIT: f32 = 0.921_875;
    // 2/√π as an f32, and what the fitted leading coefficient adds to it.
    const C0: f32 = std::f32::consts::FRAC_2_SQRT_PI;
    const C0_LO: f32 = -5.904_813_3e-8;
    const NEAR: [f32; 6] = [
        8.392_696e-5,
        -8.148_506e-4,
        5.201_591_6e-3,
        -2.685_964_7e-2,
        1.128_37e-1,
        -3.761_263_5e-1,
    ];
    const MID: f32 = 2.420_937_5;
    const FAR: [f32; 9] = [
        1.636_918_2e-6,
        -1.431_526e-5,
        8.494_843e-5,
        -4.587_040_2e-4,
        2.338_859_7e-3,
        -1.157_024_2e-2,
        5.876_514_3e-2,
        -3.617_605e-1,
        -1.528_575_3,
    ];
    let z = x.abs();
    let t = z * z;
    let mut w = NEAR[0];
    for c in &NEAR[1..] {
        w = fused(w, t, *c);
    }
    let near = fused(z, C0, z * fused(w, t, C0_LO));
    // x² = hi + lo exactly; the exponent -x² + G keeps lo.
    let lo = fused(z, z, -t);
    let v = z - MID;
    let mut g = FAR[0];
    for c in &FAR[1..] {
        g = fused(g, v, *c);
    }
    // 1 - e^a with e^a = 2^q (1 + p): 1 - 2^q is exact while q >= -24, so
    // 1 - 2^q - 2^q p rounds once (erf(1) is then correctly rounded, as
    // PyTorch's is); below, e^a is under an ulp of 1 and one form is as
    // good as another. (a is within [-18, -0.8]: q is a normal power.)
    let (q, p) = exp_reduced((g - lo) - t);
    let scale = pow2(whole_i32(q));
    let far = if q >= -24.0 {
        fused(-scale, p, 1.0 - scale)
    } else {
        1.0 - scale * (1.0 + p)
    };
    let r = if z < SPLIT { near } else { far };
    let r = if z >= 3.92 { 1.0 } else { r };
    if x.is_nan() { x } else { r.copysign(x) }
}

/// a·b + c rounded once, with the FMA instruction where the caller was
/// compiled for one (the multiversioned kernels: fast, exactly ATen's), else
/// the C library's exact fmaf.
#[inline(always)]
pub fn fused(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// SLEEF's reduction for its `xexpf`: d = q ln 2 + s with |s| <= ln 2 / 2,
/// and e^s = 1 + p by its degree-6 polynomial. Returns (q, p).
#[inline(always)]
#[allow(clippy::excessive_precision)]
fn exp_reduced(d: f32) -> (f32, f32) {
    const R_LN2: f32 = std::f32::consts::LOG2_E;
    const L2U: f32 = 0.693_145_751_953_125;
    const L2L: f32 = 1.428_606_765_330_187_045e-06;
    let q = (d * R_LN2).round_ties_even();
    let s = fused(q, -L2U, d);
    let s = fused(q, -L2L, s);
    let mut u = 0.000_198_527_617_612_853_646_278_381_f32;
    u = fused(u, s, 0.001_393_043_552_525_341_510_772_71);
    u = fused(u, s, 0.008_333_360_776_305_198_669_433_59);
    u = fused(u, s, 0.041_666_485_369_205_474_853_515_6);
    u = fused(u, s, 0.166_666_671_633_720_397_949_219);
    u = fused(u, s, 0.5);
    (q, fused(s * s, u, s))
}

/// The integer of a whole f32 q with |q| <= 200, from the bits of
/// q + 1.5·2^23 (an `as` cast would not vectorise).
#[inline(always)]
pub fn whole_i32(q: f32) -> i32 {
    const ROUND: f32 = 12_582_912.0;
    ((q.clamp(-200.0, 200.0) + ROUND).to_bits() as i32) - 0x4B40_0000
}

/// 2^k as an f32, 0 below the normal range and infinity above it.
#[inline(always)]
pub fn pow2(k: i32) -> f32 {
    f32::from_bits((((k + 127).clamp(0, 255)) as u32) << 23)
}

/// u · 2^q as SLEEF's vldexp2 computes it: in two factors, so that 2^q never
/// overflows on its own (q a whole f32 within ±200).
#[inline(always)]
pub fn ldexp2(u: f32, q: f32) -> f32 {
    let qi = whole_i32(q);
    let half = qi >> 1;
    u * pow2(half) * pow2(qi - half)
}

/// SLEEF's `xexpf` (1 ulp), as `Sleef_expf8_u10` computes it with FMA: x = q ln 2 + s,
/// exp(s) by a degree-6 polynomial, then scaled by 2^q in two halves.
#[inline(always)]
pub fn exp_sleef(d: f32) -> f32 {
    let (q, p) = exp_reduced(d);
    // q beyond ±200, and NaN, are decided below.
    let u = ldexp2(1.0 + p, q);
    // Selects rather than branches, so that loops over exp_sleef vectorise.
    let u = if d < -104.0 { 0.0 } else { u };
    let u = if d > 100.0 { f32::INFINITY } else { u };
    if d.is_nan() { d } else { u }
}

/// The inputs for which `exp_sleef_normal` gives exp_sleef's bits: here
/// 2^q (1 + p) is a normal f32 (q within [-125, 127], 1 + p within
/// [0.70, 1.42]).
pub const EXP_SLEEF_NORMAL: std::ops::RangeInclusive<f32> = -86.5..=88.0;

/// exp_sleef for d within `EXP_SLEEF_NORMAL`, with the same bits: there both of
/// vldexp2's scalings are exact, so they are one add of q to the exponent
/// field. Softmax's rows spend a third of their exponential's operations
/// in vldexp2 otherwise.
#[inline(always)]
pub fn exp_sleef_normal(d: f32) -> f32 {
    let (q, p) = exp_reduced(d);
    // q + 1.5·2^23 holds q in its low mantissa bits; shifted by 23 they land
    // in the exponent field (the float's own exponent bits shift out).
    const ROUND: f32 = 12_582_912.0;
    let scale = (q + ROUND).to_bits() << 23;
    f32::from_bits((1.0 + p).to_bits().wrapping_add(scale))
}

/// Below this |x| the quadrant count k of x = k·π/2 + r is under 2^20, and
/// the three-part π/2 below reduces x exactly enough (error ~1e-20).
pub const SINCOS_RANGE: f32 = 1.0e6;

/// (sin x, cos x) in f64 for |x| < SINCOS_RANGE: x reduced by π/2 (fdlibm's
/// three-part constant), then the Taylor series on |r| <= π/4 (to r^17 and
/// r^18: error below 5e-17), picked by quadrant.
#[inline(always)]
pub(super) fn sincos_core(x: f64) -> (f64, f64) {
    const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
    const PIO2_1: f64 = 1.570_796_326_734_125_6;
    const PIO2_2: f64 = 6.077_100_506_303_966e-11;
    const PIO2_2T: f64 = 2.022_266_248_795_950_6e-21;
    let (k, ki) = nearest_int(x * TWO_OVER_PI);
    let q = ki & 3;
    let r = ((x - k * PIO2_1) - k * PIO2_2) - k * PIO2_2T;
    let r2 = r * r;
    // (-1)^n / (2n+1)! for n = 8 down to 1, and / (2n)! for n = 9 down to 1.
    const S: [f64; 8] = [
        1.0 / 355_687_428_096_000.0,
        -1.0 / 1_307_674_368_000.0,
        1.0 / 6_227_020_800.0,
        -1.0 / 39_916_800.0,
        1.0 / 362_880.0,
        -1.0 / 5_040.0,
        1.0 / 120.0,
        -1.0 / 6.0,
    ];
    const C: [f64; 9] = [
        -1.0 / 6_402_373_705_728_000.0,
        1.0 / 20_922_789_888_000.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 479_001_600.0,
        -1.0 / 3_628_800.0,
        1.0 / 40_320.0,
        -1.0 / 720.0,
        1.0 / 24.0,
        -0.5,
    ];
    let (ps, pc) = (horner_fma(&S, r2), horner_fma(&C, r2));
    let (sin_r, cos_r) = ((r * r2).mul_add(ps, r), r2.mul_add(pc, 1.0));
    // Quadrant q: sin x is sin r, cos r, -sin r, -cos r; cos x is cos r,
    // -sin r, -cos r, sin r.
    let odd = q & 1 == 1;
    let (s, c) = if odd { (cos_r, sin_r) } else { (sin_r, cos_r) };
    let s = if q & 2 == 2 { -s } else { s };
    let c = if (q + 1) & 2 == 2 { -c } else { c };
    (s, c)
}

/// π in three parts for the reduction by π: twice fdlibm's π/2 parts (33,
/// 33 and 53 bits), so that k·PI_1 and (k + 1/2)·PI_1 are exact for the
/// quotients of |x| < SINCOS_RANGE (under 2^19 halves).
const PI_1: f64 = 2.0 * 1.570_796_326_734_125_6;
const PI_2: f64 = 2.0 * 6.077_100_506_303_966e-11;
const PI_3: f64 = 2.0 * 2.022_266_248_795_950_6e-21;

/// sin r for |r| <= π/2 (and a hair beyond): r + r³ p(r²), p of degree 7
/// fitted to the relative error of sin r (1e-17: scripts/fit/sin_f64.py).
#[inline(always)]
fn sin_poly(r: f64) -> f64 {
    const P: [f64; 8] = [
        2.721_066_453_232_904_7e-15,
        -7.642_980_267_275_435e-13,
        1.605_893_923_066_746_7e-10,
        -2.505_210_686_221_861_6e-8,
        2.755_731_921_100_508e-6,
        -0.000_198_412_698_412_083_1,
        0.008_333_333_333_333_191,
        -0.166_666_666_666_666_66,
    ];
    let r2 = r * r;
    (r * r2).mul_add(horner_fma(&P, r2), r)
}

/// sin x in f64 for |x| < SINCOS_RANGE: x = kπ + r, sin x = (-1)^k sin r.
/// One polynomial a lane (reducing by π/2 needed sin's and cos's in every
/// lane, the quadrant picking one: twice the arithmetic).
#[inline(always)]
fn sin_core(x: f64) -> f64 {
    let (k, ki) = nearest_int(x * std::f64::consts::FRAC_1_PI);
    let r = ((x - k * PI_1) - k * PI_2) - k * PI_3;
    let s = sin_poly(r);
    if ki & 1 == 1 { -s } else { s }
}

/// cos x in f64 for |x| < SINCOS_RANGE: x = (k + 1/2)π + r, cos x =
/// (-1)^(k+1) sin r, so that cos x near its zeros is sin of a small r.
#[inline(always)]
fn cos_core(x: f64) -> f64 {
    let (k, ki) = nearest_int(x * std::f64::consts::FRAC_1_PI - 0.5);
    let kh = k + 0.5;
    let r = ((x - kh * PI_1) - kh * PI_2) - kh * PI_3;
    let s = sin_poly(r);
    if ki & 1 == 1 { s } else { -s }
}

/// sin of an f32 with |x| < SINCOS_RANGE, rounded once.
#[inline(always)]
pub fn sin_f32(x: f32) -> f32 {
    let y = sin_core(x as f64) as f32;
    // -0 stays -0.
    if x == 0.0 { x } else { y }
}

/// cos of an f32 with |x| < SINCOS_RANGE, rounded once.
#[inline(always)]
pub fn cos_f32(x: f32) -> f32 {
    cos_core(x as f64) as f32
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Inputs spread over every binade the functions see, both signs.
    fn grid() -> Vec<f32> {
        let mut xs = Vec::new();
        let mut x = 1e-38f32;
        while x < 100.0 {
            xs.push(x);
            xs.push(-x);
            x *= 1.000_37;
        }
        xs.extend([
            0.0, -0.0, 0.5, 4.0, -4.0, 20.0, 88.7, 89.5, -103.9, 1e30, -1e30,
        ]);
        xs
    }

    /// Each function against libm's f64 version rounded once: the same f32
    /// everywhere on the grid but for a few inputs within a hair of a
    /// rounding boundary, and never more than one ulp away.
    fn check(name: &str, f: fn(f32) -> f32, reference: fn(f64) -> f64) {
        check_within(name, f, reference, 10_000)
    }

    /// As check, with fewer than one input in `per` one ulp off.
    fn check_within(name: &str, f: fn(f32) -> f32, reference: fn(f64) -> f64, per: usize) {
        check_on(name, f, reference, &grid(), per)
    }

    /// `f` against `reference` rounded once on `xs`: NaN where it is NaN,
    /// never more than one ulp away, and fewer than one input in `per` off.
    pub(in crate::tensor::op) fn check_on(
        name: &str,
        f: fn(f32) -> f32,
        reference: fn(f64) -> f64,
        xs: &[f32],
        per: usize,
    ) {
        let (mut differ, mut total) = (0, 0);
        for &x in xs {
            let want = reference(x as f64) as f32;
            let got = f(x);
            total += 1;
            if want.is_nan() {
                assert!(got.is_nan(), "{name}({x}) = {got}, want NaN");
                continue;
            }
            if got.to_bits() != want.to_bits() {
                differ += 1;
                let ulps = (got.to_bits() as i64 - want.to_bits() as i64).abs();
                assert!(ulps <= 1, "{name}({x}) = {got}, want {want}");
            }
        }
        assert!(differ * per < total, "{name}: {differ} of {total} differ");
    }

    crate::unit_tests! {
        /// exp and ln of f32s are the f64 results rounded once: exact on this grid,
        /// subnormals included.
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
            assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
            assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        }

        /// exp_sleef_normal is exp_sleef, bit for bit, over its whole range.
        fn exp_sleef_normal_is_exp_sleef() {
            let (lo, hi) = (*EXP_SLEEF_NORMAL.start(), *EXP_SLEEF_NORMAL.end());
            let mut checked = 0;
            for bits in (0..u32::MAX).step_by(251) {
                let d = f32::from_bits(bits);
                if (lo..=hi).contains(&d) {
                    assert_eq!(exp_sleef_normal(d).to_bits(), exp_sleef(d).to_bits(), "{d}");
                    checked += 1;
                }
            }
            for d in [lo, hi, 0.0, -0.0, -86.49, 87.99, 1e-30, -1e-30] {
                assert_eq!(exp_sleef_normal(d).to_bits(), exp_sleef(d).to_bits(), "{d}");
            }
            assert!(checked > 4_000_000);
        }

        fn sin_and_cos_are_correctly_rounded_in_range() {
            // grid() stays below 100 (and the 1e30s are outside the range, where
            // the kernels call libm, as here).
            let sin: fn(f32) -> f32 = |x| {
                if x.abs() < SINCOS_RANGE {
                    sin_f32(x)
                } else {
                    x.sin()
                }
            };
            let cos: fn(f32) -> f32 = |x| {
                if x.abs() < SINCOS_RANGE {
                    cos_f32(x)
                } else {
                    x.cos()
                }
            };
            check("sin", sin, f64::sin);
            check("cos", cos, f64::cos);
            for x in [
                1e3f32,
                12345.678,
                -99999.9,
                999_999.9,
                std::f32::consts::PI,
                std::f32::consts::FRAC_PI_2,
            ] {
                assert!(
                    (sin_f32(x) as f64 - (x as f64).sin()).abs() < 1e-7,
                    "sin({x})"
                );
                assert!(
                    (cos_f32(x) as f64 - (x as f64).cos()).abs() < 1e-7,
                    "cos({x})"
                );
            }
            assert_eq!(sin_f32(-0.0).to_bits(), (-0.0f32).to_bits());
        }

        fn expm1_tanh_log1p_are_correctly_rounded_and_erf_within_an_ulp() {
            check("expm1", expm1_f32, f64::exp_m1);
            check("tanh", tanh_f32, f64::tanh);
            check("log1p", log1p_f32, f64::ln_1p);
            // erf, in f32 arithmetic, is within one ulp, and off by one for
            // under 5% of inputs (about 3% over [-4, 4]).
            check_within("erf", erf_f32, super::super::math::erf, 20);
            assert!(tanh_f32(f32::NAN).is_nan() && erf_f32(f32::NAN).is_nan());
            assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
            assert_eq!(erf_f32(f32::INFINITY), 1.0);
            assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
            assert_eq!(expm1_f32(f32::INFINITY), f32::INFINITY);
            assert_eq!(expm1_f32(f32::NEG_INFINITY), -1.0);
            assert_eq!(log1p_f32(-1.0), f32::NEG_INFINITY);
            assert!(log1p_f32(-2.0).is_nan());
            assert_eq!(log1p_f32(f32::INFINITY), f32::INFINITY);
        }
    }
}
