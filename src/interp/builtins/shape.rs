//! Shape and layout ops: views (reshape, transpose, squeeze, expand...) and
//! the copies that change shape (repeat, flip).

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::ops::view as v;

pub const ROWS: &[Builtin] = &[
    row!(
        Both,
        "reshape",
        "reshape(input, *shape)",
        "Same data in a new shape (a view when possible, else a copy); one size may be -1.",
        "arange(6).reshape(2, 3)",
        reshape
    ),
    row!(
        Method,
        "view",
        "view(*shape)",
        "A view with a new shape; fails when the layout cannot be viewed so.",
        "arange(6).view(3, -1)",
        view
    ),
    row!(
        Method,
        "view_as",
        "view_as(other)",
        "view(other.shape).",
        "arange(6).view_as(zeros(2, 3))",
        view_as
    ),
    row!(
        Method,
        "reshape_as",
        "reshape_as(other)",
        "reshape(other.shape).",
        "arange(6).reshape_as(zeros(3, 2))",
        reshape_as
    ),
    row!(
        Both,
        "transpose",
        "transpose(input, dim0, dim1)",
        "Swap two dims (a view).",
        "arange(6).reshape(2, 3).transpose(0, 1)",
        transpose
    ),
    row!(
        Both,
        "swapaxes",
        "swapaxes(input, axis0, axis1)",
        "Alias of transpose.",
        "swapaxes(arange(6).reshape(2, 3), 0, 1)",
        transpose
    ),
    row!(
        Both,
        "permute",
        "permute(input, *dims)",
        "Reorder dims (a view).",
        "zeros(2, 3, 4).permute(2, 0, 1).shape",
        permute
    ),
    row!(
        Both,
        "t",
        "t(input)",
        "Transpose a 0-, 1- or 2-d tensor.",
        "arange(6).reshape(2, 3).t()",
        t
    ),
    row!(
        Both,
        "squeeze",
        "squeeze(input, dim=None)",
        "Remove dims of size 1 (all, or the given ones).",
        "zeros(1, 3, 1).squeeze().shape",
        squeeze
    ),
    row!(
        Both,
        "unsqueeze",
        "unsqueeze(input, dim)",
        "Insert a dim of size 1 at dim.",
        "tensor([1, 2]).unsqueeze(1)",
        unsqueeze
    ),
    row!(
        Both,
        "flatten",
        "flatten(input, start_dim=0, end_dim=-1)",
        "Merge dims start_dim..end_dim into one.",
        "arange(6).reshape(2, 3).flatten()",
        flatten
    ),
    row!(
        Both,
        "ravel",
        "ravel(input)",
        "Flatten to 1-d.",
        "ravel(arange(4).reshape(2, 2))",
        ravel
    ),
    row!(
        Both,
        "narrow",
        "narrow(input, dim, start, length)",
        "length elements of dim from start (a view).",
        "narrow(arange(6), 0, 1, 3)",
        narrow
    ),
    row!(
        Method,
        "expand",
        "expand(*sizes)",
        "Broadcast to sizes (a view; -1 keeps a dim).",
        "tensor([[1], [2]]).expand(2, 3)",
        expand
    ),
    row!(
        Method,
        "expand_as",
        "expand_as(other)",
        "expand(other.shape).",
        "tensor([1, 2]).expand_as(zeros(3, 2))",
        expand_as
    ),
    row!(
        Both,
        "broadcast_to",
        "broadcast_to(input, shape)",
        "Broadcast to a shape (a view).",
        "broadcast_to(tensor([1, 2]), (2, 2))",
        broadcast_to
    ),
    row!(
        Method,
        "repeat",
        "repeat(*sizes)",
        "Tile the tensor sizes[i] times along each dim (a copy).",
        "tensor([1, 2]).repeat(2, 2)",
        repeat
    ),
    row!(
        Both,
        "flip",
        "flip(input, dims)",
        "Reverse the order along dims (a copy).",
        "flip(arange(4), [0])",
        flip
    ),
];

fn sizes_of(a: &mut Args) -> Result<Vec<i64>> {
    a.sizes("shape")
}

fn reshape(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let s = sizes_of(&mut a)?;
    a.finish()?;
    v::reshape(&t, &s).map(Value::Tensor)
}

fn view(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    if let Some((Value::DType(d), _)) = a.positional.get(1)
        && *d != t.dtype()
    {
        return Err(type_err(
            "view(dtype) reinterpreting bits is not supported; use .to(dtype)",
        ));
    }
    let s = sizes_of(&mut a)?;
    a.finish()?;
    v::view(&t, &s).map(Value::Tensor)
}

fn shape_i64(t: &Tensor) -> Vec<i64> {
    t.shape().iter().map(|&d| d as i64).collect()
}

fn view_as(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let o = a.tensor("other")?;
    a.finish()?;
    v::view(&t, &shape_i64(&o)).map(Value::Tensor)
}

fn reshape_as(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let o = a.tensor("other")?;
    a.finish()?;
    v::reshape(&t, &shape_i64(&o)).map(Value::Tensor)
}

fn transpose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d0 = a.int("dim0")?;
    let d1 = a.int("dim1")?;
    a.finish()?;
    v::transpose(&t, d0, d1).map(Value::Tensor)
}

fn permute(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dims = a.sizes("dims")?;
    a.finish()?;
    v::permute(&t, &dims).map(Value::Tensor)
}

fn t(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    a.finish()?;
    v::t2d(&x).map(Value::Tensor)
}

fn squeeze(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dims = a.dims("dim")?;
    a.finish()?;
    v::squeeze(&t, dims.as_deref()).map(Value::Tensor)
}

fn unsqueeze(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d = a.int("dim")?;
    a.finish()?;
    v::unsqueeze(&t, d).map(Value::Tensor)
}

fn flatten(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let s = a.int_or("start_dim", 0)?;
    let e = a.int_or("end_dim", -1)?;
    a.finish()?;
    v::flatten(&t, s, e).map(Value::Tensor)
}

fn ravel(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    v::reshape(&t, &[-1]).map(Value::Tensor)
}

fn narrow(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d = a.int("dim")?;
    let s = a.int("start")?;
    let l = a.int("length")?;
    a.finish()?;
    v::narrow(&t, d, s, l).map(Value::Tensor)
}

fn expand(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let s = a.sizes("sizes")?;
    a.finish()?;
    v::expand(&t, &s).map(Value::Tensor)
}

fn expand_as(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let o = a.tensor("other")?;
    a.finish()?;
    v::expand(&t, &shape_i64(&o)).map(Value::Tensor)
}

fn broadcast_to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let s = a.sizes("size")?;
    a.finish()?;
    v::expand(&t, &s).map(Value::Tensor)
}

fn repeat(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let reps = a.sizes("sizes")?;
    a.finish()?;
    v::repeat(&t, &reps).map(Value::Tensor)
}

fn flip(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dims = a.sizes("dims")?;
    a.finish()?;
    v::flip(&t, &dims).map(Value::Tensor)
}
