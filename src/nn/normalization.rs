//! Normalisation and lookup layers' math: layer_norm, batch_norm, group_norm,
//! embedding, normalize and cosine_similarity (pad is nn/pad.rs). Composites over tensor
//! ops, each recorded as PyTorch's single node.

use crate::autograd::composite::composite;
use crate::error::{Result, dtype_err};
use crate::tensor::op::{BinaryOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, mul, num, sub, un, where_};
use crate::tensor::ops::index::{Idx, index};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::reshape;
use crate::tensor::{DType, Tensor};

pub use super::batch_norm::batch_norm;
pub use super::group_norm::group_norm;
pub use super::layer_norm::layer_norm;
pub use super::pad::pad;

pub(super) fn mean_var(x: &Tensor, dims: &[i64]) -> Result<(Tensor, Tensor)> {
    let mean = reduce(x, ReduceOp::Mean, Some(dims), true)?;
    let var = reduce(x, ReduceOp::Var(0.0), Some(dims), true)?;
    Ok((mean, var))
}

/// (x - mean) / sqrt(var + eps).
pub(super) fn standardise(x: &Tensor, mean: &Tensor, var: &Tensor, eps: f64) -> Result<Tensor> {
    div(&sub(x, mean)?, &un(UnaryOp::Sqrt, &add(var, &num(eps))?)?)
}

/// `x * w + b` for the optional affine parameters, shaped by `shape`.
pub(super) fn affine(
    x: &Tensor,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    shape: &[i64],
) -> Result<Tensor> {
    let x = match w {
        Some(w) => mul(x, &reshape(w, shape)?)?,
        None => x.clone(),
    };
    match b {
        Some(b) => add(&x, &reshape(b, shape)?),
        None => Ok(x),
    }
}

/// ATen's CPU check of a normalisation's parameters: a float32 input takes
/// float32 ones, a float64 input float64 ones, and a half-precision input its
/// own dtype or float32 (ATen's "mixed type").
pub(super) fn check_mixed<'a>(
    x: &Tensor,
    params: impl IntoIterator<Item = &'a Tensor>,
) -> Result<()> {
    let dt = x.dtype();
    for p in params {
        let pd = p.dtype();
        if !dt.is_float() || !pd.is_float() || pd == dt {
            continue;
        }
        if dt == DType::F64 {
            return Err(dtype_err(
                "mixed dtype (CPU): all inputs must share same datatype.",
            ));
        }
        if pd != DType::F32 || dt == DType::F32 {
            return Err(dtype_err(
                "mixed dtype (CPU): expect parameter to have scalar type of Float",
            ));
        }
    }
    Ok(())
}

/// Must a normalisation's backward itself be differentiable (create_graph,
/// with g, x or the weight requiring grad)? Then it runs in tensor ops.
pub(super) fn backward_recorded(g: &Tensor, x: &Tensor, w: Option<&Tensor>) -> bool {
    crate::autograd::needs_grad(&[g, x]) || w.is_some_and(|w| crate::autograd::needs_grad(&[w]))
}

/// Gradients made in tensor ops under create_graph, their nodes named as
/// PyTorch names a double backward (NativeLayerNormBackwardBackward0).
pub(super) fn named_twice(grads: Vec<Option<Tensor>>, name: &'static str) -> Vec<Option<Tensor>> {
    let relabel = |t| crate::autograd::relabel(t, name);
    grads.into_iter().map(|t| t.map(relabel)).collect()
}

pub(super) fn inputs<'a>(
    x: &'a Tensor,
    w: Option<&'a Tensor>,
    b: Option<&'a Tensor>,
) -> Vec<&'a Tensor> {
    std::iter::once(x).chain(w).chain(b).collect()
}

/// F.embedding: the rows of `weight` at `input`'s indices; the row at
/// `padding_idx` gets no gradient.
pub fn embedding(input: &Tensor, weight: &Tensor, padding_idx: Option<i64>) -> Result<Tensor> {
    if input.dtype().is_float() {
        return Err(crate::error::dtype_err(format!(
            "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got torch.{}Tensor instead (while checking arguments for embedding)",
            match input.dtype() {
                crate::tensor::DType::F64 => "Double",
                _ => "Float",
            }
        )));
    }
    let pad = padding_idx.map(|p| {
        if p < 0 {
            p + weight.shape()[0] as i64
        } else {
            p
        }
    });
    composite("EmbeddingBackward0", &[weight], |w| {
        let rows = index(&w[0], &[Idx::Tensor(input.clone())])?;
        let Some(p) = pad else {
            return Ok(rows);
        };
        let frozen = index(&w[0].detached(), &[Idx::Tensor(input.clone())])?;
        let keep = cmp(BinaryOp::Ne, input, &num(p as f64))?;
        where_(
            &crate::tensor::ops::view::unsqueeze(&keep, -1)?,
            &rows,
            &frozen,
        )
    })
}

/// F.normalize: x divided by its p-norm along dim (at least eps).
pub fn normalize(x: &Tensor, p: f64, dim: i64, eps: f64) -> Result<Tensor> {
    let norm = reduce(x, ReduceOp::Norm(p), Some(&[dim]), true)?;
    div(x, &bin(BinaryOp::Maximum, &norm, &num(eps))?)
}

/// F.cosine_similarity: x1·x2 / max(|x1||x2|, eps) along dim (inputs broadcast).
pub fn cosine_similarity(x1: &Tensor, x2: &Tensor, dim: i64, eps: f64) -> Result<Tensor> {
    let sum = |t: &Tensor| reduce(t, ReduceOp::Sum, Some(&[dim]), false);
    let dot = sum(&mul(x1, x2)?)?;
    let n12 = mul(&sum(&mul(x1, x1)?)?, &sum(&mul(x2, x2)?)?)?;
    div(
        &dot,
        &un(
            UnaryOp::Sqrt,
            &bin(BinaryOp::Maximum, &n12, &num(eps * eps))?,
        )?,
    )
}
