//! Reductions over all dims or a set of dims, with keepdim; scans; softmax.

use crate::autograd::rules::reduce as rules;
use crate::autograd::rules::shape as rules_shape;
use crate::error::{Result, dtype_err, index_err, value_err};
use crate::tensor::core::{Tensor, check_working_set};
use crate::tensor::layout::Dims;
use crate::tensor::op::{ReduceOp, ScanOp};
use crate::tensor::shape::normalize_dim;

/// Normalised, de-duplicated dims to reduce (all of them when `dims` is None).
pub fn reduce_dims(t: &Tensor, dims: Option<&[i64]>) -> Result<Dims> {
    let mut out: Dims = match dims {
        None => (0..t.ndim()).collect(),
        Some([]) => (0..t.ndim()).collect(),
        Some(ds) => ds
            .iter()
            .map(|&d| normalize_dim(d, t.ndim()))
            .collect::<Result<_>>()?,
    };
    out.sort_unstable();
    let n = out.len();
    out.dedup();
    if out.len() != n {
        return Err(value_err(
            "a dim appears more than once in the reduction's dims",
        ));
    }
    if t.ndim() == 0 {
        out.clear();
    }
    Ok(out)
}

/// The shape a reduction over `rdims` gives.
fn reduced_shape(t: &Tensor, rdims: &[usize], keepdim: bool) -> Dims {
    (0..t.ndim())
        .filter_map(|d| match (rdims.contains(&d), keepdim) {
            (true, true) => Some(1),
            (true, false) => None,
            (false, _) => Some(t.shape()[d]),
        })
        .collect()
}

/// Reduce `t` over `dims` (all when None), keeping them as size 1 when `keepdim`.
pub fn reduce(t: &Tensor, op: ReduceOp, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return super::complex::reduce(t, op, dims, keepdim);
    }
    let out_dtype = op.output_dtype(t.dtype())?;
    let rdims = reduce_dims(t, dims)?;
    let group: usize = rdims.iter().map(|&d| t.shape()[d]).product();
    let out_shape = reduced_shape(t, &rdims, keepdim);
    if group == 0
        && matches!(
            op,
            ReduceOp::Max | ReduceOp::Min | ReduceOp::ArgMax | ReduceOp::ArgMin
        )
    {
        return Err(index_err(format!(
            "{}() of an empty tensor (or an empty dimension) has no answer",
            op.name()
        ))
        .hint("specify a non-empty dimension, or check the tensor's shape first"));
    }
    // An empty input can still ask for a huge output: any(zeros(0, 2**40), dim=0).
    // The kernels accumulate in 64 bits.
    let outputs: usize = out_shape.iter().product();
    check_working_set(&[outputs], out_dtype, 8 + out_dtype.size())?;
    let x = crate::autograd::no_grad(|| t.to_dtype(op.input_dtype(t.dtype())))?;
    let storage = x.read().reduce(x.layout(), op, &rdims)?;
    let result = Tensor::from_contiguous(storage, &out_shape);
    let all = dims.is_none_or(|d| d.is_empty());
    Ok(rules::record_reduce(op, t, &rdims, keepdim, all, result))
}

/// `max(dim)`/`min(dim)`: values and the index of each.
pub fn max_min_dim(t: &Tensor, dim: i64, keepdim: bool, is_max: bool) -> Result<(Tensor, Tensor)> {
    let (vop, iop) = if is_max {
        (ReduceOp::Max, ReduceOp::ArgMax)
    } else {
        (ReduceOp::Min, ReduceOp::ArgMin)
    };
    let (values, indices) = crate::autograd::no_grad(|| -> Result<(Tensor, Tensor)> {
        // argmax refuses bool (as PyTorch's does), max(dim) does not: bools
        // compare as 0 and 1, first index first.
        let by = if t.dtype().is_bool() {
            t.to_dtype(crate::tensor::DType::U8)?
        } else {
            t.clone()
        };
        Ok((
            reduce(t, vop, Some(&[dim]), keepdim)?,
            reduce(&by, iop, Some(&[dim]), keepdim)?,
        ))
    })?;
    let name = if is_max {
        "MaxBackward0"
    } else {
        "MinBackward0"
    };
    if t.ndim() == 0 {
        return Ok((rules_shape::record_reshape(name, t, values), indices));
    }
    let d = normalize_dim(dim, t.ndim())?;
    let kept = if keepdim {
        indices.clone()
    } else {
        crate::tensor::ops::view::unsqueeze(&indices, d as i64)?
    };
    let values = rules_shape::record_take_along(name, t, d, &kept, values);
    Ok((values, indices))
}

/// cumsum/cumprod/cummax/cummin along one dim.
pub fn scan(t: &Tensor, op: ScanOp, dim: i64) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented(
            &format!("{op:?}"),
            t.dtype(),
        ));
    }
    if t.ndim() == 0 {
        normalize_dim(dim, 0)?;
        let out =
            crate::autograd::no_grad(|| t.to_dtype(op.output_dtype(t.dtype()))?.deep_clone())?;
        return Ok(rules::record_scan(op, t, 0, out));
    }
    let d = normalize_dim(dim, t.ndim())?;
    check_working_set(t.shape(), op.output_dtype(t.dtype()), 16)?;
    let out = Tensor::from_contiguous(t.read().scan(t.layout(), op, d)?, t.shape());
    Ok(rules::record_scan(op, t, d, out))
}

fn float_input(t: &Tensor, what: &str) -> Result<Tensor> {
    if !t.dtype().is_float() {
        return Err(dtype_err(format!(
            "{what} needs a floating point tensor, but this one is {}",
            t.dtype()
        ))
        .hint(format!("convert first: t.float().{what}(dim)")));
    }
    Ok(t.clone())
}

fn softmax_any(t: &Tensor, dim: i64, log: bool) -> Result<Tensor> {
    if t.dtype().is_complex() {
        return Err(super::complex::not_implemented("softmax", t.dtype()));
    }
    let x = float_input(t, if log { "log_softmax" } else { "softmax" })?;
    let d = if x.ndim() == 0 {
        normalize_dim(dim, 0)?;
        0
    } else {
        normalize_dim(dim, x.ndim())?
    };
    crate::tensor::core::check_alloc(x.shape(), x.dtype())?;
    let out = if x.ndim() == 0 {
        crate::autograd::no_grad(|| -> Result<Tensor> {
            let one = crate::tensor::ops::view::reshape(&x, &[1])?;
            let s = one.read().softmax(one.layout(), 0, log)?;
            crate::tensor::ops::view::reshape(&Tensor::from_contiguous(s, &[1]), &[])
        })?
    } else {
        Tensor::from_contiguous(x.read().softmax(x.layout(), d, log)?, x.shape())
    };
    Ok(rules::record_softmax(&x, d, log, out))
}

pub fn softmax(t: &Tensor, dim: i64) -> Result<Tensor> {
    softmax_any(t, dim, false)
}

pub fn log_softmax(t: &Tensor, dim: i64) -> Result<Tensor> {
    softmax_any(t, dim, true)
}
