//! What a sparse tensor value answers to: its attributes (`s.shape`,
//! `s.layout`...), its methods (`s.coalesce()`, `s.crow_indices()`...) and the
//! operators it takes part in (`s @ d`, `s + s`, `s * 2`). Anything else is a
//! clean error that says so.

use std::rc::Rc;

use super::sparse::AnyTensor;
use super::{Builtin, Reach};
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::syntax::ast::BinOp;
use crate::tensor::sparse::{self as sp, SparseLayout, SparseTensor};
use crate::tensor::{Device, Tensor};
use crate::{op, row};

/// A compressed part's accessor: `crow_indices()` and the like.
macro_rules! compressed_part {
    ($sig:literal, $name:literal, $help:literal, $example:literal) => {
        op!(Method, $sig, $help, $example, |self_: Rc<SparseTensor>| {
            self_.compressed_part($name)
        })
    };
}

/// A dtype conversion: `s.double()` and the like.
macro_rules! cast_row {
    ($sig:literal, $dtype:ident, $help:literal, $example:literal) => {
        op!(Method, $sig, $help, $example, |self_: Rc<SparseTensor>| {
            self_.to_dtype(crate::tensor::DType::$dtype)
        })
    };
}

pub const METHODS: &[Builtin] = &[
    op!(
        Method,
        "coalesce(Tensor self) -> Tensor",
        "A sparse COO tensor with its indices sorted, each once (the values of repeated ones added).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.coalesce()",
        |self_: Rc<SparseTensor>| sp::coalesce(&self_)
    ),
    op!(
        Method,
        "is_coalesced(Tensor self) -> bool",
        "Whether a sparse COO tensor's indices are known to be sorted and unique.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.is_coalesced()",
        |self_: Rc<SparseTensor>| Ok::<bool, crate::error::Error>(self_.is_coalesced())
    ),
    op!(
        Method,
        "indices(Tensor self) -> Tensor",
        "A coalesced COO tensor's indices (sparse_dim x nnz).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.coalesce().indices()",
        |self_: Rc<SparseTensor>| self_.indices()
    ),
    op!(
        Method,
        "values(Tensor self) -> Tensor",
        "The stored values (of a coalesced COO tensor, or a compressed one).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.coalesce().values()",
        |self_: Rc<SparseTensor>| self_.checked_values()
    ),
    op!(
        Method,
        "_indices(Tensor self) -> Tensor",
        "A COO tensor's indices as stored (coalesced or not).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s._indices()",
        |self_: Rc<SparseTensor>| match self_.layout() {
            SparseLayout::Coo => Ok(self_.raw_indices().clone()),
            l => Err(sp::layout_err("_indices", l)),
        }
    ),
    op!(
        Method,
        "_values(Tensor self) -> Tensor",
        "The values as stored (coalesced or not).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s._values()",
        |self_: Rc<SparseTensor>| Ok::<Tensor, crate::error::Error>(self_.values().clone())
    ),
    op!(
        Method,
        "_nnz(Tensor self) -> int",
        "How many elements (blocks, for BSR/BSC) are stored.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s._nnz()",
        |self_: Rc<SparseTensor>| Ok::<i64, crate::error::Error>(self_.nnz() as i64)
    ),
    compressed_part!(
        "crow_indices(Tensor self) -> Tensor",
        "crow_indices",
        "A CSR or BSR tensor's compressed row indices.",
        "torch.eye(3).to_sparse_csr().crow_indices()"
    ),
    compressed_part!(
        "col_indices(Tensor self) -> Tensor",
        "col_indices",
        "A CSR or BSR tensor's column indices.",
        "torch.eye(3).to_sparse_csr().col_indices()"
    ),
    compressed_part!(
        "ccol_indices(Tensor self) -> Tensor",
        "ccol_indices",
        "A CSC or BSC tensor's compressed column indices.",
        "torch.eye(3).to_sparse_csc().ccol_indices()"
    ),
    compressed_part!(
        "row_indices(Tensor self) -> Tensor",
        "row_indices",
        "A CSC or BSC tensor's row indices.",
        "torch.eye(3).to_sparse_csc().row_indices()"
    ),
    op!(
        Method,
        "sparse_dim(Tensor self) -> int",
        "How many leading dims are sparse (indexed).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.sparse_dim()",
        |self_: Rc<SparseTensor>| Ok::<i64, crate::error::Error>(self_.sparse_dim() as i64)
    ),
    op!(
        Method,
        "dense_dim(Tensor self) -> int",
        "How many trailing dims each stored value has.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.dense_dim()",
        |self_: Rc<SparseTensor>| Ok::<i64, crate::error::Error>(self_.dense_dim() as i64)
    ),
    op!(
        Method,
        "dim(Tensor self) -> int",
        "The number of dims (sparse and dense).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.dim()",
        |self_: Rc<SparseTensor>| Ok::<i64, crate::error::Error>(self_.ndim() as i64)
    ),
    op!(
        Method,
        "numel(Tensor self) -> int",
        "The number of elements of the dense tensor it stands for.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.numel()",
        |self_: Rc<SparseTensor>| Ok::<i64, crate::error::Error>(
            self_.size().iter().product::<usize>() as i64
        )
    ),
    op!(
        Method,
        "size(Tensor self, int? dim=None) -> Any",
        "The size (a torch.Size), or its length along dim.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.size()",
        |self_: Rc<SparseTensor>, dim: Option<i64>| size(&self_, dim)
    ),
    row!(
        Method,
        "to",
        "to(Tensor self, *args, **kwargs) -> Tensor",
        "The sparse tensor on another device or with values of another dtype.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.to(torch.float64)",
        to
    ),
    op!(
        Method,
        "cuda(Tensor self, Device? device=None, bool non_blocking=False) -> Tensor",
        "The sparse tensor's indices and values on a CUDA device.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.cuda()",
        |self_: Rc<SparseTensor>, device: Option<Device>, _non_blocking: bool| self_
            .to_device(device.unwrap_or(Device::Cuda(0)))
    ),
    cast_row!(
        "float(Tensor self) -> Tensor",
        F32,
        "The sparse tensor with float32 values.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.float()"
    ),
    cast_row!(
        "double(Tensor self) -> Tensor",
        F64,
        "The sparse tensor with float64 values.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.double()"
    ),
    cast_row!(
        "long(Tensor self) -> Tensor",
        I64,
        "The sparse tensor with int64 values.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.long()"
    ),
    cast_row!(
        "int(Tensor self) -> Tensor",
        I32,
        "The sparse tensor with int32 values.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.int()"
    ),
    op!(
        Method,
        "clone(Tensor self) -> Tensor",
        "A copy with indices and values of its own.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.clone()",
        |self_: Rc<SparseTensor>| self_.deep_clone()
    ),
    op!(
        Method,
        "cpu(Tensor self) -> Tensor",
        "The sparse tensor's indices and values on the CPU.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.cpu()",
        |self_: Rc<SparseTensor>| self_.to_device(Device::Cpu)
    ),
    op!(
        Method,
        "sum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "The sum of the elements (a dense 0-d tensor), or over dims (as torch.sparse.sum).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.sum(0)",
        |self_: Rc<SparseTensor>,
         dim: Option<Vec<i64>>,
         keepdim: bool,
         dtype: Option<crate::tensor::DType>| {
            if keepdim {
                return Err(value_err("sum of a sparse tensor does not keep dims"));
            }
            let s = match dtype {
                Some(d) => Rc::new(self_.to_dtype(d)?),
                None => self_,
            };
            super::sparse::summed(&s, dim.as_deref())
        }
    ),
    op!(
        Method,
        "mm(Tensor self, Tensor mat2) -> Tensor",
        "The product with a dense matrix (dense).",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.mm(torch.ones(3, 2))",
        |self_: Rc<SparseTensor>, mat2: Tensor| sp::mm(&self_, &mat2)
    ),
    op!(
        Method,
        "matmul(Tensor self, Tensor other) -> Tensor",
        "The product with a dense matrix or vector (dense), as @.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.matmul(torch.ones(3))",
        |self_: Rc<SparseTensor>, other: Tensor| sp::mm(&self_, &other)
    ),
    op!(
        Method,
        "narrow_copy(Tensor self, int dim, int start, int length) -> Tensor",
        "The elements within start:start+length along dim, as a new sparse COO tensor.",
        "s = sparse_coo_tensor(tensor([[0, 1, 1], [2, 0, 2]]), tensor([3., 4., 5.]), (2, 3)); s.narrow_copy(1, 1, 2)",
        |self_: AnyTensor, dim: i64, start: i64, length: i64| narrow_copy(
            self_, dim, start, length
        )
    ),
];

