//! Memory that kernels write before anything reads it. Output vectors and stack
//! blocks are left uninitialised: zero-filling them first cost a quarter of an
//! add's time. A kernel gets its output as `&mut [Out<T>]` and must write every
//! slot; `filled_vec` and `convert` are where that promise is relied on.

use super::elem::BLOCK;
pub use std::mem::MaybeUninit as Out;

/// A block of uninitialised scratch space (on the stack where it is a local).
pub fn scratch<T>() -> [Out<T>; BLOCK] {
    [const { Out::uninit() }; BLOCK]
}

/// `buf` filled with `v`, and returned.
#[inline(always)]
pub fn splat<T: Copy>(v: T, buf: &mut [Out<T>]) -> &[T] {
    for d in buf.iter_mut() {
        d.write(v);
    }
    // SAFETY: the loop wrote every slot of `buf`.
    unsafe { buf.assume_init_ref() }
}

/// `dst[i] = f(src[i])` into output slots of the same length.
#[inline(always)]
pub fn convert_into<S: Copy, T>(src: &[S], dst: &mut [Out<T>], f: impl Fn(S) -> T) {
    for (d, &x) in dst.iter_mut().zip(src) {
        d.write(f(x));
    }
}

/// Initialised elements seen as output slots, for a kernel to overwrite.
pub fn as_out<T: Copy>(d: &mut [T]) -> &mut [Out<T>] {
    // SAFETY: Out<T> is MaybeUninit<T>, laid out as T; T is Copy (no drop),
    // and the kernels write only initialised values into the slots.
    unsafe { &mut *(d as *mut [T] as *mut [Out<T>]) }
}

/// The scratch blocks that `write` filled, read back.
///
/// # Safety
/// Every slot of `buf` must have been written.
pub unsafe fn written<T>(buf: &[Out<T>]) -> &[T] {
    // SAFETY: the caller's promise.
    unsafe { buf.assume_init_ref() }
}

/// A vector of `n` elements whose every slot `fill` writes (all kernels' outputs).
pub fn filled_vec<T>(n: usize, fill: impl FnOnce(&mut [Out<T>])) -> Vec<T> {
    let mut out: Vec<T> = Vec::with_capacity(n);
    fill(&mut out.spare_capacity_mut()[..n]);
    // SAFETY: each caller's `fill` is a kernel driver that writes every slot of
    // its output (the drivers cover [0, n) block by block).
    unsafe { out.set_len(n) };
    out
}
