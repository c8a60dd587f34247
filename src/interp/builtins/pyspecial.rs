//! The special functions of Python's math module computed as CPython computes
//! them, so that `math.gamma(0.5)` prints Python's digits: gamma and lgamma by
//! CPython's Lanczos sum; erf and erfc are the C library's (tensor/op/math.rs).

// gamma and lgamma follow CPython's own Lanczos implementation (mathmodule.c,
// Godfrey's coefficients, g = 6.024680040776729583740234375, 13 terms) rather
// than the C library's, so that the printed digits agree with Python's.
// CPython's literals, digit for digit (they round to the same doubles).
#[allow(clippy::excessive_precision)]
const LANCZOS_G: f64 = 6.024_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_G_MINUS_HALF: f64 = 5.524_680_040_776_729_583_740_234_375;
#[allow(clippy::excessive_precision)]
const LANCZOS_NUM: [f64; 13] = [
    23_531_376_880.410_759_688_572_007_674_451_636_754_734_846_804_940,
    42_919_803_642.649_098_768_957_899_047_001_988_850_926_355_848_959,
    35_711_959_237.355_668_049_440_185_451_547_166_705_960_488_635_843,
    17_921_034_426.037_209_699_919_755_754_458_931_112_671_403_265_390,
    6_039_542_586.352_028_005_064_291_644_307_297_921_069_938_842_070_8,
    1_439_720_407.311_721_673_663_223_072_794_912_393_971_548_578_677_2,
    248_874_557.862_054_156_511_460_386_413_229_423_216_321_251_278_01,
    31_426_415.585_400_194_380_614_231_628_318_205_362_874_684_987_640,
    2_876_370.628_935_372_441_225_409_051_620_849_613_599_114_537_876_8,
    186_056.265_395_223_495_040_294_989_716_045_699_282_207_842_363_28,
    8_071.672_002_365_816_210_638_002_902_272_250_613_821_851_632_502_4,
    210.824_277_751_579_345_872_509_733_920_713_362_711_669_695_802_91,
    2.506_628_274_631_000_270_164_908_177_133_837_338_626_431_079_340_8,
];
const LANCZOS_DEN: [f64; 13] = [
    0.0,
    39_916_800.0,
    120_543_840.0,
    150_917_976.0,
    105_258_076.0,
    45_995_730.0,
    13_339_535.0,
    2_637_558.0,
    357_423.0,
    32_670.0,
    1_925.0,
    66.0,
    1.0,
];

fn lanczos_sum(x: f64) -> f64 {
    let (mut num, mut den) = (0.0, 0.0);
    // For large x the rational function is evaluated in 1/x, to avoid overflow.
    if x < 5.0 {
        for i in (0..13).rev() {
            num = num * x + LANCZOS_NUM[i];
            den = den * x + LANCZOS_DEN[i];
        }
    } else {
        for i in 0..13 {
            num = num / x + LANCZOS_NUM[i];
            den = den / x + LANCZOS_DEN[i];
        }
    }
    num / den
}

/// sin(pi x), exact at the integers and half-integers.
fn sinpi(x: f64) -> f64 {
    use std::f64::consts::PI;
    let y = x.abs() % 2.0;
    let r = match (2.0 * y).round() as i32 {
        0 => (PI * y).sin(),
        1 => (PI * (y - 0.5)).cos(),
        2 => (PI * (1.0 - y)).sin(),
        3 => -(PI * (y - 1.5)).cos(),
        _ => (PI * (y - 2.0)).sin(),
    };
    1f64.copysign(x) * r
}

/// Gamma; NaN at the poles 0, -1, -2... (a domain error, as in Python).
pub fn gamma(x: f64) -> f64 {
    if !x.is_finite() {
        return if x.is_nan() || x > 0.0 { x } else { f64::NAN };
    }
    if x == 0.0 {
        return f64::NAN;
    }
    if x == x.floor() {
        if x < 0.0 {
            return f64::NAN;
        }
        // Exact at the integers: (n-1)!, rounded once.
        if x <= 23.0 {
            return (1..x as u64).map(|k| k as f64).product();
        }
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return 1.0 / x;
    }
    if absx > 200.0 {
        return if x < 0.0 {
            0.0 / sinpi(x)
        } else {
            f64::INFINITY
        };
    }
    let y = absx + LANCZOS_G_MINUS_HALF;
    // The rounding error in y, corrected for below.
    let z = if absx > LANCZOS_G_MINUS_HALF {
        (y - absx) - LANCZOS_G_MINUS_HALF
    } else {
        (y - LANCZOS_G_MINUS_HALF) - absx
    };
    let z = z * LANCZOS_G / y;
    let mut r;
    if x < 0.0 {
        r = -std::f64::consts::PI / sinpi(absx) / absx * y.exp() / lanczos_sum(absx);
        r -= z * r;
        if absx < 140.0 {
            r /= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r /= s;
            r /= s;
        }
    } else {
        r = lanczos_sum(absx) / y.exp();
        r += z * r;
        if absx < 140.0 {
            r *= y.powf(absx - 0.5);
        } else {
            let s = y.powf(absx / 2.0 - 0.25);
            r *= s;
            r *= s;
        }
    }
    r
}

/// log |gamma(x)|; infinite at the poles.
pub fn lgamma(x: f64) -> f64 {
    if !x.is_finite() {
        return if x.is_nan() { x } else { f64::INFINITY };
    }
    if x == x.floor() && x <= 2.0 {
        return if x <= 0.0 { f64::INFINITY } else { 0.0 };
    }
    let absx = x.abs();
    if absx < 1e-20 {
        return -absx.ln();
    }
    let mut r = lanczos_sum(absx).ln() - LANCZOS_G;
    r += (absx - 0.5) * ((absx + LANCZOS_G - 0.5).ln() - 1.0);
    if x < 0.0 {
        r = std::f64::consts::PI.ln() - sinpi(absx).abs().ln() - absx.ln() - r;
    }
    r
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::tensor::op::math::libm;

    crate::unit_tests! {
        fn gamma_matches_factorials_and_known_values() {
            for (n, f) in [(1.0, 1.0), (5.0, 24.0), (11.0, 3_628_800.0)] {
                assert_eq!(gamma(n), f, "gamma({n})");
            }
            assert!((gamma(0.5) - std::f64::consts::PI.sqrt()).abs() < 1e-15);
            assert!((lgamma(100.0) - 359.134_205_369_575_4).abs() < 1e-12);
            assert!(gamma(-1.0).is_nan() && lgamma(0.0).is_infinite());
            assert!((libm::erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-16);
        }
    }
}
