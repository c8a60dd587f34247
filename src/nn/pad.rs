//! F.pad: constant, reflect, replicate and circular padding (and cropping, by
//! negative amounts), each recorded as PyTorch's single node.

use crate::autograd::composite::composite;
use crate::autograd::record;
use crate::autograd::rules::rule;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::creation::full;
use crate::tensor::ops::index::{Idx, index, write_region};
use crate::tensor::ops::view::narrow;
use crate::tensor::shape::fmt_shape;

/// F.pad: `pad` is (left, right) pairs from the last dim backwards; negative
/// amounts crop. Modes: constant (with value), reflect, replicate, circular.
pub fn pad(x: &Tensor, pad: &[i64], mode: &str, value: f64) -> Result<Tensor> {
    if !pad.len().is_multiple_of(2) || pad.len() / 2 > x.ndim() {
        return Err(value_err(format!(
            "Padding length should be less than or equal to two times the input dimension but got padding length {} and input of dimension {}",
            pad.len(),
            x.ndim()
        )));
    }
    let name = match mode {
        "constant" => "ConstantPadNdBackward0",
        "reflect" => [
            "ReflectionPad1dBackward0",
            "ReflectionPad2dBackward0",
            "ReflectionPad3dBackward0",
        ][(pad.len() / 2).clamp(1, 3) - 1],
        "replicate" => [
            "ReplicationPad1dBackward0",
            "ReplicationPad2dBackward0",
            "ReplicationPad3dBackward0",
        ][(pad.len() / 2).clamp(1, 3) - 1],
        "circular" => "CatBackward0",
        other => {
            return Err(value_err(format!("Unrecognised padding mode {other}")));
        }
    };
    if mode == "constant" {
        return composite(name, &[x], |t| constant_pad(&t[0], pad, value));
    }
    // The other modes pad the last one, two or three dims of a batch (with
    // or without its batch dim), as ATen's kernels do.
    let k = pad.len() / 2;
    if !(1..=3).contains(&k) || !(k + 1..=k + 2).contains(&x.ndim()) {
        return Err(value_err(format!(
            "Padding size {} is not supported for {}D input tensor.\nSupported combinations for non-constant padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)",
            pad.len(),
            x.ndim()
        )));
    }
    composite(name, &[x], |t| {
        let mut y = t[0].clone();
        for (i, lr) in pad.chunks(2).enumerate() {
            let d = (x.ndim() - 1 - i) as i64;
            y = pad_dim(&y, d, lr[0], lr[1], mode)?;
        }
        Ok(y)
    })
}

/// `x` with negative amounts cropped off dim `d` (a view).
fn crop(x: &Tensor, d: i64, left: i64, right: i64) -> Result<Tensor> {
    let n = x.shape()[d as usize] as i64;
    let (crop_l, crop_r) = ((-left).max(0), (-right).max(0));
    if crop_l + crop_r > n {
        return Err(shape_err("the padding crops more than the dimension holds"));
    }
    narrow(x, d, crop_l, n - crop_l - crop_r)
}

/// Constant padding as ATen does it: the result filled with `value`, the
/// (cropped) input copied into its interior; the gradient is that interior
/// of the output's gradient. (A cat per padded dim, with two filled sides
/// each, took 4x PyTorch's time.)
fn constant_pad(x: &Tensor, pad: &[i64], value: f64) -> Result<Tensor> {
    let nd = x.ndim();
    let mut y = x.clone();
    let mut before = vec![0usize; nd];
    let mut shape = x.shape().to_vec();
    for (i, lr) in pad.chunks(2).enumerate() {
        let d = nd - 1 - i;
        y = crop(&y, d as i64, lr[0], lr[1])?;
        before[d] = lr[0].max(0) as usize;
        // Saturating: an absurd amount is check_alloc's refusal, not a wrap.
        shape[d] = y.shape()[d]
            .saturating_add(before[d])
            .saturating_add(lr[1].max(0) as usize);
    }
    if shape == y.shape() {
        return Ok(y);
    }
    crate::tensor::core::check_alloc(&shape, y.dtype())?;
    let out =
        crate::autograd::no_grad(|| full(&shape, value, value as i64, y.dtype(), y.device()))?;
    let mut interior = out.layout().clone();
    for (d, &b) in before.iter().enumerate() {
        interior = interior.slice(d, b, y.shape()[d], 1);
    }
    write_region(&out, &interior, &y)?;
    let inner = y.shape().to_vec();
    Ok(record(
        out,
        "ConstantPadNdBackward0",
        &[&y],
        false,
        move || {
            rule(move |g| {
                let mut g = g.clone();
                for (d, (&b, &n)) in before.iter().zip(&inner).enumerate() {
                    g = narrow(&g, d as i64, b as i64, n as i64)?;
                }
                Ok(vec![Some(g)])
            })
        },
    ))
}

/// Reflect, replicate or circular padding of dim `d`: a pick of positions.
fn pad_dim(x: &Tensor, d: i64, left: i64, right: i64, mode: &str) -> Result<Tensor> {
    let x = crop(x, d, left, right)?;
    let n = x.shape()[d as usize] as i64;
    let (l, r) = (left.max(0), right.max(0));
    if l == 0 && r == 0 {
        return Ok(x);
    }
    if mode == "reflect" && (l >= n || r >= n) {
        return Err(value_err(format!(
            "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding ({l}, {r}) at dimension {d} of input {}",
            fmt_shape(x.shape())
        )));
    }
    let at = |i: i64| -> i64 {
        match mode {
            "reflect" => {
                let period = 2 * (n - 1).max(1);
                let m = i.rem_euclid(period);
                if m < n { m } else { period - m }
            }
            "replicate" => i.clamp(0, n - 1),
            _ => i.rem_euclid(n),
        }
    };
    let idx: Vec<i64> = (-l..n + r).map(at).collect();
    let len = idx.len();
    let idx = Tensor::from_vec(idx, &[len]).to_device(x.device())?;
    let mut picks = vec![Idx::Slice(None, None, None); d as usize];
    picks.push(Idx::Tensor(idx));
    index(&x, &picks)
}
