//! torch.linalg's LU family and the `_ex` variants that report `info`
//! instead of failing, bound to the op layer (tensor/ops/lu.rs).

use super::Builtin;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::ops::lu as lf;

pub const ROWS: &[Builtin] = &[
    op!(
        Module,
        "linalg.lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)",
        "A = P L U with partial pivoting, packed: L below the diagonal, U on and above; LAPACK's 1-based pivots.",
        "torch.linalg.lu_factor(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor, pivot: bool| lf::lu_factor(&a, pivot)
    ),
    op!(
        Module,
        "linalg.lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)",
        "lu_factor without the singularity check: info is the first zero pivot's column (0 if none).",
        "torch.linalg.lu_factor_ex(tensor([[1., 2.], [2., 4.]]))",
        |a: Tensor, pivot: bool, check_errors: bool| {
            if check_errors {
                lf::lu_factor(&a, pivot)?;
            }
            lf::lu_factor_ex(&a, pivot)
        }
    ),
    op!(
        Module,
        "linalg.lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)",
        "A = P L U: a permutation, a unit lower and an upper triangular factor.",
        "torch.linalg.lu(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor, pivot: bool| lf::lu(&a, pivot)
    ),
    op!(
        Function,
        "lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> (Tensor P, Tensor L, Tensor U)",
        "P, L and U from lu_factor's packed factors and pivots.",
        "lu_unpack(*torch.linalg.lu_factor(tensor([[1., 2.], [3., 4.]])))",
        |lu_data: Tensor, lu_pivots: Tensor, _unpack_data: bool, _unpack_pivots: bool| {
            lf::lu_unpack(&lu_data, &lu_pivots)
        }
    ),
    op!(
        Module,
        "linalg.lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor",
        "X with A X = B (X A = B when not left; Aᴴ for A with adjoint), A given by lu_factor's output.",
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(tensor([[2., 0.], [0., 4.]])), tensor([[2.], [4.]]))",
        |lu: Tensor, pivots: Tensor, b: Tensor, left: bool, adjoint: bool| lf::lu_solve(
            &lu, &pivots, &b, left, adjoint
        )
    ),
    op!(
        Both,
        "lu_solve(Tensor input, Tensor LU_data, Tensor LU_pivots) -> Tensor",
        "The older spelling of torch.linalg.lu_solve(LU_data, LU_pivots, input).",
        "lu_solve(tensor([[2.], [4.]]), *torch.linalg.lu_factor(tensor([[2., 0.], [0., 4.]])))",
        |input: Tensor, lu_data: Tensor, lu_pivots: Tensor| {
            crate::warnings::warn(
                crate::warnings::WarningKind::User,
                "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future PyTorch release.",
            );
            lf::lu_solve(&lu_data, &lu_pivots, &input, true, false)
        }
    ),
    op!(
        Module,
        "linalg.inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)",
        "The inverse and each matrix's info (its LU's first zero pivot, 0 when invertible).",
        "torch.linalg.inv_ex(tensor([[2., 0.], [0., 4.]]))",
        |a: Tensor, check_errors: bool| lf::inv_ex(&a, check_errors)
    ),
    op!(
        Module,
        "linalg.cholesky_ex(Tensor A, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)",
        "The Cholesky factor and each matrix's info (the first leading minor that is not positive-definite, 0 if none).",
        "torch.linalg.cholesky_ex(tensor([[4., 2.], [2., 3.]]))",
        |a: Tensor, upper: bool, check_errors: bool| lf::cholesky_ex(&a, upper, check_errors)
    ),
];
