//! Picking, placing and masking elements: gather and scatter along a dim, the
//! index_* family, masks, diagonals and triangles, roll and take. All are
//! composites over indexing, so every device runs them; each records one node
//! with PyTorch's name.

use crate::autograd::composite::composite;
use crate::autograd::record;
use crate::autograd::rules::shape::record_view_of;
use crate::autograd::rules::{rule, sum_to};
use crate::error::{Result, dtype_err, index_err, shape_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, ReduceOp};
use crate::tensor::ops::arith::{cmp, mul, where_};
use crate::tensor::ops::creation::{arange_on, full, zeros_on};
use crate::tensor::ops::index::{
    Idx, along, check_along, index, index_put_raw, index_raw, write_region,
};
use crate::tensor::ops::view::{expand, narrow, reshape};
use crate::tensor::shape::{broadcast_shapes, fmt_shape, normalize_dim};

/// Index tensors must hold integers (PyTorch takes int32 and int64).
fn int_index(index: &Tensor, op: &str) -> Result<Tensor> {
    match index.dtype() {
        DType::I64 => Ok(index.clone()),
        DType::I32 => index.to_dtype(DType::I64),
        _ => Err(dtype_err(format!(
            "{op}(): Expected dtype int32/int64 for index"
        ))),
    }
}

/// `dim` of `t`, where a 0-d tensor has the one dim 0 (as PyTorch allows).
fn dim_of(t: &Tensor, dim: i64) -> Result<usize> {
    normalize_dim(dim, t.ndim().max(1))
}

/// `[:, :, index]` with `index` at dim `d`: the picks of index_select/index_add.
fn at_dim(d: usize, index: &Tensor) -> Vec<Idx> {
    let mut picks = vec![Idx::Slice(None, None, None); d];
    picks.push(Idx::Tensor(index.clone()));
    picks
}

fn vector_index(index: &Tensor, op: &str) -> Result<Tensor> {
    if index.ndim() > 1 {
        return Err(index_err(format!(
            "{op}(): Index is supposed to be a vector"
        )));
    }
    int_index(&reshape(index, &[-1])?, op)
}

/// torch.gather: `out[i][j] = t[i][index[i][j]]` for dim 1, and so on.
pub fn gather(t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = dim_of(t, dim)?;
    let index = int_index(index, "gather")?;
    if t.ndim() == 0 {
        return composite("GatherBackward0", &[t], |x| Ok(x[0].clone()));
    }
    if t.dtype().is_complex() {
        let picks = along(t, d, &index)?;
        return composite("GatherBackward0", &[t], |x| self::index(&x[0], &picks));
    }
    check_along(t, d, &index)?;
    let index = index.to_device(t.device())?;
    let out = t
        .read()
        .gather(t.layout(), d, &index.read(), index.layout())?;
    let out = Tensor::from_contiguous(out, index.shape());
    Ok(crate::autograd::rules::shape::record_gather(
        t, d, &index, out,
    ))
}

/// torch.index_select: the slices at `index` (1-d) along dim.
pub fn index_select(t: &Tensor, dim: i64, index: &Tensor) -> Result<Tensor> {
    let d = dim_of(t, dim)?;
    let picks = at_dim(d, &vector_index(index, "index_select")?);
    composite("IndexSelectBackward0", &[t], |x| self::index(&x[0], &picks))
}

/// torch.take: elements of the flattened tensor, in `index`'s shape.
pub fn take(t: &Tensor, index: &Tensor) -> Result<Tensor> {
    let index = int_index(index, "take")?;
    composite("TakeBackward0", &[t], |x| {
        self::index(&reshape(&x[0], &[-1])?, &[Idx::Tensor(index.clone())])
    })
    .map_err(|e| take_range_err(t, &index).unwrap_or(e))
}

