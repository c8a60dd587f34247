//! Dtype conversion and strided copies.

use half::{bf16, f16};

use super::elem::{CpuStorage, Element};
use super::scratch::{Out, convert_into, scratch};
use super::strided::{block, fill_blocks, gather, runs};
use crate::error::{Result, value_err};
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::with_storage;

#[inline(always)]
fn convert<T: Element, U: Element>(x: T) -> U {
    if T::DTYPE.is_float() {
        // Float → integer truncates toward zero (NaN and out of range as PyTorch
        // on x86, see Element::from_f64); → bool tests for non-zero.
        U::from_f64(x.to_f64())
    } else if U::DTYPE.is_float() {
        U::from_f64(x.to_i64() as f64)
    } else {
        U::from_i64(x.to_i64())
    }
}

crate::multiversion! {
    /// One block converted; compiled for AVX-512 too, where float → int64
    /// has a vector instruction (`.long()` ran 3.7x behind PyTorch).
    fn convert_block<T: Element, U: Element>(s: &[T], d: &mut [Out<U>]) {
        convert_into(s, d, convert::<T, U>);
    }
}

fn cast_typed<T: Element, U: Element>(v: &[T], l: &Layout) -> Vec<U> {
    cast_with(v, l, convert_block::<T, U>)
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
    fn bf16_block(s: &[f32], d: &mut [Out<bf16>]) {
        convert_into(s, d, bf16_of);
    }
}

/// float16 ↔ float32 through the half crate's slice conversions: F16C
/// instructions eight at a time, detected once per slice (its per-element
/// conversions detect the instructions on every call, 4x slower here).
fn f16_to_f32_block(s: &[f16], d: &mut [Out<f32>]) {
    use half::slice::HalfFloatSliceExt;
    let mut buf = [0f32; 256];
    for (s, d) in s.chunks(buf.len()).zip(d.chunks_mut(buf.len())) {
        let buf = &mut buf[..s.len()];
        s.convert_to_f32_slice(buf);
        convert_into(buf, d, |x| x);
    }
}

fn f32_to_f16_block(s: &[f32], d: &mut [Out<f16>]) {
    use half::slice::HalfFloatSliceExt;
    let mut buf = [f16::ZERO; 256];
    for (s, d) in s.chunks(buf.len()).zip(d.chunks_mut(buf.len())) {
        let buf = &mut buf[..s.len()];
        buf.convert_from_f32_slice(s);
        convert_into(buf, d, |x| x);
    }
}

/// The elements of `l`, contiguous, converted a block at a time by `convert`.
fn cast_with<T: Copy + Send + Sync, U: Send>(
    v: &[T],
    l: &Layout,
    convert: impl Fn(&[T], &mut [Out<U>]) + Sync,
) -> Vec<U> {
    fill_blocks(l.numel(), &|start, dst| {
        let mut buf = scratch();
        convert(block(v, l, start, &mut buf[..dst.len()]), dst);
    })
}

/// The elements of `l`, contiguous, in `to`.
pub fn cast(s: &CpuStorage, l: &Layout, to: DType) -> CpuStorage {
    if s.dtype() == to {
        return with_storage!(s, v => Element::wrap(gather(v, l)));
    }
    // Half precision to and from float32 (every half matmul and autocast goes
    // through them) by the half crate's own conversions: a shift one way,
    // round-to-nearest-even the other, as through f64 but several times faster.
    match (s, to) {
        (CpuStorage::F32(v), DType::BF16) => {
            return CpuStorage::BF16(cast_with(v, l, bf16_block));
        }
        (CpuStorage::F32(v), DType::F16) => {
            return CpuStorage::F16(cast_with(v, l, f32_to_f16_block));
        }
        (CpuStorage::BF16(v), DType::F32) => {
            return CpuStorage::F32(cast_with(v, l, |s, d| convert_into(s, d, bf16::to_f32)));
        }
        (CpuStorage::F16(v), DType::F32) => {
            return CpuStorage::F32(cast_with(v, l, f16_to_f32_block));
        }
        _ => {}
    }
    with_storage!(s, v => crate::with_dtype!(to, U => Element::wrap(cast_typed::<_, U>(v, l))))
}

/// Copy `src` (seen through `sl`) into the elements of `dst` that `l` describes.
pub fn copy_into(dst: &mut CpuStorage, l: &Layout, src: &CpuStorage, sl: &Layout) -> Result<()> {
    if dst.dtype() != src.dtype() {
        return Err(value_err(
            "internal: a copy between dtypes reached the backend",
        ));
    }
    with_storage!(dst, d => {
        // Unreachable: the dtypes were just compared.
        let s = Element::slice(src).expect("same dtype");
        copy_typed(d, l, s, sl);
    });
    Ok(())
}

fn copy_typed<T: Element>(dst: &mut [T], l: &Layout, src: &[T], sl: &Layout) {
    if l.is_contiguous() {
        let n = l.numel();
        super::assign::read_into(src, sl, &mut dst[l.offset..l.offset + n]);
        return;
    }
    // A contiguous source is read in place: no copy before the copy.
    let values = super::strided::contiguous(src, sl);
    let mut at = 0;
    runs(l, 0, values.len(), &mut |off, stride, count| {
        if stride == 1 {
            dst[off..off + count].copy_from_slice(&values[at..at + count]);
        } else {
            for k in 0..count {
                dst[off + k * stride] = values[at + k];
            }
        }
        at += count;
    });
}
