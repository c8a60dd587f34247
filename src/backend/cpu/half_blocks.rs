//! float16 and bfloat16 to and from float32 a block at a time: casts, and every
//! element-wise op of a half dtype (computed in f32 between the two). The half
//! crate's per-element conversions test for F16C at each call and keep the
//! loops scalar: `h + h` of 1000² float16 took 37× PyTorch's time.

use half::{bf16, f16};

use super::scratch::{Out, convert_into};

/// A 16-bit float type's block conversions. Both round to nearest even and
/// keep a NaN a NaN, as c10's Half and BFloat16 do.
pub trait HalfBlock: Copy {
    /// `d[i] = s[i]` as float32 (exact), over the shorter of the two.
    fn widen(s: &[Self], d: &mut [Out<f32>]);
    /// `d[i] = s[i]` rounded to this type, over the shorter of the two.
    fn narrow(s: &[f32], d: &mut [Out<Self>]);
    /// One element as float32 (exact), in a few integer and float
    /// operations that inline and vectorise (every reduction of a half
    /// dtype reads its elements one by one).
    fn wide(self) -> f32;
    /// One float32 rounded to this type.
    fn round_from(x: f32) -> Self;
}

/// `s` widened into the front of `buf`, and returned.
#[inline(always)]
pub fn widened<'a, H: HalfBlock>(s: &[H], buf: &'a mut [Out<f32>]) -> &'a [f32] {
    let buf = &mut buf[..s.len()];
    H::widen(s, buf);
    // SAFETY: widen wrote every slot of `buf` (it is as long as `s`).
    unsafe { buf.assume_init_ref() }
}

/// float16 by F16C's conversions, eight lanes an instruction, where the
/// processor has them (every x86-64 since 2012); by the half crate's
/// per-element conversions elsewhere.
impl HalfBlock for f16 {
    fn widen(s: &[f16], d: &mut [Out<f32>]) {
        #[cfg(target_arch = "x86_64")]
        if super::simd::f16c() {
            // SAFETY: the processor has F16C and AVX.
            unsafe { f16c::widen(s, d) };
            return;
        }
        convert_into(s, d, f16::to_f32);
    }

    fn narrow(s: &[f32], d: &mut [Out<f16>]) {
        #[cfg(target_arch = "x86_64")]
        if super::simd::f16c() {
            // SAFETY: the processor has F16C and AVX.
            unsafe { f16c::narrow(s, d) };
            return;
        }
        convert_into(s, d, f16::from_f32);
    }

    /// Giesen's `half_to_float_fast5` as selects: the exponent rebiased; an
    /// infinity or NaN rebiased to float32's top exponent (a NaN quieted, as
    /// F16C quiets it); a subnormal renormalised by one subtraction.
    #[inline(always)]
    fn wide(self) -> f32 {
        let h = self.to_bits() as u32;
        let em = (h & 0x7fff) << 13;
        let exp = em & (0x7c00 << 13);
        let normal = em + ((127 - 15) << 23);
        let quiet = if h & 0x3ff != 0 { 0x0040_0000 } else { 0 };
        let special = (em + ((255 - 31) << 23)) | quiet;
        let tiny = (f32::from_bits(em + (113 << 23)) - f32::from_bits(113 << 23)).to_bits();
        let bits = if exp == 0x7c00 << 13 {
            special
        } else if exp == 0 {
            tiny
        } else {
            normal
        };
        f32::from_bits(bits | ((h & 0x8000) << 16))
    }

    #[inline(always)]
    fn round_from(x: f32) -> f16 {
        f16::from_f32(x)
    }
}

/// bfloat16 is float32's top half: a shift one way, a rounding the other.
impl HalfBlock for bf16 {
    fn widen(s: &[bf16], d: &mut [Out<f32>]) {
        bf16_widen_block(s, d);
    }

    fn narrow(s: &[f32], d: &mut [Out<bf16>]) {
        bf16_narrow_block(s, d);
    }

    #[inline(always)]
    fn wide(self) -> f32 {
        f32::from_bits((self.to_bits() as u32) << 16)
    }

    #[inline(always)]
    fn round_from(x: f32) -> bf16 {
        bf16_of(x)
    }
}

/// float32 → bfloat16, rounding to nearest even (NaN stays a quiet NaN with
/// its sign), as the half crate's `from_f32` but without its branch, so that
/// the loop vectorises.
#[inline(always)]
fn bf16_of(x: f32) -> bf16 {
    let b = x.to_bits();
    let rounded = (b + 0x7fff + ((b >> 16) & 1)) >> 16;
    let nan = (b >> 16) | 0x40;
    bf16::from_bits(if x.is_nan() { nan } else { rounded } as u16)
}

crate::multiversion! {
    fn bf16_narrow_block(s: &[f32], d: &mut [Out<bf16>]) {
        convert_into(s, d, bf16_of);
    }
}

crate::multiversion! {
    fn bf16_widen_block(s: &[bf16], d: &mut [Out<f32>]) {
        convert_into(s, d, bf16::wide);
    }
}