/// take's own words for an index out of range (as ATen's take kernel says
/// it), where one is: the first, in index order.
fn take_range_err(t: &Tensor, index: &Tensor) -> Option<crate::error::Error> {
    let n = t.numel() as i64;
    let x = index
        .to_host_i64()
        .ok()?
        .into_iter()
        .find(|&x| x < -n || x >= n)?;
    Some(index_err(format!(
        "out of range: tried to access index {x} on a tensor of {n} elements."
    )))
}

/// torch.take_along_dim: gather with `indices` broadcast against `t` (all but
/// dim); without a dim, over the flattened tensor.
pub fn take_along_dim(t: &Tensor, indices: &Tensor, dim: Option<i64>) -> Result<Tensor> {
    let Some(dim) = dim else {
        return gather(&reshape(t, &[-1])?, 0, &reshape(indices, &[-1])?);
    };
    if t.ndim() != indices.ndim() {
        return Err(shape_err(format!(
            "torch.take_along_dim(): input and indices should have the same number of dimensions, but got {} dimensions for input, and {} dimensions for indices",
            t.ndim(),
            indices.ndim()
        )));
    }
    if t.ndim() == 0 {
        return Err(index_err(format!(
            "Dimension specified as {dim} but tensor has no dimensions"
        )));
    }
    let d = dim_of(t, dim)?;
    let (mut ts, mut is) = (t.shape().to_vec(), indices.shape().to_vec());
    ts[d] = 1;
    is[d] = 1;
    let b = broadcast_shapes(&ts, &is)?;
    let sized = |s: &[usize], n: usize| -> Vec<i64> {
        let mut v: Vec<i64> = b.iter().map(|&x| x as i64).collect();
        v[d] = s[d].max(n) as i64;
        v
    };
    let te = expand(t, &sized(t.shape(), t.shape()[d]))?;
    let ie = expand(indices, &sized(indices.shape(), indices.shape()[d]))?;
    gather(&te, d as i64, &ie)
}

/// `src` cut to `shape` (scatter reads only the part of src the index covers).
fn fit(src: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if src.ndim() == 0 || src.shape() == shape {
        return Ok(src.clone());
    }
    let mut out = src.clone();
    for (d, &n) in shape.iter().enumerate() {
        if out.shape()[d] < n {
            return Err(shape_err(format!(
                "Expected index {} to be no larger than src {} (apart from being equal)",
                fmt_shape(shape),
                fmt_shape(src.shape())
            )));
        }
        out = narrow(&out, d as i64, 0, n as i64)?;
    }
    Ok(out)
}

/// The gradient picked at the written positions, back in `src`'s shape: zeros
/// where src was not read, summed where it was broadcast.
fn back_to(picked: &Tensor, src: &[usize]) -> Result<Tensor> {
    if picked.shape() == src {
        return Ok(picked.clone());
    }
    if picked.ndim() == src.len() && picked.shape().iter().zip(src).all(|(p, s)| p <= s) {
        let z = zeros_on(src, picked.dtype(), picked.device())?;
        let region = crate::tensor::layout::Layout {
            shape: crate::tensor::layout::Dims::from_slice(picked.shape()),
            ..z.layout().clone()
        };
        write_region(&z, &region, picked)?;
        return Ok(z);
    }
    sum_to(picked, src)
}

/// A copy of `t` with `src` written (or added) at `picks`, as one node: `t`
/// gets the gradient (zeroed where it was overwritten), `src` the gradient
/// read back at the same places.
fn placed(
    name: &'static str,
    t: &Tensor,
    picks: Vec<Idx>,
    src: &Tensor,
    add: bool,
) -> Result<Tensor> {
    let out = crate::autograd::no_grad(|| t.deep_clone())?;
    index_put_raw(&out, &picks, src, add)?;
    let picks2 = picks.clone();
    let zeroed = move |g: &Tensor| {
        let z = g.deep_clone()?;
        index_put_raw(&z, &picks, &Tensor::scalar_f64(0.0, g.dtype()), false)?;
        Ok(z)
    };
    Ok(record_placed(out, name, t, src, add, zeroed, move |g| {
        index_raw(g, &picks2)
    }))
}

