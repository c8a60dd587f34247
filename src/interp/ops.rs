//! Operators on values: Python semantics for numbers, strings and lists;
//! tensor semantics (promotion, broadcasting) as soon as a tensor takes part.

use std::borrow::Cow;

use super::pystr::PyStr;
use crate::error::{Result, dtype_err, shape_err, type_err, value_err};
use crate::syntax::ast::{BinOp, CmpOp, UnaryOp};
use crate::tensor::Tensor;
use crate::tensor::op::BinaryOp;
use crate::tensor::op::UnaryOp as KUnary;
use crate::tensor::ops::elementwise;
use crate::tensor::ops::index::write_all;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::promote::can_cast;
use crate::tensor::shape::fmt_shape;

use super::convert::scalar_tensor;
use super::number::{Num, overflow};
use super::value::Value;

fn tensor_op(op: BinOp) -> Option<BinaryOp> {
    Some(match op {
        BinOp::Add => BinaryOp::Add,
        BinOp::Sub => BinaryOp::Sub,
        BinOp::Mul => BinaryOp::Mul,
        BinOp::Div => BinaryOp::Div,
        BinOp::FloorDiv => BinaryOp::FloorDiv,
        BinOp::Mod => BinaryOp::Rem,
        BinOp::Pow => BinaryOp::Pow,
        BinOp::BitAnd => BinaryOp::BitAnd,
        BinOp::BitOr => BinaryOp::BitOr,
        BinOp::BitXor => BinaryOp::BitXor,
        BinOp::LShift => BinaryOp::Shl,
        BinOp::RShift => BinaryOp::Shr,
        BinOp::MatMul => return None,
    })
}

/// A tensor operand: a tensor value borrowed (cloning one is a locked
/// increment, and dropping the clone a locked decrement), a number as a 0-d
/// tensor.
fn as_tensor(v: &Value) -> Option<Cow<'_, Tensor>> {
    match v {
        Value::Tensor(t) => Some(Cow::Borrowed(t)),
        other => scalar_tensor(other).map(Cow::Owned),
    }
}

fn unsupported(op: &str, a: &Value, b: &Value) -> crate::error::Error {
    type_err(format!(
        "unsupported operand types for {op}: {} and {}",
        a.type_name(),
        b.type_name()
    ))
}

pub fn tensor_binary(op: BinOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    match tensor_op(op) {
        Some(k) => elementwise::binary(k, a, b),
        None => matmul(a, b),
    }
}

/// `a op b` for any values.
/// Arithmetic on Python's numbers (int, bool, float); None for anything else.
/// Scalar loops spend their time here, so the interpreter tries it first.
pub fn number_binary(op: BinOp, a: &Value, b: &Value) -> Option<Result<Value>> {
    let (x, y) = (Num::of(a)?, Num::of(b)?);
    Some(
        super::number::binary(op, x, y)
            .map(Num::value)
            .map_err(|f| f.error(op)),
    )
}

pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value> {
    // Python's numbers first (as `compare` does): the checks below are for
    // arrays, tensors, complex numbers and containers.
    if let Some(r) = number_binary(op, a, b) {
        return r;
    }
    if let Some(r) = super::numpy::binary(op, a, b) {
        return r;
    }
    if matches!(a, Value::Sparse(_)) || matches!(b, Value::Sparse(_)) {
        return super::builtins::sparse_binary(op, a, b);
    }
    if matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_)) {
        let (Some(ta), Some(tb)) = (as_tensor(a), as_tensor(b)) else {
            return Err(
                unsupported(op.symbol(), a, b).hint("tensor arithmetic takes tensors and numbers")
            );
        };
        if op == BinOp::MatMul && (ta.is_wrapped_number() || tb.is_wrapped_number()) {
            return Err(type_err("`@` needs two tensors").hint("to scale by a number use `*`"));
        }
        return tensor_binary(op, &ta, &tb).map(Value::Tensor);
    }
    if (matches!(a, Value::Complex(..)) || matches!(b, Value::Complex(..)))
        && let (Some(x), Some(y)) = (
            super::pycomplex::as_complex(a),
            super::pycomplex::as_complex(b),
        )
    {
        return super::pycomplex::binary(op, x, y);
    }
    if let (Value::Set(x), Value::Set(y)) = (a, b) {
        return super::pyset::binary(op, &x.borrow(), &y.borrow());
    }
    match (a, b) {
        (Value::Str(x), Value::Str(y)) if op == BinOp::Add => {
            super::value::check_items(x.len() as u128 + y.len() as u128)?;
            Ok(Value::Str(format!("{x}{y}").into()))
        }
        (Value::Str(x), Value::Int(n)) | (Value::Int(n), Value::Str(x)) if op == BinOp::Mul => {
            super::value::check_items(x.len() as u128 * (*n).max(0) as u128)?;
            Ok(Value::Str(x.repeat((*n).max(0) as usize).into()))
        }
        (Value::List(x), Value::List(y)) if op == BinOp::Add => {
            super::value::check_items(x.borrow().len() as u128 + y.borrow().len() as u128)?;
            let mut v = x.borrow().clone();
            v.extend(y.borrow().iter().cloned());
            Ok(Value::list(v))
        }
        (Value::Tuple(x), Value::Tuple(y)) if op == BinOp::Add => {
            super::value::check_items(x.len() as u128 + y.len() as u128)?;
            Ok(Value::tuple(x.iter().chain(y.iter()).cloned().collect()))
        }
        (Value::List(x), Value::Int(n)) | (Value::Int(n), Value::List(x)) if op == BinOp::Mul => {
            Ok(Value::list(repeated(&x.borrow(), *n)?))
        }
        (Value::Tuple(x), Value::Int(n)) | (Value::Int(n), Value::Tuple(x)) if op == BinOp::Mul => {
            Ok(Value::tuple(repeated(x, *n)?))
        }
        // torch.Size is a tuple whose `+` and `*` give a torch.Size.
        (Value::Shape(_), Value::Shape(_) | Value::Tuple(_))
        | (Value::Tuple(_), Value::Shape(_))
            if op == BinOp::Add =>
        {
            let items: Vec<Value> = [a, b]
                .iter()
                .flat_map(|v| v.iter_items().unwrap_or_default())
                .collect();
            shape_of(items)
        }
        (Value::Shape(x), Value::Int(n)) | (Value::Int(n), Value::Shape(x)) if op == BinOp::Mul => {
            let items: Vec<Value> = x.iter().map(|&d| Value::Int(d as i64)).collect();
            shape_of(repeated(&items, *n)?)
        }
        _ => Err(unsupported(op.symbol(), a, b)),
    }
}

/// A torch.Size of the items, which must all be sizes (as PyTorch checks).
fn shape_of(items: Vec<Value>) -> Result<Value> {
    let dims = items
        .iter()
        .enumerate()
        .map(|(i, v)| match v {
            Value::Int(d) if *d >= 0 => Ok(*d as usize),
            _ => Err(crate::error::type_err(format!(
                "torch.Size() takes an iterable of 'int' (item {i} is '{}')",
                v.type_name()
            ))),
        })
        .collect::<Result<Vec<usize>>>()?;
    Ok(Value::Shape(std::rc::Rc::new(dims)))
}

/// `items * n`: the items n times over (none for n <= 0).
fn repeated(items: &[Value], n: i64) -> Result<Vec<Value>> {
    super::value::check_items(items.len() as u128 * n.max(0) as u128)?;
    // The item count bounds the work: `[] * 2**62` is empty at once.
    let copies = if items.is_empty() { 0 } else { n.max(0) };
    let mut v = Vec::with_capacity(items.len() * copies as usize);
    for _ in 0..copies {
        v.extend(items.iter().cloned());
    }
    Ok(v)
}

