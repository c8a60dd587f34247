//! Backward rules, one function per op family. Each `record_*` is called by its op
//! after the forward pass and attaches a node (when grad is needed) whose rule
//! computes input gradients from the output gradient with ordinary tensor ops
//! (the engine runs them with grad mode off). Formulas follow PyTorch's
//! derivatives.yaml; names are PyTorch's grad_fn names.

pub mod elementwise;
pub mod matmul;
pub mod nn;
pub mod reduce;
pub mod shape;

use crate::error::{Result, shape_err};
use crate::tensor::Tensor;
use crate::tensor::op::ReduceOp;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::reshape;
use crate::tensor::shape::fmt_shape;

/// Sum a broadcast gradient back down to `shape` (the inverse of broadcasting).
pub fn sum_to(g: &Tensor, shape: &[usize]) -> Result<Tensor> {
    if g.shape() == shape {
        return Ok(g.clone());
    }
    if g.ndim() < shape.len() {
        return Err(shape_err(format!(
            "internal: a gradient of shape {} cannot be summed to {}",
            fmt_shape(g.shape()),
            fmt_shape(shape)
        )));
    }
    let lead = g.ndim() - shape.len();
    let mut dims: Vec<i64> = (0..lead as i64).collect();
    for (i, &s) in shape.iter().enumerate() {
        if s == 1 && g.shape()[lead + i] != 1 {
            dims.push((lead + i) as i64);
        }
    }
    let summed = if dims.is_empty() {
        g.clone()
    } else {
        reduce(g, ReduceOp::Sum, Some(&dims), true)?
    };
    let target: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    reshape(&summed, &target)
}

pub use crate::tensor::ops::arith::num;

/// Re-insert reduced dims (size 1) so a reduced gradient broadcasts over the input.
pub fn unsqueeze_dims(
    g: &Tensor,
    in_shape: &[usize],
    dims: &[usize],
    keepdim: bool,
) -> Result<Tensor> {
    if keepdim {
        return Ok(g.clone());
    }
    let shape: Vec<i64> = (0..in_shape.len())
        .map(|d| {
            if dims.contains(&d) {
                1
            } else {
                in_shape[d] as i64
            }
        })
        .collect();
    reshape(g, &shape)
}

/// A boxed backward rule.
pub fn rule(
    f: impl Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + Send + Sync + 'static,
) -> super::BackwardFn {
    Box::new(f)
}
