//! The widest vector instructions this processor runs, chosen once at run time.
//! The release build targets baseline x86-64 (SSE2, four f32 lanes) so that it
//! runs anywhere; compute-bound loops (exp, sigmoid, softmax) are compiled a
//! second and third time for AVX2 and AVX-512 (both with FMA) and picked here.
//! LLVM never fuses a multiply and an add on its own, and an explicit
//! `mul_add` is exact everywhere (the instruction, or libm's fmaf), so every
//! version rounds exactly alike: results do not depend on the processor.

use std::sync::OnceLock;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Isa {
    Base,
    Avx2,
    Avx512,
}

pub fn isa() -> Isa {
    static ISA: OnceLock<Isa> = OnceLock::new();
    *ISA.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Isa {
    if std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("fma")
    {
        Isa::Avx512
    } else if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        Isa::Avx2
    } else {
        Isa::Base
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Isa {
    Isa::Base
}

/// Whether the processor has F16C (float16 ↔ float32 eight lanes at a time)
/// and the AVX registers it writes.
#[cfg(target_arch = "x86_64")]
pub fn f16c() -> bool {
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        std::is_x86_feature_detected!("f16c") && std::is_x86_feature_detected!("avx")
    })
}

/// `fn name<G: Bound>(args) -> R { body }`, compiled for each instruction set and
/// dispatched on `isa()` at every call (so call it per block or per line, not per
/// element). The body is one inlined copy per version.
#[macro_export]
macro_rules! multiversion {
    ($(#[$m:meta])* $vis:vis fn $name:ident $(<$($g:ident : $b:path),*>)?
        ($($arg:ident : $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block) => {
        $(#[$m])*
        $vis fn $name $(<$($g: $b),*>)? ($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn imp $(<$($g: $b),*>)? ($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
                fn avx512 $(<$($g: $b),*>)? ($($arg: $ty),*) $(-> $ret)? {
                    imp $(::<$($g),*>)? ($($arg),*)
                }
                #[target_feature(enable = "avx2,fma")]
                fn avx2 $(<$($g: $b),*>)? ($($arg: $ty),*) $(-> $ret)? {
                    imp $(::<$($g),*>)? ($($arg),*)
                }
                match $crate::backend::cpu::simd::isa() {
                    // SAFETY: isa() reported that this processor runs these instructions.
                    $crate::backend::cpu::simd::Isa::Avx512 => {
                        return unsafe { avx512 $(::<$($g),*>)? ($($arg),*) };
                    }
                    // SAFETY: as above.
                    $crate::backend::cpu::simd::Isa::Avx2 => {
                        return unsafe { avx2 $(::<$($g),*>)? ($($arg),*) };
                    }
                    $crate::backend::cpu::simd::Isa::Base => {}
                }
            }
            imp $(::<$($g),*>)? ($($arg),*)
        }
    };
}

/// Asks for the cache lines of `line[..len]` ahead of reads within it: the
/// next row of a gather along the last dim (the hardware prefetcher follows
/// streams, not picks scattered over a line), the next row of a softmax.
#[inline(always)]
pub(super) fn prefetch_line<T>(line: &[T], len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let len = len.min(line.len());
        let bytes = std::mem::size_of_val(&line[..len]);
        let base = line.as_ptr() as *const i8;
        for at in (0..bytes).step_by(64) {
            // SAFETY: a prefetch is a hint: it reads nothing and cannot
            // fault; the address is within `line`.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(base.add(at))
            };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (line, len);
}
