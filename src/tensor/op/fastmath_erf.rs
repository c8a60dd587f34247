//! float32 erfc and erfinv computed in f64 without library calls or branches,
//! so that their loops vectorise: libm's erfc per element ran 24x behind
//! PyTorch's vector code, and erfinv (ATen's first guess and Newton steps on
//! libm's erf) 50x. Both use W. J. Cody's rational approximations of erf and
//! erfc (accurate to about 1e-16), every interval computed and the right one
//! selected; each rational's numerator and denominator are selected before
//! the one division. The f32 results are the correctly rounded ones but for
//! inputs within a hair of a rounding boundary (PyTorch's agree with those for
//! over 99% of inputs).

#![allow(clippy::excessive_precision)]

use super::fastmath::{exp_lse_term, ln_core};
use super::math::{ERF_P1, ERF_P2, ERF_Q1, ERF_Q2, horner_fma, horner_fma_monic};

/// Cody's third interval (|x| >= 4): erfc(x) = e^(-x²)/x · (1/√π - z·P(z)/Q(z))
/// with z = 1/x² and Q monic. Both are stored reversed, as polynomials in
/// t = x² (t⁵·P(1/t) and t⁵·Q(1/t), highest power first), so that
/// erfc(x) = e^(-t) · (t·Q'(t)/√π - P'(t)) / (x · t · Q'(t)): no division
/// but the caller's one.
const ERFC_P3_REV: [f64; 6] = [
    6.587_491_615_298_378_03e-4,
    1.608_378_514_874_227_66e-2,
    1.257_817_261_112_292_46e-1,
    3.603_448_999_498_044_39e-1,
    3.053_266_349_612_323_44e-1,
    1.631_538_713_730_209_78e-2,
];
const ERFC_Q3_REV: [f64; 6] = [
    2.335_204_976_268_691_85e-3,
    6.051_834_131_244_131_91e-2,
    5.279_051_029_514_284_12e-1,
    1.872_952_849_923_460_47,
    2.568_520_192_289_822_42,
    1.0,
];

/// Below this |x| Cody's first interval (erf as x·P1/Q1), below 4 his second.
const FIRST: f64 = 0.5;
const SECOND: f64 = 4.0;

/// erfc(x) of an f32, rounded once: erfc(|x|) from Cody's three intervals,
/// 2 - erfc(|x|) for negative x. Beyond |x| = 27 the f32 result is 0 (or 2).
#[inline(always)]
pub fn erfc_f32(x: f32) -> f32 {
    let a = (x as f64).abs().min(27.0);
    // a² is exact (a has 24 significant bits); e^(-a²) is under 1e-316 at
    // the clamp, where exp_lse_term stops at e^-708: 0 as an f32 either way.
    let t = a * a;
    let e = exp_lse_term(-t);
    let near = (horner_fma_monic(&ERF_Q1, t), a * horner_fma(&ERF_P1, t));
    let near = (near.0 - near.1, near.0);
    let mid = (e * horner_fma(&ERF_P2, a), horner_fma_monic(&ERF_Q2, a));
    let q = t * horner_fma(&ERFC_Q3_REV, t);
    let far = (
        e * (q * (std::f64::consts::FRAC_2_SQRT_PI * 0.5) - horner_fma(&ERFC_P3_REV, t)),
        a * q,
    );
    let (n, d) = if a < FIRST {
        near
    } else if a < SECOND {
        mid
    } else {
        far
    };
    let c = n / d;
    let r = if x < 0.0 { 2.0 - c } else { c } as f32;
    if x.is_nan() { x } else { r }
}

/// erf(x) of an f64 below |x| = 4 as a fraction n/d, with e = e^(-x²):
/// x·P1/Q1 near 0, ±(Q2 - e·P2)/Q2 beyond (one division for the caller).
#[inline(always)]
fn erf_fraction(x: f64, e: f64) -> (f64, f64) {
    let a = x.abs();
    let t = x * x;
    let (p1, q1) = (x * horner_fma(&ERF_P1, t), horner_fma_monic(&ERF_Q1, t));
    let (p2, q2) = (horner_fma(&ERF_P2, a), horner_fma_monic(&ERF_Q2, a));
    let far = (q2 - e * p2).copysign(x);
    if a < FIRST { (p1, q1) } else { (far, q2) }
}

