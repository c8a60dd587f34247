//! Order-based ops: sort, argsort, topk, median, kthvalue, unique, nonzero.

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::call::named;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::ops::{sort as so, view as v};

pub const ROWS: &[Builtin] = &[
    row!(
        Both,
        "sort",
        "sort(input, dim=-1, descending=False)",
        "Sorted values and their indices (stable). On a CUDA device the sort goes through the host (a copy there and back).",
        "sort(tensor([3, 1, 2]), descending=true)",
        sort
    ),
    row!(
        Both,
        "argsort",
        "argsort(input, dim=-1, descending=False)",
        "Indices that sort along dim (on CUDA, sorted on the host).",
        "argsort(tensor([3, 1, 2]))",
        argsort
    ),
    row!(
        Both,
        "topk",
        "topk(input, k, dim=-1, largest=True, sorted=True)",
        "The k largest (or smallest) values and their indices (on CUDA, sorted on the host).",
        "topk(tensor([1., 5., 3., 4.]), 2)",
        topk
    ),
    crate::op!(
        Both,
        "nanmedian(Tensor input, int? dim=None, bool keepdim=False) -> Tensor",
        "The lower median of the non-NaN values (of all elements, or values and indices along dim).",
        "nanmedian(tensor([1., float('nan'), 3., 2.]))",
        |input: crate::tensor::Tensor, dim: Option<i64>, keepdim: bool| {
            let (values, indices) = crate::tensor::ops::stats::nanmedian(&input, dim, keepdim)?;
            Ok::<Value, crate::error::Error>(match dim {
                None => Value::Tensor(values),
                Some(_) => named(
                    "nanmedian",
                    vec![
                        ("values", Value::Tensor(values)),
                        ("indices", Value::Tensor(indices)),
                    ],
                ),
            })
        }
    ),
    crate::op!(
        Both,
        "median(Tensor input, int? dim=None, bool keepdim=False) -> Tensor",
        "The lower median (of all elements, or values and indices along dim).",
        "median(tensor([[1., 5., 3.], [4., 2., 6.]]), dim=1)",
        |input: crate::tensor::Tensor, dim: Option<i64>, keepdim: bool| {
            let (values, indices) = so::median(&input, dim, keepdim)?;
            Ok::<Value, crate::error::Error>(match dim {
                None => Value::Tensor(values),
                Some(_) => named(
                    "median",
                    vec![
                        ("values", Value::Tensor(values)),
                        ("indices", indices.map_or(Value::None, Value::Tensor)),
                    ],
                ),
            })
        }
    ),
    crate::op!(
        Both,
        "kthvalue(Tensor input, int k, int dim=-1, bool keepdim=False) -> Tensor",
        "The k-th smallest value along dim, and its index.",
        "kthvalue(tensor([3., 1., 2.]), 2)",
        |input: crate::tensor::Tensor, k: i64, dim: i64, keepdim: bool| {
            let (values, indices) = so::kthvalue(&input, k, dim, keepdim)?;
            Ok::<Value, crate::error::Error>(named(
                "kthvalue",
                vec![
                    ("values", Value::Tensor(values)),
                    ("indices", Value::Tensor(indices)),
                ],
            ))
        }
    ),
    row!(
        Both,
        "unique",
        "unique(input, sorted=True, return_inverse=False, return_counts=False)",
        "Sorted unique elements. On a CUDA device they are found on the host (a copy there and back).",
        "unique(tensor([3, 1, 3, 2]), return_counts=true)",
        unique
    ),
    crate::op!(
        Both,
        "nonzero_static(Tensor input, *, int size, int fill_value=-1) -> Tensor",
        "nonzero's rows, cut or padded with fill_value to exactly size rows.",
        "nonzero_static(tensor([0, 3, 0, 4]), size=3)",
        |input: crate::tensor::Tensor, size: i64, fill_value: i64| so::nonzero_static(
            &input, size, fill_value
        )
    ),
    crate::op!(
        Both,
        "unique_consecutive(Tensor input, bool return_inverse=False, bool return_counts=False, int? dim=None) -> Any",
        "One element (or slice along dim) of each run of equal neighbours; with each element's run and each run's length.",
        "unique_consecutive(tensor([1, 1, 2, 2, 3, 1]), return_counts=True)",
        |input: crate::tensor::Tensor,
         return_inverse: bool,
         return_counts: bool,
         dim: Option<i64>| {
            let (values, inverse, counts) = so::unique_consecutive(&input, dim)?;
            let mut items = vec![Value::Tensor(values)];
            if return_inverse {
                items.push(Value::Tensor(inverse));
            }
            if return_counts {
                items.push(Value::Tensor(counts));
            }
            Ok::<Value, crate::error::Error>(match items.len() {
                1 => items.remove(0),
                _ => Value::tuple(items),
            })
        }
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
    // As a tuple, a 0-d tensor's nonzero is that of its one element, 1-d.
    let t = if t.ndim() == 0 && as_tuple {
        v::reshape(&t, &[1])?
    } else {
        t
    };
    let nz = so::nonzero(&t)?;
    if as_tuple {
        let cols = (0..t.ndim().max(1))
            .map(|j| v::select(&nz, 1, j as i64)?.contiguous().map(Value::Tensor))
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::tuple(cols));
    }
    Ok(Value::Tensor(nz))
}
