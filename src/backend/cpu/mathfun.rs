//! Scalar ports of the Cephes-derived `log256_ps` and `sincos256_ps` of
//! avx_mathfun.h, which PyTorch's CPU normal sampler uses for float32 blocks of
//! 16 (normal_fill_16_AVX2). Same constants and the same order of operations,
//! so randn's float32 draws match PyTorch's bit for bit. The constants are
//! written as avx_mathfun.h writes them.
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

/// a·b + c rounded once, as the FMA instructions PyTorch's compiler fused
/// these steps into. Computed in f64 (exact product, one rounding, then the
/// f32 rounding) rather than through libm's fmaf, which a loaded library
/// (the fake CUDA driver) may replace with an unfused one.
#[inline]
fn fma(a: f32, b: f32, c: f32) -> f32 {
    ((a as f64) * (b as f64) + c as f64) as f32
}

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
#[inline]
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
        y = fma(y, x, *p);
    }
    y *= x;
    y = fma(y, z, e * LOG_Q1);
    y = fma(-z, 0.5, y);
    x += y;
    x = fma(e, LOG_Q2, x);
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

/// (sin x, cos x) as sincos256_ps computes them.
#[inline]
pub fn sincos_ps(x: f32) -> (f32, f32) {
    let sign_sin = x.to_bits() & 0x8000_0000;
    let mut x = x.abs();
    // The octant, rounded up to even (Cephes' j = (j + 1) & ~1).
    let mut j = (x * FOPI) as i32;
    j = (j + 1) & !1;
    let y = j as f32;
    let swap_sign_sin = ((j & 4) as u32) << 29;
    let poly_is_sin = (j & 2) != 0;
    // Extended precision modular arithmetic: x - y·π/4 in three parts.
    x = fma(y, DP1, x);
    x = fma(y, DP2, x);
    x = fma(y, DP3, x);
    let sign_cos = ((!(j - 2) & 4) as u32) << 29;
    let sign_sin = sign_sin ^ swap_sign_sin;
    let z = x * x;
    let mut c = COS_P[0];
    c = fma(c, z, COS_P[1]);
    c = fma(c, z, COS_P[2]);
    c *= z;
    c = fma(c, z, -(z * 0.5));
    c += 1.0;
    let mut s = SIN_P[0];
    s = fma(s, z, SIN_P[1]);
    s = fma(s, z, SIN_P[2]);
    s *= z;
    s = fma(s, x, x);
    let (sin, cos) = if poly_is_sin { (c, s) } else { (s, c) };
    (
        f32::from_bits(sin.to_bits() ^ sign_sin),
        f32::from_bits(cos.to_bits() ^ sign_cos),
    )
}
