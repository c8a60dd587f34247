//! Advanced indexing on the CPU: the storage offsets an index selects, then a
//! gather (reads) or a scatter (writes, optionally accumulating); and nonzero.

use super::elem::{CpuStorage, Element};
use super::strided::{gather, runs};
use crate::error::{Result, index_err, value_err};
use crate::tensor::layout::Layout;
use crate::with_storage;

/// Every offset of a layout, in row-major order.
fn offsets(l: &Layout) -> Vec<usize> {
    let mut out = Vec::with_capacity(l.numel());
    runs(l, 0, l.numel(), &mut |off, stride, count| {
        out.extend((0..count).map(|k| off + k * stride));
    });
    out
}

/// The storage offsets an advanced index selects, in the result's row-major order.
fn selected(
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
) -> Result<Vec<usize>> {
    // Each index's values, bounds-checked and made non-negative.
    let mut values: Vec<Vec<usize>> = Vec::with_capacity(dims.len());
    for (&d, (s, il)) in dims.iter().zip(indices) {
        let size = l.shape[d] as i64;
        let raw: Vec<i64> =
            with_storage!(s, v => gather(v, il).iter().map(|x| x.to_i64()).collect());
        let mut ok = Vec::with_capacity(raw.len());
        for x in raw {
            if x < -size || x >= size {
                return Err(index_err(format!(
                    "index {x} is out of bounds for dimension {d} with size {size}"
                )));
            }
            ok.push((if x < 0 { x + size } else { x }) as usize);
        }
        values.push(ok);
    }
    let nb = indices.first().map_or(1, |(_, il)| il.numel());
    let base: Vec<usize> = (0..nb)
        .map(|b| {
            dims.iter()
                .zip(&values)
                .map(|(&d, v)| v[b] * l.strides[d])
                .sum()
        })
        .collect();
    // The other dims, split where the broadcast index dims go.
    let rest: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
    let sub = |ds: &[usize], offset: usize| Layout {
        shape: ds.iter().map(|&d| l.shape[d]).collect(),
        strides: ds.iter().map(|&d| l.strides[d]).collect(),
        offset,
    };
    let (before, after) = rest.split_at(insert_at.min(rest.len()));
    let (lb, la) = (sub(before, l.offset), sub(after, 0));
    let total = lb.numel() * nb * la.numel();
    let mut out = Vec::with_capacity(total);
    if total == 0 {
        return Ok(out);
    }
    let after_offsets = offsets(&la);
    for ob in offsets(&lb) {
        for &bb in &base {
            for &oa in &after_offsets {
                out.push(ob + bb + oa);
            }
        }
    }
    Ok(out)
}

pub fn index(
    s: &CpuStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
) -> Result<CpuStorage> {
    let offs = selected(l, dims, indices, insert_at)?;
    Ok(with_storage!(s, v => Element::wrap(offs.iter().map(|&o| v[o]).collect())))
}

pub fn index_put_into(
    dst: &mut CpuStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CpuStorage, &Layout)],
    insert_at: usize,
    src: (&CpuStorage, &Layout),
    accumulate: bool,
) -> Result<()> {
    if dst.dtype() != src.0.dtype() {
        return Err(value_err(
            "internal: index_put between dtypes reached the backend",
        ));
    }
    let offs = selected(l, dims, indices, insert_at)?;
    with_storage!(dst, d => {
        // Unreachable: the dtypes were just compared.
        let s = Element::slice(src.0).expect("same dtype");
        let values = gather(s, src.1);
        put(d, &offs, &values, accumulate);
    });
    Ok(())
}

fn put<T: Element>(dst: &mut [T], offs: &[usize], values: &[T], accumulate: bool) {
    if accumulate {
        // Repeated positions add up, as index_put_(accumulate=True) and index_add.
        let float = T::DTYPE.is_float();
        for (&o, &x) in offs.iter().zip(values) {
            dst[o] = if float {
                T::from_f64(dst[o].to_f64() + x.to_f64())
            } else {
                T::from_i64(dst[o].to_i64().wrapping_add(x.to_i64()))
            };
        }
    } else {
        for (&o, &x) in offs.iter().zip(values) {
            dst[o] = x;
        }
    }
}

/// The multi-index of every non-zero element, one row each: int64 `[n, ndim]`.
pub fn nonzero(s: &CpuStorage, l: &Layout) -> CpuStorage {
    let nd = l.ndim();
    let flags: Vec<bool> =
        with_storage!(s, v => gather(v, l).iter().map(|x| x.to_f64() != 0.0).collect());
    let mut out: Vec<i64> = Vec::new();
    let mut idx = vec![0usize; nd];
    for &f in &flags {
        if f {
            out.extend(idx.iter().map(|&i| i as i64));
        }
        for d in (0..nd).rev() {
            idx[d] += 1;
            if idx[d] < l.shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    CpuStorage::I64(out)
}