pub fn unary(op: UnaryOp, v: &Value) -> Result<Value> {
    if let Some(r) = super::numpy::unary(op, v) {
        return r;
    }
    if op == UnaryOp::Not {
        return Ok(Value::Bool(!v.truthy()?));
    }
    match (op, v) {
        (UnaryOp::Pos, Value::Int(_) | Value::Float(_) | Value::Tensor(_)) => Ok(v.clone()),
        (UnaryOp::Pos, Value::Bool(b)) => Ok(Value::Int(*b as i64)),
        (UnaryOp::Neg, Value::Int(i)) => i.checked_neg().map(Value::Int).ok_or_else(overflow),
        (UnaryOp::Neg, Value::Bool(b)) => Ok(Value::Int(-(*b as i64))),
        (UnaryOp::Neg, Value::Float(f)) => Ok(Value::Float(-f)),
        (UnaryOp::Neg, Value::Complex(re, im)) => Ok(Value::Complex(-re, -im)),
        (UnaryOp::Pos, Value::Complex(..)) => Ok(v.clone()),
        (UnaryOp::Neg, Value::Tensor(t)) => elementwise::unary(KUnary::Neg, t).map(Value::Tensor),
        (UnaryOp::Neg, Value::Sparse(s)) => {
            super::builtins::sparse_negated(s).map(|s| Value::Sparse(std::rc::Rc::new(s)))
        }
        (UnaryOp::Pos, Value::Sparse(_)) => Ok(v.clone()),
        (UnaryOp::Invert, Value::Int(i)) => Ok(Value::Int(!i)),
        (UnaryOp::Invert, Value::Bool(b)) => Ok(Value::Int(!(*b as i64))),
        (UnaryOp::Invert, Value::Tensor(t)) => {
            elementwise::unary(KUnary::BitwiseNot, t).map(Value::Tensor)
        }
        (_, v) => Err(type_err(format!(
            "bad operand type for unary operator: {}",
            v.type_name()
        ))),
    }
}

/// Structural equality of plain values (used by `==` on non-tensors and `in`).
#[inline]
pub fn values_equal(a: &Value, b: &Value) -> bool {
    // Ints and strings (most dict keys: a lookup compares against every key
    // before it) in line; the rest by Python's rules.
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => x == y,
        _ => python_equal(a, b),
    }
}

fn python_equal(a: &Value, b: &Value) -> bool {
    // Identity first, as Python's list comparison does: a list that holds itself
    // equals itself without an endless walk.
    if let (Value::List(x), Value::List(y)) = (a, b)
        && std::rc::Rc::ptr_eq(x, y)
    {
        return true;
    }
    if let Some(same) = super::builtins::same_class(a, b) {
        return same;
    }
    if matches!(a, Value::Complex(..)) || matches!(b, Value::Complex(..)) {
        return match (
            super::pycomplex::as_complex(a),
            super::pycomplex::as_complex(b),
        ) {
            (Some(x), Some(y)) => x == y,
            _ => false,
        };
    }
    if let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) {
        return super::number::order(x, y) == Some(std::cmp::Ordering::Equal);
    }
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Set(x), Value::Set(y)) => super::pyset::equal(&x.borrow(), &y.borrow()),
        // A keys view is set-like: it equals a set (or keys view) of the same keys.
        (Value::DictView(v), other) | (other, Value::DictView(v))
            if v.kind == super::value::ViewKind::Keys =>
        {
            let other_len = match other {
                Value::Set(s) => s.borrow().len(),
                Value::DictView(o) if o.kind == super::value::ViewKind::Keys => {
                    o.dict.borrow().len()
                }
                _ => return false,
            };
            let keys = v.items();
            keys.len() == other_len && keys.iter().all(|k| contains(other, k).unwrap_or(false))
        }
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::QDType(x), Value::QDType(y)) => x == y,
        (Value::QScheme(x), Value::QScheme(y)) => x == y,
        (Value::Device(x), Value::Device(y)) | (Value::DeviceType(x), Value::DeviceType(y)) => {
            x == y
        }
        (Value::Device(x), Value::Str(s)) | (Value::Str(s), Value::Device(x)) => {
            crate::tensor::Device::parse(s)
                .map(|d| d == *x)
                .unwrap_or(false)
        }
        (
            Value::List(_) | Value::Tuple(_) | Value::Shape(_) | Value::Range(..),
            Value::List(_) | Value::Tuple(_) | Value::Shape(_) | Value::Range(..),
        ) => {
            // A list never equals a tuple in Python, but a shape equals both.
            let kinds_ok = !matches!(
                (a, b),
                (Value::List(_), Value::Tuple(_)) | (Value::Tuple(_), Value::List(_))
            );
            // Nested deeper than any walk goes (two distinct self-holding lists).
            let Some(_level) = super::value::Nested::enter() else {
                return false;
            };
            let (x, y) = (
                a.iter_items().unwrap_or_default(),
                b.iter_items().unwrap_or_default(),
            );
            kinds_ok && x.len() == y.len() && x.iter().zip(&y).all(|(p, q)| values_equal(p, q))
        }
        (Value::Tensor(x), Value::Tensor(y)) => x.same_tensor(y),
        (Value::Sparse(x), Value::Sparse(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Layout(x), Value::Layout(y)) => x == y,
        (Value::Dict(x), Value::Dict(y)) => {
            if std::rc::Rc::ptr_eq(x, y) {
                return true;
            }
            let Some(_level) = super::value::Nested::enter() else {
                return false;
            };
            let (x, y) = (x.borrow(), y.borrow());
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get_key(k).is_some_and(|w| values_equal(v, w)))
        }
        (Value::Function(x), Value::Function(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Class(x), Value::Class(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Object(x), Value::Object(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Builtin(x), Value::Builtin(y)) => std::ptr::eq(*x, *y),
        (Value::Module(x), Value::Module(y)) => x == y,
        (Value::GradFn(x), Value::GradFn(y)) => std::sync::Arc::ptr_eq(x, y),
        (Value::Optimizer(x), Value::Optimizer(y)) => std::rc::Rc::ptr_eq(x, y),
        _ => false,
    }
}

fn order(a: &Value, b: &Value) -> Result<std::cmp::Ordering> {
    if let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) {
        return super::number::order(x, y).ok_or_else(|| value_err("nan cannot be ordered"));
    }
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => Ok(x.cmp(y)),
        (
            Value::List(_) | Value::Tuple(_) | Value::Named(_),
            Value::List(_) | Value::Tuple(_) | Value::Named(_),
        ) => {
            let _level = super::value::Nested::enter().ok_or_else(|| {
                value_err(
                    "these values are nested too deeply to compare (does a list hold itself?)",
                )
            })?;
            let (x, y) = (a.iter_items()?, b.iter_items()?);
            for (p, q) in x.iter().zip(&y) {
                let o = order(p, q)?;
                if o != std::cmp::Ordering::Equal {
                    return Ok(o);
                }
            }
            Ok(x.len().cmp(&y.len()))
        }
        _ => Err(type_err(format!(
            "cannot order {} and {}",
            a.a_type_name(),
            b.a_type_name()
        ))),
    }
}

