//! torch.nn.functional: linear, dropout and one_hot here; activations, losses
//! and convolution in their own modules, re-exported so that `F.NAME` finds them
//! all in one place.

pub use super::activation::*;
pub use super::avg_pool::*;
pub use super::conv::*;
pub use super::loss::*;

use crate::autograd::composite::composite;
use crate::autograd::relabel;
use crate::error::{Result, dtype_err, index_err, shape_err, value_err};
use crate::tensor::op::{BinaryOp, ReduceOp};
use crate::tensor::ops::arith::{add, cmp, mask, mul, num};
use crate::tensor::ops::creation::rand;
use crate::tensor::ops::elementwise::mixed_arguments;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::scalar::{item_bool, item_i64};
use crate::tensor::ops::view::{reshape, squeeze, unsqueeze};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

/// y = x Wᵀ + b, recorded as PyTorch records it: the weight's transpose (TBackward0)
/// into one AddmmBackward0 (or MmBackward0 without a bias), with inputs of other
/// than two dims viewed as a matrix and the result viewed back.
pub fn linear(x: &Tensor, w: &Tensor, b: Option<&Tensor>) -> Result<Tensor> {
    // PyTorch's linear is addmm(bias, input, weight.t()), or mm without a bias:
    // an input left on another device is named as those kernels name it.
    let first = b.map_or(x.device(), |b| b.device());
    if x.device() != first {
        return Err(mixed_arguments(
            first,
            "mat1",
            x.device(),
            "addmm",
            "linear",
        ));
    }
    if w.device() != first {
        let (arg, method) = if b.is_some() {
            ("mat2", "addmm")
        } else {
            ("mat2", "mm")
        };
        return Err(mixed_arguments(first, arg, w.device(), method, "linear"));
    }
    let misfit = |e: crate::error::Error| {
        shape_err(format!(
            "linear: input {} and weight {} do not fit: the weight must be (out_features, {})",
            fmt_shape(x.shape()),
            fmt_shape(w.shape()),
            x.shape().last().copied().unwrap_or(0)
        ))
        .hint(e.message)
    };
    if w.ndim() != 2 || x.ndim() == 0 {
        let y = matmul(x, w).map_err(misfit)?;
        return match b {
            Some(b) => add(&y, b),
            None => Ok(y),
        };
    }
    let wt = crate::tensor::ops::view::t2d(w)?;
    let k = *x.shape().last().unwrap_or(&0) as i64;
    let product = |m: &Tensor| -> Result<Tensor> {
        match b {
            Some(b) => composite("AddmmBackward0", &[b, m, &wt], |t| {
                add(&matmul(&t[1], &t[2])?, &t[0])
            }),
            None => matmul(m, &wt),
        }
        .map_err(misfit)
    };
    match (x.ndim(), b) {
        (2, _) => product(x),
        (1, None) => {
            let y = product(&unsqueeze(x, 0)?)?;
            Ok(relabel(squeeze(&y, Some(&[0]))?, "SqueezeBackward4"))
        }
        _ => {
            let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
            let y = product(&reshape(x, &[rows as i64, k])?)?;
            let mut shape: Vec<i64> = x.shape()[..x.ndim() - 1]
                .iter()
                .map(|&d| d as i64)
                .collect();
            shape.push(w.shape()[0] as i64);
            Ok(relabel(reshape(&y, &shape)?, "UnsafeViewBackward0"))
        }
    }
}

pub fn dropout(x: &Tensor, p: f64, training: bool) -> Result<Tensor> {
    if !(0.0..=1.0).contains(&p) {
        return Err(value_err(format!(
            "dropout probability has to be between 0 and 1, but got {p}"
        )));
    }
    if !training || p == 0.0 {
        return Ok(x.clone());
    }
    require_float(x, "dropout")?;
    let keep = 1.0 - p;
    let scale = if keep == 0.0 { 0.0 } else { 1.0 / keep };
    let kept = crate::autograd::no_grad(|| {
        let r = rand(x.shape(), DType::F64, x.device())?;
        mul(&mask(&cmp(BinaryOp::Lt, &r, &num(keep))?, x)?, &num(scale))
    })?;
    mul(x, &kept)
}

pub fn one_hot(t: &Tensor, num_classes: i64) -> Result<Tensor> {
    if t.dtype() != DType::I64 {
        return Err(dtype_err(format!(
            "one_hot needs an int64 (Long) tensor of class indices, not {}",
            t.dtype()
        ))
        .hint("convert with .long()"));
    }
    let any = |m: Tensor| -> Result<bool> {
        Ok(m.numel() > 0 && item_bool(&reduce(&m, ReduceOp::Any, None, false)?)?)
    };
    if any(cmp(BinaryOp::Lt, t, &num(0.0))?)? {
        return Err(index_err("one_hot: class values must be non-negative"));
    }
    let c = if num_classes < 0 {
        // The number of classes comes from the data: the largest index plus one.
        if t.numel() == 0 {
            return Err(value_err(
                "one_hot: cannot infer the number of classes from an empty tensor",
            ));
        }
        item_i64(&reduce(t, ReduceOp::Max, None, false)?)? + 1
    } else {
        num_classes
    };
    if any(cmp(BinaryOp::Ge, t, &num(c as f64))?)? {
        let top = item_i64(&reduce(t, ReduceOp::Max, None, false)?)?;
        return Err(index_err(format!(
            "one_hot: class {top} is out of range for {c} classes"
        )));
    }
    let mut shape = t.shape().to_vec();
    shape.push(c as usize);
    crate::tensor::core::check_alloc(&shape, DType::I64)?;
    // Zeros with a 1 scattered along the new last dim: one fill and a write
    // per index (a comparison with every class, then its cast, was two
    // passes over the whole result).
    let out = crate::tensor::ops::creation::zeros_on(&shape, DType::I64, t.device())?;
    let index = unsqueeze(t, -1)?;
    let one = Tensor::scalar_i64(1, DType::I64).to_device(t.device())?;
    let ones = one.view_with(one.layout().expand(index.shape()));
    out.write().scatter_into(
        out.layout(),
        shape.len() - 1,
        (&index.read(), index.layout()),
        (&ones.read(), ones.layout()),
        false,
    )?;
    Ok(out)
}
