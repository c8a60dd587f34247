//! Copying a row of elements. glibc's memcpy, on the AMD Zen 3 where tsh's
//! benchmarks run, copies a few KiB ten times slower when the destination
//! sits 1 to 63 bytes above the source modulo 4 KiB: each load of its
//! forward vector loop falsely waits on the store just before it (4K
//! aliasing). Rows of one big tensor copied into rows of another hit that
//! on every row whenever their starts differ by a few elements (torch.roll,
//! cat of column slices: 1 ms where PyTorch takes 0.1). Such rows are
//! copied backwards here, where no load follows a store to its address.

use super::scratch::{Out, as_out};
use std::sync::atomic::{Ordering, compiler_fence};

/// Below this many bytes memcpy copies with a few loads ahead of all its
/// stores, and the alias does not bite.
const SMALL: usize = 256;

/// `dst = src` (of the same length).
#[inline]
pub fn copy_row<T: Copy>(dst: &mut [Out<T>], src: &[T]) {
    let bytes = std::mem::size_of_val(src);
    let gap = (dst.as_ptr() as usize).wrapping_sub(src.as_ptr() as usize) % 4096;
    if bytes < SMALL || gap == 0 || gap >= 64 || dst.len() != src.len() {
        dst.write_copy_of_slice(src);
        return;
    }
    // SAFETY: both slices hold `bytes` bytes and do not overlap (one is
    // borrowed mutably, the other shared).
    unsafe {
        copy_backwards(
            dst.as_mut_ptr() as *mut u8,
            src.as_ptr() as *const u8,
            bytes,
        )
    }
}

/// # Safety
/// `dst` and `src` are valid for `bytes` bytes and do not overlap.
unsafe fn copy_backwards(dst: *mut u8, src: *const u8, bytes: usize) {
    type Piece = [u8; 32];
    let mut at = bytes;
    while at >= 32 {
        at -= 32;
        // SAFETY: [at, at + 32) is within both buffers.
        unsafe {
            let v = std::ptr::read_unaligned(src.add(at) as *const Piece);
            std::ptr::write_unaligned(dst.add(at) as *mut Piece, v);
        }
        // Keeps LLVM from turning this loop back into a call to memcpy.
        compiler_fence(Ordering::SeqCst);
    }
    // SAFETY: the first `at` (< 32) bytes are within both buffers.
    unsafe { std::ptr::copy_nonoverlapping(src, dst, at) };
}

/// `copy_row` over initialised elements.
#[inline]
pub fn overwrite_row<T: Copy>(dst: &mut [T], src: &[T]) {
    copy_row(as_out(dst), src)
}

pub mod tests {
    use super::*;

    crate::unit_tests! {
        /// Every length around the 32-byte pieces, at every gap that takes
        /// the backward path and at some that do not: the copy is exact.
        fn rows_copy_exactly_at_every_gap() {
            let src: Vec<u32> = (0..8192u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
            let mut dst = vec![0u32; 8192 + 2048];
            // A destination index with the same address modulo 4 KiB as
            // src[0] (both are 4-byte aligned, so one of the first 1024 is).
            let gap = (src.as_ptr() as usize).wrapping_sub(dst.as_ptr() as usize) % 4096;
            let base = gap / 4;
            for shift in [0usize, 1, 3, 7, 8, 15, 16, 17] {
                for len in [0usize, 1, 7, 8, 63, 64, 65, 200, 1000, 1001, 4093, 4096] {
                    for s in [0usize, 1, 5] {
                        dst.fill(0);
                        let at = base + shift;
                        copy_row(as_out(&mut dst[at..at + len]), &src[s..s + len]);
                        assert_eq!(&dst[at..at + len], &src[s..s + len], "shift {shift}, len {len}");
                        assert!(dst[..at].iter().chain(&dst[at + len..]).all(|&x| x == 0));
                    }
                }
            }
        }
    }
}
