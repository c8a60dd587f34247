//! `torch.linalg.solve`: LAPACK's gesv (one LU with partial pivoting, then
//! two triangular solves, getrf.rs) in the tensor's own precision as PyTorch
//! computes it (float32 stays float32; other real dtypes go through
//! float64). X comes back with PyTorch's column-major strides.

use super::getrf::{LuFloat, getrf, getrs};
use super::linalg::{check_linalg_input, check_square, mt};
use super::lu_batch::{compute_dtype, split_batch};
use crate::autograd::rules::rule;
use crate::autograd::{Saved, record};
use crate::backend::HostBuffer;
use crate::error::{Result, dtype_err, linalg_err, shape_err};
use crate::tensor::Tensor;
use crate::tensor::ops::arith::neg;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::view::{expand, squeeze, unsqueeze};
use crate::tensor::shape::broadcast_shapes;
use crate::threads::ChunksMut;

/// `torch.linalg.solve(A, B)`: X with AX = B (B a vector or matrices).
/// Gradients: g_B = A⁻ᵀ g, g_A = −g_B Xᵀ.
pub fn solve(a: &Tensor, rhs: &Tensor) -> Result<Tensor> {
    let vector = is_vector_rhs(a, rhs);
    let bm = if vector {
        unsqueeze(rhs, -1)?
    } else {
        rhs.clone()
    };
    let x = gesv(&a.detached(), &bm.detached())?;
    let x = if vector { squeeze(&x, Some(&[-1]))? } else { x };
    let (a0, x0) = (Saved::new(a), Saved::output(&x));
    let rhs_shape = rhs.shape().to_vec();
    Ok(record(
        x,
        "LinalgSolveExBackward0",
        &[a, rhs],
        true,
        move || {
            rule(move |g| {
                let (a0, x0) = (a0.get()?, x0.get()?);
                let g = if vector { unsqueeze(g, -1)? } else { g.clone() };
                let xm = if vector {
                    unsqueeze(&x0, -1)?
                } else {
                    x0.clone()
                };
                // A⁻ᵀ g as a solve (recorded, for double backward), not an inverse.
                let gb = solve(&mt(&a0)?, &g)?;
                let ga = neg(&matmul(&gb, &mt(&xm)?)?)?;
                let gb = if vector {
                    squeeze(&gb, Some(&[-1]))?
                } else {
                    gb
                };
                // Both were broadcast against each other's batch dims.
                let ga = crate::autograd::rules::sum_to(&ga, a0.shape())?;
                let gb = crate::autograd::rules::sum_to(&gb, &rhs_shape)?;
                Ok(vec![Some(ga), Some(gb)])
            })
        },
    ))
}

/// PyTorch's rule: B is a (batch of) vector(s) when it is 1-d or has exactly
/// A's batch-and-row shape; otherwise a (batch of) matrix.
fn is_vector_rhs(a: &Tensor, rhs: &Tensor) -> bool {
    rhs.ndim() == 1 || (rhs.ndim() + 1 == a.ndim() && rhs.shape() == &a.shape()[..a.ndim() - 1])
}

/// `linalg.solve(A, B, left=False)`: X with X A = B, which is Aᵀ Xᵀ = Bᵀ.
/// PyTorch refuses a vector B there.
pub fn solve_right(a: &Tensor, rhs: &Tensor) -> Result<Tensor> {
    if a.ndim() >= 2 && is_vector_rhs(a, rhs) {
        let n = a.shape()[a.ndim() - 1];
        if n == 1 {
            return Err(shape_err(
                "linalg.solve: Vector broadcasting of the left hand side is not supported for left=False. In this case linalg.solve is equivalent to B / A.squeeze(-1)",
            ));
        }
        return Err(shape_err(format!(
            "linalg.solve: Incompatible shapes of A and B for the equation XA = B ({n}x{n} and {}x1)",
            rhs.shape()[rhs.ndim() - 1]
        )));
    }
    mt(&solve(&mt(a)?, &mt(rhs)?)?)
}

