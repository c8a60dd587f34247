//! Rules for the matmul family: dA = dC @ Bᵀ, dB = Aᵀ @ dC, with 1-d operands
//! treated as a row (left) or a column (right) and batch dims summed back.

use super::{rule, sum_to};
use crate::autograd::{Saved, needs_grad, record};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::view::{reshape, transpose, unsqueeze};

fn name(a: &Tensor, b: &Tensor) -> &'static str {
    match (a.ndim(), b.ndim()) {
        (1, 1) => "DotBackward0",
        (2, 1) => "MvBackward0",
        (2, 2) => "MmBackward0",
        (1, 2) => "SqueezeBackward4",
        (3, 3) => "BmmBackward0",
        _ => "UnsafeViewBackward0",
    }
}

fn dims(t: &Tensor) -> Vec<i64> {
    t.shape().iter().map(|&d| d as i64).collect()
}

/// Is `t` a matrix stored column by column (a transposed contiguous matrix, as
/// the `w.T` inside a linear layer)?
fn column_major(t: &Tensor) -> bool {
    let (shape, strides) = (t.shape(), &t.layout().strides);
    t.ndim() == 2 && shape[0] > 1 && shape[1] > 1 && strides[0] == 1 && strides[1] == shape[0]
}

/// `x @ y`, laid out as `like`: for a column-major `like` it is computed as
/// `(yᵀ @ xᵀ)ᵀ`, as PyTorch's mm backward does, so that a linear layer's weight
/// gradient arrives contiguous and the optimizer reads it in order.
fn product_like(x: &Tensor, y: &Tensor, like: &Tensor) -> Result<Tensor> {
    if column_major(like) && x.ndim() == 2 && y.ndim() == 2 {
        transpose(&matmul(&transpose(y, 0, 1)?, &transpose(x, 0, 1)?)?, 0, 1)
    } else {
        matmul(x, y)
    }
}

pub fn record_matmul(a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
    if !needs_grad(&[a, b]) {
        return out;
    }
    let (sa, sb) = (Saved::new(a), Saved::new(b));
    let (need_a, need_b) = (a.requires_grad(), b.requires_grad());
    record(out, name(a, b), &[a, b], true, move || {
        rule(move |g| {
            let (a, b) = (sa.get()?, sb.get()?);
            let a2 = if a.ndim() == 1 {
                unsqueeze(&a, 0)?
            } else {
                a.clone()
            };
            let b2 = if b.ndim() == 1 {
                unsqueeze(&b, -1)?
            } else {
                b.clone()
            };
            // The gradient in the 2-d (batched) result shape.
            let mut g_shape: Vec<i64> = g.shape()
                [..g.ndim() - usize::from(a.ndim() > 1) - usize::from(b.ndim() > 1)]
                .iter()
                .map(|&d| d as i64)
                .collect();
            g_shape.push(a2.shape()[a2.ndim() - 2] as i64);
            g_shape.push(b2.shape()[b2.ndim() - 1] as i64);
            let g2 = reshape(g, &g_shape)?;
            let back = |x: Result<Tensor>, like: &Tensor, orig: &Tensor| -> Result<Tensor> {
                reshape(&sum_to(&x?, like.shape())?, &dims(orig))
            };
            let ga = need_a
                .then(|| back(product_like(&g2, &transpose(&b2, -2, -1)?, &a2), &a2, &a))
                .transpose()?;
            let gb = need_b
                .then(|| back(product_like(&transpose(&a2, -2, -1)?, &g2, &b2), &b2, &b))
                .transpose()?;
            Ok(vec![ga, gb])
        })
    })
}
