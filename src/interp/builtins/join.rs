//! Joining and splitting tensors: cat, stack and their kin, chunk, split, unbind.

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::ops::{join, view as v};

pub const ROWS: &[Builtin] = &[
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
];

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
