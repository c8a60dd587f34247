//! NumPy's face on a tensor: an ndarray is `Value::Array(tensor)`, so
//! `torch.from_numpy(a)` and `t.numpy()` share memory (the course notes' point),
//! and every operation is the tensor engine's. What differs is NumPy's: float64
//! by default, true division and int-with-float arithmetic giving float64, its
//! printing, a 0-d result being a plain number, and `a.shape` a tuple.

use super::value::Value;
use crate::error::{Result, type_err};
use crate::syntax::ast::{BinOp, CmpOp, UnaryOp};
use crate::tensor::{DType, Tensor};

/// A tensor result as NumPy gives it back: an array, or a number when 0-d.
pub fn wrap(v: Value) -> Result<Value> {
    Ok(match v {
        Value::Tensor(t) if t.ndim() == 0 => super::convert::tensor_item(&t)?,
        Value::Tensor(t) => Value::Array(t),
        Value::Tuple(items) => Value::tuple(
            items
                .iter()
                .cloned()
                .map(wrap)
                .collect::<Result<Vec<_>>>()?,
        ),
        other => other,
    })
}

/// An array as the tensor it is (other values unchanged).
pub fn unwrap(v: &Value) -> Value {
    match v {
        Value::Array(t) => Value::Tensor(t.clone()),
        other => other.clone(),
    }
}

/// NumPy computes ints with floats, and true division, in float64 (PyTorch in
/// its default float32): cast the integer arrays up front.
fn promote(op: Option<BinOp>, a: &Value, b: &Value) -> Result<(Value, Value)> {
    let is_int = |v: &Value| matches!(v, Value::Array(t) if !t.dtype().is_float());
    let is_float = |v: &Value| {
        matches!(v, Value::Float(_)) || matches!(v, Value::Array(t) if t.dtype().is_float())
    };
    let widen = op == Some(BinOp::Div) || (is_int(a) && is_float(b)) || (is_int(b) && is_float(a));
    let cast = |v: &Value| -> Result<Value> {
        Ok(match v {
            Value::Array(t) if widen && !t.dtype().is_float() => {
                Value::Tensor(t.to_dtype(DType::F64)?)
            }
            other => unwrap(other),
        })
    };
    Ok((cast(a)?, cast(b)?))
}

fn involved(a: &Value, b: &Value) -> bool {
    matches!(a, Value::Array(_)) || matches!(b, Value::Array(_))
}

/// `a + b` with an array on either side.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value>> {
    if !involved(a, b) {
        return None;
    }
    Some(promote(Some(op), a, b).and_then(|(x, y)| wrap(super::ops::binary(op, &x, &y)?)))
}

pub fn compare(op: CmpOp, a: &Value, b: &Value) -> Option<Result<Value>> {
    if !involved(a, b) || matches!(op, CmpOp::Is | CmpOp::IsNot | CmpOp::In | CmpOp::NotIn) {
        return None;
    }
    Some(promote(None, a, b).and_then(|(x, y)| wrap(super::ops::compare(op, &x, &y)?)))
}

pub fn unary(op: UnaryOp, v: &Value) -> Option<Result<Value>> {
    match v {
        Value::Array(t) if op != UnaryOp::Not => {
            Some(super::ops::unary(op, &Value::Tensor(t.clone())).and_then(wrap))
        }
        _ => None,
    }
}

/// Attributes that NumPy spells differently from PyTorch.
pub fn attr(t: &Tensor, name: &str) -> Option<Value> {
    Some(match name {
        "shape" => Value::tuple(t.shape().iter().map(|&d| Value::Int(d as i64)).collect()),
        // NumPy's dtype names are tsh's.
        "dtype" => Value::str(t.dtype().name()),
        "size" => Value::Int(t.numel() as i64),
        "ndim" => Value::Int(t.ndim() as i64),
        "T" => Value::Array(crate::tensor::ops::view::reverse_dims(t)),
        _ => return None,
    })
}

/// `t.numpy()`: the same memory, seen as an array.
pub fn from_tensor(t: &Tensor) -> Result<Value> {
    if t.requires_grad() {
        return Err(type_err(
            "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.",
        ));
    }
    if t.device() != crate::tensor::Device::Cpu {
        return Err(type_err(format!(
            "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
            t.device()
        )));
    }
    Ok(Value::Array(t.clone()))
}
