//! torch.flip as one copy: each run of the result along its last dim read
//! from its source row, backwards where that dim is flipped (picking through
//! an index tensor of reversed positions took 11x PyTorch's time).

use super::elem::{CpuStorage, Element};
use super::scratch::Out;
use super::strided::{fill_blocks, row_runs};
use crate::tensor::layout::Layout;
use crate::with_storage;

/// The elements of `l`, contiguous, in reverse order along each of `dims`.
pub fn flip(s: &CpuStorage, l: &Layout, dims: &[usize]) -> CpuStorage {
    with_storage!(s, v => Element::wrap(flip_typed(v, l, dims)))
}

fn flip_typed<T: Copy + Send + Sync>(v: &[T], l: &Layout, dims: &[usize]) -> Vec<T> {
    let nd = l.shape.len();
    if nd == 0 {
        return super::strided::gather(v, l);
    }
    let flipped: Vec<bool> = (0..nd).map(|d| dims.contains(&d)).collect();
    fill_blocks(l.numel(), &|start, dst| {
        copy_block(v, l, &flipped, start, dst)
    })
}

/// Elements `[start, start + dst.len())` of the flipped view, row by row.
fn copy_block<T: Copy>(v: &[T], l: &Layout, flipped: &[bool], start: usize, dst: &mut [Out<T>]) {
    let inner = l.shape.len() - 1;
    let (n, stride) = (l.shape[inner], l.strides[inner]);
    let mut at = 0;
    row_runs(&l.shape, start, dst.len(), &mut |idx, count| {
        // The source row's start: flipped dims count from their far end.
        let row: usize = (0..inner)
            .map(|d| {
                let i = if flipped[d] {
                    l.shape[d] - 1 - idx[d]
                } else {
                    idx[d]
                };
                i * l.strides[d]
            })
            .sum::<usize>()
            + l.offset;
        let out = &mut dst[at..at + count];
        let first = idx[inner];
        match (flipped[inner], stride) {
            (true, 1) => {
                // Source columns n-1-first down to n-first-count.
                let hi = row + n - first;
                for (o, x) in out.iter_mut().zip(v[hi - count..hi].iter().rev()) {
                    o.write(*x);
                }
            }
            (false, 1) => {
                super::row_copy::copy_row(out, &v[row + first..row + first + count]);
            }
            (true, _) => {
                for (k, o) in out.iter_mut().enumerate() {
                    o.write(v[row + (n - 1 - first - k) * stride]);
                }
            }
            (false, _) => {
                for (k, o) in out.iter_mut().enumerate() {
                    o.write(v[row + (first + k) * stride]);
                }
            }
        }
        at += count;
    });
}
