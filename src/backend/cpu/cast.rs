//! Dtype conversion and strided copies.

use half::{bf16, f16};

use super::elem::{CpuStorage, Element};
use super::half_blocks::HalfBlock;
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
    // through them) a block at a time (half_blocks.rs): as through f64 but
    // several times faster.
    match (s, to) {
        (CpuStorage::F32(v), DType::BF16) => {
            return CpuStorage::BF16(cast_with(v, l, bf16::narrow));
        }
        (CpuStorage::F32(v), DType::F16) => {
            return CpuStorage::F16(cast_with(v, l, f16::narrow));
        }
        (CpuStorage::BF16(v), DType::F32) => {
            return CpuStorage::F32(cast_with(v, l, bf16::widen));
        }
        (CpuStorage::F16(v), DType::F32) => {
            return CpuStorage::F32(cast_with(v, l, f16::widen));
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
    let l = l.coalesced();
    match outer_stretches(&l) {
        // On every core, each task a run of the outer dim's indices, whose
        // elements sit in a stretch of `dst` of their own (F.pad's interior,
        // `x[:, 1:-1] = y`: one core's copy took 3x PyTorch's time).
        Some((step, extent)) if super::strided::parallel(values.len()) && l.shape[0] > 1 => {
            let outer = l.shape[0];
            let per = outer.div_ceil(4 * crate::threads::count());
            let inner = values.len() / outer;
            let span = (outer - 1) * step + extent;
            let stretches =
                crate::threads::ChunksMut::new(&mut dst[l.offset..l.offset + span], per * step);
            crate::threads::zip(stretches, |t, d| {
                let mut sub = l.clone();
                sub.shape[0] = per.min(outer - t * per);
                sub.offset = 0;
                let from = t * per * inner;
                write_runs(d, &sub, &values[from..from + sub.numel()]);
            });
        }
        _ => write_runs(dst, &l, &values),
    }
}

/// The distance between consecutive indices of `l`'s outer dim, and how many
/// elements the rest of `l` spans, when that span fits within the distance
/// (so each index's elements own a stretch of the buffer).
fn outer_stretches(l: &Layout) -> Option<(usize, usize)> {
    if l.numel() == 0 {
        return None;
    }
    let extent = 1
        + (1..l.ndim())
            .map(|d| (l.shape[d] - 1) * l.strides[d])
            .sum::<usize>();
    (l.strides[0] >= extent).then_some((l.strides[0], extent))
}

/// `values` written, in row-major order, into the elements of `dst` that `l`
/// describes.
fn write_runs<T: Copy>(dst: &mut [T], l: &Layout, values: &[T]) {
    let mut at = 0;
    runs(l, 0, values.len(), &mut |off, stride, count| {
        if stride == 1 {
            super::row_copy::overwrite_row(&mut dst[off..off + count], &values[at..at + count]);
        } else {
            for k in 0..count {
                dst[off + k * stride] = values[at + k];
            }
        }
        at += count;
    });
}
