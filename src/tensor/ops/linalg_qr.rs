//! torch.linalg.qr, and torch.linalg.lstsq's full-rank problems, on the
//! Householder QR of geqrf.rs in the tensor's precision. Like PyTorch's
//! (LAPACK's), the results have column-major strides over the last two dims.

use super::geqrf::{
    QrFloat, apply_q, apply_qt, geqrf, orgqr, solve_upper, solve_upper_transposed, well_conditioned,
};
use super::linalg::{check_linalg_input, mt};
use super::linalg_composite::eps_of;
use super::lu_batch::{compute_dtype, each_matrix, split_batch};
use super::view::{narrow, select, unsqueeze};
use crate::autograd::needs_grad;
use crate::backend::HostBuffer;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::{Device, Tensor};
use crate::threads::ChunksMut;

/// `torch.linalg.qr` ('reduced' or 'complete'; 'r' gives an empty Q).
/// Q and R have no gradient yet: backward says so.
pub fn qr(a: &Tensor, mode: &str) -> Result<(Tensor, Tensor)> {
    if !["reduced", "complete", "r"].contains(&mode) {
        return Err(value_err(format!(
            "qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or 'complete'"
        )));
    }
    check_linalg_input(a, "qr", "A")?;
    let nd = a.ndim();
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let lead = &a.shape()[..nd - 2];
    let count: usize = lead.iter().product();
    let complete = mode == "complete";
    let (q_cols, r_rows) = if complete {
        (m, m)
    } else {
        (m.min(n), m.min(n))
    };
    let want_q = mode != "r";
    // A's column-major memory is Aᵀ's row-major.
    let mut host = mt(&a.detached())?.to_dtype(compute_dtype(a))?.to_host()?;
    let (q, r) = match &mut host {
        HostBuffer::F32(d) => {
            let (q, r) = factor_all(d, count, (m, n), q_cols, r_rows, want_q);
            (HostBuffer::F32(q), HostBuffer::F32(r))
        }
        HostBuffer::F64(d) => {
            let (q, r) = factor_all(d, count, (m, n), q_cols, r_rows, want_q);
            (HostBuffer::F64(q), HostBuffer::F64(r))
        }
        _ => return Err(dtype_err("linalg.qr: unsupported dtype")),
    };
    let q = if want_q {
        from_column_major(q, lead, m, q_cols, a)?
    } else {
        Tensor::from_vec(Vec::<f64>::new(), &[0])
            .to_dtype(a.dtype())?
            .to_device(a.device())?
    };
    let r = from_column_major(r, lead, r_rows, n, a)?;
    let q = super::linalg::not_differentiable(q, a, "LinalgQrBackward0")?;
    let r = super::linalg::not_differentiable(r, a, "LinalgQrBackward0")?;
    Ok((q, r))
}

/// Each column-major m×n matrix of `d` factored: (Q's first `q_cols`
/// columns, R's first `r_rows` rows), both column-major, every matrix's
/// one after another.
fn factor_all<T: QrFloat>(
    d: &mut [T],
    count: usize,
    (m, n): (usize, usize),
    q_cols: usize,
    r_rows: usize,
    want_q: bool,
) -> (Vec<T>, Vec<T>) {
    let work = m * n * m.min(n);
    let qs = each_matrix(d, count, m * n, work, |_, mat| {
        let tau = geqrf(mat, m, n);
        if want_q {
            orgqr(mat, m, &tau, q_cols)
        } else {
            Vec::new()
        }
    });
    let mut r = vec![T::ZERO; count * r_rows * n];
    if m * n > 0 {
        let mats = d.chunks_exact(m * n);
        for (mat, out) in mats.zip(r.chunks_exact_mut((r_rows * n).max(1))) {
            for j in 0..n {
                let rows = (j + 1).min(r_rows).min(m);
                out[j * r_rows..j * r_rows + rows].copy_from_slice(&mat[j * m..j * m + rows]);
            }
        }
    }
    (qs.concat(), r)
}

/// A stack of column-major rows×cols matrices as a tensor of `like`'s
/// dtype on its device, with LAPACK's strides.
fn from_column_major(
    h: HostBuffer,
    lead: &[usize],
    rows: usize,
    cols: usize,
    like: &Tensor,
) -> Result<Tensor> {
    let mut shape = lead.to_vec();
    shape.extend([cols, rows]);
    let t = Tensor::from_host(h, &shape, Device::Cpu)?
        .to_dtype(like.dtype())?
        .to_device(like.device())?;
    mt(&t)
}

