//! Tensor methods that are not torch functions: item, tolist, size, stride,
//! contiguity, and a few that are both (numel, clone). Conversions are in
//! convert_methods.rs, in-place updates in inplace.rs.

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    row!(
        Method,
        "item",
        "item()",
        "The single element as a plain number.",
        "tensor([2.5]).item()",
        item
    ),
    row!(
        Method,
        "tolist",
        "tolist()",
        "Nested lists of plain numbers.",
        "tensor([[1, 2], [3, 4]]).tolist()",
        tolist
    ),
    row!(
        Method,
        "size",
        "size(dim=None)",
        "The shape, or the size of one dim.",
        "zeros(2, 3).size(1)",
        size
    ),
    row!(
        Method,
        "dim",
        "dim()",
        "Number of dimensions.",
        "zeros(2, 3).dim()",
        dim
    ),
    row!(
        Method,
        "ndimension",
        "ndimension()",
        "Number of dimensions.",
        "zeros(2, 3).ndimension()",
        dim
    ),
    row!(
        Both,
        "numel",
        "numel(input)",
        "Number of elements.",
        "numel(zeros(2, 3))",
        numel
    ),
    row!(
        Method,
        "nelement",
        "nelement()",
        "Number of elements.",
        "zeros(2, 3).nelement()",
        numel
    ),
    row!(
        Method,
        "stride",
        "stride(dim=None)",
        "Steps in storage between neighbours along each dim.",
        "zeros(2, 3).t().stride()",
        stride
    ),
    row!(
        Method,
        "storage_offset",
        "storage_offset()",
        "Index of the first element in the storage.",
        "arange(6)[2:].storage_offset()",
        storage_offset
    ),
    row!(
        Method,
        "data_ptr",
        "data_ptr()",
        "Where the first element sits in memory: equal for views that start at the same place.",
        "a = zeros(4); a.data_ptr() == a.view(2, 2).data_ptr()",
        data_ptr
    ),
    row!(
        Method,
        "is_contiguous",
        "is_contiguous()",
        "Is the layout row-major without gaps?",
        "zeros(2, 3).t().is_contiguous()",
        is_contiguous
    ),
    row!(
        Method,
        "contiguous",
        "contiguous()",
        "The tensor itself if contiguous, else a row-major copy.",
        "zeros(2, 3).t().contiguous().stride()",
        contiguous
    ),
    row!(
        Both,
        "clone",
        "clone(input)",
        "A copy with its own storage.",
        "clone(tensor([1, 2]))",
        clone
    ),
    row!(
        Method,
        "detach",
        "detach()",
        "The same data, cut from the autograd graph.",
        "(ones(2, requires_grad=true) * 2).detach()",
        detach
    ),
    row!(
        Method,
        "element_size",
        "element_size()",
        "Bytes per element.",
        "zeros(2, dtype=float16).element_size()",
        element_size
    ),
    row!(
        Both,
        "is_floating_point",
        "is_floating_point()",
        "Is the dtype a float type?",
        "tensor([1, 2]).is_floating_point()",
        is_floating_point
    ),
];

pub(super) fn receiver(a: &mut Args) -> Result<Tensor> {
    a.tensor("self")
}

fn data_ptr(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.data_ptr() as i64))
}

fn item(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    if t.numel() != 1 {
        return Err(value_err(format!(
            "item() needs a tensor with exactly one element, but this one has {} (shape {})",
            t.numel(),
            crate::tensor::shape::fmt_shape(t.shape())
        ))
        .hint("index one element first (t[0, 1].item()) or reduce it (t.sum().item())"));
    }
    convert::tensor_item(&t)
}

fn tolist(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    convert::tolist(&t)
}

fn size(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let d = a.opt_int("dim")?;
    a.finish()?;
    match d {
        None => Ok(Value::Shape(std::rc::Rc::new(t.shape().to_vec()))),
        Some(d) => {
            let i = crate::tensor::shape::existing_dim(d, t.ndim())?;
            Ok(Value::Int(t.shape()[i] as i64))
        }
    }
}

fn dim(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.ndim() as i64))
}

fn numel(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Int(t.numel() as i64))
}

fn stride(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let d = a.opt_int("dim")?;
    a.finish()?;
    match d {
        None => Ok(Value::tuple(
            t.strides().iter().map(|&s| Value::Int(s as i64)).collect(),
        )),
        Some(d) => {
            let i = crate::tensor::shape::existing_dim(d, t.ndim())?;
            Ok(Value::Int(t.strides()[i] as i64))
        }
    }
}

fn storage_offset(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.offset() as i64))
}

fn is_contiguous(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Bool(t.is_contiguous()))
}

fn contiguous(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    t.contiguous().map(Value::Tensor)
}

fn clone(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    t.deep_clone().map(Value::Tensor)
}

fn detach(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Tensor(t.view_with(t.layout().clone())))
}

fn element_size(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.dtype().size() as i64))
}

fn is_floating_point(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Bool(t.dtype().is_float()))
}