/// The node of a copy of `t` with `src` written (or added) at some places:
/// `t` gets the gradient, with those places zeroed (`zeroed`) unless `src`
/// was added there; `src` gets the gradient read back there (`picked`), in
/// its own shape.
fn record_placed(
    out: Tensor,
    name: &'static str,
    t: &Tensor,
    src: &Tensor,
    add: bool,
    zeroed: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static,
    picked: impl Fn(&Tensor) -> Result<Tensor> + Send + Sync + 'static,
) -> Tensor {
    let src_shape = src.shape().to_vec();
    let inputs: Vec<&Tensor> = if src.is_wrapped_number() {
        vec![t]
    } else {
        vec![t, src]
    };
    record(out, name, &inputs, false, move || {
        rule(move |g| {
            let gt = if add { g.clone() } else { zeroed(g)? };
            let gs = back_to(&picked(g)?, &src_shape)?;
            Ok(vec![Some(gt), Some(gs)])
        })
    })
}

fn same_dtype(t: &Tensor, src: &Tensor, op: &str) -> Result<()> {
    if !src.is_wrapped_number() && src.ndim() > 0 && src.dtype() != t.dtype() {
        return Err(dtype_err(format!(
            "{op}(): Expected self.dtype to be equal to src.dtype"
        )));
    }
    Ok(())
}

/// torch.scatter: a copy of `t` with `src` (or one value) written at `index`
/// along dim; `add` is scatter_add (repeated indices add up).
pub fn scatter(t: &Tensor, dim: i64, index: &Tensor, src: &Tensor, add: bool) -> Result<Tensor> {
    let op = if add { "scatter_add" } else { "scatter" };
    same_dtype(t, src, "scatter")?;
    let d = dim_of(t, dim)?;
    let index = int_index(index, op)?;
    let src = fit(src, index.shape())?;
    let src = if src.ndim() == 0 {
        src.to_dtype(t.dtype())?
    } else {
        src
    };
    let name = match (add, src.ndim()) {
        (true, _) => "ScatterAddBackward0",
        (false, 0) => "ScatterBackward1",
        (false, _) => "ScatterBackward0",
    };
    if t.ndim() == 0 || t.dtype().is_complex() {
        return placed(name, t, along(t, d, &index)?, &src, add);
    }
    check_along(t, d, &index)?;
    scattered(name, t, d, &index.to_device(t.device())?, &src, add)
}

/// scatter through the backend, as one node: `t` gets the gradient with the
/// written positions zeroed (scatter) or whole (scatter_add), `src` the
/// gradient gathered at the index.
fn scattered(
    name: &'static str,
    t: &Tensor,
    d: usize,
    index: &Tensor,
    src: &Tensor,
    add: bool,
) -> Result<Tensor> {
    let (out, values) = crate::autograd::no_grad(|| {
        let values = src.to_dtype(t.dtype())?.to_device(t.device())?;
        Ok((
            t.deep_clone()?,
            values.view_with(values.layout().expand(index.shape())),
        ))
    })?;
    out.write().scatter_into(
        out.layout(),
        d,
        (&index.read(), index.layout()),
        (&values.read(), values.layout()),
        add,
    )?;
    let (i0, i1) = (index.clone(), index.clone());
    let zeroed = move |g: &Tensor| {
        let zero = Tensor::scalar_f64(0.0, g.dtype());
        scattered("ScatterBackward1", g, d, &i0, &zero, false)
    };
    Ok(record_placed(out, name, t, src, add, zeroed, move |g| {
        gather(g, d as i64, &i1)
    }))
}

