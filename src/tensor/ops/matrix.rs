//! Building and reading matrices and grids from other ops: block_diag,
//! diagflat, vander, cov/corrcoef, trapezoid rules, unravel_index,
//! broadcast_tensors, fliplr/flipud, chain products, fill_diagonal_, range,
//! and the scatters into views (select/slice/masked_scatter).

use crate::autograd::relabel;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::{DType, default_float};
use crate::tensor::op::{BinaryOp, ReduceOp, ScanOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, int, mul, num, scale, sub, un, where_};
use crate::tensor::ops::creation::{arange_on, full, zeros_on};
use crate::tensor::ops::join::{cat, stack};
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{reduce, scan};
use crate::tensor::ops::view::{expand, flatten, flip, narrow, reshape, transpose, unsqueeze};
use crate::tensor::promote::to_float;
use crate::tensor::shape::{broadcast_shapes, sizes};

/// torch.block_diag: the tensors (scalars and vectors count as one row) on
/// the diagonal of a zero matrix, in the promoted dtype.
pub fn block_diag(ts: &[Tensor]) -> Result<Tensor> {
    let mut mats = vec![];
    for t in ts {
        mats.push(match t.ndim() {
            0 => reshape(t, &[1, 1])?,
            1 => unsqueeze(t, 0)?,
            2 => t.clone(),
            n => {
                return Err(shape_err(format!(
                    "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {} has {n} dimensions",
                    mats.len()
                )));
            }
        });
    }
    let Some(first) = mats.first() else {
        return zeros_on(
            &[1, 0],
            default_float(),
            crate::tensor::device::default_device(),
        );
    };
    let dtype = mats.iter().skip(1).fold(first.dtype(), |d, m| {
        crate::tensor::promote::promote_types(d, m.dtype())
    });
    let width: usize = mats.iter().map(|m| m.shape()[1]).sum();
    let mut rows = vec![];
    let mut left = 0;
    for m in &mats {
        let (r, c) = (m.shape()[0], m.shape()[1]);
        let before = zeros_on(&[r, left], dtype, m.device())?;
        let after = zeros_on(&[r, width - left - c], dtype, m.device())?;
        rows.push(cat(&[before, m.to_dtype(dtype)?, after], 1)?);
        left += c;
    }
    cat(&rows, 0)
}

/// torch.diagflat: the flattened input on diagonal `offset` of a square matrix.
pub fn diagflat(t: &Tensor, offset: i64) -> Result<Tensor> {
    crate::tensor::ops::select::diag(&reshape(t, &[-1])?, offset)
}

/// torch.vander: columns x^(N-1) … x^0 (or rising with `increasing`).
pub fn vander(x: &Tensor, n: Option<i64>, increasing: bool) -> Result<Tensor> {
    if x.ndim() != 1 {
        return Err(shape_err("x must be a one-dimensional tensor."));
    }
    let n = n.unwrap_or(x.shape()[0] as i64);
    if n < 0 {
        return Err(value_err("N must be non-negative."));
    }
    // Floats keep their dtype; integers and bool compute in int64.
    let dtype = crate::tensor::promote::promote_types(x.dtype(), DType::I64);
    let x = x.to_dtype(dtype)?;
    let mut cols = vec![];
    let mut power = full(x.shape(), 1.0, 1, dtype, x.device())?;
    for _ in 0..n {
        cols.push(power.clone());
        power = mul(&power, &x)?;
    }
    if cols.is_empty() {
        return zeros_on(&[x.shape()[0], 0], dtype, x.device());
    }
    if !increasing {
        cols.reverse();
    }
    stack(&cols, 1)
}

