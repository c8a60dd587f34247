//! Matrix products. f32 and f64 go to the `gemm` crate (strided operands, no
//! copies); f16/bf16 compute in f32; integers use a plain i64 triple loop.

use gemm::{Parallelism, gemm};

use super::map::cast;
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::tensor::storage::{Element, Storage};

/// One batch of `[m, k] @ [k, n]`: where each operand's matrix starts in its
/// storage, and the row/column strides shared by every batch.
pub struct MatmulSpec {
    pub m: usize,
    pub k: usize,
    pub n: usize,
    pub a_offsets: Vec<usize>,
    pub a_strides: [usize; 2],
    pub b_offsets: Vec<usize>,
    pub b_strides: [usize; 2],
}

fn parallelism(spec: &MatmulSpec) -> Parallelism {
    if spec.m * spec.n * spec.k >= 1 << 18 {
        Parallelism::Rayon(0)
    } else {
        Parallelism::None
    }
}

fn gemm_typed<T: Element + 'static>(
    a: &[T],
    b: &[T],
    spec: &MatmulSpec,
    zero: T,
    one: T,
) -> Vec<T> {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let batches = spec.a_offsets.len();
    let mut out = vec![zero; batches * m * n];
    for (bi, (&ao, &bo)) in spec.a_offsets.iter().zip(&spec.b_offsets).enumerate() {
        if m == 0 || n == 0 {
            continue;
        }
        let dst = &mut out[bi * m * n..(bi + 1) * m * n];
        if k == 0 {
            continue;
        }
        // Products bigger than ~2^34 multiply-adds run in row blocks so that Ctrl-C
        // is answered within a fraction of a second; the caller reports it.
        let rows_per_block = if m * n * k > 1 << 34 {
            ((1usize << 33) / (n * k)).max(64)
        } else {
            m
        };
        let mut r0 = 0;
        while r0 < m {
            if crate::interrupt::pending() {
                return out;
            }
            let rows = rows_per_block.min(m - r0);
            // SAFETY: every pointer/stride pair addresses only elements inside its buffer:
            // the layouts were validated by the tensor layer (offset + (m-1)*rs + (k-1)*cs
            // lies within the storage), and dst rows r0..r0+rows of an m×n row-major block.
            unsafe {
                gemm(
                    rows,
                    n,
                    k,
                    dst.as_mut_ptr().add(r0 * n),
                    1,
                    n as isize,
                    false,
                    a.as_ptr().add(ao + r0 * spec.a_strides[0]),
                    spec.a_strides[1] as isize,
                    spec.a_strides[0] as isize,
                    b.as_ptr().add(bo),
                    spec.b_strides[1] as isize,
                    spec.b_strides[0] as isize,
                    zero,
                    one,
                    false,
                    false,
                    false,
                    parallelism(spec),
                );
            }
            r0 += rows;
        }
    }
    out
}

fn int_matmul(a: &[i64], b: &[i64], spec: &MatmulSpec) -> Vec<i64> {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let mut out = vec![0i64; spec.a_offsets.len() * m * n];
    for (bi, (&ao, &bo)) in spec.a_offsets.iter().zip(&spec.b_offsets).enumerate() {
        for i in 0..m {
            if crate::interrupt::pending() {
                return out;
            }
            for p in 0..k {
                let x = a[ao + i * spec.a_strides[0] + p * spec.a_strides[1]];
                for j in 0..n {
                    let y = b[bo + p * spec.b_strides[0] + j * spec.b_strides[1]];
                    let o = &mut out[bi * m * n + i * n + j];
                    *o = o.wrapping_add(x.wrapping_mul(y));
                }
            }
        }
    }
    out
}

/// The whole storages go in (offsets index into them); out comes `[batches, m, n]`.
pub fn matmul(a: &Storage, b: &Storage, spec: &MatmulSpec) -> Storage {
    match (a, b) {
        (Storage::F32(x), Storage::F32(y)) => Storage::F32(gemm_typed(x, y, spec, 0.0, 1.0)),
        (Storage::F64(x), Storage::F64(y)) => Storage::F64(gemm_typed(x, y, spec, 0.0, 1.0)),
        _ if a.dtype().is_float() => {
            // Half types: compute in f32 over the whole storages, then round once.
            let full = |s: &Storage| cast(s, &Layout::contiguous(&[s.len()]), DType::F32);
            let out = matmul(&full(a), &full(b), spec);
            cast(&out, &Layout::contiguous(&[out.len()]), a.dtype())
        }
        _ => {
            let wide = |s: &Storage| match cast(s, &Layout::contiguous(&[s.len()]), DType::I64) {
                Storage::I64(v) => v,
                // Unreachable: cast() builds storage of the dtype it is given.
                _ => unreachable!("cast to I64 gives I64"),
            };
            let out = Storage::I64(int_matmul(&wide(a), &wide(b), spec));
            cast(&out, &Layout::contiguous(&[out.len()]), a.dtype())
        }
    }
}
