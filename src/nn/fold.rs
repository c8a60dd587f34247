//! `F.unfold` and `F.fold` (nn.Unfold, nn.Fold): sliding blocks of an image
//! as columns, and columns summed back into an image. They are the backend's
//! im2col and col2im, which convolution uses inside; each is the other's
//! gradient.

use super::conv::{Geometry, unfold};
use crate::autograd::record;
use crate::autograd::rules::rule;
use crate::backend::Window;
use crate::error::{Result, index_err, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::view::{squeeze, unsqueeze};
use crate::tensor::shape::fmt_shape;

/// The block geometry both functions take: kernel_size, dilation, padding
/// and stride, each a pair.
#[derive(Clone, Copy, Debug)]
pub struct Blocks {
    pub kernel: [usize; 2],
    pub dilation: [usize; 2],
    pub padding: [usize; 2],
    pub stride: [usize; 2],
}

impl Blocks {
    fn window(&self, image: [usize; 2]) -> Result<Window> {
        if self.kernel.contains(&0) || self.dilation.contains(&0) || self.stride.contains(&0) {
            return Err(value_err(format!(
                "kernel size, dilation and stride should all be greater than zero, but got kernel_size={:?}, dilation={:?}, stride={:?}",
                self.kernel, self.dilation, self.stride
            )));
        }
        Geometry {
            kernel: self.kernel,
            stride: self.stride,
            pad_before: self.padding,
            pad_total: [2 * self.padding[0], 2 * self.padding[1]],
            dilation: self.dilation,
            ceil_mode: false,
        }
        .window(image)
    }
}

/// `F.unfold`: `[N, C, H, W]` → `[N, C * kh * kw, L]` (an unbatched
/// `[C, H, W]` gives `[C * kh * kw, L]`), zeros outside the image.
pub fn unfold_blocks(x: &Tensor, blocks: &Blocks) -> Result<Tensor> {
    let (x, unbatched) = match x.ndim() {
        4 => (x.clone(), false),
        3 => (unsqueeze(x, 0)?, true),
        // PyTorch reads dim 2 of a shorter input first: an IndexError.
        d if d < 3 => {
            return Err(index_err(format!(
                "F.unfold takes (N, C, H, W) or (C, H, W), but the input has {d} dims"
            )));
        }
        _ => {
            return Err(shape_err(format!(
                "Expected 3D or 4D (batch mode) tensor for input, but got: {}",
                fmt_shape(x.shape())
            ))
            .hint("F.unfold takes (N, C, H, W) or (C, H, W)"));
        }
    };
    let win = blocks.window([x.shape()[2], x.shape()[3]])?;
    let cols = unfold(&x, &win, 0.0)?;
    if unbatched {
        squeeze(&cols, Some(&[0]))
    } else {
        Ok(cols)
    }
}

/// `F.fold`: `[N, C * kh * kw, L]` → `[N, C, H, W]` for H, W = output_size,
/// overlapping blocks summed (an unbatched `[C * kh * kw, L]` gives `[C, H, W]`).
pub fn fold_blocks(x: &Tensor, output_size: [usize; 2], blocks: &Blocks) -> Result<Tensor> {
    let (x, unbatched) = match x.ndim() {
        3 => (x.clone(), false),
        2 => (unsqueeze(x, 0)?, true),
        _ => {
            return Err(shape_err(format!(
                "Expected 2D or 3D (batch mode) tensor for input, but got: {}",
                fmt_shape(x.shape())
            ))
            .hint("F.fold takes (N, C * kh * kw, L) or (C * kh * kw, L)"));
        }
    };
    let win = blocks.window(output_size)?;
    let kk = blocks.kernel[0] * blocks.kernel[1];
    let (rows, l) = (x.shape()[1], x.shape()[2]);
    if rows % kk != 0 {
        return Err(shape_err(format!(
            "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)={rows} and kernel_size={:?}",
            blocks.kernel
        )));
    }
    let blocks_count = win.out[0] * win.out[1];
    if l != blocks_count {
        return Err(shape_err(format!(
            "Given output_size={:?}, kernel_size={:?}, dilation={:?}, padding={:?}, stride={:?}, expected size of input's dimension 2 to match the calculated number of sliding blocks {} * {} = {blocks_count}, but got input.size(2)={l}.",
            output_size, blocks.kernel, blocks.dilation, blocks.padding, blocks.stride, win.out[0], win.out[1]
        ))
        .hint(format!("the input {} must have one column per sliding block", fmt_shape(x.shape()))));
    }
    let image = fold_image(&x, &win, rows / kk, output_size)?;
    if unbatched {
        squeeze(&image, Some(&[0]))
    } else {
        Ok(image)
    }
}

/// col2im: `[N, channels * kh * kw, L]` columns, block `l` at `win`'s
/// output position `l`, summed into `[N, channels, H, W]` for H, W = `hw`.
/// Its gradient is im2col.
pub(super) fn fold_image(
    x: &Tensor,
    win: &Window,
    channels: usize,
    hw: [usize; 2],
) -> Result<Tensor> {
    let shape = [x.shape()[0], channels, hw[0], hw[1]];
    crate::tensor::core::check_alloc(&shape, x.dtype())?;
    let image = Tensor::from_contiguous(x.read().fold(x.layout(), win, channels, hw)?, &shape);
    let win = *win;
    Ok(record(image, "Col2ImBackward0", &[x], false, move || {
        rule(move |g| Ok(vec![Some(unfold(g, &win, 0.0)?)]))
    }))
}