/// torch.linalg.lstsq's (solution, rank) by QR (gels), where that gives
/// what PyTorch's default driver gives: every matrix of full rank and well
/// conditioned, no gradient wanted, B of A's dtype on its device with its
/// batch dims (or a vector beside a single matrix), no rcond above the
/// default. `None` sends the problem to the SVD, which also finds the rank
/// of a deficient matrix (and names a misfit B as it always has).
pub fn lstsq_qr(a: &Tensor, b: &Tensor, rcond: Option<f64>) -> Result<Option<(Tensor, Tensor)>> {
    let nd = a.ndim();
    let dtype = a.dtype();
    let same = b.dtype() == dtype && b.device() == a.device();
    if nd < 2 || !dtype.is_float() || !same || needs_grad(&[a, b]) {
        return Ok(None);
    }
    let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
    let lead = &a.shape()[..nd - 2];
    let vector = nd == 2 && b.ndim() == 1;
    let fits = vector || (b.ndim() == nd && &b.shape()[..nd - 2] == lead);
    let (b_rows, k) = match (fits, vector) {
        (false, _) => return Ok(None),
        (true, true) => (b.shape()[0], 1),
        (true, false) => (b.shape()[nd - 2], b.shape()[nd - 1]),
    };
    let default_rcond = rcond.is_none_or(|r| r <= eps_of(a) * m.max(n) as f64);
    if b_rows != m || m * n * k == 0 || !default_rcond {
        return Ok(None);
    }
    let count: usize = lead.iter().product();
    let p = m.max(n);
    let b = if vector { unsqueeze(b, -1)? } else { b.clone() };
    // The factored matrix column-major: A's when tall, Aᵀ's when wide.
    let factored = if m >= n {
        mt(&a.detached())?
    } else {
        a.detached()
    };
    let mut a_host = factored.to_dtype(compute_dtype(a))?.to_host()?;
    let mut b_host = mt(&b.detached())?.to_dtype(compute_dtype(a))?.to_host()?;
    let solved = match (&mut a_host, &mut b_host) {
        (HostBuffer::F32(a), HostBuffer::F32(b)) => {
            solve_all(a, b, count, (m, n, k)).map(HostBuffer::F32)
        }
        (HostBuffer::F64(a), HostBuffer::F64(b)) => {
            solve_all(a, b, count, (m, n, k)).map(HostBuffer::F64)
        }
        _ => None,
    };
    let Some(x) = solved else { return Ok(None) };
    let x = narrow(&from_column_major(x, lead, p, k, &b)?, -2, 0, n as i64)?;
    let x = if vector { select(&x, 1, 0)? } else { x };
    let rank = Tensor::from_vec(vec![m.min(n) as i64; count], lead).to_device(a.device())?;
    Ok(Some((x, rank)))
}

/// Each problem solved: `a` the factored matrices (column-major, m×n when
/// tall, n×m when wide), `b` the right-hand sides (column-major m×k). The
/// solutions column-major, max(m, n) rows each (the first n are x), or
/// None where a matrix is not of full rank.
fn solve_all<T: QrFloat>(
    a: &mut [T],
    b: &[T],
    count: usize,
    (m, n, k): (usize, usize, usize),
) -> Option<Vec<T>> {
    let p = m.max(n);
    let mut x = vec![T::ZERO; count * p * k];
    for (src, dst) in b.chunks_exact(m).zip(x.chunks_exact_mut(p)) {
        dst[..m].copy_from_slice(src);
    }
    let each = |mat: &mut [T], x: &mut [T]| {
        let (rows, cols) = (p, m.min(n));
        let tau = geqrf(mat, rows, cols);
        if !well_conditioned(mat, rows, cols) {
            return false;
        }
        if m >= n {
            // R x = Qᵀ b's top n rows.
            apply_qt(mat, rows, &tau, x);
            solve_upper(mat, rows, cols, x, p);
        } else {
            // Aᵀ = QR: x = Q y with Rᵀ y = b (y padded with zeros).
            solve_upper_transposed(mat, rows, cols, x, p);
            apply_q(mat, rows, &tau, x);
        }
        true
    };
    let size = m * n;
    let ok: Vec<bool> = if split_batch(count, size * (m.min(n) + k)) {
        let parts = (ChunksMut::new(a, size), ChunksMut::new(&mut x, p * k));
        crate::threads::zip_map(parts, |_, (mat, x)| each(mat, x))
    } else {
        a.chunks_exact_mut(size)
            .zip(x.chunks_exact_mut(p * k))
            .map(|(mat, x)| each(mat, x))
            .collect()
    };
    ok.iter().all(|&f| f).then_some(x)
}
