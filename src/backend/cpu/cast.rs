//! Dtype conversion and strided copies.

use super::elem::{CpuStorage, Element};
use super::scratch::{convert_into, scratch};
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

fn cast_typed<T: Element, U: Element>(v: &[T], l: &Layout) -> Vec<U> {
    fill_blocks(l.numel(), &|start, dst| {
        let mut buf = scratch();
        let s = block(v, l, start, &mut buf[..dst.len()]);
        convert_into(s, dst, convert::<T, U>);
    })
}

/// The elements of `l`, contiguous, in `to`.
pub fn cast(s: &CpuStorage, l: &Layout, to: DType) -> CpuStorage {
    if s.dtype() == to {
        return with_storage!(s, v => Element::wrap(gather(v, l)));
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
