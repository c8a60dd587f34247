//! Convolution and pooling: im2col windows (the backend's `unfold`) times the
//! weight as one batched matmul, and reductions over windows. Each is one node
//! with PyTorch's grad_fn name; the window's own gradient is the backend's `fold`.

use super::activation::require_float;
use crate::autograd::composite::composite;
use crate::autograd::rules::rule;
use crate::autograd::{Saved, record};
use crate::backend::Window;
use crate::error::{Result, dtype_err, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::arith::add;
use crate::tensor::ops::index::gather;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::view::{reshape, squeeze, unsqueeze};
use crate::tensor::shape::fmt_shape;

/// The window's geometry before its output size is known.
#[derive(Clone, Copy, Debug)]
pub(super) struct Geometry {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub pad_before: [usize; 2],
    pub pad_total: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Geometry {
    /// The window with its output size for an input of `input` (H, W).
    pub(super) fn window(&self, input: [usize; 2]) -> Result<Window> {
        let mut out = [0usize; 2];
        for d in 0..2 {
            let span = self.dilation[d] * (self.kernel[d] - 1) + 1;
            let padded = input[d] + self.pad_total[d];
            if padded < span {
                return Err(shape_err(format!(
                    "the input's spatial size {}x{} (padded {}) is smaller than the kernel's reach {}",
                    input[0], input[1], padded, span
                ))
                .hint("use a smaller kernel or more padding, or check the input's shape (N, C, H, W)"));
            }
            let room = padded - span;
            let s = self.stride[d];
            let mut n = if self.ceil_mode {
                room.div_ceil(s)
            } else {
                room / s
            } + 1;
            // A window must start inside the input or its leading padding.
            if self.ceil_mode && (n - 1) * s >= input[d] + self.pad_before[d] {
                n -= 1;
            }
            out[d] = n;
        }
        Ok(Window {
            kernel: self.kernel,
            stride: self.stride,
            pad_before: self.pad_before,
            pad_total: self.pad_total,
            dilation: self.dilation,
            out,
        })
    }
}

/// im2col: `[N, C, H, W]` → `[N, C * kh * kw, L]`, `pad` outside the input. Its
/// gradient sums the columns back into the image (col2im).
pub(super) fn unfold(x: &Tensor, win: &Window, pad: f64) -> Result<Tensor> {
    if x.dtype().is_complex() {
        return Err(crate::tensor::ops::complex::not_implemented(
            "im2col",
            x.dtype(),
        ));
    }
    let (n, c, h, w) = (x.shape()[0], x.shape()[1], x.shape()[2], x.shape()[3]);
    let kk = win.kernel[0] * win.kernel[1];
    let l = win.out[0] * win.out[1];
    let shape = [n, c * kk, l];
    crate::tensor::core::check_alloc(&shape, x.dtype())?;
    let cols = Tensor::from_contiguous(x.read().unfold(x.layout(), win, pad)?, &shape);
    let win = *win;
    Ok(record(cols, "Im2ColBackward0", &[x], false, move || {
        rule(move |g| {
            let s = g.read().fold(g.layout(), &win, c, [h, w])?;
            Ok(vec![Some(Tensor::from_contiguous(s, &[n, c, h, w]))])
        })
    }))
}

/// Accept (C, H, W) as a batch of one, as PyTorch does.
pub(super) fn batched(x: &Tensor, what: &str) -> Result<(Tensor, bool)> {
    match x.ndim() {
        4 => Ok((x.clone(), false)),
        3 => Ok((unsqueeze(x, 0)?, true)),
        _ => Err(shape_err(format!(
            "{what} expects a 4-d (N, C, H, W) or 3-d (C, H, W) input, but its shape is {}",
            fmt_shape(x.shape())
        ))
        .hint("add a batch dim with x.unsqueeze(0), or a channel dim with x.unsqueeze(1)")),
    }
}

fn unbatched(t: Tensor, was: bool) -> Result<Tensor> {
    if was { squeeze(&t, Some(&[0])) } else { Ok(t) }
}

pub enum Padding {
    Same,
    Explicit([usize; 2]),
}

pub fn conv2d(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    stride: [usize; 2],
    padding: Padding,
    dilation: [usize; 2],
    groups: usize,
) -> Result<Tensor> {
    let (x, was3) = batched(x, "conv2d")?;
    if w.ndim() != 4 {
        return Err(shape_err(format!(
            "conv2d's weight must be 4-d (out_channels, in_channels/groups, kH, kW), but its shape is {}",
            fmt_shape(w.shape())
        )));
    }
    if x.dtype() != w.dtype() {
        return Err(dtype_err(format!(
            "conv2d needs the input and weight in one dtype, but they are {} and {}",
            x.dtype(),
            w.dtype()
        ))
        .hint(format!("convert one, e.g. x{}", w.dtype().conversion())));
    }
    require_float(&x, "conv2d")?;
    let (cin, cout) = (x.shape()[1], w.shape()[0]);
    if groups == 0 || cin % groups != 0 || cout % groups != 0 || w.shape()[1] * groups != cin {
        return Err(shape_err(format!(
            "conv2d: the input has {cin} channels and the weight {} {} with groups={groups}; \
             the weight's dim 1 must be in_channels / groups = {}",
            fmt_shape(w.shape()),
            if groups == 1 { "" } else { "(grouped)" },
            cin.checked_div(groups).unwrap_or(0)
        ))
        .hint("weight shape is (out_channels, in_channels / groups, kH, kW)"));
    }
    let kernel = [w.shape()[2], w.shape()[3]];
    let (pad_before, pad_total) = match padding {
        Padding::Explicit(p) => (p, [2 * p[0], 2 * p[1]]),
        Padding::Same => {
            if stride != [1, 1] {
                return Err(value_err(
                    "padding='same' is not supported for strided convolutions",
                ));
            }
            let t = [dilation[0] * (kernel[0] - 1), dilation[1] * (kernel[1] - 1)];
            ([t[0] / 2, t[1] / 2], t)
        }
    };
    let geo = Geometry {
        kernel,
        stride,
        pad_before,
        pad_total,
        dilation,
        ceil_mode: false,
    };
    let win = geo.window([x.shape()[2], x.shape()[3]])?;
    if let Some(b) = b
        && b.shape() != [cout]
    {
        return Err(shape_err(format!(
            "conv2d's bias must have one value per output channel ({cout}), but its shape is {}",
            fmt_shape(b.shape())
        )));
    }
    let inputs: Vec<&Tensor> = [&x, w].into_iter().chain(b).collect();
    let y = composite("ConvolutionBackward0", &inputs, |t| {
        convolve(&t[0], &t[1], t.get(2), &win, groups)
    })?;
    unbatched(y, was3)
}

/// The convolution itself: im2col windows times the weight as a batched
/// matmul; where nothing records it, the backend's conv2d (the CPU's takes an
/// image at a time, its windows never leaving the cache).
fn convolve(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    win: &Window,
    groups: usize,
) -> Result<Tensor> {
    let (n, cin, cout) = (x.shape()[0], x.shape()[1], w.shape()[0]);
    let (oh, ow) = (win.out[0], win.out[1]);
    let shape = [n, cout, oh, ow];
    let fused = match groups == 1 && !crate::autograd::needs_grad(&[x, w]) {
        true => {
            crate::tensor::core::check_alloc(&shape, x.dtype())?;
            crate::tensor::core::check_alloc(
                &[cin * win.kernel[0] * win.kernel[1], oh * ow],
                x.dtype(),
            )?;
            x.read().conv2d(x.layout(), &w.read(), w.layout(), win)
        }
        false => None,
    };
    let y = match fused {
        Some(y) => Tensor::from_contiguous(y, &shape),
        None => {
            let l = (oh * ow) as i64;
            let g = groups as i64;
            let per_group = (cin / groups * win.kernel[0] * win.kernel[1]) as i64;
            let cols = reshape(&unfold(x, win, 0.0)?, &[n as i64, g, per_group, l])?;
            let wm = reshape(w, &[g, cout as i64 / g, per_group])?;
            let y = matmul(&wm, &cols)?;
            reshape(&y, &[n as i64, cout as i64, oh as i64, ow as i64])?
        }
    };
    match b {
        Some(b) => add(&y, &reshape(b, &[1, cout as i64, 1, 1])?),
        None => Ok(y),
    }
}

pub struct Pool {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

pub(super) fn pool_geometry(p: &Pool, what: &str) -> Result<Geometry> {
    for d in 0..2 {
        if p.kernel[d] == 0 || p.stride[d] == 0 || p.dilation[d] == 0 {
            return Err(value_err(format!(
                "{what}: kernel size, stride and dilation must be positive"
            )));
        }
        if p.padding[d] * 2 > p.kernel[d] {
            return Err(value_err(format!(
                "{what}: padding {} should be at most half the kernel size {}",
                p.padding[d], p.kernel[d]
            )));
        }
    }
    Ok(Geometry {
        kernel: p.kernel,
        stride: p.stride,
        pad_before: p.padding,
        pad_total: [2 * p.padding[0], 2 * p.padding[1]],
        dilation: p.dilation,
        ceil_mode: p.ceil_mode,
    })
}

/// max_pool2d; with `return_indices`, also each maximum's flat index in its
/// H*W plane. One backend pass finds both; the gradient is added back at the
/// indices (MaxPool2DWithIndicesBackward0).
pub fn max_pool2d(
    input: &Tensor,
    p: &Pool,
    return_indices: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let (x, was3) = batched(input, "max_pool2d")?;
    if x.dtype().is_complex() {
        return Err(crate::tensor::ops::complex::not_implemented(
            "max_pool2d",
            x.dtype(),
        ));
    }
    let (h, w) = (x.shape()[2], x.shape()[3]);
    let win = pool_geometry(p, "max_pool2d")?.window([h, w])?;
    let shape = [x.shape()[0], x.shape()[1], win.out[0], win.out[1]];
    crate::tensor::core::check_alloc(&shape, x.dtype())?;
    let (values, indices) = x.read().max_pool(x.layout(), &win)?;
    // A 3-d input's result is 3-d too, and its node hangs off the input
    // itself (PyTorch shows no unsqueeze/squeeze around it).
    let out_shape = if was3 { &shape[1..] } else { &shape[..] };
    let indices = Tensor::from_contiguous(indices, out_shape);
    let values = Tensor::from_contiguous(values, out_shape);
    let saved = Saved::new(&indices);
    let four: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    let in_shape: Vec<i64> = input.shape().iter().map(|&d| d as i64).collect();
    let values = record(
        values,
        "MaxPool2DWithIndicesBackward0",
        &[input],
        true,
        move || {
            rule(move |g| {
                let idx = saved.get()?;
                if !was3 {
                    return Ok(vec![Some(max_unpool_grad(g, &idx, &win, [h, w])?)]);
                }
                let (g, idx) = (reshape(g, &four)?, reshape(&idx, &four)?);
                let gx = max_unpool_grad(&g, &idx, &win, [h, w])?;
                Ok(vec![Some(reshape(&gx, &in_shape)?)])
            })
        },
    );
    Ok((values, return_indices.then_some(indices)))
}

/// max_pool2d's gradient: `g` ([N, C, oh, ow]) added into an [N, C, H, W]
/// zero image at `idx`. Its own gradient (double backward) gathers at `idx`.
fn max_unpool_grad(g: &Tensor, idx: &Tensor, win: &Window, hw: [usize; 2]) -> Result<Tensor> {
    let (n, c) = (g.shape()[0], g.shape()[1]);
    let s = g
        .read()
        .max_pool_backward(g.layout(), &idx.read(), idx.layout(), win, hw)?;
    let out = Tensor::from_contiguous(s, &[n, c, hw[0], hw[1]]);
    let (saved, oshape) = (Saved::new(idx), g.shape().to_vec());
    Ok(record(
        out,
        "MaxPool2DWithIndicesBackwardBackward0",
        &[g],
        true,
        move || {
            rule(move |gg| {
                let idx = saved.get()?;
                let (n, c) = (n as i64, c as i64);
                let flat = reshape(gg, &[n, c, -1])?;
                let picked = gather(&flat, 2, &reshape(&idx, &[n, c, -1])?)?;
                let shape: Vec<i64> = oshape.iter().map(|&d| d as i64).collect();
                Ok(vec![Some(reshape(&picked, &shape)?)])
            })
        },
    ))
}
