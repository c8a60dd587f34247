//! The regularized incomplete gamma functions P(a, x) (igamma, gammainc)
//! and Q(a, x) = 1 - P (igammac, gammaincc), in f64, with Cephes' edge cases
//! (a or x negative: NaN; a = 0: P = 1 for x > 0; x = inf: P = 1). Each is
//! the one of the two that converges well: the power series of P below
//! x = a + 1, the continued fraction of Q above (modified Lentz), the other
//! as one minus it. (Cephes switches to an asymptotic series for large a
//! near x, where this keeps the direct forms: its last digits may differ
//! there.)

use super::math::libm::lgamma;

const EPS: f64 = f64::EPSILON;
const MAX_TERMS: usize = 2000;

/// x^a e^-x / Γ(a), the factor both expansions share.
fn prefactor(a: f64, x: f64) -> f64 {
    (a * x.ln() - x - lgamma(a)).exp()
}

/// P(a, x) by its power series: x^a e^-x / Γ(a+1) · Σ x^n / ((a+1)…(a+n)).
fn p_series(a: f64, x: f64) -> f64 {
    let (mut term, mut sum) = (1.0 / a, 1.0 / a);
    for n in 1..MAX_TERMS {
        term *= x / (a + n as f64);
        sum += term;
        if term.abs() < sum.abs() * EPS {
            break;
        }
    }
    sum * prefactor(a, x)
}

/// Q(a, x) by its continued fraction, evaluated with modified Lentz.
fn q_fraction(a: f64, x: f64) -> f64 {
    let tiny = f64::MIN_POSITIVE / EPS;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / tiny;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..MAX_TERMS {
        let an = -(i as f64) * (i as f64 - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < tiny {
            d = tiny;
        }
        c = b + an / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < EPS {
            break;
        }
    }
    h * prefactor(a, x)
}

/// The edge cases both functions share, as P's value (None: the general case).
fn edge_p(a: f64, x: f64) -> Option<f64> {
    if a.is_nan() || x.is_nan() || a < 0.0 || x < 0.0 {
        return Some(f64::NAN);
    }
    if a == 0.0 {
        return Some(if x > 0.0 { 1.0 } else { f64::NAN });
    }
    if x == 0.0 {
        return Some(0.0);
    }
    if a.is_infinite() {
        return Some(if x.is_infinite() { f64::NAN } else { 0.0 });
    }
    if x.is_infinite() {
        return Some(1.0);
    }
    None
}

/// P(a, x), the regularized lower incomplete gamma function.
pub fn igamma(a: f64, x: f64) -> f64 {
    if let Some(p) = edge_p(a, x) {
        return p;
    }
    if x < a + 1.0 {
        p_series(a, x)
    } else {
        1.0 - q_fraction(a, x)
    }
}

/// Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function.
pub fn igammac(a: f64, x: f64) -> f64 {
    if let Some(p) = edge_p(a, x) {
        return if p.is_nan() { p } else { 1.0 - p };
    }
    if x < a + 1.0 {
        1.0 - p_series(a, x)
    } else {
        q_fraction(a, x)
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn known_values() {
            // P(1, x) = 1 - e^-x; P(a, x) + Q(a, x) = 1.
            for x in [0.1, 1.0, 3.0, 30.0] {
                assert!((igamma(1.0, x) - (1.0 - (-x).exp())).abs() < 1e-14);
            }
            for (a, x) in [(4.0, 3.0), (0.5, 2.0), (50.0, 45.0), (3.0, 10.0)] {
                assert!((igamma(a, x) + igammac(a, x) - 1.0).abs() < 1e-13);
            }
            assert!(igamma(-1.0, 1.0).is_nan());
            assert_eq!(igamma(0.0, 2.0), 1.0);
            assert_eq!(igammac(2.0, f64::INFINITY), 0.0);
        }
    }
}