pub fn compare(op: CmpOp, a: &Value, b: &Value) -> Result<Value> {
    use std::cmp::Ordering::*;
    // Python's numbers first: a loop's condition is one of these, and the
    // checks below are for tensors, arrays and containers.
    if let (Some(x), Some(y)) = (Num::of(a), Num::of(b))
        && let Some(answer) = super::number::compare(op, x, y)
    {
        return Ok(Value::Bool(answer));
    }
    if let Some(r) = super::numpy::compare(op, a, b) {
        return r;
    }
    match op {
        CmpOp::Is => return Ok(Value::Bool(identical(a, b))),
        CmpOp::IsNot => return Ok(Value::Bool(!identical(a, b))),
        CmpOp::In | CmpOp::NotIn => {
            let found = contains(b, a)?;
            return Ok(Value::Bool(found == (op == CmpOp::In)));
        }
        _ => {}
    }
    if matches!(a, Value::QTensor(_)) || matches!(b, Value::QTensor(_)) {
        return Err(type_err("quantized tensors cannot be compared in tsh")
            .hint("compare their dequantize() or int_repr() tensors"));
    }
    let tensorish = matches!(a, Value::Tensor(_)) || matches!(b, Value::Tensor(_));
    if tensorish {
        if let (Some(x), Some(y)) = (as_tensor(a), as_tensor(b)) {
            let k = match op {
                CmpOp::Eq => BinaryOp::Eq,
                CmpOp::Ne => BinaryOp::Ne,
                CmpOp::Lt => BinaryOp::Lt,
                CmpOp::Le => BinaryOp::Le,
                CmpOp::Gt => BinaryOp::Gt,
                _ => BinaryOp::Ge,
            };
            return elementwise::binary(k, &x, &y).map(Value::Tensor);
        }
        if matches!(op, CmpOp::Eq | CmpOp::Ne) {
            return Ok(Value::Bool((op == CmpOp::Ne) ^ values_equal(a, b)));
        }
        return Err(type_err(format!(
            "cannot compare {} and {}",
            a.a_type_name(),
            b.a_type_name()
        )));
    }
    if let (Value::Set(x), Value::Set(y)) = (a, b) {
        let (x, y) = (x.borrow(), y.borrow());
        use super::pyset::{equal, is_subset};
        return Ok(Value::Bool(match op {
            CmpOp::Eq => equal(&x, &y),
            CmpOp::Ne => !equal(&x, &y),
            CmpOp::Le => is_subset(&x, &y),
            CmpOp::Lt => is_subset(&x, &y) && x.len() < y.len(),
            CmpOp::Ge => is_subset(&y, &x),
            _ => is_subset(&y, &x) && x.len() > y.len(),
        }));
    }
    Ok(Value::Bool(match op {
        CmpOp::Eq => values_equal(a, b),
        CmpOp::Ne => !values_equal(a, b),
        CmpOp::Lt => order(a, b)? == Less,
        CmpOp::Le => order(a, b)? != Greater,
        CmpOp::Gt => order(a, b)? == Greater,
        _ => order(a, b)? != Less,
    }))
}

