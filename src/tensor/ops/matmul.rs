//! The matmul family: `@`, matmul, mm, bmm, mv, dot, outer — batched, with
//! broadcasting of batch dims, as `torch.matmul` defines it.

use crate::error::{Result, dtype_err, shape_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::layout::Layout;
use crate::tensor::ops::elementwise::{check_same_device, mixed_arguments, mixed_devices};
use crate::tensor::ops::view::{reshape, unsqueeze};
use crate::tensor::shape::{broadcast_shapes, fmt_shape};

fn check_dtypes(a: &Tensor, b: &Tensor, what: &str) -> Result<()> {
    if a.dtype() != b.dtype() {
        let target = crate::tensor::promote::promote_types(a.dtype(), b.dtype());
        return Err(dtype_err(format!(
            "{what} needs both operands of one dtype, but got {} and {}",
            a.dtype(),
            b.dtype()
        ))
        .hint(format!(
            "convert one side, e.g. `a{} {} b{}` (matmul does not promote)",
            if a.dtype() == target {
                ""
            } else {
                target.conversion().leak()
            },
            if what == "matmul" { "@" } else { "," },
            if b.dtype() == target {
                ""
            } else {
                target.conversion().leak()
            },
        )));
    }
    if a.dtype().is_bool() {
        return Err(dtype_err(format!("{what} is not defined for bool tensors"))
            .hint("convert with .float() or .long()"));
    }
    Ok(())
}

fn inner_mismatch(a: &[usize], b: &[usize], ka: usize, kb: usize) -> crate::error::Error {
    let mut e = shape_err(format!(
        "cannot matmul {} @ {}: inner dimensions {} and {} differ",
        fmt_shape(a),
        fmt_shape(b),
        ka,
        kb
    ));
    let (an, bn) = (a.len(), b.len());
    if bn >= 2 && b[bn - 1] == ka {
        e = e.hint("did you mean a @ b.T ?");
    } else if an >= 2 && a[an - 2] == kb {
        e = e.hint("did you mean a.T @ b ?");
    } else {
        e = e.hint(
            "the last dim of the left operand must equal the second-to-last dim of the right",
        );
    }
    e
}

/// `torch.matmul`.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype().is_complex() || b.dtype().is_complex() {
        return super::complex::matmul(a, b);
    }
    let out = crate::autograd::no_grad(|| matmul_raw(a, b))?;
    Ok(crate::autograd::rules::matmul::record_matmul(a, b, out))
}

fn matmul_raw(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.device() != b.device() && a.ndim() > 0 && b.ndim() > 0 {
        // The kernel PyTorch's matmul reaches names the arguments.
        let (arg, method) = match (a.ndim(), b.ndim()) {
            (1, 1) => ("tensor", "_dot"),
            (2, 1) => return Err(mixed_devices(a.device(), b.device(), "matmul")),
            (x, y) if x >= 3 && y >= 3 => ("mat2", "bmm"),
            _ => ("mat2", "mm"),
        };
        return Err(mixed_arguments(
            a.device(),
            arg,
            b.device(),
            method,
            "matmul",
        ));
    }
    check_same_device(a, b, "matmul")?;
    if a.ndim() == 0 || b.ndim() == 0 {
        return Err(shape_err(format!(
            "matmul needs tensors with at least one dimension, got {} and {}",
            fmt_shape(a.shape()),
            fmt_shape(b.shape())
        ))
        .hint("to scale by a scalar use `*`"));
    }
    check_dtypes(a, b, "matmul")?;
    let (a_shape0, b_shape0) = (a.shape().to_vec(), b.shape().to_vec());
    let a2 = if a.ndim() == 1 {
        unsqueeze(a, 0)?
    } else {
        a.clone()
    };
    let b2 = if b.ndim() == 1 {
        unsqueeze(b, -1)?
    } else {
        b.clone()
    };
    let (an, bn) = (a2.ndim(), b2.ndim());
    let (m, ka) = (a2.shape()[an - 2], a2.shape()[an - 1]);
    let (kb, n) = (b2.shape()[bn - 2], b2.shape()[bn - 1]);
    if ka != kb {
        return Err(inner_mismatch(&a_shape0, &b_shape0, ka, kb));
    }
    // A column-major right operand that comes back is multiplied in a
    // row-major copy (row_major.rs); a single row is a vector product, which
    // reads either layout at speed.
    let rows = a2.numel() / ka.max(1);
    let b2 = match rows > 1 {
        true => super::row_major::row_major(&b2, rows).unwrap_or(b2),
        false => b2,
    };
    let batch = broadcast_shapes(&a2.shape()[..an - 2], &b2.shape()[..bn - 2]).map_err(|_| {
        shape_err(format!(
            "cannot matmul {} @ {}: batch dimensions {} and {} cannot be broadcast",
            fmt_shape(&a_shape0),
            fmt_shape(&b_shape0),
            fmt_shape(&a2.shape()[..an - 2]),
            fmt_shape(&b2.shape()[..bn - 2])
        ))
    })?;
    let mut out_shape = batch.clone();
    out_shape.extend([m, n]);
    check_alloc(&out_shape, a.dtype())?;
    // Both operands' batch dims broadcast to one batch shape.
    let with_batch = |t: &Tensor, rows: usize, cols: usize| -> Layout {
        let nd = t.ndim();
        let mut shape = batch.clone();
        shape.extend([rows, cols]);
        let mut l = t.layout().clone();
        let lead = Layout {
            shape: crate::tensor::layout::Dims::from_slice(&t.shape()[..nd - 2]),
            strides: crate::tensor::layout::Dims::from_slice(&t.strides()[..nd - 2]),
            offset: t.offset(),
        }
        .expand(&batch);
        l.shape = shape;
        l.strides = lead
            .strides
            .into_iter()
            .chain(t.strides()[nd - 2..].iter().copied())
            .collect();
        l
    };
    let (la, lb) = (with_batch(&a2, m, ka), with_batch(&b2, kb, n));
    let out = a2.read().matmul(&la, &b2.read(), &lb)?;
    // A Ctrl-C stops the kernel between row blocks; its partial result is dropped.
    crate::interrupt::check()?;
    let result = Tensor::from_contiguous(out, &out_shape);
    if a.ndim() > 1 && b.ndim() > 1 {
        // No dim was added: the result is already in shape (and, as in
        // PyTorch, not a view).
        return Ok(result);
    }
    // Drop the dims that 1-d operands gained.
    let mut final_shape: Vec<i64> = batch.iter().map(|&d| d as i64).collect();
    if a.ndim() > 1 {
        final_shape.push(m as i64);
    }
    if b.ndim() > 1 {
        final_shape.push(n as i64);
    }
    reshape(&result, &final_shape)
}

