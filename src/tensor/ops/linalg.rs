//! torch.linalg's decompositions on the op layer. The factorisations run on
//! the host (a GPU tensor makes the round trip), batched over the leading
//! dims: LU and Cholesky in the tensor's precision (getrf.rs, potrf.rs), the
//! rest in faer in f64. Their backward rules are tensor ops, so they run on
//! every device and gradients of gradients work. Composites (norms, pinv,
//! matrix_power...) are built from these in linalg_composite.rs.

use faer::{MatRef, Side};

use super::linalg_solve::column_major;
use super::lu_batch::{Factored, compute_dtype, each_matrix};
use super::potrf::potrf;
use crate::autograd::rules::rule;
use crate::autograd::{Saved, record};
use crate::backend::HostBuffer;
use crate::error::{Result, dtype_err, linalg_err, shape_err, value_err};
use crate::tensor::Device;
use crate::tensor::Tensor;
use crate::tensor::op::{ReduceOp, UnaryOp};
use crate::tensor::ops::arith::mul;
use crate::tensor::ops::complex::sgn;
use crate::tensor::ops::elementwise::unary;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::select::{diagonal, triangle};
use crate::tensor::ops::view::{narrow, transpose, unsqueeze};

/// A stack of m×n matrices read off a tensor, row-major, in f64.
pub(super) struct Batch {
    data: Vec<f64>,
    pub(super) count: usize,
    pub(super) m: usize,
    pub(super) n: usize,
    pub(super) lead: Vec<usize>,
}

impl Batch {
    pub(super) fn read(a: &Tensor, what: &str) -> Result<Batch> {
        check_linalg_input(a, what, "A")?;
        let shape = a.shape();
        let nd = shape.len();
        let lead = shape[..nd - 2].to_vec();
        sequential();
        Ok(Batch {
            data: a.to_host_f64()?,
            count: lead.iter().product(),
            m: shape[nd - 2],
            n: shape[nd - 1],
            lead,
        })
    }

    pub(super) fn square(self, what: &str) -> Result<Batch> {
        check_square(self.m, self.n, what)?;
        Ok(self)
    }

    /// The matrices' values, row-major, one after another.
    pub(super) fn data(&self) -> &[f64] {
        &self.data
    }

    /// The leading dims followed by `tail`.
    pub(super) fn shape(&self, tail: &[usize]) -> Vec<usize> {
        let mut s = self.lead.clone();
        s.extend_from_slice(tail);
        s
    }
}

/// What every factorisation asks of its input `name`: matrices of a
/// floating dtype.
pub(super) fn check_linalg_input(a: &Tensor, what: &str, name: &str) -> Result<()> {
    if a.ndim() < 2 {
        return Err(shape_err(format!(
            "linalg.{what}: The input tensor {name} must have at least 2 dimensions."
        )));
    }
    if !a.dtype().is_float() {
        return Err(dtype_err(format!(
            "linalg.{what}: Expected a floating point or complex tensor as input. Got {}",
            a.dtype()
        )));
    }
    Ok(())
}

/// What a factorisation of square matrices asks of A's last two dims.
pub(super) fn check_square(m: usize, n: usize, what: &str) -> Result<()> {
    if m != n {
        return Err(shape_err(format!(
            "linalg.{what}: A must be batches of square matrices, but they are {m} by {n} matrices"
        )));
    }
    Ok(())
}

/// faer's factorisations run on the calling thread: on this project's
/// 2-core machine its rayon split made a 512 QR 2× and a 512 eigh 1.2×
/// slower than one thread (rayon's workers and the kernel threads compete
/// for the cores). Every op here starts by reading its matrices, so this is
/// set there.
pub(super) fn sequential() {
    faer::set_global_parallelism(faer::Par::Seq);
}

fn push<T: Copy>(out: &mut Vec<T>, m: MatRef<'_, T>) {
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            out.push(m[(i, j)]);
        }
    }
}

/// Values computed in f64, as a tensor of `like`'s dtype on its device.
pub(super) fn tensor_like(v: Vec<f64>, shape: &[usize], like: &Tensor) -> Result<Tensor> {
    Tensor::from_vec(v, shape)
        .to_dtype(like.dtype())?
        .to_device(like.device())
}

