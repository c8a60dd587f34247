//! Whether `vdpbf16ps` is worth using on this processor, measured once.
//!
//! The instruction does twice the multiply-adds of an f32 FMA, but how many of
//! them a core issues differs by design: Zen 4 runs one a cycle, as many as its
//! 512-bit FMAs, so bf16 products through it are twice as fast as through f32.
//! Sapphire and Emerald Rapids run one every two cycles against two FMAs a
//! cycle, a quarter of the rate; there, oneDNN's bf16 products take their AMX
//! tiles, and where those are hidden (a virtual machine that does not pass
//! them through) a product through f32 is twice as fast as one through
//! `vdpbf16ps` (a 512² product: 1.0 against 1.7 ms, PyTorch 1.6–1.9).
//!
//! No table of processors says which: the two instructions' rates are timed
//! side by side on twelve independent chains each (the 60 µs this costs is
//! paid once per process, at its first bf16 product).

use std::sync::OnceLock;

/// Whether the instruction's multiply-adds come at least as fast as f32
/// FMAs' (it may take up to twice an FMA's time, as it does twice the work).
/// The caller has checked that the processor runs AVX512-BF16.
pub(super) fn pays() -> bool {
    static PAYS: OnceLock<bool> = OnceLock::new();
    *PAYS.get_or_init(|| {
        let (dot, fma) = times();
        dot <= 2.0 * fma
    })
}

/// Rounds of twelve instructions each timing runs: 12,000 of them, several
/// microseconds, against a clock read in tens of nanoseconds.
const ROUNDS: usize = 1000;

/// The best of three alternating timings of each instruction, in seconds per
/// round: the first use of 512-bit instructions may run slowly while the core
/// changes its clock, and a timing may be interrupted.
#[cfg(target_arch = "x86_64")]
fn times() -> (f64, f64) {
    use std::time::Instant;
    let time = |f: &dyn Fn()| {
        let t0 = Instant::now();
        f();
        t0.elapsed().as_secs_f64()
    };
    let (mut dot, mut fma) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        // SAFETY: `pays`' caller checked that the processor runs
        // AVX512-BF16 (and with it AVX512F).
        fma = fma.min(time(&|| unsafe { x86::fmas(ROUNDS) }));
        // SAFETY: as above.
        dot = dot.min(time(&|| unsafe { x86::dots(ROUNDS) }));
    }
    (dot, fma)
}

#[cfg(not(target_arch = "x86_64"))]
fn times() -> (f64, f64) {
    (f64::INFINITY, 0.0)
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;
    use std::hint::black_box;

    /// `rounds` rounds of twelve independent `vdpbf16ps`.
    ///
    /// # Safety
    /// The processor runs AVX512F and AVX512-BF16.
    #[target_feature(enable = "avx512f,avx512bf16")]
    pub unsafe fn dots(rounds: usize) {
        // 1.0 in both halves; its value does not matter, only the work.
        // SAFETY: both are 512 bits of plain data.
        let x: __m512bh = unsafe { std::mem::transmute(_mm512_set1_epi32(0x3f80_3f80)) };
        let x = black_box(x);
        let mut acc = [_mm512_setzero_ps(); 12];
        for _ in 0..rounds {
            for a in &mut acc {
                *a = _mm512_dpbf16_ps(*a, x, x);
            }
        }
        black_box(acc);
    }

    /// `rounds` rounds of twelve independent f32 FMAs.
    ///
    /// # Safety
    /// The processor runs AVX512F.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn fmas(rounds: usize) {
        let x = black_box(_mm512_set1_ps(1.0));
        let mut acc = [_mm512_setzero_ps(); 12];
        for _ in 0..rounds {
            for a in &mut acc {
                *a = _mm512_fmadd_ps(*a, x, x);
            }
        }
        black_box(acc);
    }
}
