//! Matrix products. f32 and f64 go to the `gemm` crate (strided operands, no
//! copies), but for matrix-vector products (gemv.rs); bf16 with AVX512-BF16 dot products where the processor has them
//! (bf16_gemm.rs), else f16 and bf16 compute in f32; integers use a plain i64
//! triple loop.

use faer::{MatMut, MatRef};
use gemm::{Parallelism, gemm};

use super::cast::cast;
use super::elem::{CpuStorage, Element};
use super::gemv::{Num, VectorProduct};
use super::scratch::{Out, filled_vec};
use super::split::{Piece, Shared, each_piece, side_by_side, splits};
use crate::error::{Result, value_err};
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::threads::{Chunks, ChunksMut};

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
    if nd == 2 {
        // One matrix (every linear layer's product): no batch to walk.
        return vec![l.offset];
    }
    let batch = Layout {
        shape: crate::tensor::layout::Dims::from_slice(&l.shape[..nd - 2]),
        strides: crate::tensor::layout::Dims::from_slice(&l.strides[..nd - 2]),
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
    /// One product whose right operand is column-major (`x @ W.T`, every
    /// linear layer's forward) and large enough to matter: the gemm crate
    /// packs that layout slowly (128×512 by 512×512: 424 µs, against 218 with
    /// W.T contiguous), faer's product less so (305; 1024²×256: 1968 against
    /// 2388). Bigger products stay with gemm, whose row blocks let Ctrl-C in.
    fn faer_suits(&self) -> bool {
        let [br, bc] = self.b_strides;
        self.a_offsets.len() == 1
            && br == 1
            && bc > 1
            && self.m > 1
            && self.n > 1
            && (1 << 24..=1 << 34).contains(&(self.m * self.n * self.k))
    }
    /// Whether the product, run alone, is split between the kernel threads.
    fn parallel(&self) -> bool {
        splits(self.m, self.n, self.k)
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
        let one_of = |dst: &mut [Out<T>], &(ao, bo): &(usize, usize), par: bool| {
            one_product(a, b, spec, (ao, bo), dst, (zero, one), par)
        };
        if m > 1 && n > 1 && side_by_side(batches, m * n * k) {
            let products = (ChunksMut::new(out, m * n), Chunks::new(&pairs, 1));
            crate::threads::zip(products, |_, (dst, ab)| one_of(dst, &ab[0], false));
        } else {
            for (dst, ab) in out.chunks_mut(m * n).zip(&pairs) {
                one_of(dst, ab, spec.parallel());
            }
        }
    })
}

/// One batch's product into `dst`: a vector's where it has one row or one
/// column (gemv.rs), else gemm's.
fn one_product<T: Element + Num>(
    a: &[T],
    b: &[T],
    spec: &Spec,
    (ao, bo): (usize, usize),
    dst: &mut [Out<T>],
    (zero, one): (T, T),
    par: bool,
) {
    if spec.m == 1 || spec.n == 1 {
        let (product_of, x, mat) = vector_product(spec, a, b, ao, bo);
        if product_of.run(x, mat, dst) {
            return;
        }
    }
    product(a, b, spec, ao, bo, dst, zero, one, par);
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
    par: bool,
) {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    // Products bigger than ~2^34 multiply-adds run in row blocks so that Ctrl-C
    // is answered within a fraction of a second.
    let rows_per_block = if m * n * k > 1 << 34 {
        ((1usize << 33) / (n * k)).max(64)
    } else {
        m
    };
    let ([ar, ac], [br, bc]) = (spec.a_strides, spec.b_strides);
    let out = Shared::new(dst.as_mut_ptr() as *mut T);
    // Output rows [r0, r0 + rows) and columns [c0, c0 + cols) by gemm alone.
    let block = |Piece { r0, rows, c0, cols }: Piece| {
        // SAFETY: every pointer/stride pair addresses only elements inside
        // its buffer: the layouts come from tensors whose views were
        // validated (offset + (m-1)*rs + (k-1)*cs lies within the storage),
        // and the block lies inside the m×n row-major output, which no other
        // block running meanwhile touches. With read_dst false, gemm only
        // writes dst (it may start uninitialised).
        unsafe {
            gemm(
                rows,
                cols,
                k,
                out.at(r0 * n + c0),
                1,
                n as isize,
                false,
                a.as_ptr().add(ao + r0 * ar),
                ac as isize,
                ar as isize,
                b.as_ptr().add(bo + c0 * bc),
                bc as isize,
                br as isize,
                zero,
                one,
                false,
                false,
                false,
                Parallelism::None,
            );
        }
    };
    let mut r0 = 0;
    while r0 < m {
        if crate::interrupt::pending() {
            dst[r0 * n..].fill(Out::new(zero));
            return;
        }
        let rows = rows_per_block.min(m - r0);
        each_piece(rows, n, par, |p| block(Piece { r0: r0 + p.r0, ..p }));
        r0 += rows;
    }
}

