//! Writes into an existing buffer: `a op= b` (in-place arithmetic) and copies
//! (`copy_`, `fill_`, `zero_`), block by block and on every core when large.

use super::elem::{BLOCK, CpuStorage, Element};
use super::elementwise::{filled, operand};
use super::kernels::BinaryKernels;
use super::rows::Rows;
use super::scratch::{Out, as_out, scratch, written};
use super::strided::{copy_runs, gather, is_scalar, parallel, task_len, transposed};
use crate::error::{Result, value_err};
use crate::tensor::layout::Layout;
use crate::with_storage;

/// `f(start, task)` over consecutive tasks of `dst` (element `start` of the
/// whole first), in parallel when `dst` is big.
fn each_task<T: Send>(dst: &mut [T], f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    if parallel(dst.len()) {
        let len = task_len(dst.len());
        let tasks = crate::threads::ChunksMut::new(dst, len);
        crate::threads::zip(tasks, |t, task| f(t * len, task));
    } else {
        f(0, dst);
    }
}

/// `a = a op b` over a contiguous layout `la` of `a` (b laid out in its
/// shape), block by block in place (`update_block`).
pub fn binary_assign(
    a: &mut CpuStorage,
    la: &Layout,
    b: &CpuStorage,
    lb: &Layout,
    k: &BinaryKernels,
) -> Result<()> {
    let n = la.numel();
    with_storage!(a, x => {
        let y = Element::slice(b).ok_or_else(|| {
            value_err("internal: in-place operands reached the backend in two dtypes")
        })?;
        assign_typed(&mut x[la.offset..la.offset + n], y, lb, k);
    });
    Ok(())
}

fn assign_typed<T: Element>(dst: &mut [T], b: &[T], lb: &Layout, k: &BinaryKernels) {
    // A row broadcast or a slice of a wider tensor is read in place, row by
    // row (rows.rs): through `block` it was copied run by run (`a += b[0]`
    // on 1000²: 2.7x PyTorch's time).
    if let Some(rows) = Rows::plan([&Layout::contiguous(&lb.shape), lb]) {
        rows.each_block(dst, &|[_, j], col, d| {
            update_block(d, |x, out| {
                let mut xb = scratch();
                let y = rows.operand(1, b, j, col, &mut xb[..x.len()]);
                T::binary_block(x, y, out, k);
            })
        });
        return;
    }
    // A transposed operand is copied in tiles first (see elementwise::pairwise).
    let tiled = transposed(lb).map(|_| gather(b, lb));
    let flat = tiled.as_ref().map(|_| Layout::contiguous(&lb.shape));
    let (b, lb) = (tiled.as_deref().unwrap_or(b), flat.as_ref().unwrap_or(lb));
    let scalar = filled(b, lb);
    each_block(dst, &|at, d| {
        update_block(d, |x, out| {
            let mut xb = scratch();
            let y = operand(b, lb, scalar.as_deref(), at, &mut xb[..x.len()]);
            T::binary_block(x, y, out, k);
        })
    });
}

/// `f(start, block)` over blocks of at most `BLOCK` elements of `dst`
/// (element `start` of the whole first), in parallel when `dst` is big.
fn each_block<T: Send>(dst: &mut [T], f: &(dyn Fn(usize, &mut [T]) + Sync)) {
    each_task(dst, &|start, task| {
        for (i, d) in task.chunks_mut(BLOCK).enumerate() {
            f(start + i * BLOCK, d);
        }
    });
}

/// One block updated in place by `kernel(old values, output slots)`: the
/// block is copied to scratch first, where the kernel reads it while
/// writing the block back (one read and one write of the block, as the
/// in-place op's own loop would do; the kernels take their inputs and
/// output as separate slices).
#[inline(always)]
fn update_block<T: Element>(d: &mut [T], kernel: impl FnOnce(&[T], &mut [Out<T>])) {
    let (n, mut xa) = (d.len(), scratch());
    xa[..n].write_copy_of_slice(d);
    // SAFETY: the line above wrote xa[..n].
    kernel(unsafe { written(&xa[..n]) }, as_out(d));
}

/// Copy the elements of `sl` in row-major order into `dst` (contiguous):
/// a broadcast scalar is a fill, other layouts are read run by run, with no
/// gathered copy in between.
pub fn read_into<T: Copy + Send + Sync>(src: &[T], sl: &Layout, dst: &mut [T]) {
    if transposed(sl).is_some() {
        // Tiled, so that neither side walks across cache lines.
        dst.copy_from_slice(&gather(src, sl));
        return;
    }
    if is_scalar(sl) && sl.numel() > 0 {
        let v = src[sl.offset];
        each_task(dst, &|_, task| task.fill(v));
        return;
    }
    each_task(dst, &|start, task| copy_runs(src, sl, start, as_out(task)));
}