/// `torch.narrow_copy` of a dense or a sparse COO tensor.
pub fn narrow_copy(input: AnyTensor, dim: i64, start: i64, length: i64) -> Result<AnyTensor> {
    match input {
        AnyTensor::Dense(t) => Ok(AnyTensor::Dense(
            crate::tensor::ops::view::narrow(&t, dim, start, length)?.deep_clone()?,
        )),
        AnyTensor::Sparse(s) => Ok(AnyTensor::Sparse(Rc::new(sp::narrow_copy(
            &s, dim, start, length,
        )?))),
    }
}

fn size(s: &SparseTensor, dim: Option<i64>) -> Result<Value> {
    match dim {
        None => Ok(Value::Shape(Rc::new(s.size().to_vec()))),
        Some(d) => {
            let d = crate::tensor::shape::normalize_dim(d, s.ndim())?;
            Ok(Value::Int(s.size()[d] as i64))
        }
    }
}

/// `s.to(device)`, `s.to(dtype)`, `s.to(device, dtype)` and their keywords.
fn to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver(&a.value("self")?)?;
    let (mut dtype, mut device) = (None, None);
    for (v, span) in a.rest() {
        match v {
            Value::DType(d) => dtype = Some(d),
            other => {
                device = Some(crate::interp::convert::to_device(&other).map_err(|e| e.at(span))?)
            }
        }
    }
    for (k, v) in a.keywords_left() {
        match k.as_str() {
            "dtype" => dtype = Some(crate::interp::convert::to_dtype(&v)?),
            "device" => device = Some(crate::interp::convert::to_device(&v)?),
            "non_blocking" | "copy" => {}
            other => {
                return Err(type_err(format!(
                    "to() got an unexpected keyword argument '{other}'"
                )));
            }
        }
    }
    let s = match dtype {
        Some(d) => s.to_dtype(d)?,
        None => (*s).clone(),
    };
    let s = match device {
        Some(d) => s.to_device(d)?,
        None => s,
    };
    Ok(Value::Sparse(Rc::new(s)))
}

