//! float32 ln, log2, log10 and log1p on AVX-512. fastmath::ln_core reads two
//! 16-entry tables; compiled as written, each read is a gather (eight loads),
//! the loop's bottleneck. Here each table sits in two registers and a read is
//! one `vpermt2pd`. The operations and their order are ln_core's, so the
//! bits equal the scalar path's, which the last few elements and processors
//! without AVX-512 take.

use std::mem::MaybeUninit as Out;

use crate::tensor::op::fastmath::{ln_times_f32, log1p_f32};

/// The kernels for the op rows (kernels.rs installs them where the processor
/// has AVX-512).
pub fn ln(s: &[f32], d: &mut [Out<f32>]) {
    run::<false>(s, d, 1.0, |x| ln_times_f32(x, 1.0));
}

pub fn log2(s: &[f32], d: &mut [Out<f32>]) {
    const F: f64 = std::f64::consts::LOG2_E;
    run::<false>(s, d, F, |x| ln_times_f32(x, F));
}

pub fn log10(s: &[f32], d: &mut [Out<f32>]) {
    const F: f64 = std::f64::consts::LOG10_E;
    run::<false>(s, d, F, |x| ln_times_f32(x, F));
}

pub fn log1p(s: &[f32], d: &mut [Out<f32>]) {
    run::<true>(s, d, 1.0, log1p_f32);
}

