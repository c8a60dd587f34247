//! Ops that pick or mask elements, built from other tensor ops (so gradients
//! flow and every device runs them): masked_fill, tril/triu, diag,
//! index_select, gather, roll.

use super::Builtin;
use crate::autograd::composite::composite;
use crate::error::{Result, index_err, shape_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::{BinOp, CmpOp};
use crate::tensor::ops::creation::{arange_on, zeros_on};
use crate::tensor::ops::elementwise::where_;
use crate::tensor::ops::index::{Idx, index, index_put};
use crate::tensor::ops::view::{narrow, reshape, view};
use crate::tensor::{DType, Tensor};

pub const ROWS: &[Builtin] = &[
    row!(
        Both,
        "masked_fill",
        "masked_fill(input, mask, value)",
        "value where mask is True, input elsewhere (mask broadcasts).",
        "tensor([1., 2., 3.]).masked_fill(tensor([True, False, True]), 0)",
        masked_fill
    ),
    row!(
        Method,
        "masked_fill_",
        "masked_fill_(mask, value)",
        "masked_fill, in place.",
        "t = ones(3); t.masked_fill_(tensor([False, True, False]), -1); t",
        masked_fill_
    ),
    row!(
        Both,
        "tril",
        "tril(input, diagonal=0)",
        "The lower triangle (on and below the diagonal), zeros above.",
        "tril(ones(3, 3))",
        tril
    ),
    row!(
        Both,
        "triu",
        "triu(input, diagonal=0)",
        "The upper triangle (on and above the diagonal), zeros below.",
        "triu(ones(3, 3), diagonal=1)",
        triu
    ),
    row!(
        Both,
        "diag",
        "diag(input, diagonal=0)",
        "A 1-D input as a diagonal matrix; a 2-D input's diagonal.",
        "diag(tensor([1, 2, 3]))",
        diag
    ),
    row!(
        Both,
        "index_select",
        "index_select(input, dim, index)",
        "The entries at index (1-D int64) along dim.",
        "arange(6).reshape(2, 3).index_select(1, tensor([0, 2]))",
        index_select
    ),
    row!(
        Both,
        "gather",
        "gather(input, dim, index)",
        "out[i][j] = input[index[i][j]][j] (dim=0), and so on for each dim.",
        "tensor([[1, 2], [3, 4]]).gather(1, tensor([[0, 0], [1, 0]]))",
        gather
    ),
    row!(
        Both,
        "roll",
        "roll(input, shifts, dims=None)",
        "Elements shifted along dims, wrapping around (flattened when dims is None).",
        "roll(arange(5), 2)",
        roll
    ),
];

fn sub(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::interp::ops::tensor_binary(BinOp::Sub, a, b)
}

/// The fill value as a 0-d tensor of the input's dtype.
fn fill_of(a: &mut Args, t: &Tensor) -> Result<Tensor> {
    let v = a.value("value")?;
    let f = crate::interp::convert::to_tensor_arg(&v, "masked_fill", "value")?;
    if f.numel() != 1 {
        return Err(shape_err(format!(
            "masked_fill only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
            f.ndim()
        )));
    }
    view(&f, &[])?.to_dtype(t.dtype())
}

fn bool_mask(a: &mut Args) -> Result<Tensor> {
    let m = a.tensor("mask")?;
    if m.dtype() != DType::Bool {
        return Err(crate::error::dtype_err(format!(
            "masked_fill_ only supports boolean masks, but got mask with dtype {}",
            m.dtype()
        )));
    }
    Ok(m)
}

fn masked_fill(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let mask = bool_mask(&mut a)?;
    let fill = fill_of(&mut a, &t)?;
    a.finish()?;
    composite("MaskedFillBackward0", &[&t], |x| {
        where_(&mask, &fill, &x[0])
    })
    .map(Value::Tensor)
}

fn masked_fill_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let mask = bool_mask(&mut a)?;
    let fill = fill_of(&mut a, &t)?;
    a.finish()?;
    let source = crate::interp::ops::inplace_source(&t)?;
    let result = composite("MaskedFillBackward0", &[&source], |x| {
        where_(&mask, &fill, &x[0])
    })?;
    crate::interp::ops::write_into(&t, &result, "masked_fill_")?;
    Ok(Value::Tensor(t))
}

/// Keep (i, j) where `j - i` passes `keep` against the diagonal offset.
fn triangle(mut a: Args, lower: bool) -> Result<Value> {
    let t = a.tensor("input")?;
    let k = a.int_or("diagonal", 0)?;
    a.finish()?;
    if t.ndim() < 2 {
        return Err(shape_err(format!(
            "{}: input tensor must have at least 2 dimensions",
            if lower { "tril" } else { "triu" }
        )));
    }
    let (n, m) = (t.shape()[t.ndim() - 2], t.shape()[t.ndim() - 1]);
    let rows = reshape(&arange_on(n, t.device())?, &[n as i64, 1])?;
    let cols = reshape(&arange_on(m, t.device())?, &[1, m as i64])?;
    let offset = sub(&cols, &rows)?;
    let k = crate::tensor::ops::creation::full(&[], k as f64, k, DType::I64, t.device())?;
    let keep =
        crate::interp::ops::tensor_compare(if lower { CmpOp::Le } else { CmpOp::Ge }, &offset, &k)?;
    let zero = zeros_on(&[], t.dtype(), t.device())?;
    let name = if lower {
        "TrilBackward0"
    } else {
        "TriuBackward0"
    };
    composite(name, &[&t], |x| where_(&keep, &x[0], &zero)).map(Value::Tensor)
}