/// erf⁻¹(y) of an f32, as ATen's calc_erfinv computes it (a rational first
/// guess, then two Newton steps on erf), in f64 with Cody's erf, rounded
/// once: the f64 row's value (special.rs), without its library calls.
#[inline(always)]
pub fn erfinv_f32(y: f32) -> f32 {
    const A: [f64; 4] = [-0.140543331, 0.914624893, -1.645349621, 0.886226899];
    const B: [f64; 4] = [0.012229801, -0.329097515, 1.442710462, -2.118377725];
    const C: [f64; 4] = [1.641345311, 3.429567803, -1.624906493, -1.970840454];
    const D: [f64; 2] = [1.637067800, 3.543889200];
    let yd = y as f64;
    let ya = yd.abs();
    // The guess: a rational in y² on |y| <= 0.7, in sqrt(-ln((1 - |y|)/2))
    // beyond (the logarithm's argument kept positive where it is unused).
    let z = yd * yd;
    let central = (yd * horner_fma(&A, z), horner_fma(&B, z).mul_add(z, 1.0));
    let w = (-ln_core(((1.0 - ya) / 2.0).max(1e-300))).sqrt();
    let tail = (
        horner_fma(&C, w).copysign(yd),
        horner_fma(&D, w).mul_add(w, 1.0),
    );
    let (n, d) = if ya <= 0.7 { central } else { tail };
    let mut x = n / d;
    // Newton: x -= (erf(x) - y) / (2/√π · e^(-x²)), with erf(x) = n/d:
    // (n - y·d) / (2/√π · e^(-x²) · d), one division per step. (One step
    // would do on the central range, not near ±1, where the guess is
    // coarser.)
    for _ in 0..2 {
        let e = exp_lse_term(-(x * x));
        let (n, d) = erf_fraction(x, e);
        x -= (n - yd * d) / (std::f64::consts::FRAC_2_SQRT_PI * e * d);
    }
    let r = x as f32;
    if ya < 1.0 {
        r
    } else if ya == 1.0 {
        f32::INFINITY.copysign(y)
    } else {
        f32::NAN
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::tensor::op::math::libm;
    use crate::tensor::op::special;

    /// Distance in float32 ulps (same sign assumed).
    fn ulps(a: f32, b: f32) -> u32 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    crate::unit_tests! {
        /// Every binade's samples, both signs: erfc within one ulp of libm's f64
        /// erfc rounded (equal for nearly all), erfinv of the f64 row's value.
        fn erfc_and_erfinv_agree_with_the_f64_functions() {
            let mut equal = [0usize; 2];
            let mut total = 0usize;
            for i in 0..200_000u32 {
                // Magnitudes from 2^-30 to 32, spread over the bits.
                let m = f32::from_bits(0x3080_0000 + i * 0x0000_1d5b % 0x1200_0000);
                for x in [m, -m] {
                    let want = libm::erfc(x as f64) as f32;
                    let got = erfc_f32(x);
                    assert!(ulps(got, want) <= 1, "erfc({x}) = {got}, want {want}");
                    equal[0] += usize::from(got == want);
                    let y = (x / 32.0).clamp(-0.999_999, 0.999_999);
                    let want = special::erfinv(y as f64) as f32;
                    let got = erfinv_f32(y);
                    assert!(ulps(got, want) <= 1, "erfinv({y}) = {got}, want {want}");
                    equal[1] += usize::from(got == want);
                    total += 1;
                }
            }
            assert!(
                equal[0] * 1000 >= total * 999,
                "erfc equal {} of {total}",
                equal[0]
            );
            assert!(
                equal[1] * 1000 >= total * 999,
                "erfinv equal {} of {total}",
                equal[1]
            );
        }

        fn edges_are_ieee() {
            assert_eq!(erfc_f32(0.0), 1.0);
            assert_eq!(erfc_f32(f32::INFINITY), 0.0);
            assert_eq!(erfc_f32(f32::NEG_INFINITY), 2.0);
            assert_eq!(erfc_f32(30.0), 0.0);
            assert!(erfc_f32(f32::NAN).is_nan());
            assert_eq!(erfinv_f32(0.0), 0.0);
            assert_eq!(erfinv_f32(1.0), f32::INFINITY);
            assert_eq!(erfinv_f32(-1.0), f32::NEG_INFINITY);
            assert!(erfinv_f32(1.5).is_nan() && erfinv_f32(f32::NAN).is_nan());
            // Every power of two short of 1, and its neighbours.
            for k in 1..25 {
                let y = 1.0 - (0.5f32).powi(k);
                for y in [y, f32::from_bits(y.to_bits() - 1), -y] {
                    assert_eq!(
                        erfinv_f32(y),
                        special::erfinv(y as f64) as f32,
                        "erfinv({y})"
                    );
                }
            }
        }
    }
}
