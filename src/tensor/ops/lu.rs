//! The LU decomposition with partial pivoting, as LAPACK's getrf does it
//! (the largest |value| of each column below the diagonal, the first of
//! equals, becomes the pivot), with LAPACK's 1-based int32 pivots: lu_factor,
//! lu_unpack, lu, lu_solve, inv_ex and cholesky_ex (potf2, with its `info`).
//! The factorisations run on the host in f64; unpacking and solving are
//! tensor ops, so their gradients come from the parts.

use super::linalg::{Batch, tensor_like};
use super::linalg_composite::solve_triangular;
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

/// Columns per panel of the blocked factorisation.
const PANEL: usize = 48;

crate::multiversion! {
    /// One m×n row-major matrix factored in place: the unit lower factor below
    /// the diagonal, U on and above it. Returns the pivots (1-based) and info
    /// (the 1-based column of the first zero pivot, 0 if none).
    ///
    /// Blocked, as LAPACK's getrf: a panel of `PANEL` columns is factored
    /// column by column as getf2 does (whole rows swapped); the block row of U
    /// right of it is solved against the panel's unit lower triangle (the same
    /// operations, in the same order, as getf2's updates of those rows); and
    /// the matrix below and right of both is updated by one product. getf2
    /// itself made a pass over that whole matrix per column: a 512² factor took
    /// 10 ms, memory-bound. Compiled for AVX-512 and AVX2 too (the panel's
    /// row updates vectorise).
    fn getrf(a: &mut [f64], m: usize, n: usize) -> (Vec<i32>, i32) {
        let k = m.min(n);
        let mut piv = Vec::with_capacity(k);
        let mut info = 0;
        for j0 in (0..k).step_by(PANEL) {
            let end = (j0 + PANEL).min(k);
            for j in j0..end {
                let (p, zero) = pivot_step(a, m, n, j, end);
                piv.push(p as i32 + 1);
                if zero && info == 0 {
                    info = j as i32 + 1;
                }
            }
            if end < n {
                // U's block row: rows j0..end, columns end..n.
                for r in j0 + 1..end {
                    for q in j0..r {
                        let l = a[r * n + q];
                        if l != 0.0 {
                            let (above, row) = a.split_at_mut(r * n);
                            let src = &above[q * n + end..q * n + n];
                            for (x, &u) in row[end..n].iter_mut().zip(src) {
                                *x -= l * u;
                            }
                        }
                    }
                }
                if end < m {
                    trailing_update(a, m, n, j0, end);
                }
            }
        }
        (piv, info)
    }
}

/// Column j of the panel ending at `end`, as getf2 steps it: the first
/// largest |value| at or below the diagonal becomes the pivot (its whole row
/// swapped with row j), the column below is divided by it, and the panel's
/// columns right of j updated. (The pivot row, and whether it was zero.)
#[inline(always)]
fn pivot_step(a: &mut [f64], m: usize, n: usize, j: usize, end: usize) -> (usize, bool) {
    let mut p = j;
    for i in j + 1..m {
        if a[i * n + j].abs() > a[p * n + j].abs() {
            p = i;
        }
    }
    if p != j {
        for c in 0..n {
            a.swap(j * n + c, p * n + c);
        }
    }
    let d = a[j * n + j];
    if d == 0.0 {
        // The column below is zero too (its largest |value| is): nothing
        // to divide or to update with.
        return (p, true);
    }
    let (top, below) = a.split_at_mut((j + 1) * n);
    let pivot_row = &top[j * n + j + 1..j * n + end];
    for row in below.chunks_exact_mut(n) {
        row[j] /= d;
        let l = row[j];
        for (x, &u) in row[j + 1..end].iter_mut().zip(pivot_row) {
            *x -= l * u;
        }
    }
    (p, false)
}

