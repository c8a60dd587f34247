//! Joining and splitting tensors: cat, stack and their kin, chunk, split, unbind.

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::convert;
use crate::interp::value::Value;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::ops::{join, split as sp};

pub const ROWS: &[Builtin] = &[
    op!(
        Both,
        "chunk(Tensor input, int chunks, int dim=0) -> Tensor[]",
        "Split into `chunks` nearly equal views.",
        "chunk(arange(6), 3)",
        |input: Tensor, chunks: i64, dim: i64| sp::chunk(&input, chunks, dim)
    ),
    op!(
        Both,
        "split(Tensor tensor, Any split_size_or_sections, int dim=0) -> Tensor[]",
        "Split into views of a size, or of the listed sizes.",
        "split(arange(5), 2)",
        |tensor: Tensor, split_size_or_sections: Value, dim: i64| split(
            &tensor,
            &split_size_or_sections,
            dim
        )
    ),
    op!(
        Both,
        "tensor_split(Tensor input, Any indices_or_sections, int dim=0) -> Tensor[]",
        "Split into n nearly equal views, or at the listed indices.",
        "tensor_split(arange(7), 3)",
        |input: Tensor, indices_or_sections: Value, dim: i64| {
            match sections(&indices_or_sections)? {
                Ok(n) => sp::tensor_split(&input, n, dim),
                Err(at) => sp::tensor_split_at(&input, &at, dim),
            }
        }
    ),
    op!(
        Both,
        "hsplit(Tensor input, Any indices_or_sections) -> Tensor[]",
        "tensor_split along columns (dim 1; dim 0 for 1-d), in equal parts.",
        "hsplit(arange(6).reshape(2, 3), [1])",
        |input: Tensor, indices_or_sections: Value| directional(&input, 'h', &indices_or_sections)
    ),
    op!(
        Both,
        "vsplit(Tensor input, Any indices_or_sections) -> Tensor[]",
        "tensor_split along rows (dim 0) of a tensor of 2 or more dims.",
        "vsplit(arange(8).reshape(4, 2), 2)",
        |input: Tensor, indices_or_sections: Value| directional(&input, 'v', &indices_or_sections)
    ),
    op!(
        Both,
        "dsplit(Tensor input, Any indices_or_sections) -> Tensor[]",
        "tensor_split along depth (dim 2) of a tensor of 3 or more dims.",
        "dsplit(arange(8).reshape(1, 2, 4), 2)",
        |input: Tensor, indices_or_sections: Value| directional(&input, 'd', &indices_or_sections)
    ),
    op!(
        Both,
        "unbind(Tensor input, int dim=0) -> Tensor[]",
        "A tuple of slices along dim.",
        "unbind(arange(4).reshape(2, 2))",
        |input: Tensor, dim: i64| Ok::<_, crate::error::Error>(
            sp::unbind(&input, dim)?
                .into_iter()
                .map(|p| crate::autograd::relabel(p, "UnbindBackward0"))
                .collect::<Vec<_>>()
        )
    ),
    op!(
        Function,
        "cat(Tensor[] tensors, int dim=0) -> Tensor",
        "Join tensors along an existing dim.",
        "cat([zeros(1, 2), ones(2, 2)])",
        |tensors: Vec<Tensor>, dim: i64| join::cat(&tensors, dim)
    ),
    op!(
        Function,
        "concat(Tensor[] tensors, int dim=0) -> Tensor",
        "Alias of cat.",
        "concat([zeros(2), ones(2)])",
        |tensors: Vec<Tensor>, dim: i64| join::cat(&tensors, dim)
    ),
    op!(
        Function,
        "concatenate(Tensor[] tensors, int dim=0) -> Tensor",
        "Alias of cat.",
        "concatenate([zeros(2, 1), ones(2, 1)], dim=1)",
        |tensors: Vec<Tensor>, dim: i64| join::cat(&tensors, dim)
    ),
    op!(
        Function,
        "stack(Tensor[] tensors, int dim=0) -> Tensor",
        "Join tensors of one shape along a new dim.",
        "stack([zeros(2), ones(2)], dim=1)",
        |tensors: Vec<Tensor>, dim: i64| join::stack(&tensors, dim)
    ),
    op!(
        Function,
        "vstack(Tensor[] tensors) -> Tensor",
        "Stack rows (1-d tensors become rows).",
        "vstack([tensor([1, 2]), tensor([3, 4])])",
        |tensors: Vec<Tensor>| join::vstack(&tensors)
    ),
    op!(
        Function,
        "row_stack(Tensor[] tensors) -> Tensor",
        "Alias of vstack.",
        "row_stack([tensor([1, 2]), tensor([3, 4])])",
        |tensors: Vec<Tensor>| join::vstack(&tensors)
    ),
    op!(
        Function,
        "hstack(Tensor[] tensors) -> Tensor",
        "Join along columns (along dim 0 for 1-d).",
        "hstack([tensor([1, 2]), tensor([3])])",
        |tensors: Vec<Tensor>| join::hstack(&tensors)
    ),
    op!(
        Function,
        "dstack(Tensor[] tensors) -> Tensor",
        "Join along depth (dim 2), each made at least 3-d.",
        "dstack([tensor([1, 2]), tensor([3, 4])])",
        |tensors: Vec<Tensor>| join::dstack(&tensors)
    ),
    op!(
        Function,
        "column_stack(Tensor[] tensors) -> Tensor",
        "Join as columns: 0-d and 1-d tensors become columns.",
        "column_stack([tensor([1, 2]), tensor([3, 4])])",
        |tensors: Vec<Tensor>| join::column_stack(&tensors)
    ),
    op!(
        Function,
        "atleast_1d(Tensor *tensors) -> Any",
        "The tensor with dims added to make it at least 1-d (each of several).",
        "atleast_1d(tensor(1.))",
        |tensors: Value| atleast(&tensors, 1)
    ),
    op!(
        Function,
        "atleast_2d(Tensor *tensors) -> Any",
        "The tensor with dims added to make it at least 2-d (a row).",
        "atleast_2d(tensor([1, 2]))",
        |tensors: Value| atleast(&tensors, 2)
    ),
    op!(
        Function,
        "atleast_3d(Tensor *tensors) -> Any",
        "The tensor with dims added to make it at least 3-d.",
        "atleast_3d(tensor([1, 2])).shape",
        |tensors: Value| atleast(&tensors, 3)
    ),
];