/// torch.cov: rows are variables, columns observations; `correction` as in
/// var, with optional integer frequency and float observation weights.
pub fn cov(
    x: &Tensor,
    correction: i64,
    fweights: Option<&Tensor>,
    aweights: Option<&Tensor>,
) -> Result<Tensor> {
    if x.ndim() > 2 {
        return Err(shape_err(format!(
            "cov(): expected input to have two or fewer dimensions but got an input with {} dimensions",
            x.ndim()
        )));
    }
    let x = if x.ndim() < 2 {
        reshape(x, &[1, -1])?
    } else {
        x.clone()
    };
    let x = x.to_dtype(to_float(x.dtype()))?;
    let n = x.shape()[1];
    let mut w = full(&[n], 1.0, 1, x.dtype(), x.device())?;
    if let Some(f) = fweights {
        w = mul(&w, &f.to_dtype(x.dtype())?)?;
    }
    if let Some(a) = aweights {
        w = mul(&w, &a.to_dtype(x.dtype())?)?;
    }
    let w_sum = reduce(&w, ReduceOp::Sum, None, false)?;
    let avg = div(
        &reduce(&mul(&x, &w)?, ReduceOp::Sum, Some(&[1]), true)?,
        &w_sum,
    )?;
    // The normalisation: Σw - c (Σ w·a / Σw with aweights).
    let norm = match (correction, aweights) {
        (0, _) => w_sum.clone(),
        (c, None) => sub(&w_sum, &num(c as f64))?,
        (c, Some(a)) => {
            let wa = reduce(
                &mul(&w, &a.to_dtype(x.dtype())?)?,
                ReduceOp::Sum,
                None,
                false,
            )?;
            sub(&w_sum, &scale(&div(&wa, &w_sum)?, c as f64)?)?
        }
    };
    let norm = bin(BinaryOp::Maximum, &norm, &num(0.0))?;
    let xm = sub(&x, &avg)?;
    let c = div(&matmul(&mul(&xm, &w)?, &transpose(&xm, 0, 1)?)?, &norm)?;
    if x.shape()[0] == 1 {
        return reshape(&c, &[]);
    }
    Ok(c)
}

/// torch.corrcoef: cov scaled by the standard deviations, clipped to [-1, 1].
pub fn corrcoef(x: &Tensor) -> Result<Tensor> {
    let c = cov(x, 1, None, None)?;
    if c.ndim() == 0 {
        return div(&c, &c);
    }
    let d = crate::tensor::ops::select::diagonal(&c, 0, 0, 1)?;
    let s = un(UnaryOp::Sqrt, &d)?;
    let c = div(&div(&c, &unsqueeze(&s, 1)?)?, &unsqueeze(&s, 0)?)?;
    crate::tensor::ops::elementwise::clamp(&c, Some(&num(-1.0)), Some(&num(1.0)))
}

/// The trapezoids' areas along dim: (y[i] + y[i+1]) / 2 · Δx.
fn trapezoids(y: &Tensor, x: Option<&Tensor>, dx: f64, dim: i64) -> Result<Tensor> {
    let n = *y
        .shape()
        .get(crate::tensor::shape::normalize_dim(dim, y.ndim())?)
        .ok_or_else(|| {
            crate::error::index_err(format!(
                "Dimension out of range (expected to be in range of [-1, 0], but got {dim})"
            ))
        })? as i64;
    if n == 0 {
        return reduce(&narrow(y, dim, 0, 0)?, ReduceOp::Sum, Some(&[dim]), true);
    }
    let mid = scale(
        &add(&narrow(y, dim, 0, n - 1)?, &narrow(y, dim, 1, n - 1)?)?,
        0.5,
    )?;
    match x {
        None => scale(&mid, dx),
        Some(x) => {
            let xd = if x.ndim() == 1 { 0 } else { dim };
            let k = *x
                .shape()
                .get(crate::tensor::shape::normalize_dim(xd, x.ndim())?)
                .ok_or_else(|| shape_err("trapezoid: x must have at least one dimension"))?
                as i64;
            if k != n {
                return Err(shape_err(format!(
                    "trapezoid: There must be one `x` value for each sample point, but got {k} x values and {n} y values"
                )));
            }
            let mut step = sub(&narrow(x, xd, 1, k - 1)?, &narrow(x, xd, 0, k - 1)?)?;
            if x.ndim() == 1 && y.ndim() > 1 {
                // A 1-d x runs along dim.
                let d = crate::tensor::shape::normalize_dim(dim, y.ndim())?;
                let mut shape = vec![1i64; y.ndim()];
                shape[d] = k - 1;
                step = reshape(&step, &shape)?;
            }
            mul(&mid, &step)
        }
    }
}

/// torch.trapezoid: the trapezoid rule along dim.
pub fn trapezoid(y: &Tensor, x: Option<&Tensor>, dx: Option<f64>, dim: i64) -> Result<Tensor> {
    reduce(
        &trapezoids(y, x, dx.unwrap_or(1.0), dim)?,
        ReduceOp::Sum,
        Some(&[dim]),
        false,
    )
}

/// torch.cumulative_trapezoid: the running trapezoid rule along dim.
pub fn cumulative_trapezoid(
    y: &Tensor,
    x: Option<&Tensor>,
    dx: Option<f64>,
    dim: i64,
) -> Result<Tensor> {
    scan(&trapezoids(y, x, dx.unwrap_or(1.0), dim)?, ScanOp::Sum, dim)
}

