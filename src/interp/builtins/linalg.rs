//! torch.linalg, and the older torch.det/inverse/svd/qr spellings, bound to
//! the op layer (tensor/ops/linalg.rs).

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::op::UnaryOp;
use crate::tensor::ops::arith::un;
use crate::tensor::ops::linalg as la;
use crate::tensor::ops::linalg_composite as lc;
use crate::tensor::ops::linalg_qr as lq;
use crate::tensor::ops::matmul::matmul;

/// A norm's `ord`: a number (inf included), or 'fro' / 'nuc'.
enum Ord {
    Num(f64),
    Name(String),
}

fn ord_of(v: &Value) -> Result<Option<Ord>> {
    Ok(match v {
        Value::None => None,
        Value::Str(s) => Some(Ord::Name(s.to_string())),
        Value::Int(i) => Some(Ord::Num(*i as f64)),
        Value::Float(f) => Some(Ord::Num(*f)),
        other => {
            return Err(value_err(format!(
                "linalg.norm: ord must be a number or 'fro'/'nuc', not {}",
                other.a_type_name()
            )));
        }
    })
}

/// A matrix norm's order as matrix_norm names it.
fn matrix_ord(ord: &Ord) -> String {
    match ord {
        Ord::Name(s) => s.clone(),
        Ord::Num(f) if f.is_infinite() => if *f > 0.0 { "inf" } else { "-inf" }.into(),
        Ord::Num(f) => format!("{}", *f as i64),
    }
}

/// `torch.linalg.norm`: a vector norm over one dim (or the whole tensor when
/// neither ord nor dim is given), a matrix norm over two dims or a named ord.
fn norm(a: &Tensor, ord: &Value, dim: Option<Vec<i64>>, keepdim: bool) -> Result<Tensor> {
    let ord = ord_of(ord)?;
    let matrix = match (&ord, &dim) {
        (_, Some(d)) => d.len() == 2,
        (Some(Ord::Name(_)), None) => true,
        (Some(_), None) => a.ndim() == 2,
        (None, None) => false,
    };
    if !matrix {
        let p = match ord {
            Some(Ord::Num(p)) => p,
            _ => 2.0,
        };
        return lc::vector_norm(a, p, dim.as_deref(), keepdim);
    }
    let ord = ord.map_or("fro".to_string(), |o| matrix_ord(&o));
    match dim.as_deref() {
        None | Some([-2, -1]) => lc::matrix_norm(a, &ord, keepdim),
        Some(&[d0, d1]) => {
            let moved = crate::tensor::ops::arrange::movedim(a, &[d0, d1], &[-2, -1])?;
            lc::matrix_norm(&moved, &ord, keepdim)
        }
        Some(_) => Err(value_err(
            "linalg.norm: dim must be an int or a pair of ints",
        )),
    }
}