fn identical(a: &Value, b: &Value) -> bool {
    if let Some(same) = super::builtins::same_class(a, b) {
        return same;
    }
    match (a, b) {
        (Value::None, Value::None) => true,
        (Value::Tensor(x), Value::Tensor(y)) => x.same_tensor(y),
        (Value::Sparse(x), Value::Sparse(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Layout(x), Value::Layout(y)) => x == y,
        (Value::List(x), Value::List(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::DType(x), Value::DType(y)) => x == y,
        (Value::QDType(x), Value::QDType(y)) => x == y,
        (Value::QScheme(x), Value::QScheme(y)) => x == y,
        (Value::QTensor(x), Value::QTensor(y)) => x.int_repr().same_tensor(y.int_repr()),
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Str(x), Value::Str(y)) => PyStr::ptr_eq(x, y) || x == y,
        (Value::Module(x), Value::Module(y)) => x == y,
        (Value::Builtin(x), Value::Builtin(y)) => std::ptr::eq(*x, *y),
        (Value::Function(x), Value::Function(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Dict(x), Value::Dict(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Class(x), Value::Class(y)) => std::rc::Rc::ptr_eq(x, y),
        (Value::Object(x), Value::Object(y)) => std::rc::Rc::ptr_eq(x, y),
        _ => false,
    }
}

fn contains(container: &Value, item: &Value) -> Result<bool> {
    match container {
        Value::Set(s) => Ok(super::pyset::contains(&s.borrow(), item)),
        Value::Dict(d) => Ok(d.borrow().get_key(item).is_some()),
        Value::DictView(v) => Ok(v.contains(item)),
        // Scanned where they are, not copied out first.
        Value::List(l) => Ok(l.borrow().iter().any(|v| values_equal(v, item))),
        Value::Tuple(t) => Ok(t.iter().any(|v| values_equal(v, item))),
        Value::Range(start, stop, step) => Ok(range_contains((*start, *stop, *step), item)),
        Value::Str(s) => match item {
            Value::Str(sub) => Ok(s.contains(sub.as_ref())),
            _ => Err(type_err("`in <str>` needs a str on the left")),
        },
        Value::Tensor(t) => {
            let x = as_tensor(item)
                .ok_or_else(|| type_err("`in <tensor>` needs a number or tensor"))?;
            let eq = elementwise::binary(BinaryOp::Eq, t, &x)?;
            Ok(!crate::tensor::ops::compare::all(
                &crate::tensor::ops::elementwise::predicate(
                    crate::tensor::op::PredicateOp::LogicalNot,
                    &eq,
                )?,
            )?)
        }
        other => Ok(other.iter_items()?.iter().any(|v| values_equal(v, item))),
    }
}

/// `x in range(...)` by arithmetic, as Python answers it (not by listing the
/// range, which may be huge).
fn range_contains((start, stop, step): (i64, i64, i64), item: &Value) -> bool {
    let i = match item {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        Value::Float(f) => match super::pyhash::exact_int(*f) {
            Some(i) => i,
            None => return false,
        },
        _ => return false,
    };
    let (i, start, stop, step) = (i as i128, start as i128, stop as i128, step as i128);
    let inside = if step > 0 {
        start <= i && i < stop
    } else {
        stop < i && i <= start
    };
    inside && step != 0 && (i - start) % step == 0
}

/// `t op= x`: computed out of place, then written into `t`'s storage, as long as
/// the result's dtype and shape fit `t` (PyTorch's rules for in-place ops).
pub fn inplace(t: &Tensor, op: BinOp, rhs: &Value) -> Result<()> {
    let rhs = &super::numpy::unwrap(rhs);
    let r = as_tensor(rhs).ok_or_else(|| {
        type_err(format!(
            "cannot apply {}= with a {}",
            op.symbol(),
            rhs.type_name()
        ))
    })?;
    inplace_binary(t, op, &r, &format!("{}=", op.symbol()))
}

/// `t op= r` for tensors: written straight into t where the backend can
/// (see tensor::ops::assign), else computed out of place and written back.
pub fn inplace_binary(t: &Tensor, op: BinOp, r: &Tensor, what: &str) -> Result<()> {
    if let Some(k) = tensor_op(op)
        && crate::tensor::ops::assign::binary_assign(k, t, r)?
    {
        return Ok(());
    }
    let result = tensor_binary(op, &inplace_source(t)?, r)?;
    write_into(t, &result, what)
}

/// What an in-place op computes from: `t` itself, or, when autograd tracks `t`, a
/// recorded copy, so the graph keeps t's old values after t is overwritten.
pub fn inplace_source(t: &Tensor) -> Result<Tensor> {
    if crate::autograd::needs_grad(&[t]) && !t.is_leaf() {
        t.deep_clone()
    } else {
        Ok(t.clone())
    }
}

/// A comparison of two tensors, as a bool tensor (for ops built from others).
pub fn tensor_compare(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    match compare(op, &Value::Tensor(a.clone()), &Value::Tensor(b.clone()))? {
        Value::Tensor(t) => Ok(t),
        other => Err(type_err(format!(
            "comparing tensors gave {}",
            other.a_type_name()
        ))),
    }
}

/// `f(..., out=o)`: the result copied into `o` (resized when it is empty or of
/// another shape, as PyTorch does), which is returned.
pub fn write_out(out: &Value, result: &Value) -> Result<Value> {
    let (Value::Tensor(o) | Value::Array(o)) = out else {
        return Err(type_err(format!(
            "out= takes a tensor, not {}",
            out.a_type_name()
        )));
    };
    let r = match super::numpy::unwrap(result) {
        Value::Tensor(t) => t,
        other => scalar_tensor(&other).ok_or_else(|| type_err("this function has no out="))?,
    };
    if o.shape() != r.shape() {
        return Err(crate::error::shape_err(format!(
            "out= has shape {} but the result has shape {}",
            crate::tensor::shape::fmt_shape(o.shape()),
            crate::tensor::shape::fmt_shape(r.shape())
        ))
        .hint("give an out tensor of the result's shape"));
    }
    if crate::autograd::needs_grad(&[o]) || crate::autograd::needs_grad(&[&r]) {
        return Err(type_err(
            "out=... arguments don't support automatic differentiation, but one of the arguments requires grad.",
        ));
    }
    write_into(o, &r, "out=")?;
    Ok(out.clone())
}

/// Write a computed result into `t` in place, checking dtype and shape.
pub fn write_into(t: &Tensor, result: &Tensor, what: &str) -> Result<()> {
    if !can_cast(result.dtype(), t.dtype()) {
        return Err(dtype_err(format!(
            "{what}: the result type {} can't be cast to the tensor's dtype {}",
            result.dtype(),
            t.dtype()
        ))
        .hint(format!(
            "convert first and rebind, e.g. t = t{} then {what} again",
            result.dtype().conversion()
        )));
    }
    if result.shape() != t.shape() {
        return Err(shape_err(format!(
            "{what}: the result's shape {} differs from the tensor's shape {}, and in-place ops cannot resize",
            fmt_shape(result.shape()),
            fmt_shape(t.shape())
        ))
        .hint("use the out-of-place form (t = t + x) to get the broadcast shape"));
    }
    write_all(t, result)
}
