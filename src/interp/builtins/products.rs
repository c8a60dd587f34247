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