/// index_add (`alpha * source` added at index along dim) and index_copy.
pub fn index_place(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    source: &Tensor,
    add: bool,
) -> Result<Tensor> {
    let op = if add { "index_add" } else { "index_copy" };
    let d = dim_of(t, dim)?;
    let index = vector_index(index, op)?;
    let mut want = t.shape().to_vec();
    if !want.is_empty() {
        want[d] = index.numel();
    }
    if source.shape() != want && source.numel() != index.numel() {
        return Err(shape_err(format!(
            "{op}(): source of shape {} does not fit index of length {} along dim {d} of {}",
            fmt_shape(source.shape()),
            index.numel(),
            fmt_shape(t.shape())
        )));
    }
    let name = if add {
        "IndexAddBackward0"
    } else {
        "IndexCopyBackward0"
    };
    placed(
        name,
        t,
        at_dim(d, &index),
        &reshape(source, &want.iter().map(|&x| x as i64).collect::<Vec<_>>())?,
        add,
    )
}

/// index_fill: `value` written at index along dim.
pub fn index_fill(t: &Tensor, dim: i64, index: &Tensor, value: &Tensor) -> Result<Tensor> {
    let d = dim_of(t, dim)?;
    let picks = at_dim(d, &vector_index(index, "index_fill")?);
    placed(
        "IndexFillBackward0",
        t,
        picks,
        &Tensor::wrapped_number(value.to_dtype(t.dtype())?),
        false,
    )
}

/// `alpha * x`, skipping the multiply for alpha 1.
pub fn times(x: &Tensor, alpha: f64) -> Result<Tensor> {
    if alpha == 1.0 {
        return Ok(x.clone());
    }
    mul(x, &crate::tensor::ops::arith::num(alpha))
}

fn bool_mask(mask: &Tensor, op: &str) -> Result<()> {
    if mask.dtype() != DType::Bool {
        return Err(dtype_err(format!(
            "{op} only supports boolean masks, but got mask with dtype {}",
            c_type(mask.dtype())
        )));
    }
    Ok(())
}

/// The C++ name PyTorch's mask errors give a dtype.
fn c_type(d: DType) -> &'static str {
    match d {
        DType::I64 => "long int",
        DType::I32 => "int",
        DType::I16 => "short int",
        DType::I8 => "signed char",
        DType::U8 => "unsigned char",
        DType::F32 => "float",
        DType::F64 => "double",
        DType::F16 => "c10::Half",
        DType::BF16 => "c10::BFloat16",
        DType::Bool => "bool",
        DType::C64 => "c10::complex<float>",
        DType::C128 => "c10::complex<double>",
    }
}

/// masked_fill: `value` where mask is True (mask broadcasts).
pub fn masked_fill(t: &Tensor, mask: &Tensor, value: &Tensor) -> Result<Tensor> {
    bool_mask(mask, "masked_fill_")?;
    if value.numel() != 1 {
        return Err(shape_err(format!(
            "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with {} dimension(s).",
            value.ndim()
        )));
    }
    let fill = reshape(value, &[])?.to_dtype(t.dtype())?;
    // Row-major, as ATen's (a contiguous clone, then filled), whatever
    // order where's operands would give.
    composite("MaskedFillBackward0", &[t], |x| {
        where_(mask, &fill, &x[0])?.contiguous()
    })
}

/// masked_select: the elements where mask (broadcast with t) is True, as 1-d.
pub fn masked_select(t: &Tensor, mask: &Tensor) -> Result<Tensor> {
    bool_mask(mask, "masked_select:")?;
    let b: Vec<i64> = broadcast_shapes(t.shape(), mask.shape())?
        .iter()
        .map(|&x| x as i64)
        .collect();
    let m = expand(mask, &b)?;
    composite("MaskedSelectBackward0", &[t], |x| {
        index(&expand(&x[0], &b)?, &[Idx::Tensor(m.clone())])
    })
}

/// Whether `j - i` (column minus row) of the last two dims passes the diagonal `k`.
fn triangle_mask(t: &Tensor, k: i64, lower: bool) -> Result<Tensor> {
    let (n, m) = (t.shape()[t.ndim() - 2], t.shape()[t.ndim() - 1]);
    let rows = reshape(&arange_on(n, t.device())?, &[n as i64, 1])?;
    let cols = reshape(&arange_on(m, t.device())?, &[1, m as i64])?;
    let k = full(&[], k as f64, k, DType::I64, t.device())?;
    // j - i against k as j against i + k: the broadcast compare writes the
    // mask directly (the n×m int64 difference first took tril 2.6x PyTorch's time).
    cmp(
        if lower { BinaryOp::Le } else { BinaryOp::Ge },
        &cols,
        &crate::tensor::ops::arith::add(&rows, &k)?,
    )
}

