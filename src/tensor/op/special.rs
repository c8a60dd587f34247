//! The special functions of torch.special that are element-wise ops: digamma
//! and trigamma (as ATen's calc_digamma/calc_trigamma), erfinv (ATen's rational
//! start and two Newton steps), and the modified Bessel functions I0 and I1,
//! plain and exponentially scaled. All compute in f64; kernels/elementwise.cu
//! mirrors each line, so both devices print the same digits.

use super::math::erf;
use std::f64::consts::PI;

/// ψ(x): reflection below 0, recurrence up to 10, then the asymptotic series.
pub fn digamma(mut x: f64) -> f64 {
    if x == 0.0 {
        return f64::INFINITY.copysign(-x);
    }
    if x < 0.0 {
        if x == x.trunc() {
            return f64::NAN;
        }
        let r = x - x.trunc();
        return digamma(1.0 - x) - PI / (PI * r).tan();
    }
    let mut result = 0.0;
    while x < 10.0 {
        result -= 1.0 / x;
        x += 1.0;
    }
    if x == 10.0 {
        #[allow(clippy::excessive_precision)]
        return result + 2.251_752_589_066_721_107_64;
    }
    // -Σ B₂ₖ / (2k x²ᵏ), highest power first (Bernoulli numbers).
    const A: [f64; 7] = [
        1.0 / 12.0,
        -691.0 / 32760.0,
        1.0 / 132.0,
        -1.0 / 240.0,
        1.0 / 252.0,
        -1.0 / 120.0,
        1.0 / 12.0,
    ];
    let mut y = 0.0;
    if x < 1.0e17 {
        let z = 1.0 / (x * x);
        y = z * A.iter().fold(0.0, |acc, c| acc * z + c);
    }
    result + x.ln() - 0.5 / x - y
}

/// ψ'(x): reflection below 1/2, six recurrence steps, then the asymptotic series.
pub fn trigamma(mut x: f64) -> f64 {
    let mut sign = 1.0;
    let mut result = 0.0;
    if x < 0.5 {
        sign = -1.0;
        let s = (PI * x).sin();
        result -= PI * PI / (s * s);
        x = 1.0 - x;
    }
    for _ in 0..6 {
        result += 1.0 / (x * x);
        x += 1.0;
    }
    let ixx = 1.0 / (x * x);
    result +=
        (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0)))) / x;
    sign * result
}

/// erf⁻¹(y): a rational first guess, then two Newton steps on erf.
pub fn erfinv(y: f64) -> f64 {
    const A: [f64; 4] = [0.886226899, -1.645349621, 0.914624893, -0.140543331];
    const B: [f64; 4] = [-2.118377725, 1.442710462, -0.329097515, 0.012229801];
    const C: [f64; 4] = [-1.970840454, -1.624906493, 3.429567803, 1.641345311];
    const D: [f64; 2] = [3.543889200, 1.637067800];
    let ya = y.abs();
    if ya.is_nan() || ya > 1.0 {
        return f64::NAN;
    }
    if ya == 1.0 {
        return f64::INFINITY.copysign(y);
    }
    let mut x = if ya <= 0.7 {
        let z = y * y;
        let num = ((A[3] * z + A[2]) * z + A[1]) * z + A[0];
        let dem = (((B[3] * z + B[2]) * z + B[1]) * z + B[0]) * z + 1.0;
        y * num / dem
    } else {
        let z = (-((1.0 - ya) / 2.0).ln()).sqrt();
        let num = ((C[3] * z + C[2]) * z + C[1]) * z + C[0];
        let dem = (D[1] * z + D[0]) * z + 1.0;
        num.copysign(y) / dem
    };
    for _ in 0..2 {
        x -= (erf(x) - y) / (std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp());
    }
    x
}

/// The modified Bessel function of the first kind I_ν (ν = 0 or 1), times
/// e^-|x| when `scaled`: the power series (all terms positive, so accurate)
/// up to |x| = 30, Hankel's asymptotic series beyond.
pub fn bessel_i(nu: u32, x: f64, scaled: bool) -> f64 {
    let ax = x.abs();
    if ax.is_nan() {
        return x;
    }
    let value = if ax > 30.0 {
        let mu = 4.0 * (nu * nu) as f64;
        let (mut term, mut sum) = (1.0, 1.0);
        for k in 1..40 {
            let odd = (2 * k - 1) as f64;
            term *= -(mu - odd * odd) / (k as f64 * 8.0 * ax);
            sum += term;
            if term.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        let s = sum / (2.0 * PI * ax).sqrt();
        if scaled { s } else { s * ax.exp() }
    } else {
        let q = ax * ax / 4.0;
        let mut term = if nu == 1 { ax / 2.0 } else { 1.0 };
        let mut sum = term;
        for k in 1..200 {
            term *= q / (k as f64 * (k + nu) as f64);
            sum += term;
            if term < 1e-17 * sum {
                break;
            }
        }
        if scaled { sum * (-ax).exp() } else { sum }
    };
    if nu == 1 && x < 0.0 { -value } else { value }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn known_values() {
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-13 * b.abs().max(1.0);
            // ψ(1) = -γ, ψ(1/2) = -γ - 2 ln 2, ψ'(1) = π²/6.
            let gamma = 0.577_215_664_901_532_9;
            assert!(close(digamma(1.0), -gamma));
            assert!(close(digamma(0.5), -gamma - 2.0 * 2f64.ln()));
            assert!(close(
                digamma(-0.5),
                digamma(1.5) - PI / (PI * -0.5f64).tan()
            ));
            assert!((trigamma(1.0) - PI * PI / 6.0).abs() < 1e-9);
            // ATen's series stops at x⁻⁷: good to 1e-10 here, as PyTorch's.
            assert!((trigamma(0.25) - (PI * PI + 8.0 * 0.915_965_594_177_219)).abs() < 1e-8);
            for y in [-0.99, -0.5, 0.0, 0.3, 0.7, 0.95, 0.999_999] {
                assert!(close(erf(erfinv(y)), y), "erfinv({y})");
            }
            // I0(1), I1(1), I0(50)·e^-50 (Abramowitz & Stegun).
            assert!(close(bessel_i(0, 1.0, false), 1.266_065_877_752_008_2));
            assert!(close(bessel_i(1, -1.0, false), -0.565_159_103_992_485_1));
            assert!(close(bessel_i(0, 50.0, true), 0.056_561_626_647_454_18));
            assert!(close(
                bessel_i(1, 29.0, true),
                bessel_i(1, 29.0, false) * (-29f64).exp()
            ));
        }
    }
}