/// Aᵀ over the last two dims.
pub fn mt(a: &Tensor) -> Result<Tensor> {
    transpose(a, -2, -1)
}

/// `torch.linalg.inv`: gradient −A⁻ᵀ g A⁻ᵀ.
pub fn inv(a: &Tensor) -> Result<Tensor> {
    Ok(super::lu::inverse(a, "inv", true)?.0)
}

/// The factors' diagonals (U's) and each matrix's permutation sign (−1 for
/// an odd number of row swaps), as PyTorch's det and slogdet start. Like
/// PyTorch, which hands LAPACK a contiguous matrix's memory as it is (read
/// column-major: Aᵀ, whose det is A's), this factors Aᵀ when A is
/// contiguous and A otherwise: the same last digits.
fn diagonal_and_sign(a: &Tensor, what: &str) -> Result<(Tensor, Tensor)> {
    check_linalg_input(a, what, "A")?;
    let a = a.detached();
    let f = Factored::of(&if a.is_contiguous() { mt(&a)? } else { a }, what)?;
    check_square(f.m, f.n, what)?;
    let n = f.n;
    let signs: Vec<f64> = if n == 0 {
        vec![1.0; f.infos.len()]
    } else {
        f.pivots
            .chunks_exact(n)
            .map(|p| {
                let swaps = p.iter().enumerate().filter(|&(i, &q)| q as usize != i + 1);
                if swaps.count() % 2 == 0 { 1.0 } else { -1.0 }
            })
            .collect()
    };
    let sign = Tensor::from_vec(signs, &f.lead);
    let diag = diagonal(&f.into_factors()?, 0, -2, -1)?;
    let sign = sign.to_dtype(diag.dtype())?;
    Ok((diag, sign))
}

/// `torch.linalg.det`: the permutation's sign times the product of U's
/// diagonal, in the tensor's precision, as PyTorch computes it. Gradient
/// g·det·A⁻ᵀ.
pub fn det(a: &Tensor) -> Result<Tensor> {
    let (diag, sign) = diagonal_and_sign(a, "det")?;
    let d = mul(&sign, &reduce(&diag, ReduceOp::Prod, Some(&[-1]), false)?)?;
    let d = d.to_dtype(a.dtype())?.to_device(a.device())?;
    let (a0, d0) = (Saved::new(a), Saved::output(&d));
    Ok(record(d, "LinalgDetBackward0", &[a], true, move || {
        rule(move |g| {
            let scale = unsqueeze(&unsqueeze(&mul(g, &d0.get()?)?, -1)?, -1)?;
            Ok(vec![Some(mul(&scale, &mt(&inv(&a0.get()?)?)?)?)])
        })
    }))
}

/// `torch.linalg.slogdet`: (sign, log|det|), PyTorch's way: the sign from
/// the signs of U's diagonal and the permutation's, the log as the sum of
/// the logs of U's |diagonal|. Gradient of the log g·A⁻ᵀ.
pub fn slogdet(a: &Tensor) -> Result<(Tensor, Tensor)> {
    let (diag, sign) = diagonal_and_sign(a, "slogdet")?;
    let sign = mul(
        &reduce(&sgn(&diag)?, ReduceOp::Prod, Some(&[-1]), false)?,
        &sign,
    )?;
    let log = unary(UnaryOp::Log, &unary(UnaryOp::Abs, &diag)?)?;
    let log = reduce(&log, ReduceOp::Sum, Some(&[-1]), false)?;
    let sign = sign.to_dtype(a.dtype())?.to_device(a.device())?;
    let log = log.to_dtype(a.dtype())?.to_device(a.device())?;
    let a0 = Saved::new(a);
    let log = record(log, "LinalgSlogdetBackward0", &[a], true, move || {
        rule(move |g| {
            let g = unsqueeze(&unsqueeze(g, -1)?, -1)?;
            Ok(vec![Some(mul(&g, &mt(&inv(&a0.get()?)?)?)?)])
        })
    });
    Ok((sign, log))
}

