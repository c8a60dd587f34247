//! The LU decomposition with partial pivoting, as LAPACK's getrf does it
//! (the largest |value| of each column below the diagonal, the first of
//! equals, becomes the pivot), with LAPACK's 1-based int32 pivots: lu_factor,
//! lu_unpack, lu, lu_solve, inv_ex and cholesky_ex (potf2, with its `info`).
//! The LU runs on the host in the tensor's precision (getrf.rs), cholesky_ex's
//! potf2 in f64; unpacking and solving are tensor ops, so their gradients
//! come from the parts.

use super::linalg::{Batch, check_square, tensor_like};
use super::linalg_composite::solve_triangular;
use super::linalg_solve::column_major;
use super::lu_batch::Factored;
use crate::autograd::rules::rule;
use crate::autograd::{Saved, record};
use crate::error::{Result, linalg_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::select::triangle;
use crate::tensor::ops::view::{narrow, transpose};

fn mt(a: &Tensor) -> Result<Tensor> {
    transpose(a, -2, -1)
}

/// `torch.linalg.lu_factor_ex`: the packed factors, the pivots and each
/// matrix's info. The gradient (square matrices) is PyTorch's:
/// A = P L U gives gA = P L⁻ᴴ (tril(Lᴴ gL, -1) + triu(gU Uᴴ)) U⁻ᴴ.
pub fn lu_factor_ex(a: &Tensor, pivot: bool) -> Result<(Tensor, Tensor, Tensor)> {
    if !pivot {
        return Err(value_err(
            "linalg.lu_factor: LU without pivoting is not implemented on the CPU",
        ));
    }
    let f = Factored::of(a, "lu_factor")?;
    let (m, n) = (f.m, f.n);
    let pivots = f.pivots_tensor(a)?;
    let info = f.infos_tensor(a)?;
    let lu = column_major(
        &f.into_factors()?
            .to_dtype(a.dtype())?
            .to_device(a.device())?,
    )?;
    let lu = if m == n {
        let (saved, piv) = (Saved::output(&lu), pivots.clone());
        record(lu, "LinalgLuFactorExBackward0", &[a], true, move || {
            rule(move |g| {
                let lu = saved.get()?;
                let (p, l, u) = lu_unpack(&lu, &piv)?;
                let phi = crate::tensor::ops::arith::add(
                    &triangle(&matmul(&mt(&l)?, &triangle(g, -1, true)?)?, -1, true)?,
                    &triangle(&matmul(&triangle(g, 0, false)?, &mt(&u)?)?, 0, false)?,
                )?;
                // L⁻ᴴ phi U⁻ᴴ, by two triangular solves.
                let x = solve_triangular(&mt(&l)?, &phi, true, true, true)?;
                let x = solve_triangular(&mt(&u)?, &x, false, false, false)?;
                Ok(vec![Some(matmul(&p, &x)?)])
            })
        })
    } else {
        lu
    };
    Ok((lu, pivots, info))
}

/// `torch.linalg.lu_factor`: lu_factor_ex that refuses a zero pivot.
pub fn lu_factor(a: &Tensor, pivot: bool) -> Result<(Tensor, Tensor)> {
    let (lu, pivots, info) = lu_factor_ex(a, pivot)?;
    if let Some(&bad) = info.to_host_i64()?.iter().find(|&&i| i > 0) {
        return Err(value_err(format!(
            "torch.linalg.lu_factor: U[{0},{0}] is zero and using it on lu_solve would result in a division by zero. If you still want to perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)",
            bad
        )));
    }
    Ok((lu, pivots))
}

/// The permutation matrices of LAPACK pivots: the swaps row i ↔ pivots[i]
/// applied in order, as P with A = P L U.
fn permutations(pivots: &Tensor, m: usize, like: &Tensor) -> Result<Tensor> {
    let k = *pivots.shape().last().unwrap_or(&0);
    let piv = pivots.to_host_i64()?;
    let count: usize = like.shape()[..like.ndim() - 2].iter().product();
    if piv.len() != count * k {
        return Err(value_err(
            "torch.lu_unpack: LU_pivots must have the batch shape of LU_data and min(m, n) entries",
        ));
    }
    let mut out = vec![0.0; count * m * m];
    for b in 0..count {
        let mut perm: Vec<usize> = (0..m).collect();
        for i in 0..k {
            let j = piv[b * k + i] - 1;
            if j < 0 || j as usize >= m {
                return Err(value_err(format!(
                    "lu_unpack: pivots must hold values in [1, {m}], got {}",
                    j + 1
                )));
            }
            perm.swap(i, j as usize);
        }
        // Row perm[i] of A is row i of L U.
        for (i, &r) in perm.iter().enumerate() {
            out[b * m * m + r * m + i] = 1.0;
        }
    }
    let mut shape = like.shape()[..like.ndim() - 2].to_vec();
    shape.extend([m, m]);
    tensor_like(out, &shape, like)
}

/// `torch.lu_unpack`: P, L (unit lower, m×k) and U (upper, k×n) of packed
/// factors, A = P L U.
pub fn lu_unpack(lu: &Tensor, pivots: &Tensor) -> Result<(Tensor, Tensor, Tensor)> {
    if lu.ndim() < 2 {
        return Err(value_err(
            "torch.lu_unpack: LU_data must have at least 2 dimensions",
        ));
    }
    let (m, n) = (lu.shape()[lu.ndim() - 2], lu.shape()[lu.ndim() - 1]);
    let k = m.min(n) as i64;
    let eye = crate::tensor::ops::creation::eye(m, k as usize, lu.dtype(), lu.device())?;
    let l = crate::tensor::ops::arith::add(&triangle(&narrow(lu, -1, 0, k)?, -1, true)?, &eye)?;
    let u = triangle(&narrow(lu, -2, 0, k)?, 0, false)?;
    let p = permutations(pivots, m, lu)?;
    Ok((p, l, u))
}

/// `torch.linalg.lu`: P, L, U with A = P L U.
pub fn lu(a: &Tensor, pivot: bool) -> Result<(Tensor, Tensor, Tensor)> {
    let (packed, pivots, _) = lu_factor_ex(a, pivot)?;
    lu_unpack(&packed, &pivots)
}

/// `torch.linalg.lu_solve`: X with A X = B (or X A = B when not left; Aᴴ
/// in place of A with adjoint), A given by its LU factors.
pub fn lu_solve(
    lu: &Tensor,
    pivots: &Tensor,
    b: &Tensor,
    left: bool,
    adjoint: bool,
) -> Result<Tensor> {
    let (p, l, u) = lu_unpack(lu, pivots)?;
    let pt = mt(&p)?;
    Ok(match (left, adjoint) {
        // A X = B: X = U⁻¹ L⁻¹ Pᵀ B.
        (true, false) => {
            let y = solve_triangular(&l, &matmul(&pt, b)?, false, true, true)?;
            solve_triangular(&u, &y, true, true, false)?
        }
        // Aᴴ X = B: Uᴴ Lᴴ Pᵀ X = B, X = P L⁻ᴴ U⁻ᴴ B.
        (true, true) => {
            let y = solve_triangular(&mt(&u)?, b, false, true, false)?;
            matmul(&p, &solve_triangular(&mt(&l)?, &y, true, true, true)?)?
        }
        // X A = B: X = B U⁻¹ L⁻¹ Pᵀ.
        (false, false) => {
            let y = solve_triangular(&u, b, true, false, false)?;
            matmul(&solve_triangular(&l, &y, false, false, true)?, &pt)?
        }
        // X Aᴴ = B: X = B P L⁻ᴴ U⁻ᴴ.
        (false, true) => {
            let y = solve_triangular(&mt(&l)?, &matmul(b, &p)?, true, false, true)?;
            solve_triangular(&mt(&u)?, &y, false, false, false)?
        }
    })
}

/// `torch.linalg.inv_ex`: the inverse and each matrix's info; a singular
/// matrix's inverse has inf/nan entries, as LAPACK's (no gradient then).
pub fn inv_ex(a: &Tensor, check_errors: bool) -> Result<(Tensor, Tensor)> {
    inverse(a, "inv_ex", check_errors)
}

/// A⁻¹ as PyTorch computes it (getrf, then getrs against the identity, in
/// the tensor's precision), with each matrix's info; `check_errors` refuses
/// a singular matrix. Gradient −A⁻ᵀ g A⁻ᵀ.
pub(super) fn inverse(a: &Tensor, what: &str, check_errors: bool) -> Result<(Tensor, Tensor)> {
    let f = Factored::of(&a.detached(), what)?;
    check_square(f.m, f.n, what)?;
    let x = column_major(&f.inverses()?.to_dtype(a.dtype())?.to_device(a.device())?)?;
    let info = f.infos_tensor(a)?;
    if let Some(i) = f.first_zero() {
        if check_errors {
            return Err(linalg_err(format!(
                "linalg.{what}: The diagonal element {i} is zero, the inversion could not be completed because the input matrix is singular."
            )));
        }
        return Ok((x, info));
    }
    let saved = Saved::output(&x);
    let x = record(x, "LinalgInvExBackward0", &[a], true, move || {
        rule(move |g| {
            let it = mt(&saved.get()?)?;
            Ok(vec![Some(crate::tensor::ops::arith::neg(&matmul(
                &matmul(&it, g)?,
                &it,
            )?)?)])
        })
    });
    Ok((x, info))
}

/// `torch.linalg.cholesky_ex`: the Cholesky factor and each matrix's info
/// (the order of the first leading minor that is not positive-definite,
/// where LAPACK's potf2 stops: its columns so far, and the failed pivot).
pub fn cholesky_ex(a: &Tensor, upper: bool, check_errors: bool) -> Result<(Tensor, Tensor)> {
    // Where every matrix factors, the factor is linalg.cholesky's; only a
    // failure needs potf2's partial factor below.
    if let (Some(factor), infos) = super::linalg::cholesky_factor(a, upper, "cholesky_ex")? {
        let info = Tensor::from_vec(infos, &a.shape()[..a.ndim() - 2]);
        return Ok((factor, info.to_device(a.device())?));
    }
    let b = Batch::read(a, "cholesky_ex")?.square("cholesky_ex")?;
    let n = b.n;
    let src = b.data();
    let mut out = vec![0.0; src.len()];
    let mut infos = Vec::with_capacity(b.count);
    for k in 0..b.count {
        let (a, l) = (
            &src[k * n * n..(k + 1) * n * n],
            &mut out[k * n * n..(k + 1) * n * n],
        );
        // The lower triangle, as LAPACK reads it.
        for i in 0..n {
            for j in 0..=i {
                l[i * n + j] = a[i * n + j];
            }
        }
        let mut info = 0;
        for j in 0..n {
            let d = l[j * n + j] - (0..j).map(|c| l[j * n + c] * l[j * n + c]).sum::<f64>();
            if d <= 0.0 || d.is_nan() {
                l[j * n + j] = d;
                info = j as i32 + 1;
                break;
            }
            let d = d.sqrt();
            l[j * n + j] = d;
            for i in j + 1..n {
                let s = l[i * n + j] - (0..j).map(|c| l[i * n + c] * l[j * n + c]).sum::<f64>();
                l[i * n + j] = s / d;
            }
        }
        if info > 0 && check_errors {
            return Err(linalg_err(format!(
                "linalg.cholesky_ex: The factorization could not be completed because the input is not positive-definite (the leading minor of order {info} is not positive-definite)."
            )));
        }
        infos.push(info);
    }
    let factor = tensor_like(out, &b.shape(&[n, n]), a)?;
    let info = Tensor::from_vec(infos, &b.lead).to_device(a.device())?;
    let factor = if upper {
        mt(&factor)?.contiguous()?
    } else {
        factor
    };
    Ok((factor, info.to_dtype(DType::I32)?))
}
