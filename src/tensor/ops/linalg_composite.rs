//! torch.linalg's composites: norms, powers, the pseudo-inverse and rank,
//! built from the decompositions of linalg.rs and other tensor ops.

use super::linalg::{Batch, inv, mt, svd, svdvals, tensor_like};
use super::linalg_solve::solve;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::arith::mul;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::view::unsqueeze;

/// `torch.linalg.vector_norm`: (Σ|x|^ord)^(1/ord) over `dims` (all by
/// default); ord ±inf is the largest/smallest |x|, ord 0 counts non-zeros.
pub fn vector_norm(x: &Tensor, ord: f64, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    use crate::tensor::op::{ReduceOp, UnaryOp};
    use crate::tensor::ops::reduce::reduce;
    if !x.dtype().is_float() {
        return Err(dtype_err(format!(
            "linalg.vector_norm: Expected a floating point or complex tensor as input. Got {}",
            x.dtype().name()
        )));
    }
    let abs = crate::tensor::ops::arith::un(UnaryOp::Abs, x)?;
    if ord == f64::INFINITY {
        return reduce(&abs, ReduceOp::Max, dims, keepdim);
    }
    if ord == f64::NEG_INFINITY {
        return reduce(&abs, ReduceOp::Min, dims, keepdim);
    }
    if ord == 0.0 {
        let nz = crate::tensor::ops::arith::cmp(
            crate::tensor::op::BinaryOp::Ne,
            x,
            &crate::tensor::ops::arith::num(0.0),
        )?;
        return reduce(&nz.to_dtype(x.dtype())?, ReduceOp::Sum, dims, keepdim);
    }
    reduce(x, ReduceOp::Norm(ord), dims, keepdim)
}

/// `torch.linalg.matrix_norm` over the last two dims: 'fro', 'nuc', ±2
/// (extreme singular values), ±1 and ±inf (extreme column/row sums of |A|).
pub fn matrix_norm(a: &Tensor, ord: &str, keepdim: bool) -> Result<Tensor> {
    use crate::tensor::op::{ReduceOp, UnaryOp};
    use crate::tensor::ops::reduce::reduce;
    let out = match ord {
        "fro" => vector_norm(a, 2.0, Some(&[-2, -1]), false)?,
        "nuc" => reduce(&svdvals(a)?, ReduceOp::Sum, Some(&[-1]), false)?,
        "2" => reduce(&svdvals(a)?, ReduceOp::Max, Some(&[-1]), false)?,
        "-2" => reduce(&svdvals(a)?, ReduceOp::Min, Some(&[-1]), false)?,
        "1" | "-1" | "inf" | "-inf" => {
            let abs = crate::tensor::ops::arith::un(UnaryOp::Abs, a)?;
            let sum_dim = if ord.ends_with('1') { -2 } else { -1 };
            let sums = reduce(&abs, ReduceOp::Sum, Some(&[sum_dim]), false)?;
            let pick = if ord.starts_with('-') {
                ReduceOp::Min
            } else {
                ReduceOp::Max
            };
            reduce(&sums, pick, Some(&[-1]), false)?
        }
        other => {
            return Err(value_err(format!(
                "linalg.matrix_norm: Order {other} not supported."
            )));
        }
    };
    if keepdim {
        unsqueeze(&unsqueeze(&out, -1)?, -1)
    } else {
        Ok(out)
    }
}

/// `torch.linalg.matrix_power`: A^n by repeated squaring (A⁻¹ for n < 0).
pub fn matrix_power(a: &Tensor, n: i64) -> Result<Tensor> {
    let b = Batch::read(a, "matrix_power")?.square("matrix_power")?;
    let base = if n < 0 { inv(a)? } else { a.clone() };
    let mut k = n.unsigned_abs();
    if k == 0 {
        let eye = crate::tensor::ops::creation::eye(b.n, b.n, a.dtype(), a.device())?;
        return crate::tensor::ops::view::expand(
            &eye,
            &b.shape(&[b.n, b.n])
                .iter()
                .map(|&d| d as i64)
                .collect::<Vec<_>>(),
        )
        .and_then(|t| t.contiguous());
    }
    // Square-and-multiply: the lowest set bit starts the product.
    let mut sq = base;
    while k & 1 == 0 {
        sq = matmul(&sq, &sq)?;
        k >>= 1;
    }
    let mut acc = sq.clone();
    k >>= 1;
    while k > 0 {
        sq = matmul(&sq, &sq)?;
        if k & 1 == 1 {
            acc = matmul(&acc, &sq)?;
        }
        k >>= 1;
    }
    Ok(acc)
}

/// float32's or float64's epsilon, as PyTorch's default tolerances use.
pub(super) fn eps_of(a: &Tensor) -> f64 {
    if a.dtype() == crate::tensor::DType::F64 {
        f64::EPSILON
    } else {
        f32::EPSILON as f64
    }
}

