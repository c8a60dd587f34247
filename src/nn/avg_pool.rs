//! Average pooling: avg_pool2d and adaptive_avg_pool2d as one backend pass
//! each (the backend's `avg_pool`, which sums and divides as ATen's kernels
//! do), recorded as PyTorch's nodes; the gradients are the backend's
//! `avg_pool_backward`, in ATen's order too.

use super::activation::require_float;
use super::conv::{Pool, batched, pool_geometry};
use crate::autograd::record;
use crate::autograd::rules::rule;
use crate::backend::AvgWindows;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::view::reshape;

pub fn avg_pool2d(
    x: &Tensor,
    p: &Pool,
    count_include_pad: bool,
    divisor_override: Option<i64>,
) -> Result<Tensor> {
    let (xb, _) = batched(x, "avg_pool2d")?;
    require_float(&xb, "avg_pool2d")?;
    nonempty_plane(&xb, "avg_pool2d")?;
    let win = pool_geometry(p, "avg_pool2d")?.window([xb.shape()[2], xb.shape()[3]])?;
    if divisor_override == Some(0) {
        return Err(value_err("avg_pool2d: divisor_override must not be zero"));
    }
    let windows = AvgWindows::Fixed {
        win,
        include_pad: count_include_pad,
        divisor: divisor_override,
    };
    pooled(x, &xb, windows, "AvgPool2DBackward0")
}

/// adaptive_avg_pool2d's kernel (`torch._adaptive_avg_pool2d`; for an output
/// of (1, 1) F.adaptive_avg_pool2d takes the mean instead, as ATen does):
/// each output's window is [floor(o·in/out), ceil((o+1)·in/out)) along each
/// axis.
pub fn adaptive_avg_pool2d(x: &Tensor, out: [usize; 2]) -> Result<Tensor> {
    let (xb, _) = batched(x, "adaptive_avg_pool2d")?;
    require_float(&xb, "adaptive_avg_pool2d")?;
    nonempty_plane(&xb, "adaptive_avg_pool2d")?;
    let windows = AvgWindows::Adaptive { out };
    pooled(x, &xb, windows, "AdaptiveAvgPool2DBackward0")
}

/// PyTorch allows an empty batch, not an empty plane.
fn nonempty_plane(xb: &Tensor, what: &str) -> Result<()> {
    if xb.shape()[2] == 0 || xb.shape()[3] == 0 {
        return Err(shape_err(format!(
            "{what}: the input's height and width must be non-zero, but its shape is {}",
            crate::tensor::shape::fmt_shape(xb.shape())
        )));
    }
    Ok(())
}

/// The backend's pooling of `xb` (x as `[N, C, H, W]`), shaped as x is
/// (3-d stays 3-d, its node on x itself), with its gradient.
fn pooled(x: &Tensor, xb: &Tensor, windows: AvgWindows, name: &'static str) -> Result<Tensor> {
    let (n, c, h, w) = (xb.shape()[0], xb.shape()[1], xb.shape()[2], xb.shape()[3]);
    let [oh, ow] = windows.out();
    let mut shape = vec![n, c, oh, ow];
    crate::tensor::core::check_alloc(&shape, xb.dtype())?;
    let s = xb.read().avg_pool(xb.layout(), &windows)?;
    let was3 = x.ndim() == 3;
    if was3 {
        shape.remove(0);
    }
    let out = Tensor::from_contiguous(s, &shape);
    let in_shape: Vec<i64> = x.shape().iter().map(|&d| d as i64).collect();
    Ok(record(out, name, &[x], true, move || {
        rule(move |g| {
            let g = if was3 {
                reshape(g, &[n as i64, c as i64, oh as i64, ow as i64])?
            } else {
                g.clone()
            };
            let gx = spread(&g, windows, [h, w])?;
            if was3 {
                return Ok(vec![Some(reshape(&gx, &in_shape)?)]);
            }
            Ok(vec![Some(gx)])
        })
    }))
}

/// The input's gradient: each window's gradient divided as its sum was and
/// added to every element of the window (the backend's, in ATen's order).
/// Its own gradient (double backward) pools again.
fn spread(g: &Tensor, a: AvgWindows, hw: [usize; 2]) -> Result<Tensor> {
    let (n, c) = (g.shape()[0], g.shape()[1]);
    let s = g.read().avg_pool_backward(g.layout(), &a, hw)?;
    let out = Tensor::from_contiguous(s, &[n, c, hw[0], hw[1]]);
    let oshape: Vec<i64> = g.shape().iter().map(|&d| d as i64).collect();
    let name = match a {
        AvgWindows::Fixed { .. } => "AvgPool2DBackwardBackward0",
        AvgWindows::Adaptive { .. } => "AdaptiveAvgPool2DBackwardBackward0",
    };
    Ok(record(out, name, &[g], true, move || {
        rule(move |gg| {
            let s = gg.read().avg_pool(gg.layout(), &a)?;
            let pooled = Tensor::from_contiguous(s, &[n, c, a.out()[0], a.out()[1]]);
            Ok(vec![Some(reshape(&pooled, &oshape)?)])
        })
    }))
}