/// Whole runs of 16 through the vector loop, the rest through `scalar` (the
/// row's function, which gives the same bits).
fn run<const LOG1P: bool>(s: &[f32], d: &mut [Out<f32>], factor: f64, scalar: fn(f32) -> f32) {
    let n = s.len().min(d.len());
    #[cfg(target_arch = "x86_64")]
    let done = if super::simd::isa() == super::simd::Isa::Avx512 {
        // SAFETY: isa() reported AVX-512F on this processor.
        unsafe { x86::ln_times::<LOG1P>(&s[..n], &mut d[..n], factor) }
    } else {
        0
    };
    #[cfg(not(target_arch = "x86_64"))]
    let done = 0;
    for (o, &x) in d[done..n].iter_mut().zip(&s[done..n]) {
        o.write(scalar(x));
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit as Out;

    use crate::tensor::op::fastmath::{LN_INV_C, LN_LOG_C, LN_OFF, LN_P, LN2_HI, LN2_LO};

    /// A 16-entry table as two registers, for `_mm512_permutex2var_pd`.
    #[target_feature(enable = "avx512f")]
    fn table(t: &[f64; 16]) -> [__m512d; 2] {
        // SAFETY: each load reads 8 of the array's 16 f64s.
        unsafe {
            [
                _mm512_loadu_pd(t.as_ptr()),
                _mm512_loadu_pd(t.as_ptr().add(8)),
            ]
        }
    }

    /// ln_core on eight positive, finite, normal f64s.
    #[target_feature(enable = "avx512f")]
    fn ln8(x: __m512d, inv_c: &[__m512d; 2], log_c: &[__m512d; 2]) -> __m512d {
        let bits = _mm512_castpd_si512(x);
        let tmp = _mm512_sub_epi64(bits, _mm512_set1_epi64(LN_OFF as i64));
        // k is within ±1100: its low 32 bits are the integer.
        let k = _mm512_cvtepi32_pd(_mm512_cvtepi64_epi32(_mm512_srai_epi64::<52>(tmp)));
        // The permute reads an index's low four bits: the row.
        let row = _mm512_srli_epi64::<48>(tmp);
        let top = _mm512_set1_epi64(0xfff0_0000_0000_0000_u64 as i64);
        let z = _mm512_castsi512_pd(_mm512_sub_epi64(bits, _mm512_and_si512(tmp, top)));
        let inv = _mm512_permutex2var_pd(inv_c[0], row, inv_c[1]);
        let logc = _mm512_permutex2var_pd(log_c[0], row, log_c[1]);
        let r = _mm512_fmadd_pd(z, inv, _mm512_set1_pd(-1.0));
        let mut p = _mm512_set1_pd(LN_P[0]);
        for &c in &LN_P[1..] {
            p = _mm512_fmadd_pd(p, r, _mm512_set1_pd(c));
        }
        let t = _mm512_mul_pd(k, _mm512_set1_pd(LN2_HI));
        let hi = _mm512_add_pd(t, logc);
        let lo = _mm512_fmadd_pd(
            k,
            _mm512_set1_pd(LN2_LO),
            _mm512_add_pd(_mm512_sub_pd(t, hi), logc),
        );
        let tail = _mm512_fmadd_pd(_mm512_mul_pd(r, r), p, lo);
        _mm512_add_pd(hi, _mm512_add_pd(r, tail))
    }

    /// ln(x) · factor rounded once (ln_times_f32), or ln(1 + x) (log1p_f32),
    /// for the whole runs of 16 in `s`; returns how many it wrote.
    #[target_feature(enable = "avx512f")]
    pub fn ln_times<const LOG1P: bool>(s: &[f32], d: &mut [Out<f32>], factor: f64) -> usize {
        let n = s.len().min(d.len()) / 16 * 16;
        let (inv_c, log_c) = (table(&LN_INV_C), table(&LN_LOG_C));
        let (f, one) = (_mm512_set1_pd(factor), _mm512_set1_pd(1.0));
        for j in (0..n).step_by(16) {
            // SAFETY: j + 16 <= n, within both slices.
            let x = unsafe { _mm512_loadu_ps(s.as_ptr().add(j)) };
            let halves = [
                _mm512_castps512_ps256(x),
                _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(x))),
            ];
            let [lo, hi] = halves.map(|h| {
                let xd = _mm512_cvtps_pd(h);
                let u = if LOG1P { _mm512_add_pd(one, xd) } else { xd };
                let y = _mm512_mul_pd(ln8(u, &inv_c, &log_c), f);
                _mm256_castps_pd(_mm512_cvtpd_ps(y))
            });
            let y = _mm512_castpd_ps(_mm512_insertf64x4::<1>(_mm512_castpd256_pd512(lo), hi));
            let out = if LOG1P {
                log1p_edges(x, y)
            } else {
                ln_edges(x, y)
            };
            // SAFETY: as above; MaybeUninit<f32> has f32's layout.
            unsafe { _mm512_storeu_ps(d.as_mut_ptr().add(j) as *mut f32, out) };
        }
        n
    }

    /// ln_times_f32's answers outside (0, inf): -inf at ±0, inf at inf, NaN
    /// for negatives and NaN.
    #[target_feature(enable = "avx512f")]
    fn ln_edges(x: __m512, y: __m512) -> __m512 {
        edges(x, y, _mm512_setzero_ps())
    }

    /// log1p_f32's: x itself where |x| < 2^-29; beyond (-1, inf) as ln's
    /// beyond (0, inf), -1 in the place of 0.
    #[target_feature(enable = "avx512f")]
    fn log1p_edges(x: __m512, y: __m512) -> __m512 {
        // |x| < 2^-29 as an f32 compare: the bound is an f32.
        let tiny =
            _mm512_cmp_ps_mask::<_CMP_LT_OQ>(_mm512_abs_ps(x), _mm512_set1_ps(1.0 / 536_870_912.0));
        edges(x, _mm512_mask_blend_ps(tiny, y, x), _mm512_set1_ps(-1.0))
    }

    #[target_feature(enable = "avx512f")]
    fn edges(x: __m512, y: __m512, pole: __m512) -> __m512 {
        let inf = _mm512_set1_ps(f32::INFINITY);
        let at_inf = _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(x, inf);
        let special = _mm512_mask_blend_ps(at_inf, _mm512_set1_ps(f32::NAN), inf);
        let at_pole = _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(x, pole);
        let special = _mm512_mask_blend_ps(at_pole, special, _mm512_set1_ps(f32::NEG_INFINITY));
        let inside =
            _mm512_cmp_ps_mask::<_CMP_GT_OQ>(x, pole) & _mm512_cmp_ps_mask::<_CMP_LT_OQ>(x, inf);
        _mm512_mask_blend_ps(inside, special, y)
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::tensor::op::fastmath::ln_core;

    /// Every 97th f32 bit pattern (both signs, zeros, subnormals, infinities
    /// and NaNs among them) and the edges.
    fn inputs() -> Vec<f32> {
        let mut xs: Vec<f32> = (0..u32::MAX).step_by(97).map(f32::from_bits).collect();
        xs.extend([
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1e-9,
            -1e-9,
        ]);
        xs.extend([
            f32::MIN_POSITIVE,
            1e-45,
            f32::MAX,
            1.0 - 6e-8,
            1.0 + 1.2e-7,
            2.0f32.powi(-29),
        ]);
        xs
    }

    crate::unit_tests! {
        /// The vector loop gives the scalar function's bits (on a processor
        /// without AVX-512 both are the scalar loop).
        fn kernels_equal_the_scalar_functions() {
            let xs = inputs();
            let mut out = vec![Out::uninit(); xs.len()];
            type Kernel = fn(&[f32], &mut [Out<f32>]);
            type Row = (&'static str, Kernel, fn(f32) -> f32);
            let rows: [Row; 4] = [
                ("log", ln, |x| ln_times_f32(x, 1.0)),
                ("log2", log2, |x| ln_times_f32(x, std::f64::consts::LOG2_E)),
                ("log10", log10, |x| {
                    ln_times_f32(x, std::f64::consts::LOG10_E)
                }),
                ("log1p", log1p, log1p_f32),
            ];
            for (name, kernel, scalar) in rows {
                kernel(&xs, &mut out);
                for (o, &x) in out.iter().zip(&xs) {
                    // SAFETY: the kernel wrote every element.
                    let y = unsafe { o.assume_init() };
                    let want = scalar(x);
                    assert!(
                        y.to_bits() == want.to_bits() || (y.is_nan() && want.is_nan()),
                        "{name}({x:e}): {y:e}, want {want:e}"
                    );
                }
            }
        }

        /// ln_core rounded to f32 is libm's f64 ln rounded to f32 (both within a
        /// few parts in 1e16, so they agree wherever the exact result is not
        /// within a hair of a float32 rounding boundary: every input tried, and
        /// all 2^31 positive floats when this was written).
        fn ln_core_rounds_as_libm() {
            for x in inputs().into_iter().filter(|x| *x > 0.0 && x.is_finite()) {
                let xd = x as f64;
                assert_eq!(ln_core(xd) as f32, xd.ln() as f32, "ln({x:e})");
            }
            // Whole-f64 arguments too (pow and atanh pass them): within 2 ulps.
            let mut x = 1e-300f64;
            while x < 1e300 {
                let (a, b) = (ln_core(x), x.ln());
                assert!(
                    (a - b).abs() <= 2.0 * f64::EPSILON * b.abs().max(1e-300),
                    "ln({x:e}): {a:e}, {b:e}"
                );
                x *= 1.001_234_567;
            }
        }
    }
}