/// tril/triu: the lower (upper) triangle from diagonal k, zeros elsewhere.
pub fn triangle(t: &Tensor, k: i64, lower: bool) -> Result<Tensor> {
    let name = if lower { "tril" } else { "triu" };
    if t.ndim() < 2 {
        return Err(shape_err(format!(
            "{name}: input tensor must have at least 2 dimensions"
        )));
    }
    let keep = triangle_mask(t, k, lower)?;
    let zero = zeros_on(&[], t.dtype(), t.device())?;
    let grad_fn = if lower {
        "TrilBackward0"
    } else {
        "TriuBackward0"
    };
    composite(grad_fn, &[t], |x| where_(&keep, &x[0], &zero))
}

/// tril_indices/triu_indices: the (row, col) pairs of a triangle, as a 2×N tensor.
pub fn triangle_indices(
    rows: i64,
    cols: i64,
    k: i64,
    lower: bool,
    dtype: DType,
    device: crate::tensor::Device,
) -> Result<Tensor> {
    let (r, c) = (rows.max(0), cols.max(0));
    if r == 0 || c == 0 {
        return zeros_on(&[2, 0], dtype, device);
    }
    // The grid it picks from must fit, as before (this bounds the rows too).
    crate::tensor::core::check_alloc(&[r as usize, c as usize], DType::I64)?;
    // Each row's run of columns, written out on the host as a tensor()
    // literal is (a mask over the r×c grid and two boolean picks took
    // triu_indices(300, 300) 1 ms, PyTorch's 0.06).
    let run = |i: i64| {
        let diagonal = i.saturating_add(k);
        if lower {
            (0, diagonal.saturating_add(1).clamp(0, c))
        } else {
            (diagonal.clamp(0, c), c)
        }
    };
    let n: i64 = (0..r)
        .map(|i| {
            let (lo, hi) = run(i);
            hi - lo
        })
        .sum();
    crate::tensor::core::check_alloc(&[2, n as usize], DType::I64)?;
    let mut pairs = Vec::with_capacity(2 * n as usize);
    for i in 0..r {
        let (lo, hi) = run(i);
        pairs.extend(std::iter::repeat_n(i, (hi - lo) as usize));
    }
    for i in 0..r {
        let (lo, hi) = run(i);
        pairs.extend(lo..hi);
    }
    Tensor::from_vec(pairs, &[2, n as usize])
        .to_device(device)?
        .to_dtype(dtype)
}

/// torch.diagonal: a view of the k-th diagonal of dims d1 and d2, as the last dim.
pub fn diagonal(t: &Tensor, k: i64, d1: i64, d2: i64) -> Result<Tensor> {
    let (a, b) = (normalize_dim(d1, t.ndim())?, normalize_dim(d2, t.ndim())?);
    if a == b {
        return Err(shape_err(format!(
            "diagonal dimensions cannot be identical {d1}, {d2}"
        )));
    }
    let out = t.view_with(t.layout().diagonal(k, a, b));
    Ok(record_view_of("DiagonalBackward0", t, out, move |z| {
        Ok(z.view_with(z.layout().diagonal(k, a, b)))
    }))
}