fn tril(_: &mut Interp, a: Args) -> Result<Value> {
    triangle(a, true)
}

fn triu(_: &mut Interp, a: Args) -> Result<Value> {
    triangle(a, false)
}

/// 0..n shifted by `by`, as an int64 index.
fn range_from(n: usize, by: usize, t: &Tensor) -> Result<Tensor> {
    let r = arange_on(n, t.device())?;
    let shift =
        crate::tensor::ops::creation::full(&[], by as f64, by as i64, DType::I64, t.device())?;
    crate::interp::ops::tensor_binary(BinOp::Add, &r, &shift)
}

fn diag(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let k = a.int_or("diagonal", 0)?;
    a.finish()?;
    let (row0, col0) = (k.min(0).unsigned_abs() as usize, k.max(0) as usize);
    match t.ndim() {
        1 => {
            let n = t.shape()[0];
            let size = n + k.unsigned_abs() as usize;
            let idx = [
                Idx::Tensor(range_from(n, row0, &t)?),
                Idx::Tensor(range_from(n, col0, &t)?),
            ];
            // The diagonal's values land in zeros: as a sum of picked ones, so
            // gradients flow back to the vector.
            composite("DiagEmbedBackward0", &[&t], |x| {
                let out = zeros_on(&[size, size], t.dtype(), t.device())?;
                let picked = index(&out, &idx)?;
                let placed = crate::interp::ops::tensor_binary(BinOp::Add, &picked, &x[0])?;
                let result = out.deep_clone()?;
                index_put(&result, &idx, &placed)?;
                Ok(result)
            })
            .map(Value::Tensor)
        }
        2 => {
            let (n, m) = (t.shape()[0], t.shape()[1]);
            let len = n.saturating_sub(row0).min(m.saturating_sub(col0));
            let idx = [
                Idx::Tensor(range_from(len, row0, &t)?),
                Idx::Tensor(range_from(len, col0, &t)?),
            ];
            composite("DiagonalBackward0_copy", &[&t], |x| index(&x[0], &idx)).map(Value::Tensor)
        }
        d => Err(shape_err(format!(
            "diag(): Supports 1D or 2D tensors. Got {d}D"
        ))),
    }
}

fn index_select(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dim = crate::tensor::shape::normalize_dim(a.int("dim")?, t.ndim())?;
    let idx = a.tensor("index")?;
    a.finish()?;
    if idx.ndim() > 1 {
        return Err(index_err(
            "index_select(): Index is supposed to be a vector",
        ));
    }
    let mut picks = vec![Idx::Slice(None, None, None); dim];
    picks.push(Idx::Tensor(idx.to_dtype(DType::I64)?));
    composite("IndexSelectBackward0", &[&t], |x| index(&x[0], &picks)).map(Value::Tensor)
}

fn gather(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dim = crate::tensor::shape::normalize_dim(a.int("dim")?, t.ndim())?;
    let idx = a.tensor("index")?;
    a.finish()?;
    if idx.ndim() != t.ndim() {
        return Err(index_err(
            "Index tensor must have the same number of dimensions as input tensor",
        ));
    }
    // One int64 index per dim, shaped to broadcast to the index's shape.
    let mut picks = vec![];
    for d in 0..t.ndim() {
        if d == dim {
            picks.push(Idx::Tensor(idx.to_dtype(DType::I64)?));
            continue;
        }
        let mut shape = vec![1i64; t.ndim()];
        shape[d] = idx.shape()[d] as i64;
        picks.push(Idx::Tensor(reshape(
            &arange_on(idx.shape()[d], t.device())?,
            &shape,
        )?));
    }
    composite("GatherBackward0", &[&t], |x| index(&x[0], &picks)).map(Value::Tensor)
}

fn roll(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let shifts = crate::interp::convert::to_int_list(&a.value("shifts")?, "roll", "shifts")?;
    let dims = a.dims("dims")?;
    a.finish()?;
    composite("RollBackward0", &[&t], |x| {
        roll_all(&x[0], &shifts, dims.as_deref())
    })
    .map(Value::Tensor)
}

fn roll_all(t: &Tensor, shifts: &[i64], dims: Option<&[i64]>) -> Result<Tensor> {
    let t = t.clone();
    let Some(dims) = dims else {
        let flat = reshape(&t, &[-1])?;
        let rolled = roll_dim(&flat, shifts.first().copied().unwrap_or(0), 0)?;
        let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
        return reshape(&rolled, &shape);
    };
    if dims.len() != shifts.len() {
        return Err(shape_err(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    let mut out = t;
    for (&s, &d) in shifts.iter().zip(dims) {
        out = roll_dim(&out, s, crate::tensor::shape::normalize_dim(d, out.ndim())?)?;
    }
    Ok(out)
}

fn roll_dim(t: &Tensor, shift: i64, dim: usize) -> Result<Tensor> {
    let n = t.shape().get(dim).copied().unwrap_or(1) as i64;
    if n == 0 {
        return Ok(t.clone());
    }
    let s = shift.rem_euclid(n);
    if s == 0 {
        return Ok(t.clone());
    }
    let tail = narrow(t, dim as i64, n - s, s)?;
    let head = narrow(t, dim as i64, 0, n - s)?;
    crate::tensor::ops::join::cat(&[tail, head], dim as i64)
}