/// `torch.linalg.cholesky`: the lower (or upper) triangular factor.
pub fn cholesky(a: &Tensor, upper: bool) -> Result<Tensor> {
    let (factor, infos) = cholesky_factor(a, upper, "cholesky")?;
    match (factor, infos.iter().enumerate().find(|(_, i)| **i > 0)) {
        (Some(f), _) => Ok(f),
        (None, found) => {
            let (k, info) = found.map_or((0, 0), |(k, &i)| (k, i));
            let batch = if a.ndim() == 2 {
                String::new()
            } else {
                format!("(Batch element {k}): ")
            };
            Err(linalg_err(format!(
                "linalg.cholesky: {batch}The factorization could not be completed because the input is not positive-definite (the leading minor of order {info} is not positive-definite)."
            )))
        }
    }
}

/// Each matrix's Cholesky factor by potrf in the tensor's precision, with
/// LAPACK's column-major strides, and each matrix's info: the factor only
/// when every info is 0 (cholesky_ex builds its partial factors itself).
pub(super) fn cholesky_factor(
    a: &Tensor,
    upper: bool,
    what: &str,
) -> Result<(Option<Tensor>, Vec<i32>)> {
    check_linalg_input(a, what, "A")?;
    let nd = a.ndim();
    let n = a.shape()[nd - 1];
    check_square(a.shape()[nd - 2], n, what)?;
    let count = a.shape()[..nd - 2].iter().product();
    let mut host = a.detached().to_dtype(compute_dtype(a))?.to_host()?;
    let infos = match &mut host {
        HostBuffer::F32(d) => each_matrix(d, count, n * n, n * n * n / 3, |_, m| potrf(m, n)),
        HostBuffer::F64(d) => each_matrix(d, count, n * n, n * n * n / 3, |_, m| potrf(m, n)),
        _ => return Err(dtype_err(format!("linalg.{what}: unsupported dtype"))),
    };
    if infos.iter().any(|&i| i > 0) {
        return Ok((None, infos));
    }
    let l = triangle(&Tensor::from_host(host, a.shape(), Device::Cpu)?, 0, true)?;
    let l = if upper { mt(&l)? } else { l };
    let l = column_major(&l.to_dtype(a.dtype())?.to_device(a.device())?)?;
    Ok((
        Some(not_differentiable(l, a, "LinalgCholeskyExBackward0")?),
        infos,
    ))
}

/// `torch.linalg.eigh`: eigenvalues ascending and orthonormal eigenvectors
/// of a symmetric matrix (its lower triangle is read, as PyTorch's 'L').
/// The eigenvalues' gradient is Q diag(g) Qᵀ.
pub fn eigh(a: &Tensor, upper: bool) -> Result<(Tensor, Tensor)> {
    let b = Batch::read(a, "eigh")?.square("eigh")?;
    let side = if upper { Side::Upper } else { Side::Lower };
    let [vals, vecs] = eigh_all(b.data(), b.n, side)?;
    let l = tensor_like(vals, &b.shape(&[b.n]), a)?;
    let q = tensor_like(vecs, &b.shape(&[b.n, b.n]), a)?;
    let q0 = q.detached();
    let l = record(l, "LinalgEighBackward0", &[a], true, move || {
        rule(move |g| {
            let diag = crate::tensor::ops::select::diag_embed(g, 0, -2, -1)?;
            Ok(vec![Some(matmul(&matmul(&q0, &diag)?, &mt(&q0)?)?)])
        })
    });
    // The eigenvectors' own term (F∘(Qᵀg_Q)) is not written yet.
    let q = not_differentiable(q, a, "LinalgEighBackward0")?;
    Ok((l, q))
}

/// Each n×n matrix's eigenvalues and eigenvectors (row-major), by faer in
/// f64: its float32 eigh and svd were 10-100 ulp off MKL's at 40-128 rows,
/// which shows at 4 digits (467.6326 where PyTorch prints 467.6266).
fn eigh_all(d: &[f64], n: usize, side: Side) -> Result<[Vec<f64>; 2]> {
    let (mut vals, mut vecs) = (vec![], vec![]);
    for mat in d.chunks_exact((n * n).max(1)).filter(|_| n > 0) {
        let e = MatRef::from_row_major_slice(mat, n, n)
            .self_adjoint_eigen(side)
            .map_err(|_| {
                linalg_err("linalg.eigh: The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated eigenvalues.")
            })?;
        vals.extend(e.S().column_vector().iter().copied());
        push(&mut vecs, e.U());
    }
    Ok([vals, vecs])
}

