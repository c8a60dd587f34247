//! Quantized tensors as PyTorch's `_str_intern` prints them: the dequantized
//! values in the dense formatter, then `size=`, `dtype=`, the scheme and its
//! parameters as suffixes, wrapped as any tensor's suffixes are.

use super::number::py_float_repr;
use super::tensor::{PrintOptions, add_suffixes, device_suffix, format_body, format_tensor};
use crate::tensor::quantized::{QParams, QTensor};
use crate::tensor::shape::fmt_shape;

pub fn format_qtensor(q: &QTensor, opts: &PrintOptions) -> String {
    const PREFIX: &str = "tensor(";
    let mut suffixes: Vec<String> = device_suffix(q.device()).into_iter().collect();
    suffixes.push(format!("size={}", py_tuple(q.shape())));
    suffixes.push(format!("dtype=torch.{}", q.dtype().name()));
    suffixes.push(format!("quantization_scheme=torch.{}", q.qscheme().name()));
    suffixes.extend(parameter_suffixes(q.params(), opts));
    let body = if q.numel() == 0 {
        "[]".to_string()
    } else {
        match q.dequantize() {
            Ok(values) => format_body(&values, opts, PREFIX.len()),
            Err(e) => format!("<cannot be read: {}>", e.message),
        }
    };
    add_suffixes(
        format!("{PREFIX}{body}"),
        &suffixes,
        PREFIX.len(),
        opts.linewidth,
        false,
    )
}

/// `scale=0.1, zero_point=10`, or the per-channel tensors and the axis.
fn parameter_suffixes(params: &QParams, opts: &PrintOptions) -> Vec<String> {
    match params {
        QParams::PerTensor { scale, zero_point } => vec![
            format!("scale={}", py_float_repr(*scale)),
            format!("zero_point={zero_point}"),
        ],
        QParams::PerChannel {
            scales,
            zero_points,
            axis,
        } => vec![
            format!("scale={}", format_tensor(scales, opts)),
            format!("zero_point={}", format_tensor(zero_points, opts)),
            format!("axis={axis}"),
        ],
    }
}

/// A shape as Python's tuple prints it: `(4,)`, `(2, 3)`, `()`.
fn py_tuple(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
            format!("({})", dims.join(", "))
        }
    }
}

/// The dimmed line under an echoed quantized tensor: shape, dtype, device, scheme.
pub fn footer(q: &QTensor) -> String {
    format!(
        "{} {} {}  {}",
        fmt_shape(q.shape()),
        q.dtype().name(),
        q.device(),
        q.qscheme().name()
    )
}