/// `dst = a @ b` for row-major `[m, k]` and `[k, n]` slices, by gemm as
/// `matmul` computes every such product (the same sums: convolution's
/// per-image products give the bits of its batched one). `parallel`: on
/// every core, for a product that runs alone.
/// `ldb`: the distance between b's rows (n or more).
pub(super) fn row_major_product<T: Element + Num>(
    a: &[T],
    (b, ldb): (&[T], usize),
    [m, k, n]: [usize; 3],
    dst: &mut [Out<T>],
    parallel: bool,
) {
    let spec = Spec {
        m,
        k,
        n,
        a_offsets: vec![0],
        a_strides: [k, 1],
        b_offsets: vec![0],
        b_strides: [ldb, 1],
    };
    let (zero, one) = (T::from_f64(0.0), T::from_f64(1.0));
    one_product(
        a,
        b,
        &spec,
        (0, 0),
        dst,
        (zero, one),
        parallel && spec.parallel(),
    );
}

/// The one product of `spec` (see `Spec::faer_suits`) by faer, row-major.
fn faer_product<T: faer::traits::ComplexField + Copy>(a: &[T], b: &[T], spec: &Spec) -> Vec<T> {
    let (m, n, k) = (spec.m, spec.n, spec.k);
    let ([ar, ac], [br, bc]) = (spec.a_strides, spec.b_strides);
    let mut out = vec![T::zero_impl(); m * n];
    let out_at = Shared::new(out.as_mut_ptr());
    let block = |Piece { r0, rows, c0, cols }: Piece| {
        // SAFETY: the operands' layouts come from tensors whose views were
        // validated (every element of an m×k or k×n view lies inside its
        // buffer), the block's rows and columns lie inside them, and the
        // block inside the m×n row-major output, which no other block
        // running meanwhile touches.
        unsafe {
            let lhs = MatRef::<T>::from_raw_parts(
                a.as_ptr().add(spec.a_offsets[0] + r0 * ar),
                rows,
                k,
                ar as isize,
                ac as isize,
            );
            let rhs = MatRef::<T>::from_raw_parts(
                b.as_ptr().add(spec.b_offsets[0] + c0 * bc),
                k,
                cols,
                br as isize,
                bc as isize,
            );
            let dst =
                MatMut::<T>::from_raw_parts_mut(out_at.at(r0 * n + c0), rows, cols, n as isize, 1);
            let one = T::one_impl();
            faer::linalg::matmul::matmul(dst, faer::Accum::Replace, lhs, rhs, one, faer::Par::Seq);
        }
    };
    each_piece(m, n, spec.parallel(), block);
    out
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
        CpuStorage::BF16(_) => super::bf16_gemm::Bf16Dot::paying(),
        _ => None,
    };
    Ok(match (a, b, dot) {
        (CpuStorage::F32(x), CpuStorage::F32(y), _) if spec.faer_suits() => {
            CpuStorage::F32(faer_product(x, y, &spec))
        }
        (CpuStorage::F64(x), CpuStorage::F64(y), _) if spec.faer_suits() => {
            CpuStorage::F64(faer_product(x, y, &spec))
        }
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

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        /// `x @ W.T` large enough for faer's path (and a row-major product of the
        /// same size beside it, on gemm's), f32 and f64, with A a strided slice:
        /// equal to an f64 reference within the products' rounding.
        fn column_major_right_operands_match_a_reference() {
            let (m, k, n) = (90, 300, 700);
            let a: Vec<f64> = (0..m * (k + 3))
                .map(|i| ((i * 7919) % 113) as f64 / 17.0 - 3.0)
                .collect();
            let w: Vec<f64> = (0..n * k)
                .map(|i| ((i * 104729) % 97) as f64 / 13.0 - 3.5)
                .collect();
            // A: rows of k within rows of k + 3, from the second element.
            let la = Layout {
                shape: smallvec::smallvec![m, k],
                strides: smallvec::smallvec![k + 3, 1],
                offset: 1,
            };
            for (lb, column_major) in [
                (Layout::contiguous(&[n, k]).transpose(0, 1), true),
                (Layout::contiguous(&[k, n]), false),
            ] {
                let spec = Spec::new(&la, &lb);
                assert_eq!(spec.faer_suits(), column_major);
                let want: Vec<f64> = (0..m * n)
                    .map(|ij| {
                        let (i, j) = (ij / n, ij % n);
                        (0..k)
                            .map(|p| {
                                a[la.offset + i * la.strides[0] + p]
                                    * w[lb.offset + p * lb.strides[0] + j * lb.strides[1]]
                            })
                            .sum()
                    })
                    .collect();
                let a32: Vec<f32> = a.iter().map(|&x| x as f32).collect();
                let w32: Vec<f32> = w.iter().map(|&x| x as f32).collect();
                let got = [
                    matmul(
                        &CpuStorage::F64(a.clone()),
                        &la,
                        &CpuStorage::F64(w.clone()),
                        &lb,
                    ),
                    matmul(&CpuStorage::F32(a32), &la, &CpuStorage::F32(w32), &lb),
                ];
                for (got, tol) in got.into_iter().zip([1e-9, 1e-2]) {
                    let got = got.expect("matmul").to_f64_vec();
                    for (g, w) in got.iter().zip(&want) {
                        assert!((g - w).abs() <= tol * (1.0 + w.abs()), "{g} vs {w}");
                    }
                }
            }
        }
    }
}
