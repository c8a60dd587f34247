//! Matrix products. f32 and f64 go to the `gemm` crate (strided operands, no
//! copies), but for matrix-vector products (gemv.rs); bf16 with AVX512-BF16 dot products where the processor has them
//! (bf16_gemm.rs), else f16 and bf16 compute in f32; integers use a plain i64
//! triple loop.

use gemm::{Parallelism, gemm};
use rayon::prelude::*;

use super::cast::cast;
use super::elem::{CpuStorage, Element};
use super::gemv::{Num, VectorProduct};
use super::scratch::{Out, filled_vec};
use crate::error::{Result, value_err};
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;

/// One batch of `[m, k] @ [k, n]`: where each operand's matrices start, and the
/// row and column strides every batch shares.
struct Spec {
    m: usize,
    k: usize,
    n: usize,
    a_offsets: Vec<usize>,
    a_strides: [usize; 2],
    b_offsets: Vec<usize>,
    b_strides: [usize; 2],
}

fn batch_offsets(l: &Layout) -> Vec<usize> {
    let nd = l.ndim();
    let batch = Layout {
        shape: l.shape[..nd - 2].to_vec(),
        strides: l.strides[..nd - 2].to_vec(),
        offset: l.offset,
    };
    let mut out = Vec::with_capacity(batch.numel());
    super::strided::runs(&batch, 0, batch.numel(), &mut |off, stride, count| {
        out.extend((0..count).map(|k| off + k * stride));
    });
    out
}

impl Spec {
    fn new(a: &Layout, b: &Layout) -> Spec {
        let (an, bn) = (a.ndim(), b.ndim());
        Spec {
            m: a.shape[an - 2],
            k: a.shape[an - 1],
            n: b.shape[bn - 1],
            a_offsets: batch_offsets(a),
            a_strides: [a.strides[an - 2], a.strides[an - 1]],
            b_offsets: batch_offsets(b),
            b_strides: [b.strides[bn - 2], b.strides[bn - 1]],
        }
    }
    fn parallelism(&self) -> Parallelism {
        if self.m * self.n * self.k >= 1 << 23 && crate::threads::many() {
            Parallelism::Rayon(0)
        } else {
            Parallelism::None
        }
    }
}

/// Every batch's product, contiguous. Many small products (a convolution's
/// batch) run side by side, one per core; a few big ones each use every core.
fn gemm_typed<T: Element + Num>(a: &[T], b: &[T], spec: &Spec, zero: T, one: T) -> Vec<T> {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let batches = spec.a_offsets.len();
    if k == 0 {
        return vec![zero; batches * m * n];
    }
    let pairs: Vec<(usize, usize)> = spec
        .a_offsets
        .iter()
        .copied()
        .zip(spec.b_offsets.iter().copied())
        .collect();
    filled_vec(batches * m * n, |out| {
        if m * n == 0 {
            return;
        }
        if m == 1 || n == 1 {
            for (dst, &(ao, bo)) in out.chunks_mut(m * n).zip(&pairs) {
                let (product_of, x, mat) = vector_product(spec, a, b, ao, bo);
                if !product_of.run(x, mat, dst) {
                    product(a, b, spec, ao, bo, dst, zero, one, spec.parallelism());
                }
            }
            return;
        }
        let side_by_side = batches > 1
            && crate::threads::many()
            && batches >= crate::threads::count()
            && batches * m * n * k >= 1 << 18;
        if side_by_side {
            out.par_chunks_mut(m * n)
                .zip(pairs.par_iter())
                .for_each(|(dst, &(ao, bo))| {
                    product(a, b, spec, ao, bo, dst, zero, one, Parallelism::None)
                });
        } else {
            for (dst, &(ao, bo)) in out.chunks_mut(m * n).zip(&pairs) {
                product(a, b, spec, ao, bo, dst, zero, one, spec.parallelism());
            }
        }
    })
}

/// A product with one row (`m == 1`) or one column (`n == 1`) as a vector
/// times a matrix, with the vector's and the matrix's data: `A @ v` sums A's
/// columns scaled by v, `v @ B` B's rows.
fn vector_product<'a, T>(
    spec: &Spec,
    a: &'a [T],
    b: &'a [T],
    ao: usize,
    bo: usize,
) -> (VectorProduct, &'a [T], &'a [T]) {
    let ([ar, ac], [br, bc]) = (spec.a_strides, spec.b_strides);
    if spec.n == 1 {
        let p = VectorProduct {
            k: spec.k,
            width: spec.m,
            x_off: bo,
            x_step: br,
            m_off: ao,
            p_step: ac,
            j_step: ar,
        };
        (p, b, a)
    } else {
        let p = VectorProduct {
            k: spec.k,
            width: spec.n,
            x_off: ao,
            x_step: ac,
            m_off: bo,
            p_step: br,
            j_step: bc,
        };
        (p, a, b)
    }
}