/// `torch.linalg.pinv` via the SVD: singular values at or below
/// rtol·σ_max (default max(m, n)·eps) count as zero.
pub fn pinv(a: &Tensor, rtol: Option<f64>) -> Result<Tensor> {
    let b = Batch::read(a, "pinv")?;
    if rtol.is_none() && crate::autograd::needs_grad(&[a]) {
        // Differentiable where it has a gradient (full rank): the
        // normal-equation forms (AᵀA)⁻¹Aᵀ or Aᵀ(AAᵀ)⁻¹.
        let full = matrix_rank(a)?
            .to_host_f64()?
            .iter()
            .all(|&r| r as usize == b.m.min(b.n));
        if full {
            let at = mt(a)?;
            return if b.m >= b.n {
                solve(&matmul(&at, a)?, &at)
            } else {
                matmul(&at, &inv(&matmul(a, &at)?)?)
            };
        }
    }
    Ok(pinv_by_svd(a, &b, rtol)?.0)
}

/// The pseudo-inverse from one SVD, and the singular values it came from.
fn pinv_by_svd(a: &Tensor, b: &Batch, rtol: Option<f64>) -> Result<(Tensor, Vec<f64>)> {
    let rtol = rtol.unwrap_or(b.m.max(b.n) as f64 * eps_of(a));
    let (u, s, vh) = svd(&a.detached(), false)?;
    let s_host = s.to_host_f64()?;
    let r = b.m.min(b.n).max(1);
    let inv_s: Vec<f64> = s_host
        .chunks(r)
        .flat_map(|row| {
            let cut = rtol * row.iter().cloned().fold(0.0, f64::max);
            row.iter()
                .map(move |&x| if x > cut { 1.0 / x } else { 0.0 })
                .collect::<Vec<_>>()
        })
        .collect();
    let inv_s = tensor_like(inv_s, s.shape(), a)?;
    let scaled = mul(&mt(&vh)?, &unsqueeze(&inv_s, -2)?)?;
    Ok((matmul(&scaled, &mt(&u)?)?, s_host))
}

/// `torch.linalg.matrix_rank`: singular values above tolerance.
pub fn matrix_rank(a: &Tensor) -> Result<Tensor> {
    let b = Batch::read(a, "matrix_rank")?;
    let s = svdvals(&a.detached())?.to_host_f64()?;
    ranks(a, &b, &s, None)
}

/// Each matrix's count of singular values above rtol·σ_max (rtol
/// max(m, n)·eps unless given: lstsq's rcond).
fn ranks(a: &Tensor, b: &Batch, s: &[f64], rtol: Option<f64>) -> Result<Tensor> {
    let rtol = rtol.unwrap_or(b.m.max(b.n) as f64 * eps_of(a));
    let r = b.m.min(b.n);
    let ranks: Vec<i64> = if r == 0 {
        vec![0; b.count]
    } else {
        s.chunks(r)
            .map(|row| {
                let cut = rtol * row.iter().cloned().fold(0.0, f64::max);
                row.iter().filter(|&&x| x > cut).count() as i64
            })
            .collect()
    };
    Tensor::from_vec(ranks, &b.lead).to_device(a.device())
}

/// lstsq's pseudo-inverse (rcond as pinv's rtol) and the matrices' ranks:
/// from one SVD where no gradient is wanted (matrix_rank would take a
/// second), pinv's differentiable form otherwise.
pub fn pinv_and_rank(a: &Tensor, rcond: Option<f64>) -> Result<(Tensor, Tensor)> {
    let b = Batch::read(a, "lstsq")?;
    if crate::autograd::needs_grad(&[a]) {
        let s = svdvals(&a.detached())?.to_host_f64()?;
        return Ok((pinv(a, rcond)?, ranks(a, &b, &s, rcond)?));
    }
    let (p, s) = pinv_by_svd(a, &b, rcond)?;
    Ok((p, ranks(a, &b, &s, rcond)?))
}

/// The triangle of A a triangular solve reads (unit diagonal if asked).
fn triangle_of(a: &Tensor, upper: bool, unitriangular: bool) -> Result<Tensor> {
    // A unit diagonal is not read: the strict triangle, plus the identity.
    let k = match (unitriangular, upper) {
        (false, _) => 0,
        (true, true) => 1,
        (true, false) => -1,
    };
    let t = crate::tensor::ops::select::triangle(a, k, !upper)?;
    if !unitriangular {
        return Ok(t);
    }
    let n = a.shape()[a.ndim() - 1];
    let eye = crate::tensor::ops::creation::eye(n, n, a.dtype(), a.device())?;
    crate::tensor::ops::arith::add(&t, &eye)
}

/// `torch.linalg.solve_triangular`: X with A X = B (X A = B when not `left`),
/// reading only A's upper or lower triangle.
pub fn solve_triangular(
    a: &Tensor,
    b: &Tensor,
    upper: bool,
    left: bool,
    unitriangular: bool,
) -> Result<Tensor> {
    let t = triangle_of(a, upper, unitriangular)?;
    if left {
        solve(&t, b)
    } else {
        mt(&solve(&mt(&t)?, &mt(b)?)?)
    }
}

