//! The quantized layers' ops PyTorch exposes as functions: max pooling and
//! batch norm on per-tensor quantized tensors, written over the dense ops.

use super::conv::{Pool, max_pool2d};
use crate::error::{Result, shape_err, value_err};
use crate::tensor::op::UnaryOp;
use crate::tensor::ops::arith::{add, div, mul, num, sub, un};
use crate::tensor::ops::view::{reshape, squeeze, unsqueeze};
use crate::tensor::quantized::{QTensor, channel_shape, quantize_scaled};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

/// `quantized_max_pool2d` over a (C, H, W) or (N, C, H, W) tensor. Max pooling
/// only picks integers, so it runs on them (as float64, which holds each of
/// them exactly) and keeps the scale and zero point.
pub fn max_pool2d_q(q: &QTensor, p: &Pool) -> Result<QTensor> {
    q.per_tensor()?;
    if !matches!(q.ndim(), 3 | 4) {
        return Err(shape_err("Expecting the input tensor of rank 3 or 4."));
    }
    let levels = q.int_repr().to_dtype(DType::F64)?;
    let (pooled, _) = max_pool2d(&levels, p, false)?;
    q.with_repr(pooled, "max pooling")
}

/// `quantized_max_pool1d` over a (C, L) or (N, C, L) tensor: the 2-d pool over
/// a height of one.
pub fn max_pool1d_q(
    q: &QTensor,
    kernel: usize,
    stride: usize,
    padding: usize,
    dilation: usize,
    ceil_mode: bool,
) -> Result<QTensor> {
    q.per_tensor()?;
    if !matches!(q.ndim(), 2 | 3) {
        return Err(shape_err(format!(
            "max_pool1d() Expected 2D or 3D input tensor, but got {}",
            fmt_shape(q.shape())
        )));
    }
    let levels = unsqueeze(&q.int_repr().to_dtype(DType::F64)?, -2)?;
    let p = Pool {
        kernel: [1, kernel],
        stride: [1, stride],
        padding: [0, padding],
        dilation: [1, dilation],
        ceil_mode,
    };
    let (pooled, _) = max_pool2d(&levels, &p, false)?;
    q.with_repr(squeeze(&pooled, Some(&[-2]))?, "max pooling")
}

/// The per-channel statistics and affine parameters of a batch norm.
pub struct BatchNormParams<'a> {
    pub weight: &'a Tensor,
    pub bias: &'a Tensor,
    pub mean: &'a Tensor,
    pub var: &'a Tensor,
    pub eps: f64,
}

/// `quantized_batch_norm` (evaluation mode, channels on dim 1) requantized
/// with `output_scale` and `output_zero_point`. As PyTorch's kernel: per
/// channel alpha = w / sqrt(var + eps) * (in_scale / out_scale) and
/// beta = (b - mean / sqrt(var + eps) * w) / out_scale, each rounded to float32,
/// then round((q - in_zero_point) * alpha + beta) + out_zero_point.
pub fn batch_norm_q(
    q: &QTensor,
    p: &BatchNormParams,
    output_scale: f64,
    output_zero_point: i64,
) -> Result<QTensor> {
    let (in_scale, in_zp) = q.per_tensor()?;
    if !(2..=5).contains(&q.ndim()) {
        return Err(shape_err(format!(
            "quantized_batch_norm expects a 2-d to 5-d input (N, C, ...), but its shape is {}",
            fmt_shape(q.shape())
        )));
    }
    let c = q.shape()[1];
    for (t, what) in [
        (p.weight, "weight"),
        (p.bias, "bias"),
        (p.mean, "mean"),
        (p.var, "var"),
    ] {
        if t.numel() != c {
            return Err(value_err(format!("Expect {what} size to match C")));
        }
    }
    let shape = channel_shape(q.ndim(), 1, c);
    let per_channel = |t: &Tensor| -> Result<Tensor> {
        reshape(
            &t.detached().to_device(q.device())?.to_dtype(DType::F32)?,
            &shape,
        )
    };
    let (w, b) = (per_channel(p.weight)?, per_channel(p.bias)?);
    let (mean, var) = (per_channel(p.mean)?, per_channel(p.var)?);
    let scaled = crate::autograd::no_grad(|| -> Result<Tensor> {
        let sigma = un(UnaryOp::Sqrt, &add(&var, &num(p.eps as f32 as f64))?)?;
        // 1.0 / sqrt(...) is a double in PyTorch's code, stored as a float.
        let inv_sigma = div(&num(1.0), &sigma.to_dtype(DType::F64)?)?.to_dtype(DType::F32)?;
        let inv_w = mul(&inv_sigma, &w)?;
        let alpha = mul(&inv_w.to_dtype(DType::F64)?, &num(in_scale / output_scale))?;
        let shift = sub(&b, &mul(&mul(&mean, &inv_sigma)?, &w)?)?;
        let beta = div(&shift.to_dtype(DType::F64)?, &num(output_scale))?;
        let x = sub(&q.int_repr().to_dtype(DType::F32)?, &num(in_zp as f64))?;
        add(
            &mul(&x, &alpha.to_dtype(DType::F32)?)?,
            &beta.to_dtype(DType::F32)?,
        )
    })?;
    quantize_scaled(&scaled, output_scale, output_zero_point, q.dtype())
}
