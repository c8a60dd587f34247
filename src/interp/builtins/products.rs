//! The matmul family: matmul, mm, bmm, mv, dot, inner, outer.

use super::Builtin;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::ops::matmul as mm_ops;

pub const ROWS: &[Builtin] = &[
    crate::op!(
        Function,
        "tensordot(Tensor a, Tensor b, Any dims=2) -> Tensor",
        "Sum of products over dims: the last `dims` of a with the first of b, or two lists of dims.",
        "torch.tensordot(arange(6.).reshape(2, 3), arange(6.).reshape(3, 2), dims=1)",
        |a: Tensor, b: Tensor, dims: Value| {
            let (da, db) = tensordot_dims(&dims, a.ndim())?;
            mm_ops::tensordot(&a, &b, &da, &db)
        }
    ),
    row!(
        Both,
        "matmul",
        "matmul(input, other)",
        "Matrix product with batching and broadcasting (the @ operator).",
        "matmul(ones(2, 3), ones(3, 4)).shape",
        matmul
    ),
    row!(
        Both,
        "mm",
        "mm(input, mat2)",
        "2-d matrix product.",
        "mm(tensor([[1., 2.], [3., 4.]]), eye(2))",
        mm
    ),
    row!(
        Both,
        "bmm",
        "bmm(input, mat2)",
        "Batched 3-d matrix product.",
        "bmm(ones(5, 2, 3), ones(5, 3, 4)).shape",
        bmm
    ),
    row!(
        Both,
        "mv",
        "mv(input, vec)",
        "Matrix-vector product.",
        "mv(tensor([[1., 2.], [3., 4.]]), tensor([1., 1.]))",
        mv
    ),
    row!(
        Both,
        "dot",
        "dot(input, other)",
        "Dot product of two 1-d tensors.",
        "dot(tensor([1., 2.]), tensor([3., 4.]))",
        dot
    ),
    row!(
        Both,
        "outer",
        "outer(input, vec2)",
        "Outer product of two 1-d tensors.",
        "outer(tensor([1, 2]), tensor([1, 10, 100]))",
        outer
    ),
];

fn two(a: &mut Args, second: &str) -> Result<(Tensor, Tensor)> {
    let x = a.tensor("input")?;
    let y = a.tensor(second)?;
    Ok((x, y))
}

macro_rules! product {
    ($f:ident, $second:literal, $op:path) => {
        fn $f(_: &mut Interp, mut a: Args) -> Result<Value> {
            let (x, y) = two(&mut a, $second)?;
            a.finish()?;
            $op(&x, &y).map(Value::Tensor)
        }
    };
}

product!(dense_matmul, "other", mm_ops::matmul);
product!(dense_mm, "mat2", mm_ops::mm);

/// A sparse first operand goes to the sparse product (tensor/sparse).
fn matmul(it: &mut Interp, a: Args) -> Result<Value> {
    match a.positional.first() {
        Some((Value::Sparse(_), _)) => super::sparse_methods::product(a, "other"),
        _ => dense_matmul(it, a),
    }
}

fn mm(it: &mut Interp, a: Args) -> Result<Value> {
    match a.positional.first() {
        Some((Value::Sparse(_), _)) => super::sparse_methods::product(a, "mat2"),
        _ => dense_mm(it, a),
    }
}
product!(bmm, "mat2", mm_ops::bmm);
product!(mv, "vec", mm_ops::mv);
product!(dot, "other", mm_ops::dot);
product!(outer, "vec2", mm_ops::outer);

/// tensordot's `dims`: n (the last n of a against the first n of b), or a
/// pair of dim lists (or of single dims).
fn tensordot_dims(dims: &Value, a_ndim: usize) -> Result<(Vec<i64>, Vec<i64>)> {
    let bad = || {
        crate::error::type_err(format!(
            "tensordot expects dims to be an int or a pair of lists of dims, not {}",
            dims.type_name()
        ))
    };
    let ints = |v: &Value| -> Result<Vec<i64>> {
        match v {
            Value::Int(d) => Ok(vec![*d]),
            _ => v
                .iter_items()
                .map_err(|_| bad())?
                .iter()
                .map(|x| match x {
                    Value::Int(d) => Ok(*d),
                    _ => Err(bad()),
                })
                .collect(),
        }
    };
    match dims {
        Value::Int(n) => {
            if *n < 0 {
                return Err(crate::error::value_err(format!(
                    "tensordot expects dims >= 0, but got dims={n}"
                )));
            }
            let n = (*n).min(a_ndim as i64);
            let a = (a_ndim as i64 - n..a_ndim as i64).collect();
            Ok((a, (0..n).collect()))
        }
        Value::Tensor(t) if t.ndim() == 0 => {
            tensordot_dims(&Value::Int(t.to_host_i64()?[0]), a_ndim)
        }
        _ => {
            let pair = dims.iter_items().map_err(|_| bad())?;
            if pair.len() != 2 {
                return Err(bad());
            }
            Ok((ints(&pair[0])?, ints(&pair[1])?))
        }
    }
}