/// X with A X = B, B matrices, the batch dims broadcast: one LU of each A
/// and its two triangular solves, as LAPACK's gesv (a third of the work of
/// forming A⁻¹ first).
fn gesv(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    check_linalg_input(a, "solve", "A")?;
    check_linalg_input(b, "solve", "B")?;
    if a.dtype() != b.dtype() {
        return Err(dtype_err(format!(
            "linalg.solve: Expected A and B to have the same dtype, but found A of type {} and B of type {} instead",
            a.dtype().torch_scalar_name(),
            b.dtype().torch_scalar_name()
        )));
    }
    let (an, bn) = (a.ndim(), b.ndim());
    check_square(a.shape()[an - 2], a.shape()[an - 1], "solve")?;
    if b.shape()[bn - 2] != a.shape()[an - 1] {
        let dims = |t: &Tensor| {
            let s = t.shape();
            format!("{}x{}", s[s.len() - 2], s[s.len() - 1])
        };
        return Err(shape_err(format!(
            "linalg.solve: Incompatible shapes of A and B for the equation AX = B ({} and {})",
            dims(a),
            dims(b)
        )));
    }
    let (n, k) = (a.shape()[an - 1], b.shape()[bn - 1]);
    let batch = broadcast_shapes(&a.shape()[..an - 2], &b.shape()[..bn - 2])?;
    let rows = |t: &Tensor, tail: [usize; 2]| -> Result<HostBuffer> {
        let sizes: Vec<i64> = batch.iter().chain(&tail).map(|&d| d as i64).collect();
        expand(t, &sizes)?.to_dtype(compute_dtype(a))?.to_host()
    };
    let count: usize = batch.iter().product();
    let shape: Vec<usize> = batch.iter().copied().chain([n, k]).collect();
    let x = match (rows(a, [n, n])?, rows(b, [n, k])?) {
        (HostBuffer::F32(mut am), HostBuffer::F32(mut bm)) => {
            solve_each(&mut am, &mut bm, count, n, k)?;
            Tensor::from_vec(bm, &shape)
        }
        (HostBuffer::F64(mut am), HostBuffer::F64(mut bm)) => {
            solve_each(&mut am, &mut bm, count, n, k)?;
            Tensor::from_vec(bm, &shape)
        }
        _ => return Err(dtype_err("linalg.solve: unsupported dtype")),
    };
    column_major(&x.to_dtype(a.dtype())?.to_device(a.device())?)
}

/// The same values with LAPACK's column-major strides over the last two
/// dims, as PyTorch's solve, inv and lu_factor return them.
pub(super) fn column_major(x: &Tensor) -> Result<Tensor> {
    mt(&mt(x)?.contiguous()?)
}

/// Solve each of `count` systems in place: `a` holds n×n matrices and `b`
/// n×k right-hand sides, both row-major; `b` becomes X. A matrix with a zero
/// pivot is singular, as gesv's info says.
fn solve_each<T: LuFloat>(
    a: &mut [T],
    b: &mut [T],
    count: usize,
    n: usize,
    k: usize,
) -> Result<()> {
    if n == 0 || k == 0 {
        return Ok(());
    }
    let each = |lu: &mut [T], x: &mut [T]| {
        let (piv, info) = getrf(lu, n, n);
        if info == 0 {
            getrs(lu, &piv, x, n, k);
        }
        info
    };
    let infos: Vec<i32> = if split_batch(count, n * n * (n + k)) {
        let parts = (ChunksMut::new(a, n * n), ChunksMut::new(b, n * k));
        crate::threads::zip_map(parts, |_, (lu, x)| each(lu, x))
    } else {
        a.chunks_exact_mut(n * n)
            .zip(b.chunks_exact_mut(n * k))
            .take(count)
            .map(|(lu, x)| each(lu, x))
            .collect()
    };
    if infos.iter().any(|&i| i > 0) {
        return Err(linalg_err(
            "torch.linalg.solve: The solver failed because the input matrix is singular.",
        ));
    }
    Ok(())
}