fn receiver(v: &Value) -> Result<Rc<SparseTensor>> {
    match v {
        Value::Sparse(s) => Ok(s.clone()),
        other => Err(type_err(format!(
            "expected a sparse tensor, not {}",
            other.a_type_name()
        ))),
    }
}

/// The attributes a sparse tensor has (not its methods).
const ATTRS: &[&str] = &[
    "shape",
    "dtype",
    "device",
    "layout",
    "is_sparse",
    "is_sparse_csr",
    "ndim",
    "is_cuda",
    "is_cpu",
    "requires_grad",
    "is_leaf",
    "grad",
    "grad_fn",
];

/// Everything `s.` completes to.
pub fn names() -> Vec<String> {
    let methods = METHODS.iter().chain(
        super::sparse::ROWS
            .iter()
            .filter(|b| b.reach == Reach::Method),
    );
    ATTRS
        .iter()
        .copied()
        .chain(methods.map(|b| b.name))
        .map(String::from)
        .collect()
}

/// `s.NAME`: an attribute, or one of the methods sparse tensors have.
pub fn attr(obj: &Value, s: &SparseTensor, name: &str) -> Result<Value> {
    let on = |l: SparseLayout| Value::Bool(s.layout() == l);
    Ok(match name {
        "shape" => Value::Shape(Rc::new(s.size().to_vec())),
        "dtype" => Value::DType(s.dtype()),
        "device" => Value::Device(s.device()),
        "layout" => Value::Layout(s.layout().name()),
        "is_sparse" => on(SparseLayout::Coo),
        "is_sparse_csr" => on(SparseLayout::Csr),
        "ndim" => Value::Int(s.ndim() as i64),
        "is_cuda" => Value::Bool(s.device() != Device::Cpu),
        "is_cpu" => Value::Bool(s.device() == Device::Cpu),
        "requires_grad" | "is_leaf" => Value::Bool(name == "is_leaf"),
        "grad" | "grad_fn" => Value::None,
        _ => return method(obj, s, name),
    })
}