pub const ROWS: &[Builtin] = &[
    op!(
        Module,
        "linalg.solve_triangular(Tensor A, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> Tensor",
        "X with A X = B (X A = B when not left), A read as upper or lower triangular.",
        "torch.linalg.solve_triangular(tensor([[2., 1.], [0., 4.]]), tensor([[3.], [8.]]), upper=True)",
        |a: Tensor, b: Tensor, upper: bool, left: bool, unitriangular: bool| lc::solve_triangular(
            &a,
            &b,
            upper,
            left,
            unitriangular
        )
    ),
    op!(
        Both,
        "triangular_solve(Tensor input, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> Tensor",
        "The solution of A X = input for triangular A (or Aᵀ X = input), with a copy of A.",
        "triangular_solve(tensor([[3.], [8.]]), tensor([[2., 1.], [0., 4.]]))",
        |input: Tensor, a: Tensor, upper: bool, transpose: bool, unitriangular: bool| {
            let op_a = if transpose {
                crate::tensor::ops::linalg::mt(&a)?
            } else {
                a.clone()
            };
            let solution =
                lc::solve_triangular(&op_a, &input, upper != transpose, true, unitriangular)?;
            Ok::<Value, crate::error::Error>(crate::interp::call::named(
                "triangular_solve",
                vec![
                    ("solution", Value::Tensor(solution)),
                    ("cloned_coefficient", Value::Tensor(a.deep_clone()?)),
                ],
            ))
        }
    ),
    op!(
        Both,
        "cholesky_solve(Tensor input, Tensor input2, bool upper=False) -> Tensor",
        "X with A X = input, where input2 is A's Cholesky factor.",
        "cholesky_solve(tensor([[2.], [1.]]), tensor([[2., 0.], [1., 1.]]))",
        |input: Tensor, input2: Tensor, upper: bool| lc::cholesky_solve(&input, &input2, upper)
    ),
    op!(
        Both,
        "cholesky_inverse(Tensor input, bool upper=False) -> Tensor",
        "The inverse of A from its Cholesky factor.",
        "cholesky_inverse(tensor([[2., 0.], [1., 1.]]))",
        |input: Tensor, upper: bool| lc::cholesky_inverse(&input, upper)
    ),
    op!(
        Both inplace,
        "renorm(Tensor input, float p, int dim, float maxnorm) -> Tensor",
        "Each slice along dim whose p-norm exceeds maxnorm, scaled down to norm maxnorm.",
        "renorm(tensor([[1., 1.], [3., 4.]]), 2, 0, 2.)",
        |input: Tensor, p: f64, dim: i64, maxnorm: f64| lc::renorm(&input, p, dim, maxnorm)
    ),
    op!(
        Module,
        "linalg.inv(Tensor A) -> Tensor",
        "The inverse of a square matrix (or of each in a batch).",
        "torch.linalg.inv(tensor([[2., 0.], [0., 4.]]))",
        |a: Tensor| la::inv(&a)
    ),
    op!(
        Both,
        "inverse(Tensor input) -> Tensor",
        "The inverse of a square matrix (torch.linalg.inv).",
        "inverse(tensor([[2., 0.], [0., 4.]]))",
        |input: Tensor| la::inv(&input)
    ),
    op!(
        Module,
        "linalg.det(Tensor A) -> Tensor",
        "The determinant of a square matrix (or of each in a batch).",
        "torch.linalg.det(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor| la::det(&a)
    ),
    op!(
        Both,
        "det(Tensor input) -> Tensor",
        "The determinant (torch.linalg.det).",
        "det(tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor| la::det(&input)
    ),
    op!(
        Module,
        "linalg.slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
        "The sign and the log of the absolute value of the determinant.",
        "torch.linalg.slogdet(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor| la::slogdet(&a)
    ),
    op!(
        Both,
        "slogdet(Tensor input) -> (Tensor sign, Tensor logabsdet)",
        "The sign and log|det| (torch.linalg.slogdet).",
        "slogdet(tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor| la::slogdet(&input)
    ),
    op!(
        Both,
        "logdet(Tensor input) -> Tensor",
        "The log of the determinant (nan where it is negative).",
        "logdet(tensor([[2., 0.], [0., 3.]]))",
        |input: Tensor| un(UnaryOp::Log, &la::det(&input)?)
    ),
    op!(
        Module,
        "linalg.solve(Tensor A, Tensor B, *, bool left=True) -> Tensor",
        "X with A X = B.",
        "torch.linalg.solve(tensor([[3., 1.], [1., 2.]]), tensor([9., 8.]))",
        |a: Tensor, b: Tensor, left: bool| if left {
            crate::tensor::ops::linalg_solve::solve(&a, &b)
        } else {
            crate::tensor::ops::linalg_solve::solve_right(&a, &b)
        }
    ),
    op!(
        Module,
        "linalg.cholesky(Tensor A, *, bool upper=False) -> Tensor",
        "The Cholesky factor L (A = L Lᵀ) of a symmetric positive-definite matrix.",
        "torch.linalg.cholesky(tensor([[4., 2.], [2., 3.]]))",
        |a: Tensor, upper: bool| la::cholesky(&a, upper)
    ),
    op!(
        Both,
        "cholesky(Tensor input, bool upper=False) -> Tensor",
        "The Cholesky factor (torch.linalg.cholesky).",
        "cholesky(tensor([[4., 2.], [2., 3.]]))",
        |input: Tensor, upper: bool| la::cholesky(&input, upper)
    ),
    op!(
        Module,
        "linalg.eigh(Tensor A, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
        "Eigenvalues (ascending) and eigenvectors of a symmetric matrix.",
        "torch.linalg.eigh(tensor([[2., 1.], [1., 2.]]))",
        |a: Tensor, uplo: String| la::eigh(&a, uplo == "U")
    ),
    op!(
        Module,
        "linalg.eigvalsh(Tensor A, str UPLO=\"L\") -> Tensor",
        "The eigenvalues (ascending) of a symmetric matrix.",
        "torch.linalg.eigvalsh(tensor([[2., 1.], [1., 2.]]))",
        |a: Tensor, uplo: String| la::eigh(&a, uplo == "U").map(|(l, _)| l)
    ),
    op!(
        Module,
        "linalg.svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)",
        "The singular value decomposition A = U diag(S) Vh.",
        "torch.linalg.svd(tensor([[3., 0.], [0., 4.]]))",
        |a: Tensor, full_matrices: bool, _driver: Option<String>| la::svd(&a, full_matrices)
    ),
    op!(
        Module,
        "linalg.svdvals(Tensor A, *, str? driver=None) -> Tensor",
        "The singular values, descending.",
        "torch.linalg.svdvals(tensor([[3., 0.], [0., 4.]]))",
        |a: Tensor, _driver: Option<String>| la::svdvals(&a)
    ),
    op!(
        Both,
        "svd(Tensor input, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)",
        "The SVD as torch.svd gives it: V, not Vh.",
        "svd(tensor([[3., 0.], [0., 4.]]))",
        |input: Tensor, some: bool, _compute_uv: bool| {
            let (u, s, vh) = la::svd(&input, !some)?;
            Ok::<_, crate::error::Error>((u, s, la::mt(&vh)?))
        }
    ),
    op!(
        Module,
        "linalg.qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)",
        "The QR decomposition A = Q R.",
        "torch.linalg.qr(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor, mode: String| lq::qr(&a, &mode)
    ),
    op!(
        Both,
        "qr(Tensor input, bool some=True) -> (Tensor Q, Tensor R)",
        "The QR decomposition (torch.linalg.qr).",
        "qr(tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor, some: bool| lq::qr(&input, if some { "reduced" } else { "complete" })
    ),
    op!(
        Module,
        "linalg.norm(Tensor A, Any ord=None, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "A vector norm (one dim, or all of a tensor) or a matrix norm (two dims, or ord 'fro'/'nuc').",
        "torch.linalg.norm(tensor([3., 4.]))",
        |a: Tensor,
         ord: Value,
         dim: Option<Vec<i64>>,
         keepdim: bool,
         _dtype: Option<crate::tensor::DType>| norm(&a, &ord, dim, keepdim)
    ),
    op!(
        Module,
        "linalg.vector_norm(Tensor x, float ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "(Σ|x|^ord)^(1/ord) over dim (all of x by default); ord=inf is max |x|.",
        "torch.linalg.vector_norm(tensor([3., -4.]), ord=1)",
        |x: Tensor,
         ord: f64,
         dim: Option<Vec<i64>>,
         keepdim: bool,
         _dtype: Option<crate::tensor::DType>| lc::vector_norm(
            &x,
            ord,
            dim.as_deref(),
            keepdim
        )
    ),
    op!(
        Module,
        "linalg.matrix_norm(Tensor A, Any ord=\"fro\", int[] dim=[-2, -1], bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "A matrix norm: 'fro', 'nuc', 2, -2, 1, -1, inf, -inf.",
        "torch.linalg.matrix_norm(tensor([[1., 2.], [3., 4.]]))",
        |a: Tensor,
         ord: Value,
         dim: Vec<i64>,
         keepdim: bool,
         _dtype: Option<crate::tensor::DType>| {
            let ord = match ord {
                Value::None => Value::str("fro"),
                o => o,
            };
            norm(&a, &ord, Some(dim), keepdim)
        }
    ),
    op!(
        Module,
        "linalg.matrix_power(Tensor A, int n) -> Tensor",
        "A multiplied by itself n times (the inverse's powers for n < 0).",
        "torch.linalg.matrix_power(tensor([[1., 1.], [0., 1.]]), 3)",
        |a: Tensor, n: i64| lc::matrix_power(&a, n)
    ),
    op!(
        Both,
        "matrix_power(Tensor input, int n) -> Tensor",
        "A to the n-th matrix power (torch.linalg.matrix_power).",
        "matrix_power(tensor([[1., 1.], [0., 1.]]), 3)",
        |input: Tensor, n: i64| lc::matrix_power(&input, n)
    ),
    op!(
        Module,
        "linalg.tensorinv(Tensor A, int ind=2) -> Tensor",
        "The inverse of tensordot: X with tensordot(A, X, ind) the identity.",
        "torch.linalg.tensorinv(torch.eye(6).reshape(2, 3, 6), ind=2).shape",
        |a: Tensor, ind: i64| lc::tensorinv(&a, ind)
    ),
    op!(
        Module,
        "linalg.tensorsolve(Tensor A, Tensor B, int[]? dims=None) -> Tensor",
        "X with tensordot(A, X, X.ndim) == B (dims of A moved to the end first).",
        "torch.linalg.tensorsolve(torch.eye(6).reshape(6, 2, 3), torch.ones(6))",
        |a: Tensor, b: Tensor, dims: Option<Vec<i64>>| lc::tensorsolve(&a, &b, dims.as_deref())
    ),
    op!(
        Module,
        "linalg.matrix_sqrth(Tensor A) -> Tensor",
        "The symmetric positive-definite square root of a symmetric positive-definite matrix.",
        "torch.linalg.matrix_sqrth(tensor([[2., 0.], [0., 9.]]))",
        |a: Tensor| lc::matrix_sqrth(&a)
    ),
    op!(
        Module,
        "linalg.multi_dot(Tensor[] tensors) -> Tensor",
        "The product of a chain of matrices (the first and last may be vectors).",
        "torch.linalg.multi_dot([ones(2, 3), ones(3, 4), ones(4)])",
        |tensors: Vec<Tensor>| crate::tensor::ops::matrix::multi_dot(&tensors)
    ),
    op!(
        Module,
        "linalg.pinv(Tensor A, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor",
        "The Moore–Penrose pseudo-inverse.",
        "torch.linalg.pinv(tensor([[1., 2.], [2., 4.]]))",
        |a: Tensor, _atol: Option<f64>, rtol: Option<f64>, _hermitian: bool| lc::pinv(&a, rtol)
    ),
    op!(
        Both,
        "pinverse(Tensor input, float rcond=1e-15) -> Tensor",
        "The pseudo-inverse (torch.linalg.pinv with rtol=rcond).",
        "pinverse(tensor([[1., 2.], [2., 4.]]))",
        |input: Tensor, rcond: f64| lc::pinv(&input, Some(rcond))
    ),
    op!(
        Module,
        "linalg.matrix_rank(Tensor A, *, float? atol=None, float? rtol=None, bool hermitian=False) -> Tensor",
        "The number of singular values above the tolerance.",
        "torch.linalg.matrix_rank(tensor([[1., 2.], [2., 4.]]))",
        |a: Tensor, _atol: Option<f64>, _rtol: Option<f64>, _hermitian: bool| lc::matrix_rank(&a)
    ),
    op!(
        Module,
        "linalg.lstsq(Tensor A, Tensor B, float? rcond=None, *, str? driver=None) -> (Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)",
        "The least-squares solution of A X = B (as the default 'gelsy' driver: residuals and singular values empty).",
        "torch.linalg.lstsq(tensor([[1., 0.], [1., 1.], [1., 2.]]), tensor([[1.], [2.], [2.]])).solution",
        |a: Tensor, b: Tensor, rcond: Option<f64>, _driver: Option<String>| lstsq(&a, &b, rcond)
    ),
    op!(
        Module,
        "linalg.matmul(Tensor input, Tensor other) -> Tensor",
        "The matrix product (torch.matmul).",
        "torch.linalg.matmul(ones(2, 3), ones(3))",
        |input: Tensor, other: Tensor| matmul(&input, &other)
    ),
];

/// By QR where every matrix has full rank (PyTorch's gelsy finds the same
/// solution there), by the SVD's pseudo-inverse otherwise.
fn lstsq(a: &Tensor, b: &Tensor, rcond: Option<f64>) -> Result<Value> {
    let (solution, rank) = match lq::lstsq_qr(a, b, rcond)? {
        Some(found) => found,
        None => {
            let (pinv, rank) = lc::pinv_and_rank(a, rcond)?;
            (matmul(&pinv, b)?, rank)
        }
    };
    let empty = Tensor::from_vec(Vec::<f64>::new(), &[0]).to_dtype(a.dtype())?;
    Ok(Value::tuple(vec![
        Value::Tensor(solution),
        Value::Tensor(empty.clone()),
        Value::Tensor(rank),
        Value::Tensor(empty),
    ]))
}