#[cfg(target_arch = "x86_64")]
mod f16c {
    use super::Out;
    use half::f16;
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx,f16c")]
    pub unsafe fn widen(s: &[f16], d: &mut [Out<f32>]) {
        let n = s.len().min(d.len());
        let (sp, dp) = (s.as_ptr(), d.as_mut_ptr() as *mut f32);
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: lanes i..i + 8 are within both slices.
            unsafe {
                let h = _mm_loadu_si128(sp.add(i) as *const __m128i);
                _mm256_storeu_ps(dp.add(i), _mm256_cvtph_ps(h));
            }
            i += 8;
        }
        for (o, x) in d[i..n].iter_mut().zip(&s[i..n]) {
            o.write(x.to_f32());
        }
    }

    #[target_feature(enable = "avx,f16c")]
    pub unsafe fn narrow(s: &[f32], d: &mut [Out<f16>]) {
        let n = s.len().min(d.len());
        let (sp, dp) = (s.as_ptr(), d.as_mut_ptr() as *mut f16);
        let mut i = 0;
        while i + 8 <= n {
            // SAFETY: lanes i..i + 8 are within both slices.
            unsafe {
                let v = _mm256_loadu_ps(sp.add(i));
                let h = _mm256_cvtps_ph::<_MM_FROUND_TO_NEAREST_INT>(v);
                _mm_storeu_si128(dp.add(i) as *mut __m128i, h);
            }
            i += 8;
        }
        for (o, &x) in d[i..n].iter_mut().zip(&s[i..n]) {
            o.write(f16::from_f32(x));
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::backend::cpu::scratch::scratch;

    crate::unit_tests! {
        fn half_blocks_convert_as_the_half_crate_does() {
            // Every float16 and bfloat16 bit pattern widens as the half
            // crate's own conversion does (NaN payloads included, compared
            // as bits), and narrowing it back gives the same pattern
            // (NaNs stay NaN); a 37-long tail beside full vectors.
            for chunk in (0..=u16::MAX).collect::<Vec<_>>().chunks(1037) {
                let hs: Vec<f16> = chunk.iter().map(|&b| f16::from_bits(b)).collect();
                let bs: Vec<bf16> = chunk.iter().map(|&b| bf16::from_bits(b)).collect();
                let mut buf = scratch();
                let w = widened(&hs, &mut buf).to_vec();
                let want: Vec<u32> = hs.iter().map(|h| h.to_f32().to_bits()).collect();
                assert_eq!(w.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), want);
                let mut back = scratch::<f16>();
                f16::narrow(&w, &mut back[..w.len()]);
                for (i, h) in hs.iter().enumerate() {
                    // SAFETY: narrow wrote the first w.len() slots.
                    let got = unsafe { back[i].assume_init() };
                    assert!(got.to_bits() == h.to_bits() || (got.is_nan() && h.is_nan()));
                }
                // bfloat16 widens by a bare shift, as c10 does: a signalling
                // NaN stays signalling (the crate quiets it), the rest equal.
                let w = widened(&bs, &mut buf).to_vec();
                for (x, h) in w.iter().zip(&bs) {
                    assert_eq!(x.to_bits(), (h.to_bits() as u32) << 16);
                    assert!(x.to_bits() == h.to_f32().to_bits() || h.is_nan());
                }
                let mut back = scratch::<bf16>();
                bf16::narrow(&w, &mut back[..w.len()]);
                for (i, h) in bs.iter().enumerate() {
                    // SAFETY: narrow wrote the first w.len() slots.
                    let got = unsafe { back[i].assume_init() };
                    assert!(got.to_bits() == h.to_bits() || (got.is_nan() && h.is_nan()));
                }
            }
            // One element at a time: the same bits as the blocks (every
            // pattern, NaNs included), and rounding back as the crate does.
            for b in 0..=u16::MAX {
                let (h, g) = (f16::from_bits(b), bf16::from_bits(b));
                assert_eq!(h.wide().to_bits(), h.to_f32().to_bits(), "{b:#x}");
                assert_eq!(g.wide().to_bits(), (b as u32) << 16, "{b:#x}");
                let x = h.to_f32();
                assert!(f16::round_from(x).to_bits() == b || x.is_nan());
                assert!(bf16::round_from(g.to_f32()).to_bits() == b || g.is_nan());
            }
            // Rounding: a spread of float32s narrows as the crate narrows them.
            let xs: Vec<f32> = (0..2000).map(|i| (i as f32 - 1000.0) * 0.123_456_7 + 1e-3).collect();
            let (mut hb, mut bb) = (scratch::<f16>(), scratch::<bf16>());
            f16::narrow(&xs, &mut hb[..xs.len()]);
            bf16::narrow(&xs, &mut bb[..xs.len()]);
            for (i, &x) in xs.iter().enumerate() {
                // SAFETY: narrow wrote the first xs.len() slots.
                let (h, b) = unsafe { (hb[i].assume_init(), bb[i].assume_init()) };
                assert_eq!(h.to_bits(), f16::from_f32(x).to_bits());
                assert_eq!(b.to_bits(), bf16::from_f32(x).to_bits());
            }
        }
    }
}
