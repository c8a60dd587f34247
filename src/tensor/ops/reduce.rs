//! Reductions over all dims or a set of dims, with keepdim; scans; softmax.

use crate::autograd::rules::reduce as rules;
use crate::autograd::rules::shape as rules_shape;
use crate::backend::cpu::binary::BinaryOp;
use crate::backend::cpu::reduce::{self as kred, ReduceOp, ScanOp};
use crate::backend::cpu::unary::UnaryOp;
use crate::error::{Result, dtype_err, index_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::ops::elementwise::{binary, unary};
use crate::tensor::shape::normalize_dim;

fn op_name(op: ReduceOp) -> &'static str {
    match op {
        ReduceOp::Sum => "sum",
        ReduceOp::Prod => "prod",
        ReduceOp::Mean => "mean",
        ReduceOp::Max => "max",
        ReduceOp::Min => "min",
        ReduceOp::ArgMax => "argmax",
        ReduceOp::ArgMin => "argmin",
        ReduceOp::Var(_) => "var",
        ReduceOp::Std(_) => "std",
        ReduceOp::All => "all",
        ReduceOp::Any => "any",
        ReduceOp::Norm(_) => "norm",
        ReduceOp::LogSumExp => "logsumexp",
        ReduceOp::CountNonzero => "count_nonzero",
    }
}

/// The dtype a reduction returns for an input dtype, or the error PyTorch raises.
fn output_dtype(op: ReduceOp, d: DType) -> Result<DType> {
    use ReduceOp::*;
    Ok(match op {
        Sum | Prod if !d.is_float() => DType::I64,
        Sum | Prod | Max | Min => d,
        ArgMax | ArgMin | CountNonzero => DType::I64,
        All | Any => DType::Bool,
        LogSumExp => crate::tensor::promote::to_float(d),
        Mean | Var(_) | Std(_) | Norm(_) => {
            if !d.is_float() {
                return Err(dtype_err(format!(
                    "{}() needs a floating point tensor, but this one is {}",
                    op_name(op),
                    d
                ))
                .hint(format!("convert first: t.float().{}()", op_name(op))));
            }
            d
        }
    })
}

