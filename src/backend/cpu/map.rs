//! Element loops over strided layouts: the contiguous fast path, the general
//! strided path, and rayon above a size where threads pay for themselves.

use rayon::prelude::*;

use crate::tensor::layout::Layout;
use crate::tensor::storage::{Element, Storage};
use crate::with_storage;

/// Below this many elements a loop runs on one thread.
pub const PAR_THRESHOLD: usize = 1 << 15;

fn contiguous_slice<'a, T>(v: &'a [T], l: &Layout) -> Option<&'a [T]> {
    // An empty view may keep an offset past its (empty) storage: `randn(4, 0)[3:]`.
    if l.numel() == 0 {
        return Some(&[]);
    }
    if l.is_contiguous() {
        Some(&v[l.offset..l.offset + l.numel()])
    } else {
        None
    }
}

/// `f` applied to every element of `v` seen through `l`, in row-major order.
pub fn map<T: Element, U: Element>(
    v: &[T],
    l: &Layout,
    f: impl Fn(T) -> U + Sync + Send,
) -> Vec<U> {
    if let Some(s) = contiguous_slice(v, l) {
        if s.len() >= PAR_THRESHOLD {
            return s.par_iter().map(|&x| f(x)).collect();
        }
        return s.iter().map(|&x| f(x)).collect();
    }
    l.offsets().map(|o| f(v[o])).collect()
}

/// `f` over pairs of elements; `la` and `lb` already have the same (broadcast) shape.
pub fn zip_map<T: Element, U: Element>(
    a: &[T],
    la: &Layout,
    b: &[T],
    lb: &Layout,
    f: impl Fn(T, T) -> U + Sync + Send,
) -> Vec<U> {
    if let (Some(sa), Some(sb)) = (contiguous_slice(a, la), contiguous_slice(b, lb)) {
        if sa.len() >= PAR_THRESHOLD {
            return sa
                .par_iter()
                .zip(sb.par_iter())
                .map(|(&x, &y)| f(x, y))
                .collect();
        }
        return sa.iter().zip(sb).map(|(&x, &y)| f(x, y)).collect();
    }
    // A broadcast scalar on either side is common (`t * 2`): keep the other side fast.
    if lb.strides.iter().all(|&s| s == 0) {
        let y = b[lb.offset];
        return map(a, la, |x| f(x, y));
    }
    if la.strides.iter().all(|&s| s == 0) {
        let x = a[la.offset];
        return map(b, lb, |y| f(x, y));
    }
    la.offsets()
        .zip(lb.offsets())
        .map(|(i, j)| f(a[i], b[j]))
        .collect()
}

/// A contiguous copy of the elements `l` describes.
pub fn gather<T: Element>(v: &[T], l: &Layout) -> Vec<T> {
    if let Some(s) = contiguous_slice(v, l) {
        return s.to_vec();
    }
    l.offsets().map(|o| v[o]).collect()
}

pub fn contiguous(s: &Storage, l: &Layout) -> Storage {
    with_storage!(s, v => Element::wrap(gather(v, l)))
}

/// Elements at explicit storage offsets (advanced indexing).
pub fn take(s: &Storage, offsets: &[usize]) -> Storage {
    with_storage!(s, v => Element::wrap(offsets.iter().map(|&o| v[o]).collect()))
}

fn cast_typed<T: Element, U: Element>(v: &[T], l: &Layout) -> Vec<U> {
    if T::DTYPE.is_float() {
        // Float → integer truncates toward zero (NaN and out-of-range values as
        // PyTorch on x86: see Element::from_f64); → bool tests for non-zero.
        map(v, l, |x| U::from_f64(x.to_f64()))
    } else if U::DTYPE.is_float() {
        map(v, l, |x| U::from_f64(x.to_i64() as f64))
    } else {
        map(v, l, |x| U::from_i64(x.to_i64()))
    }
}

pub fn cast(s: &Storage, l: &Layout, to: crate::tensor::dtype::DType) -> Storage {
    with_storage!(s, v => crate::with_dtype!(to, U => Element::wrap(cast_typed::<_, U>(v, l))))
}

/// Write `src` (contiguous, `offsets.len()` elements, same dtype) at `offsets` of `dst`.
pub fn scatter(dst: &mut Storage, offsets: &[usize], src: &Storage) {
    with_storage!(dst, d => {
        // Unreachable from input: every caller casts the source to dst's dtype first.
        let s = Element::slice(src).expect("scatter source has the destination's dtype");
        for (&o, &x) in offsets.iter().zip(s.iter()) {
            d[o] = x;
        }
    })
}

/// A buffer of `n` copies of `value` (given as f64 for floats, i64 for integers).
pub fn filled(dtype: crate::tensor::dtype::DType, n: usize, value: f64, ivalue: i64) -> Storage {
    crate::with_dtype!(dtype, T => {
        let x = if dtype.is_float() { T::from_f64(value) } else { T::from_i64(ivalue) };
        Element::wrap(vec![x; n])
    })
}

/// Every element as f64 / i64, in row-major order (printing, tolist, reductions' inputs).
pub fn to_f64_vec(s: &Storage, l: &Layout) -> Vec<f64> {
    with_storage!(s, v => map(v, l, |x| x.to_f64()))
}
pub fn to_i64_vec(s: &Storage, l: &Layout) -> Vec<i64> {
    with_storage!(s, v => map(v, l, |x| x.to_i64()))
}