/// The singular values of each matrix, descending (without the vectors
/// where no gradient is wanted).
pub fn svdvals(a: &Tensor) -> Result<Tensor> {
    if crate::autograd::needs_grad(&[a]) {
        return svd(a, false).map(|(_, s, _)| s);
    }
    let b = Batch::read(a, "svd")?;
    let r = b.m.min(b.n);
    let s = singular_values(b.data(), b.m, b.n)?;
    tensor_like(s, &b.shape(&[r]), a)
}

fn singular_values(d: &[f64], m: usize, n: usize) -> Result<Vec<f64>> {
    let mut out = vec![];
    for mat in d.chunks_exact((m * n).max(1)).filter(|_| m * n > 0) {
        let s = MatRef::from_row_major_slice(mat, m, n)
            .singular_values()
            .map_err(|_| svd_failed())?;
        out.extend(s);
    }
    Ok(out)
}

fn svd_failed() -> crate::error::Error {
    linalg_err(
        "linalg.svd: The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated singular values.",
    )
}

/// `torch.linalg.svd`: U, S, Vh (reduced unless full_matrices). The
/// vectors are computed either way: S's gradient needs them.
pub fn svd(a: &Tensor, full: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let b = Batch::read(a, "svd")?;
    let (m, n) = (b.m, b.n);
    let r = m.min(n);
    let [us, ss, vhs] = svd_all(b.data(), m, n, full)?;
    let s = tensor_like(ss, &b.shape(&[r]), a)?;
    let (uc, vr) = if full { (m, n) } else { (r, r) };
    let u = tensor_like(us, &b.shape(&[m, uc]), a)?;
    let vh = tensor_like(vhs, &b.shape(&[vr, n]), a)?;
    // The singular values' gradient is U diag(g) Vh (over the first r vectors).
    let u0 = narrow(&u, -1, 0, r as i64)?.detached();
    let vh0 = narrow(&vh, -2, 0, r as i64)?.detached();
    let s = record(s, "LinalgSvdBackward0", &[a], true, move || {
        rule(move |g| {
            let diag = crate::tensor::ops::select::diag_embed(g, 0, -2, -1)?;
            Ok(vec![Some(matmul(&matmul(&u0, &diag)?, &vh0)?)])
        })
    });
    let u = not_differentiable(u, a, "LinalgSvdBackward0")?;
    let vh = not_differentiable(vh, a, "LinalgSvdBackward0")?;
    Ok((u, s, vh))
}

/// Each m×n matrix's U, S and Vh (row-major), by faer.
fn svd_all(d: &[f64], m: usize, n: usize, full: bool) -> Result<[Vec<f64>; 3]> {
    let (mut us, mut ss, mut vhs) = (vec![], vec![], vec![]);
    for mat in d.chunks_exact((m * n).max(1)).filter(|_| m * n > 0) {
        let mat = MatRef::from_row_major_slice(mat, m, n);
        let svd = if full { mat.svd() } else { mat.thin_svd() }.map_err(|_| svd_failed())?;
        ss.extend(svd.S().column_vector().iter().copied());
        push(&mut us, svd.U());
        push(&mut vhs, svd.V().transpose());
    }
    Ok([us, ss, vhs])
}

/// A result whose backward tsh does not have yet: backward says so, rather
/// than handing back a wrong gradient.
pub(super) fn not_differentiable(out: Tensor, a: &Tensor, name: &'static str) -> Result<Tensor> {
    Ok(record(out, name, &[a], false, move || {
        rule(move |_| {
            Err(value_err(format!(
                "tsh cannot differentiate {name} yet (eigh, inv, det, slogdet, solve and the norms can be)"
            )))
        })
    }))
}
