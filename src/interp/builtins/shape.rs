//! Shape and layout ops, joining, the matmul family, and order-based ops.

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::call::named;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::ops::{join, matmul as mm_ops, sort as so, view as v};

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
        Both,
        "chunk",
        "chunk(input, chunks, dim=0)",
        "Split into `chunks` nearly equal views.",
        "chunk(arange(6), 3)",
        chunk
    ),
    row!(
        Both,
        "split",
        "split(input, split_size_or_sections, dim=0)",
        "Split into views of a size, or of the listed sizes.",
        "split(arange(5), 2)",
        split
    ),
    row!(
        Both,
        "unbind",
        "unbind(input, dim=0)",
        "A tuple of slices along dim.",
        "unbind(arange(4).reshape(2, 2))",
        unbind
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
    row!(
        Function,
        "cat",
        "cat(tensors, dim=0)",
        "Join tensors along an existing dim.",
        "cat([zeros(1, 2), ones(2, 2)])",
        cat
    ),
    row!(
        Function,
        "concat",
        "concat(tensors, dim=0)",
        "Alias of cat.",
        "concat([zeros(2), ones(2)])",
        cat
    ),
    row!(
        Function,
        "concatenate",
        "concatenate(tensors, dim=0)",
        "Alias of cat.",
        "concatenate([zeros(2, 1), ones(2, 1)], dim=1)",
        cat
    ),
    row!(
        Function,
        "stack",
        "stack(tensors, dim=0)",
        "Join tensors of one shape along a new dim.",
        "stack([zeros(2), ones(2)], dim=1)",
        stack
    ),
    row!(
        Function,
        "vstack",
        "vstack(tensors)",
        "Stack rows (1-d tensors become rows).",
        "vstack([tensor([1, 2]), tensor([3, 4])])",
        vstack
    ),
    row!(
        Function,
        "hstack",
        "hstack(tensors)",
        "Join along columns (along dim 0 for 1-d).",
        "hstack([tensor([1, 2]), tensor([3])])",
        hstack
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
        "inner",
        "inner(input, other)",
        "Dot product of two 1-d tensors.",
        "inner(tensor([1., 2.]), tensor([3., 4.]))",
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
    row!(
        Both,
        "sort",
        "sort(input, dim=-1, descending=False)",
        "Sorted values and their indices (stable).",
        "sort(tensor([3, 1, 2]), descending=true)",
        sort
    ),
    row!(
        Both,
        "argsort",
        "argsort(input, dim=-1, descending=False)",
        "Indices that sort along dim.",
        "argsort(tensor([3, 1, 2]))",
        argsort
    ),
    row!(
        Both,
        "topk",
        "topk(input, k, dim=-1, largest=True, sorted=True)",
        "The k largest (or smallest) values and their indices.",
        "topk(tensor([1., 5., 3., 4.]), 2)",
        topk
    ),
    row!(
        Both,
        "unique",
        "unique(input, sorted=True, return_inverse=False, return_counts=False)",
        "Sorted unique elements.",
        "unique(tensor([3, 1, 3, 2]), return_counts=true)",
        unique
    ),
    row!(
        Both,
        "nonzero",
        "nonzero(input, *, as_tuple=False)",
        "Indices of non-zero elements, one row each.",
        "nonzero(tensor([0, 1, 0, 2]))",
        nonzero
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

fn tensors_tuple(ts: Vec<Tensor>) -> Value {
    Value::tuple(ts.into_iter().map(Value::Tensor).collect())
}

fn chunk(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let n = a.int("chunks")?;
    let d = a.int_or("dim", 0)?;
    a.finish()?;
    v::chunk(&t, n, d).map(tensors_tuple)
}

fn split(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let (s, span) = a
        .take("split_size_or_sections")
        .ok_or_else(|| type_err("split() missing 'split_size_or_sections'"))?;
    let d = a.int_or("dim", 0)?;
    a.finish()?;
    match s {
        Value::List(_) | Value::Tuple(_) => {
            let sizes = convert::to_shape(&convert::to_int_list(&s, "split", "sections")?)
                .map_err(|e| e.at(span))?;
            v::split_sizes(&t, &sizes, d).map(tensors_tuple)
        }
        other => {
            let n = convert::to_int(&other, "split", "split_size").map_err(|e| e.at(span))?;
            if n <= 0 {
                return Err(value_err("split size must be positive").at(span));
            }
            v::split(&t, n as usize, d).map(tensors_tuple)
        }
    }
}

fn unbind(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d = a.int_or("dim", 0)?;
    a.finish()?;
    let parts = v::unbind(&t, d)?
        .into_iter()
        .map(|p| crate::autograd::relabel(p, "UnbindBackward0"))
        .collect();
    Ok(tensors_tuple(parts))
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

fn tensor_list(a: &mut Args, param: &str) -> Result<Vec<Tensor>> {
    let (v, s) = a
        .take(param)
        .ok_or_else(|| type_err(format!("{}() missing '{param}'", a.name)).at(a.span))?;
    let items = match &v {
        Value::List(_) | Value::Tuple(_) => v.iter_items()?,
        other => {
            return Err(type_err(format!(
                "{}() expects a list or tuple of tensors, not {}",
                a.name,
                other.a_type_name()
            ))
            .at(s)
            .hint(format!("wrap them in brackets: {}([a, b])", a.name)));
        }
    };
    items
        .iter()
        .map(|x| convert::to_tensor_arg(x, a.name, param).map_err(|e| e.at(s)))
        .collect()
}

fn cat(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ts = tensor_list(&mut a, "tensors")?;
    let d = a.int_or("dim", 0)?;
    a.finish()?;
    join::cat(&ts, d).map(Value::Tensor)
}

fn stack(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ts = tensor_list(&mut a, "tensors")?;
    let d = a.int_or("dim", 0)?;
    a.finish()?;
    join::stack(&ts, d).map(Value::Tensor)
}

fn vstack(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ts = tensor_list(&mut a, "tensors")?;
    a.finish()?;
    join::vstack(&ts).map(Value::Tensor)
}

fn hstack(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ts = tensor_list(&mut a, "tensors")?;
    a.finish()?;
    join::hstack(&ts).map(Value::Tensor)
}

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
product!(matmul, "other", mm_ops::matmul);
product!(mm, "mat2", mm_ops::mm);
product!(bmm, "mat2", mm_ops::bmm);
product!(mv, "vec", mm_ops::mv);
product!(dot, "other", mm_ops::dot);
product!(outer, "vec2", mm_ops::outer);

fn sort(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d = a.int_or("dim", -1)?;
    let desc = a.flag("descending", false)?;
    let _ = a.take_kw("stable");
    a.finish()?;
    let (values, indices) = so::sort(&t, d, desc)?;
    Ok(named(
        "sort",
        vec![
            ("values", Value::Tensor(values)),
            ("indices", Value::Tensor(indices)),
        ],
    ))
}

fn argsort(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let d = a.int_or("dim", -1)?;
    let desc = a.flag("descending", false)?;
    let _ = a.take_kw("stable");
    a.finish()?;
    Ok(Value::Tensor(so::sort(&t, d, desc)?.1))
}

fn topk(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let k = a.int("k")?;
    let d = a.int_or("dim", -1)?;
    let largest = a.flag("largest", true)?;
    let _sorted = a.flag("sorted", true)?;
    a.finish()?;
    let (values, indices) = so::topk(&t, k, d, largest)?;
    Ok(named(
        "topk",
        vec![
            ("values", Value::Tensor(values)),
            ("indices", Value::Tensor(indices)),
        ],
    ))
}

fn unique(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let _sorted = a.flag("sorted", true)?;
    let inverse = a.flag("return_inverse", false)?;
    let counts = a.flag("return_counts", false)?;
    if let Some((d, s)) = a.take_kw("dim")
        && !matches!(d, Value::None)
    {
        return Err(value_err("unique(dim=...) is not supported yet; it flattens the input").at(s));
    }
    a.finish()?;
    let (u, inv, c) = so::unique(&t)?;
    if !inverse && !counts {
        return Ok(Value::Tensor(u));
    }
    let mut items = vec![Value::Tensor(u)];
    if inverse {
        items.push(Value::Tensor(inv));
    }
    if counts {
        items.push(Value::Tensor(c));
    }
    Ok(Value::tuple(items))
}

fn nonzero(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let as_tuple = a.kw_flag("as_tuple", false)?;
    a.finish()?;
    let nz = so::nonzero(&t)?;
    if as_tuple {
        let cols = (0..t.ndim().max(1))
            .map(|j| v::select(&nz, 1, j as i64)?.contiguous().map(Value::Tensor))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::tuple(cols));
    }
    Ok(Value::Tensor(nz))
}