fn method(obj: &Value, s: &SparseTensor, name: &str) -> Result<Value> {
    let found = METHODS.iter().find(|b| b.name == name).or_else(|| {
        super::sparse::ROWS
            .iter()
            .find(|b| b.name == name && b.reach == Reach::Method)
    });
    if let Some(b) = found {
        return Ok(Value::Method(Rc::new((obj.clone(), b))));
    }
    if super::method(name).is_some() || super::tensor_attr_names().contains(&name) {
        return Err(unsupported(&format!(".{name}"), s));
    }
    let e = type_err(format!("a sparse tensor has no attribute '{name}'"));
    let names = names();
    match crate::print::suggest::closest(name, names.iter().map(String::as_str)) {
        Some(best) => Err(e.hint(format!("did you mean `.{best}`?"))),
        None => Err(e),
    }
}

/// The error for what tsh's sparse tensors do not do.
pub fn unsupported(what: &str, s: &SparseTensor) -> crate::error::Error {
    type_err(format!(
        "{what} is not supported for sparse tensors in tsh (this one is torch.{})",
        s.layout().name()
    ))
    .hint("make it dense with .to_dense() first")
}

/// `torch.mm(s, d)` / `torch.matmul(s, d)`: a sparse first operand.
pub fn product(mut a: Args, second: &str) -> Result<Value> {
    let s = receiver(&a.value("input")?)?;
    let d = a.tensor(second)?;
    a.finish()?;
    sp::mm(&s, &d).map(Value::Tensor)
}

/// A number (or 0-d dense tensor) that scales a sparse tensor's values.
fn scalar(v: &Value) -> Option<Tensor> {
    match v {
        Value::Tensor(t) if t.ndim() == 0 => Some(t.clone()),
        other => crate::interp::convert::scalar_tensor(other),
    }
}

/// `a op b` where a sparse tensor takes part.
pub fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value> {
    let values_op = |s: &SparseTensor, k: &Tensor| -> Result<Value> {
        let v = crate::interp::ops::tensor_binary(op, s.values(), k)?;
        Ok(Value::Sparse(Rc::new(s.with_values(v)?)))
    };
    match (op, a, b) {
        (BinOp::MatMul, Value::Sparse(s), Value::Tensor(d)) => sp::mm(s, d).map(Value::Tensor),
        (BinOp::Add, Value::Sparse(x), Value::Sparse(y)) => {
            Ok(Value::Sparse(Rc::new(sp::add(x, y)?)))
        }
        (BinOp::Sub, Value::Sparse(x), Value::Sparse(y)) => {
            Ok(Value::Sparse(Rc::new(sp::add(x, &negated(y)?)?)))
        }
        (BinOp::Add | BinOp::Sub, Value::Tensor(d), Value::Sparse(s)) => {
            crate::interp::ops::tensor_binary(op, d, &s.to_dense()?).map(Value::Tensor)
        }
        (BinOp::Add | BinOp::Sub, Value::Sparse(_), Value::Tensor(_)) => Err(type_err(format!(
            "{}(sparse, dense) is not supported. Use {}(dense, sparse) instead.",
            if op == BinOp::Add { "add" } else { "sub" },
            if op == BinOp::Add { "add" } else { "sub" },
        ))),
        (BinOp::Mul, Value::Sparse(s), k) | (BinOp::Mul, k, Value::Sparse(s)) => match scalar(k) {
            Some(k) => values_op(s, &k),
            None => Err(unsupported_op(op, a, b)),
        },
        (BinOp::Div, Value::Sparse(s), k) => match scalar(k) {
            Some(k) => values_op(s, &k),
            None => Err(unsupported_op(op, a, b)),
        },
        _ => Err(unsupported_op(op, a, b)),
    }
}

fn unsupported_op(op: BinOp, a: &Value, b: &Value) -> crate::error::Error {
    type_err(format!(
        "unsupported operand types for {}: {} and {}",
        op.symbol(),
        a.type_name(),
        b.type_name()
    ))
    .hint("sparse tensors take @ with a dense matrix, + and - with a sparse tensor of their layout, and * or / by a number; use .to_dense() for the rest")
}

/// `-s`.
pub fn negated(s: &SparseTensor) -> Result<SparseTensor> {
    s.with_values(crate::tensor::ops::arith::neg(s.values())?)
}