/// A22 -= L21 · U12 after the panel of columns `j0..end`: rows and columns
/// from `end`, by faer's product.
fn trailing_update(a: &mut [f64], m: usize, n: usize, j0: usize, end: usize) {
    use faer::{MatMut, MatRef};
    let (top, bottom) = a.split_at_mut(end * n);
    let u12 = MatRef::from_row_major_slice(&top[j0 * n..], end - j0, n).subcols(end, n - end);
    let below = MatMut::from_row_major_slice_mut(bottom, m - end, n);
    let (left, a22) = below.split_at_col_mut(end);
    let l21 = left.as_ref().subcols(j0, end - j0);
    // Batch::read set faer's parallelism for this matrix's size.
    let par = faer::get_global_parallelism();
    faer::linalg::matmul::matmul(a22, faer::Accum::Add, l21, u12, -1.0, par);
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
    let mut b = Batch::read(a, "lu_factor")?;
    let (m, n) = (b.m, b.n);
    let k = m.min(n);
    let (mut pivots, mut infos) = (Vec::with_capacity(b.count * k), vec![]);
    for i in 0..b.count {
        let (p, info) = getrf(&mut b.data_mut()[i * m * n..(i + 1) * m * n], m, n);
        pivots.extend(p);
        infos.push(info);
    }
    let lu = tensor_like(b.take_data(), &b.shape(&[m, n]), a)?;
    let pivots = Tensor::from_vec(pivots, &b.shape(&[k])).to_device(a.device())?;
    let info = Tensor::from_vec(infos, &b.lead).to_device(a.device())?;
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

/// The info of each matrix of a batch: its LU's first zero pivot (1-based).
fn lu_infos(a: &Tensor, what: &str) -> Result<Tensor> {
    let mut b = Batch::read(a, what)?.square(what)?;
    let (m, n) = (b.m, b.n);
    let infos: Vec<i32> = (0..b.count)
        .map(|i| getrf(&mut b.data_mut()[i * m * n..(i + 1) * m * n], m, n).1)
        .collect();
    Tensor::from_vec(infos, &b.lead).to_device(a.device())
}

/// `torch.linalg.inv_ex`: the inverse (inv's own, where every matrix is
/// invertible) and each matrix's info; a singular one gives inf/nan entries.
pub fn inv_ex(a: &Tensor, check_errors: bool) -> Result<(Tensor, Tensor)> {
    let info = lu_infos(a, "inv_ex")?;
    let bad = info.to_host_i64()?.into_iter().find(|&i| i > 0);
    let inverse = match bad {
        None => super::linalg::inv(a)?,
        Some(i) if check_errors => {
            return Err(linalg_err(format!(
                "linalg.inv_ex: The diagonal element {i} is zero, the inversion could not be completed because the input matrix is singular."
            )));
        }
        // U has a zero on its diagonal: solving with it divides by zero, as LAPACK's getri does.
        Some(_) => {
            let n = a.shape()[a.ndim() - 1];
            let (packed, pivots, _) = lu_factor_ex(&a.detached(), true)?;
            let eye = crate::tensor::ops::creation::eye(n, n, a.dtype(), a.device())?;
            let (p, l, u) = lu_unpack(&packed, &pivots)?;
            let y = solve_triangular(&l, &matmul(&mt(&p)?, &eye)?, false, true, true)?;
            back_substitute(&u, &y)?
        }
    };
    Ok((inverse, info))
}

/// U⁻¹ Y by back substitution on the host, dividing by a zero pivot as IEEE
/// does (inf and nan), which a solver would refuse.
fn back_substitute(u: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (ub, yb) = (Batch::read(u, "inv_ex")?, Batch::read(y, "inv_ex")?);
    let (n, c) = (ub.n, yb.n);
    let (ud, yd) = (ub.data(), yb.data());
    let mut out = vec![0.0; yd.len()];
    for b in 0..ub.count {
        let (uo, yo) = (b * n * n, b * n * c);
        for col in 0..c {
            for i in (0..n).rev() {
                let mut s = yd[yo + i * c + col];
                for j in i + 1..n {
                    s -= ud[uo + i * n + j] * out[yo + j * c + col];
                }
                out[yo + i * c + col] = s / ud[uo + i * n + i];
            }
        }
    }
    tensor_like(out, y.shape(), y)
}

/// `torch.linalg.cholesky_ex`: the Cholesky factor and each matrix's info
/// (the order of the first leading minor that is not positive-definite,
/// where LAPACK's potf2 stops: its columns so far, and the failed pivot).
pub fn cholesky_ex(a: &Tensor, upper: bool, check_errors: bool) -> Result<(Tensor, Tensor)> {
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
    let factor = if infos_ok(&info)? {
        // Where it succeeds, the factor is linalg.cholesky's (and its gradient).
        super::linalg::cholesky(a, upper)?
    } else if upper {
        mt(&factor)?.contiguous()?
    } else {
        factor
    };
    Ok((factor, info.to_dtype(DType::I32)?))
}

fn infos_ok(info: &Tensor) -> Result<bool> {
    Ok(info.to_host_i64()?.iter().all(|&i| i == 0))
}