/// Normalised, de-duplicated dims to reduce (all of them when `dims` is None).
pub fn reduce_dims(t: &Tensor, dims: Option<&[i64]>) -> Result<Vec<usize>> {
    let mut out: Vec<usize> = match dims {
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

/// Reduce `t` over `dims` (all when None), keeping them as size 1 when `keepdim`.
pub fn reduce(t: &Tensor, op: ReduceOp, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let out_dtype = output_dtype(op, t.dtype())?;
    let rdims = reduce_dims(t, dims)?;
    let kept: Vec<usize> = (0..t.ndim()).filter(|d| !rdims.contains(d)).collect();
    let group: usize = rdims.iter().map(|&d| t.shape()[d]).product();
    let outputs: usize = kept.iter().map(|&d| t.shape()[d]).product();
    if group == 0
        && matches!(
            op,
            ReduceOp::Max | ReduceOp::Min | ReduceOp::ArgMax | ReduceOp::ArgMin
        )
    {
        return Err(index_err(format!(
            "{}() of an empty tensor (or an empty dimension) has no answer",
            op_name(op)
        ))
        .hint("specify a non-empty dimension, or check the tensor's shape first"));
    }
    // An empty input can still ask for a huge output: any(zeros(0, 2**40), dim=0).
    // The kernels accumulate in 64 bits.
    crate::tensor::core::check_working_set(&[outputs], out_dtype, 8 + out_dtype.size())?;
    let mut perm = kept.clone();
    perm.extend(&rdims);
    let layout = t.layout().permute(&perm);
    let out_shape: Vec<usize> = if keepdim {
        (0..t.ndim())
            .map(|d| if rdims.contains(&d) { 1 } else { t.shape()[d] })
            .collect()
    } else {
        kept.iter().map(|&d| t.shape()[d]).collect()
    };
    let float_path = t.dtype().is_float()
        || !matches!(
            op,
            ReduceOp::Sum
                | ReduceOp::Prod
                | ReduceOp::Max
                | ReduceOp::Min
                | ReduceOp::ArgMax
                | ReduceOp::ArgMin
                | ReduceOp::All
                | ReduceOp::Any
                | ReduceOp::CountNonzero
        );
    let storage = t.read();
    let result = if float_path {
        let v = kred::reduce_f64(op, &storage, &layout, group, outputs);
        Tensor::from_vec(v, &out_shape)
    } else {
        let v = kred::reduce_i64(op, &storage, &layout, group, outputs);
        Tensor::from_vec(v, &out_shape)
    };
    drop(storage);
    let result = crate::autograd::no_grad(|| result.to_dtype(out_dtype));
    let all = dims.is_none_or(|d| d.is_empty());
    Ok(rules::record_reduce(op, t, rdims, keepdim, all, result))
}

/// `max(dim)`/`min(dim)`: values and the index of each.
pub fn max_min_dim(t: &Tensor, dim: i64, keepdim: bool, is_max: bool) -> Result<(Tensor, Tensor)> {
    let (vop, iop) = if is_max {
        (ReduceOp::Max, ReduceOp::ArgMax)
    } else {
        (ReduceOp::Min, ReduceOp::ArgMin)
    };
    let (values, indices) = crate::autograd::no_grad(|| -> Result<(Tensor, Tensor)> {
        Ok((
            reduce(t, vop, Some(&[dim]), keepdim)?,
            reduce(t, iop, Some(&[dim]), keepdim)?,
        ))
    })?;
    if t.ndim() == 0 {
        return Ok((
            rules_shape::record_reshape("MaxBackward0", t, values),
            indices,
        ));
    }
    let d = normalize_dim(dim, t.ndim())?;
    let kept = if keepdim {
        indices.clone()
    } else {
        indices.view_with(indices.layout().unsqueeze(d))
    };
    let name = if is_max {
        "MaxBackward0"
    } else {
        "MinBackward0"
    };
    let values = rules_shape::record_take_along(name, t, d, &kept, values);
    Ok((values, indices))
}

/// cumsum/cumprod/cummax... along one dim.
pub fn scan(t: &Tensor, op: ScanOp, dim: i64) -> Result<Tensor> {
    let d = if t.ndim() == 0 {
        0
    } else {
        normalize_dim(dim, t.ndim())?
    };
    if t.ndim() == 0 {
        return Ok(if t.dtype().is_float() {
            t.deep_clone()
        } else {
            t.to_dtype(DType::I64).deep_clone()
        });
    }
    let mut perm: Vec<usize> = (0..t.ndim()).filter(|&x| x != d).collect();
    perm.push(d);
    let layout = t.layout().permute(&perm);
    let group = t.shape()[d];
    let permuted_shape: Vec<usize> = perm.iter().map(|&p| t.shape()[p]).collect();
    let out = if t.dtype().is_float() {
        let v = kred::scan_f64(op, &t.read(), &layout, group);
        Tensor::from_vec(v, &permuted_shape).to_dtype(t.dtype())
    } else {
        let v = kred::scan_i64(op, &t.read(), &layout, group);
        let keep = matches!(op, ScanOp::Max | ScanOp::Min);
        let o = Tensor::from_vec(v, &permuted_shape);
        if keep { o.to_dtype(t.dtype()) } else { o }
    };
    // Undo the permutation: dim d sits last in `out`.
    let mut inverse = vec![0usize; perm.len()];
    for (i, &p) in perm.iter().enumerate() {
        inverse[p] = i;
    }
    let out =
        crate::autograd::no_grad(|| out.view_with(out.layout().permute(&inverse)).contiguous());
    Ok(rules::record_scan(op, t, d, out))
}

fn float_input(t: &Tensor) -> Tensor {
    if t.dtype().is_float() {
        t.clone()
    } else {
        t.to_dtype(DType::F32)
    }
}

pub fn softmax(t: &Tensor, dim: i64) -> Result<Tensor> {
    let x = float_input(t);
    let out = crate::autograd::no_grad(|| -> Result<Tensor> {
        let m = reduce(&x, ReduceOp::Max, Some(&[dim]), true)?;
        let e = unary(UnaryOp::Exp, &binary(BinaryOp::Sub, &x, &m)?)?;
        let s = reduce(&e, ReduceOp::Sum, Some(&[dim]), true)?;
        binary(BinaryOp::Div, &e, &s)
    })?;
    Ok(rules::record_softmax(&x, dim, false, out))
}

pub fn log_softmax(t: &Tensor, dim: i64) -> Result<Tensor> {
    let x = float_input(t);
    let out = crate::autograd::no_grad(|| -> Result<Tensor> {
        let lse = reduce(&x, ReduceOp::LogSumExp, Some(&[dim]), true)?;
        binary(BinaryOp::Sub, &x, &lse)
    })?;
    Ok(rules::record_softmax(&x, dim, true, out))
}