fn require_ndim(t: &Tensor, n: usize, what: &str, arg: &str) -> Result<()> {
    if t.ndim() != n {
        return Err(shape_err(format!(
            "{what} expects {arg} to be {n}-d, but it has shape {}",
            fmt_shape(t.shape())
        ))
        .hint("torch.matmul (the @ operator) accepts any number of dimensions"));
    }
    Ok(())
}

pub fn mm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    require_ndim(a, 2, "mm", "input")?;
    require_ndim(b, 2, "mm", "mat2")?;
    matmul(a, b)
}

pub fn bmm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    require_ndim(a, 3, "bmm", "input")?;
    require_ndim(b, 3, "bmm", "mat2")?;
    if a.shape()[0] != b.shape()[0] {
        return Err(shape_err(format!(
            "bmm needs equal batch sizes, got {} and {}",
            fmt_shape(a.shape()),
            fmt_shape(b.shape())
        )));
    }
    matmul(a, b)
}

pub fn mv(a: &Tensor, v: &Tensor) -> Result<Tensor> {
    require_ndim(a, 2, "mv", "input")?;
    require_ndim(v, 1, "mv", "vec")?;
    matmul(a, v)
}

pub fn dot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    require_ndim(a, 1, "dot", "input")?;
    require_ndim(b, 1, "dot", "other")?;
    if a.numel() != b.numel() {
        return Err(shape_err(format!(
            "dot needs two vectors of one length, got {} and {}",
            a.numel(),
            b.numel()
        )));
    }
    matmul(a, b)
}

pub fn outer(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    require_ndim(a, 1, "outer", "input")?;
    require_ndim(b, 1, "outer", "vec2")?;
    let col = unsqueeze(a, 1)?;
    let row = unsqueeze(b, 0)?;
    crate::tensor::ops::elementwise::binary(crate::tensor::op::BinaryOp::Mul, &col, &row)
}

/// `torch.tensordot`: the sum of products over `dims_a` of `a` against
/// `dims_b` of `b`, as one matrix product (free dims of a, then of b).
pub fn tensordot(a: &Tensor, b: &Tensor, dims_a: &[i64], dims_b: &[i64]) -> Result<Tensor> {
    use crate::tensor::ops::view::permute;
    use crate::tensor::shape::normalize_dim;
    if dims_a.len() != dims_b.len() {
        return Err(shape_err(
            "both dimension lists should have same length".to_string(),
        ));
    }
    let da = dims_a
        .iter()
        .map(|&d| normalize_dim(d, a.ndim()))
        .collect::<Result<Vec<_>>>()?;
    let db = dims_b
        .iter()
        .map(|&d| normalize_dim(d, b.ndim()))
        .collect::<Result<Vec<_>>>()?;
    // A 0-d tensor has no dim to contract (normalize_dim lets dim 0 through).
    if da.iter().any(|&i| i >= a.ndim()) || db.iter().any(|&j| j >= b.ndim()) {
        return Err(crate::error::index_err(
            "tensordot: a contracted dimension is out of range (a 0-d tensor has none)".to_string(),
        ));
    }
    for (&i, &j) in da.iter().zip(&db) {
        if a.shape()[i] != b.shape()[j] {
            return Err(shape_err(format!(
                "contracted dimensions need to match, but first has size {} in dim {i} and second has size {} in dim {j}",
                a.shape()[i],
                b.shape()[j]
            )));
        }
    }
    let free_a: Vec<usize> = (0..a.ndim()).filter(|d| !da.contains(d)).collect();
    let free_b: Vec<usize> = (0..b.ndim()).filter(|d| !db.contains(d)).collect();
    let size =
        |t: &Tensor, ds: &[usize]| ds.iter().map(|&d| t.shape()[d]).product::<usize>() as i64;
    let order = |x: &[usize], y: &[usize]| x.iter().chain(y).map(|&d| d as i64).collect::<Vec<_>>();
    let k = size(a, &da);
    let a2 = reshape(&permute(a, &order(&free_a, &da))?, &[size(a, &free_a), k])?;
    let b2 = reshape(&permute(b, &order(&db, &free_b))?, &[k, size(b, &free_b)])?;
    let out: Vec<i64> = free_a
        .iter()
        .map(|&d| a.shape()[d] as i64)
        .chain(free_b.iter().map(|&d| b.shape()[d] as i64))
        .collect();
    reshape(&mm(&a2, &b2)?, &out)
}
