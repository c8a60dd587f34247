//! Rules for the matmul family: dA = dC @ Bᵀ, dB = Aᵀ @ dC, with 1-d operands
//! treated as a row (left) or a column (right) and batch dims summed back.

use super::{rule, sum_to};
use crate::autograd::{Saved, record};
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

pub fn record_matmul(a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
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
                .then(|| back(matmul(&g2, &transpose(&b2, -2, -1)?), &a2, &a))
                .transpose()?;
            let gb = need_b
                .then(|| back(matmul(&transpose(&a2, -2, -1)?, &g2), &b2, &b))
                .transpose()?;
            Ok(vec![ga, gb])
        })
    })
}