/// torch.unravel_index: flat indices as coordinates in `shape`.
pub fn unravel_index(indices: &Tensor, shape: &[i64]) -> Result<Vec<Tensor>> {
    if indices.dtype().is_float() || indices.dtype().is_bool() {
        return Err(crate::error::dtype_err(
            "expected 'indices' to be integer dtype, but got float",
        ));
    }
    let total: i64 = shape.iter().product();
    let flat = indices.to_host_i64()?;
    if flat.iter().any(|&i| i < -total || i >= total) {
        return Err(value_err(
            "'indices' must be in range [-prod(shape), prod(shape) - 1]",
        ));
    }
    let idx = indices.to_dtype(DType::I64)?;
    let idx = where_(
        &cmp(BinaryOp::Lt, &idx, &int(0))?,
        &add(&idx, &int(total))?,
        &idx,
    )?;
    let mut out = vec![];
    let mut stride = total;
    for &s in shape {
        stride /= s.max(1);
        let q = bin(BinaryOp::FloorDiv, &idx, &int(stride))?;
        out.push(bin(BinaryOp::Rem, &q, &int(s))?);
    }
    Ok(out)
}

/// torch.broadcast_tensors: each expanded to the common shape (views).
pub fn broadcast_tensors(ts: &[Tensor]) -> Result<Vec<Tensor>> {
    let shape = ts
        .iter()
        .try_fold(crate::tensor::layout::Dims::new(), |s, t| {
            broadcast_shapes(&s, t.shape())
        })?;
    ts.iter().map(|t| expand(t, &sizes(&shape))).collect()
}

pub fn fliplr(t: &Tensor) -> Result<Tensor> {
    if t.ndim() < 2 {
        return Err(shape_err("Input must be >= 2-d."));
    }
    flip(t, &[1])
}

pub fn flipud(t: &Tensor) -> Result<Tensor> {
    if t.ndim() < 1 {
        return Err(shape_err("Input must be >= 1-d."));
    }
    flip(t, &[0])
}

/// torch.chain_matmul / linalg.multi_dot: the product, left to right.
pub fn multi_dot(ts: &[Tensor]) -> Result<Tensor> {
    if ts.len() < 2 {
        return Err(value_err(format!(
            "multi_dot(): expected at least 2 tensors but got {}",
            ts.len()
        )));
    }
    let mut acc = ts[0].clone();
    for t in &ts[1..] {
        acc = matmul(&acc, t)?;
    }
    Ok(acc)
}

/// torch.inner for any dims: the sum over both last dims' products.
pub fn inner(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.ndim() == 0 || b.ndim() == 0 {
        return mul(a, b);
    }
    let bt = if b.ndim() == 1 {
        b.clone()
    } else {
        transpose(&flatten(b, 0, -2)?, 0, 1)?
    };
    let out = matmul(a, &bt)?;
    let mut shape: Vec<i64> = sizes(&a.shape()[..a.ndim() - 1]);
    shape.extend(sizes(&b.shape()[..b.ndim() - 1]));
    reshape(&out, &shape)
}

/// `t.fill_diagonal_(v, wrap)`: v on the main diagonal (all dims equal for
/// more than 2); a tall matrix's diagonal restarts below itself with `wrap`.
pub fn fill_diagonal(t: &Tensor, value: &Tensor, wrap: bool) -> Result<Tensor> {
    if t.ndim() < 2 {
        return Err(shape_err("dimensions must larger than 1"));
    }
    if t.ndim() > 2 && t.shape().iter().any(|&s| s != t.shape()[0]) {
        return Err(shape_err("all dimensions of input must be of equal length"));
    }
    let shape = t.shape();
    let numel: usize = shape.iter().product();
    // The flat step between diagonal elements: the sum of the strides.
    let mut step = 0;
    let mut stride = 1;
    for &s in shape.iter().rev() {
        step += stride;
        stride *= s;
    }
    let min_dim = *shape.iter().min().unwrap_or(&0);
    let end = if wrap && t.ndim() == 2 {
        numel
    } else {
        (min_dim * step).min(numel)
    };
    // Flat positions k·step below `end`, marked on the tensor's device.
    let k = arange_on(numel, t.device())?;
    let on_step = cmp(
        BinaryOp::Eq,
        &bin(BinaryOp::Rem, &k, &int(step as i64))?,
        &int(0),
    )?;
    let before_end = cmp(BinaryOp::Lt, &k, &int(end as i64))?;
    let mask = reshape(
        &bin(BinaryOp::LogicalAnd, &on_step, &before_end)?,
        &sizes(shape),
    )?;
    where_(&mask, &value.to_dtype(t.dtype())?, t)
}