/// An int (a number of sections) or a list or tensor of indices.
fn sections(v: &Value) -> Result<std::result::Result<i64, Vec<i64>>> {
    match v {
        Value::Int(n) => Ok(Ok(*n)),
        Value::Tensor(t) if t.ndim() == 0 => convert::to_int(v, "tensor_split", "sections").map(Ok),
        Value::List(_) | Value::Tuple(_) | Value::Tensor(_) => {
            convert::to_int_list(v, "tensor_split", "indices").map(Err)
        }
        other => Err(type_err(format!(
            "tensor_split(): argument 'indices_or_sections' must be int or tuple of ints, not {}",
            other.type_name()
        ))),
    }
}

fn directional(t: &Tensor, which: char, v: &Value) -> Result<Vec<Tensor>> {
    match sections(v)? {
        Ok(n) => sp::directional_split(t, which, Some(n), &[]),
        Err(at) => sp::directional_split(t, which, None, &at),
    }
}

fn split(t: &Tensor, s: &Value, d: i64) -> Result<Vec<Tensor>> {
    match s {
        Value::List(_) | Value::Tuple(_) => {
            let sizes = convert::to_shape(&convert::to_int_list(s, "split", "sections")?)?;
            sp::split_sizes(t, &sizes, d)
        }
        other => {
            let n = convert::to_int(other, "split", "split_size")?;
            if n <= 0 {
                return Err(crate::error::value_err("split size must be positive"));
            }
            sp::split(t, n as usize, d)
        }
    }
}

/// One tensor gives one tensor; several (or a list) give a tuple.
fn atleast(v: &Value, n: usize) -> Result<Value> {
    let items = v.iter_items()?;
    let v = match &items[..] {
        [one] => one,
        _ => v,
    };
    match v {
        Value::List(_) | Value::Tuple(_) => {
            let parts: Vec<Value> = v
                .iter_items()?
                .iter()
                .map(|x| {
                    Ok(Value::Tensor(join::atleast(
                        &convert::to_tensor_arg(x, "atleast", "tensors")?,
                        n,
                    )?))
                })
                .collect::<Result<_>>()?;
            Ok(Value::tuple(parts))
        }
        v => Ok(Value::Tensor(join::atleast(
            &convert::to_tensor_arg(v, "atleast", "tensors")?,
            n,
        )?)),
    }
}
