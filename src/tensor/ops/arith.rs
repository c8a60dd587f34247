//! Short names for the element-wise ops that derivatives, optimizers and nn
//! compositions are written in. Each is the full op (promotion, broadcasting,
//! autograd), so formulas read as they are written on paper.

use crate::backend::Scalar;
use crate::error::Result;
use crate::tensor::op::{BinaryOp, UnaryOp};
use crate::tensor::ops::elementwise::{binary, unary};
use crate::tensor::{DType, Tensor};

/// A Python float as a wrapped number (it takes the other operand's dtype).
pub fn num(v: f64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::float(v), DType::F64)
}

/// A Python int as a wrapped number (integer tensors stay integers).
pub fn int(v: i64) -> Tensor {
    Tensor::wrapped_scalar(Scalar::int(v), DType::I64)
}

pub fn bin(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(op, a, b)
}
pub fn un(op: UnaryOp, a: &Tensor) -> Result<Tensor> {
    unary(op, a)
}
pub fn add(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Add, a, b)
}
pub fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Sub, a, b)
}
pub fn mul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Mul, a, b)
}
pub fn div(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(BinaryOp::Div, a, b)
}
pub fn scale(a: &Tensor, k: f64) -> Result<Tensor> {
    binary(BinaryOp::Mul, a, &num(k))
}
pub fn neg(a: &Tensor) -> Result<Tensor> {
    unary(UnaryOp::Neg, a)
}
/// A comparison (bool result).
pub fn cmp(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    binary(op, a, b)
}
/// A bool mask as 0/1 in `like`'s dtype.
pub fn mask(m: &Tensor, like: &Tensor) -> Result<Tensor> {
    m.to_dtype(like.dtype())
}
pub fn where_(c: &Tensor, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::elementwise::where_(c, a, b)
}
pub fn zeros_like(t: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::creation::zeros_on(t.shape(), t.dtype(), t.device())
}