/// torch.range: start to end inclusive in steps (values start + i·step,
/// computed in double as ATen does).
pub fn range(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    if step == 0.0 {
        return Err(value_err("step must be nonzero"));
    }
    if (step > 0.0 && end < start) || (step < 0.0 && end > start) {
        return Err(value_err(
            "upper bound and larger bound inconsistent with step sign",
        ));
    }
    let n = ((end - start) / step).floor() as usize + 1;
    let vals: Vec<f64> = (0..n).map(|i| start + i as f64 * step).collect();
    Tensor::from_vec(vals, &[n])
        .to_dtype(dtype)?
        .to_device(crate::tensor::device::default_device())
}

/// torch.select_scatter: input with src in place of input.select(dim, index).
pub fn select_scatter(input: &Tensor, src: &Tensor, dim: i64, index: i64) -> Result<Tensor> {
    let d = crate::tensor::shape::normalize_dim(dim, input.ndim())?;
    let n = *input
        .shape()
        .get(d)
        .ok_or_else(|| shape_err("select_scatter() cannot be applied to a 0-dim tensor."))?
        as i64;
    let i = if index < 0 { index + n } else { index };
    if i < 0 || i >= n {
        return Err(crate::error::index_err(format!(
            "select_scatter(): index {index} out of range for tensor of size {:?} at dimension {d}",
            input.shape()
        )));
    }
    let parts = [
        narrow(input, d as i64, 0, i)?,
        unsqueeze(&src.to_dtype(input.dtype())?, d as i64)?,
        narrow(input, d as i64, i + 1, n - i - 1)?,
    ];
    Ok(relabel(cat(&parts, d as i64)?, "SelectScatterBackward0"))
}

/// torch.slice_scatter: input with src in place of input[start:end:step] along dim.
pub fn slice_scatter(
    input: &Tensor,
    src: &Tensor,
    dim: i64,
    start: Option<i64>,
    end: Option<i64>,
    step: i64,
) -> Result<Tensor> {
    let d = crate::tensor::shape::normalize_dim(dim, input.ndim())?;
    let n = *input
        .shape()
        .get(d)
        .ok_or_else(|| shape_err("slice_scatter() cannot be applied to a 0-dim tensor."))?
        as i64;
    if step <= 0 {
        return Err(value_err("slice step must be positive"));
    }
    let clampi = |v: i64| (if v < 0 { v + n } else { v }).clamp(0, n);
    let (a, b) = (
        clampi(start.unwrap_or(0)),
        clampi(end.unwrap_or(n)).max(clampi(start.unwrap_or(0))),
    );
    let idx: Vec<i64> = (a..b).step_by(step as usize).collect();
    let index = Tensor::from_vec(idx, &[((b - a) as usize).div_ceil(step as usize)])
        .to_device(input.device())?;
    let out = crate::tensor::ops::select::index_place(
        input,
        d as i64,
        &index,
        &src.to_dtype(input.dtype())?,
        false,
    )?;
    Ok(relabel(out, "SliceScatterBackward0"))
}

/// Tensor.masked_scatter: source's elements, in order, where mask is true.
pub fn masked_scatter(input: &Tensor, mask: &Tensor, source: &Tensor) -> Result<Tensor> {
    if !mask.dtype().is_bool() {
        return Err(crate::error::dtype_err(format!(
            "masked_scatter_ only supports boolean masks, but got mask with dtype {}",
            mask.dtype()
        )));
    }
    let shape = broadcast_shapes(input.shape(), mask.shape())?;
    let input = expand(input, &sizes(&shape))?;
    let flat_mask = reshape(&expand(mask, &sizes(&shape))?, &[-1])?;
    let idx = crate::tensor::ops::sort::nonzero(&flat_mask)?;
    let k = idx.shape()[0];
    let idx = reshape(&idx, &[-1])?;
    if source.numel() < k {
        return Err(value_err(
            "masked_scatter: expected source to have at least as many elements as ones in mask",
        ));
    }
    let vals = narrow(&reshape(source, &[-1])?, 0, 0, k as i64)?.to_dtype(input.dtype())?;
    let flat = reshape(&input, &[-1])?;
    let out = crate::tensor::ops::select::index_place(&flat, 0, &idx, &vals, false)?;
    Ok(relabel(
        reshape(&out, &sizes(&shape))?,
        "MaskedScatterBackward0",
    ))
}