/// A = L Lᴴ (or Uᴴ U) from its Cholesky factor.
fn from_cholesky(l: &Tensor, upper: bool) -> Result<Tensor> {
    if upper {
        matmul(&mt(l)?, l)
    } else {
        matmul(l, &mt(l)?)
    }
}

/// `torch.cholesky_solve`: X with A X = B, from A's Cholesky factor.
pub fn cholesky_solve(b: &Tensor, l: &Tensor, upper: bool) -> Result<Tensor> {
    solve(&from_cholesky(l, upper)?, b)
}

/// `torch.cholesky_inverse`: A⁻¹ from A's Cholesky factor.
pub fn cholesky_inverse(l: &Tensor, upper: bool) -> Result<Tensor> {
    inv(&from_cholesky(l, upper)?)
}

/// torch.renorm: each slice along `dim` whose p-norm exceeds maxnorm scaled
/// down to norm maxnorm (PyTorch's factor maxnorm / (norm + 1e-7)).
pub fn renorm(x: &Tensor, p: f64, dim: i64, maxnorm: f64) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp;
    use crate::tensor::ops::arith::{add, cmp, div, num, where_};
    if p <= 0.0 {
        return Err(value_err("renorm: non-positive-norm not supported"));
    }
    if maxnorm < 0.0 {
        return Err(value_err(format!(
            "renorm: expected maxnorm to be >= 0 but got {maxnorm}"
        )));
    }
    if x.ndim() < 2 {
        return Err(value_err(format!(
            "renorm: input needs at least 2 dimensions, got {} dimensions",
            x.ndim()
        )));
    }
    let d = crate::tensor::shape::normalize_dim(dim, x.ndim())? as i64;
    let others: Vec<i64> = (0..x.ndim() as i64).filter(|&k| k != d).collect();
    crate::autograd::composite::composite("RenormBackward0", &[x], |x| {
        let x = &x[0];
        let norm = vector_norm(x, p, Some(&others), true)?;
        let max = num(maxnorm).to_dtype(x.dtype())?;
        let factor = where_(
            &cmp(BinaryOp::Gt, &norm, &max)?,
            &div(&max, &add(&norm, &num(1e-7))?)?,
            &num(1.0).to_dtype(x.dtype())?,
        )?;
        mul(x, &factor)
    })
}

/// `torch.linalg.tensorinv`: A read as a (prod of its last dims) square
/// matrix, inverted, shaped `A.shape[ind:] + A.shape[:ind]`.
pub fn tensorinv(a: &Tensor, ind: i64) -> Result<Tensor> {
    use crate::tensor::ops::view::reshape;
    if ind <= 0 {
        return Err(value_err(format!(
            "Expected a strictly positive integer for 'ind', but got {ind}"
        )));
    }
    let ind = (ind as usize).min(a.ndim());
    let (front, back) = a.shape().split_at(ind);
    let (m, n) = (
        front.iter().product::<usize>(),
        back.iter().product::<usize>(),
    );
    if m != n {
        return Err(value_err(format!(
            "Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), but got {n} != {m}"
        )));
    }
    let out: Vec<i64> = back.iter().chain(front).map(|&d| d as i64).collect();
    reshape(&inv(&reshape(a, &[n as i64, n as i64])?)?, &out)
}

/// `torch.linalg.tensorsolve`: X with `tensordot(A, X, X.ndim) == B`, `dims`
/// of A first moved to the end; solved as one square system.
pub fn tensorsolve(a: &Tensor, b: &Tensor, dims: Option<&[i64]>) -> Result<Tensor> {
    use crate::tensor::ops::view::reshape;
    let nd = a.ndim() as i64;
    let a = match dims {
        Some(d) => {
            let dest: Vec<i64> = (nd - d.len() as i64..nd).collect();
            crate::tensor::ops::arrange::movedim(a, d, &dest)?
        }
        None => a.clone(),
    };
    let rest = &a.shape()[b.ndim().min(a.ndim())..];
    let (r, o) = (rest.iter().product::<usize>(), b.numel());
    if r != o {
        return Err(value_err(format!(
            "Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == prod(self.shape[:other.ndim]), but got {r} != {o}"
        )));
    }
    let shape: Vec<i64> = rest.iter().map(|&d| d as i64).collect();
    let x = solve(&reshape(&a, &[r as i64, r as i64])?, &reshape(b, &[-1])?)?;
    reshape(&x, &shape)
}

/// `torch.linalg.matrix_sqrth`: the symmetric positive-definite square root
/// of a symmetric positive-definite matrix, Q diag(√λ) Qᵀ from its eigh.
pub fn matrix_sqrth(a: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::UnaryOp;
    let (l, q) = super::linalg::eigh(a, false)?;
    let root = crate::tensor::ops::arith::un(UnaryOp::Sqrt, &l)?;
    matmul(&mul(&q, &unsqueeze(&root, -2)?)?, &mt(&q)?)
}