/// torch.diag_embed: the last dim of t placed on the k-th diagonal of two new
/// dims d1 and d2 (of a result otherwise zero).
pub fn diag_embed(t: &Tensor, k: i64, d1: i64, d2: i64) -> Result<Tensor> {
    let nd = t.ndim() + 1;
    let (a, b) = (normalize_dim(d1, nd)?, normalize_dim(d2, nd)?);
    if a == b {
        return Err(shape_err(format!(
            "diagonal dimensions cannot be identical {d1}, {d2}"
        )));
    }
    let n = t.shape().last().copied().unwrap_or(1) + k.unsigned_abs() as usize;
    let mut shape: Vec<usize> = t.shape()[..t.ndim().saturating_sub(1)].to_vec();
    for d in [a.min(b), a.max(b)] {
        shape.insert(d, n);
    }
    let out = zeros_on(&shape, t.dtype(), t.device())?;
    write_region(&out, &out.layout().diagonal(k, a, b), t)?;
    Ok(record(out, "DiagEmbedBackward0", &[t], false, move || {
        rule(move |g| {
            Ok(vec![Some(
                diagonal(g, k, a as i64, b as i64)?.contiguous()?,
            )])
        })
    }))
}

/// torch.diag: a vector's diagonal matrix, or a matrix's diagonal (a copy).
pub fn diag(t: &Tensor, k: i64) -> Result<Tensor> {
    match t.ndim() {
        1 => diag_embed(t, k, 0, 1),
        2 => composite("DiagonalBackward0_copy", &[t], |x| {
            diagonal(&x[0], k, 0, 1)?.contiguous()
        }),
        d => Err(shape_err(format!(
            "diag(): Supports 1D or 2D tensors. Got {d}D"
        ))),
    }
}

/// torch.trace: the sum of the main diagonal of a matrix.
pub fn trace(t: &Tensor) -> Result<Tensor> {
    if t.ndim() != 2 {
        return Err(shape_err(format!(
            "trace: expected a matrix, but got tensor with dim {}",
            t.ndim()
        )));
    }
    composite("TraceBackward0", &[t], |x| {
        crate::tensor::ops::reduce::reduce(&diagonal(&x[0], 0, 0, 1)?, ReduceOp::Sum, None, false)
    })
}

/// torch.roll: elements shifted along dims, wrapping around (flattened without dims).
pub fn roll(t: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    composite("RollBackward0", &[t], |x| roll_all(&x[0], shifts, dims))
}

fn roll_all(t: &Tensor, shifts: &[i64], dims: &[i64]) -> Result<Tensor> {
    if dims.is_empty() {
        let flat = reshape(t, &[-1])?;
        let rolled = roll_dim(&flat, shifts.first().copied().unwrap_or(0), 0)?;
        let shape: Vec<i64> = t.shape().iter().map(|&d| d as i64).collect();
        return reshape(&rolled, &shape);
    }
    if dims.len() != shifts.len() {
        return Err(shape_err(format!(
            "shifts and dimensions must align. shifts: {}, dims:{}",
            shifts.len(),
            dims.len()
        )));
    }
    let mut out = t.clone();
    for (&s, &d) in shifts.iter().zip(dims) {
        out = roll_dim(&out, s, normalize_dim(d, out.ndim())?)?;
    }
    Ok(out)
}

fn roll_dim(t: &Tensor, shift: i64, dim: usize) -> Result<Tensor> {
    let n = t.shape().get(dim).copied().unwrap_or(1) as i64;
    let s = if n == 0 { 0 } else { shift.rem_euclid(n) };
    if s == 0 {
        return Ok(t.clone());
    }
    let tail = narrow(t, dim as i64, n - s, s)?;
    let head = narrow(t, dim as i64, 0, n - s)?;
    crate::tensor::ops::join::cat(&[tail, head], dim as i64)
}

/// torch.isin: whether each element is among `test` (by equality).
pub fn isin(elements: &Tensor, test: &Tensor, invert: bool) -> Result<Tensor> {
    let e = crate::tensor::ops::view::unsqueeze(elements, -1)?;
    let eq = cmp(BinaryOp::Eq, &e, &reshape(test, &[-1])?)?;
    let any = crate::tensor::ops::reduce::reduce(&eq, ReduceOp::Any, Some(&[-1]), false)?;
    if invert {
        crate::tensor::ops::elementwise::predicate(crate::tensor::op::PredicateOp::LogicalNot, &any)
    } else {
        Ok(any)
    }
}
