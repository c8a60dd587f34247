//! The transposed convolution (`F.conv_transpose2d`), as ATen's
//! slow_conv_transpose2d computes it: each input pixel's channels times the
//! weight give its output block's columns (one batched matmul), and col2im
//! (the backend's `fold`) adds the blocks into the image. Spreading the input
//! out by the stride and convolving (the definition) multiplies the zeros
//! too: stride² times the work.

use super::activation::require_float;
use super::conv::batched;
use super::fold::fold_image;
use crate::autograd::composite::composite;
use crate::backend::Window;
use crate::error::{Result, dtype_err, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::arith::add;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::view::{reshape, squeeze, transpose};
use crate::tensor::shape::fmt_shape;

/// stride, padding, output_padding and dilation, each (height, width).
#[derive(Clone, Copy, Debug)]
pub struct Transposed {
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub output_padding: [usize; 2],
    pub dilation: [usize; 2],
    pub groups: usize,
}

/// `F.conv_transpose2d` of an (N, C, H, W) or (C, H, W) input and a
/// (C, out_channels / groups, kH, kW) weight; one ConvolutionBackward0 node.
pub fn conv_transpose2d(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    t: &Transposed,
) -> Result<Tensor> {
    let (x, was3) = batched(x, "conv_transpose2d")?;
    check(&x, w, b, t)?;
    let [h, wd] = [x.shape()[2], x.shape()[3]];
    let kernel = [w.shape()[2], w.shape()[3]];
    let out = output_size([h, wd], kernel, t)?;
    // The blocks' positions: input pixel (i, j) is block (i, j) of a
    // convolution over the output with the same geometry, given as is (its
    // count is the input's size, whatever the output padding).
    let win = Window {
        kernel,
        stride: t.stride,
        pad_before: t.padding,
        pad_total: [2 * t.padding[0], 2 * t.padding[1]],
        dilation: t.dilation,
        out: [h, wd],
    };
    let inputs: Vec<&Tensor> = [&x, w].into_iter().chain(b).collect();
    let y = composite("ConvolutionBackward0", &inputs, |v| {
        blocks_to_image(&v[0], &v[1], v.get(2), &win, out, t.groups)
    })?;
    if was3 { squeeze(&y, Some(&[0])) } else { Ok(y) }
}

/// Each pixel's columns (weightᵀ · its channels, group by group), summed
/// into the (N, out_channels, out) image, plus the bias.
fn blocks_to_image(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    win: &Window,
    out: [usize; 2],
    groups: usize,
) -> Result<Tensor> {
    let (n, cin) = (x.shape()[0] as i64, x.shape()[1] as i64);
    let g = groups as i64;
    let per_pixel = (w.shape()[1] * win.kernel[0] * win.kernel[1]) as i64;
    let pixels = (win.out[0] * win.out[1]) as i64;
    let wm = transpose(&reshape(w, &[g, cin / g, per_pixel])?, 1, 2)?;
    let xs = reshape(x, &[n, g, cin / g, pixels])?;
    let cols = reshape(&matmul(&wm, &xs)?, &[n, g * per_pixel, pixels])?;
    let cout = w.shape()[1] * groups;
    let y = fold_image(&cols, win, cout, out)?;
    match b {
        Some(b) => add(&y, &reshape(b, &[1, cout as i64, 1, 1])?),
        None => Ok(y),
    }
}

/// PyTorch's checks on the operands, with its words.
fn check(x: &Tensor, w: &Tensor, b: Option<&Tensor>, t: &Transposed) -> Result<()> {
    if w.ndim() != 4 {
        return Err(shape_err(format!(
            "conv_transpose2d's weight must be 4-d (in_channels, out_channels/groups, kH, kW), but its shape is {}",
            fmt_shape(w.shape())
        )));
    }
    if w.shape()[2] == 0 || w.shape()[3] == 0 {
        return Err(value_err(format!(
            "conv_transpose2d: the kernel's size should be greater than zero, but the weight's shape is {}",
            fmt_shape(w.shape())
        )));
    }
    if x.dtype() != w.dtype() {
        return Err(dtype_err(format!(
            "conv_transpose2d needs the input and weight in one dtype, but they are {} and {}",
            x.dtype(),
            w.dtype()
        ))
        .hint(format!("convert one, e.g. x{}", w.dtype().conversion())));
    }
    require_float(x, "conv_transpose2d")?;
    if t.stride.contains(&0) || t.dilation.contains(&0) || t.groups == 0 {
        return Err(value_err(
            "conv_transpose2d: stride, dilation and groups must be positive",
        ));
    }
    let cin = x.shape()[1];
    if w.shape()[0] != cin || !cin.is_multiple_of(t.groups) {
        return Err(shape_err(format!(
            "Given transposed=1, weight of size {}, expected input{} to have {} channels, but got {cin} channels instead",
            fmt_shape(w.shape()),
            fmt_shape(x.shape()),
            w.shape()[0]
        ))
        .hint("a transposed convolution's weight is (in_channels, out_channels / groups, kH, kW)"));
    }
    let cout = w.shape()[1] * t.groups;
    if let Some(b) = b
        && b.shape() != [cout]
    {
        return Err(shape_err(format!(
            "conv_transpose2d's bias must have one value per output channel ({cout}), but its shape is {}",
            fmt_shape(b.shape())
        )));
    }
    for d in 0..2 {
        if t.output_padding[d] >= t.stride[d] && t.output_padding[d] >= t.dilation[d] {
            return Err(value_err(format!(
                "output padding must be smaller than either stride or dilation, but got output_padding_height: {} output_padding_width: {} stride_height: {} stride_width: {} dilation_height: {} dilation_width: {}",
                t.output_padding[0],
                t.output_padding[1],
                t.stride[0],
                t.stride[1],
                t.dilation[0],
                t.dilation[1]
            ))
            .raised_as("RuntimeError"));
        }
    }
    Ok(())
}

/// (H - 1)·s - 2p + d·(k - 1) + output_padding + 1 along each axis.
fn output_size(input: [usize; 2], kernel: [usize; 2], t: &Transposed) -> Result<[usize; 2]> {
    // In i128: sizes and strides the user typed cannot overflow it.
    let wide = |v: usize| v as i128;
    let mut out = [0i128; 2];
    for d in 0..2 {
        out[d] = (wide(input[d]) - 1) * wide(t.stride[d]) - 2 * wide(t.padding[d])
            + wide(t.dilation[d]) * (wide(kernel[d]) - 1)
            + wide(t.output_padding[d])
            + 1;
    }
    if out.iter().any(|&o| o <= 0) || input.contains(&0) {
        return Err(shape_err(format!(
            "Given input size per channel: ({} x {}). Calculated output size per channel: ({} x {}). Output size is too small",
            input[0], input[1], out[0], out[1]
        )));
    }
    // A size past usize is one no allocation passes (check_alloc refuses it).
    Ok(out.map(|o| usize::try_from(o).unwrap_or(usize::MAX)))
}