/// One `[m, k] @ [k, n]` product into `dst` (every slot written: rows left when
/// Ctrl-C stops it are zeros; the caller reports the interrupt).
#[allow(clippy::too_many_arguments)]
fn product<T: Element>(
    a: &[T],
    b: &[T],
    spec: &Spec,
    ao: usize,
    bo: usize,
    dst: &mut [Out<T>],
    zero: T,
    one: T,
    par: Parallelism,
) {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    // Products bigger than ~2^34 multiply-adds run in row blocks so that Ctrl-C
    // is answered within a fraction of a second.
    let rows_per_block = if m * n * k > 1 << 34 {
        ((1usize << 33) / (n * k)).max(64)
    } else {
        m
    };
    let mut r0 = 0;
    while r0 < m {
        if crate::interrupt::pending() {
            dst[r0 * n..].fill(Out::new(zero));
            return;
        }
        let rows = rows_per_block.min(m - r0);
        // SAFETY: every pointer/stride pair addresses only elements inside its
        // buffer: the layouts come from tensors whose views were validated
        // (offset + (m-1)*rs + (k-1)*cs lies within the storage), and dst rows
        // r0..r0+rows of an m×n row-major block. With read_dst false, gemm only
        // writes dst (it may start uninitialised).
        unsafe {
            gemm(
                rows,
                n,
                k,
                dst.as_mut_ptr().add(r0 * n) as *mut T,
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
                par,
            );
        }
        r0 += rows;
    }
}

/// Every batch's bfloat16 product, with `vdpbf16ps` (bf16_gemm.rs).
fn bf16_products(
    dot: super::bf16_gemm::Bf16Dot,
    a: &[half::bf16],
    b: &[half::bf16],
    spec: &Spec,
) -> Vec<half::bf16> {
    use super::bf16_gemm::{Operand, product};
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let parallel = m * n * k >= 1 << 18 && m > 64 && crate::threads::many();
    filled_vec(spec.a_offsets.len() * m * n, |out| {
        if m * n == 0 {
            return;
        }
        let [ar, ac] = spec.a_strides;
        let [br, bc] = spec.b_strides;
        for (dst, (&ao, &bo)) in out
            .chunks_mut(m * n)
            .zip(spec.a_offsets.iter().zip(&spec.b_offsets))
        {
            if crate::interrupt::pending() {
                // Every slot is written: the caller reports the interrupt.
                dst.fill(Out::new(half::bf16::ZERO));
                continue;
            }
            let opa = Operand {
                data: a,
                offset: ao,
                rows: ar,
                cols: ac,
            };
            let opb = Operand {
                data: b,
                offset: bo,
                rows: br,
                cols: bc,
            };
            product(dot, opa, opb, m, k, n, dst, parallel);
        }
    })
}

fn int_matmul(a: &[i64], b: &[i64], spec: &Spec) -> Vec<i64> {
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

/// `[..., m, k] @ [..., k, n]` with equal batch dims: `[..., m, n]`, contiguous.
pub fn matmul(a: &CpuStorage, la: &Layout, b: &CpuStorage, lb: &Layout) -> Result<CpuStorage> {
    if a.dtype() != b.dtype() {
        return Err(value_err(
            "internal: matmul operands of two dtypes reached the backend",
        ));
    }
    let spec = Spec::new(la, lb);
    let dot = match a {
        CpuStorage::BF16(_) => super::bf16_gemm::Bf16Dot::detect(),
        _ => None,
    };
    Ok(match (a, b, dot) {
        (CpuStorage::F32(x), CpuStorage::F32(y), _) => {
            CpuStorage::F32(gemm_typed(x, y, &spec, 0.0, 1.0))
        }
        (CpuStorage::F64(x), CpuStorage::F64(y), _) => {
            CpuStorage::F64(gemm_typed(x, y, &spec, 0.0, 1.0))
        }
        (CpuStorage::BF16(x), CpuStorage::BF16(y), Some(dot)) => {
            CpuStorage::BF16(bf16_products(dot, x, y, &spec))
        }
        _ if a.dtype().is_float() => {
            // Half types: compute in f32 (contiguous copies), then round once.
            let (ca, cb) = (cast(a, la, DType::F32), cast(b, lb, DType::F32));
            let out = matmul(
                &ca,
                &Layout::contiguous(&la.shape),
                &cb,
                &Layout::contiguous(&lb.shape),
            )?;
            cast(&out, &Layout::contiguous(&[out.len()]), a.dtype())
        }
        _ => {
            let (CpuStorage::I64(x), CpuStorage::I64(y)) =
                (cast(a, la, DType::I64), cast(b, lb, DType::I64))
            else {
                return Err(value_err("internal: an integer cast did not give int64"));
            };
            let spec = Spec::new(
                &Layout::contiguous(&la.shape),
                &Layout::contiguous(&lb.shape),
            );
            let out = CpuStorage::I64(int_matmul(&x, &y, &spec));
            cast(&out, &Layout::contiguous(&[out.len()]), a.dtype())
        }
    })
}
