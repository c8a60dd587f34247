//! torch.nn.init: fill a parameter in place (grad mode off, so it stays a leaf).

use crate::autograd::NoGradGuard;
use crate::error::{Result, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::index::write_all;
use crate::tensor::shape::fmt_shape;

/// fan_in and fan_out as PyTorch computes them: dims 1 and 0 times the receptive field.
pub fn fans(t: &Tensor) -> Result<(f64, f64)> {
    if t.ndim() < 2 {
        return Err(value_err(format!(
            "fan in and fan out cannot be computed for a tensor with fewer than 2 dimensions (shape {})",
            fmt_shape(t.shape())
        ))
        .hint("initialise weight matrices (out_features, in_features) or conv kernels"));
    }
    let receptive: usize = t.shape()[2..].iter().product();
    Ok((
        (t.shape()[1] * receptive) as f64,
        (t.shape()[0] * receptive) as f64,
    ))
}

/// torch.nn.init.calculate_gain.
pub fn gain(nonlinearity: &str, param: Option<f64>) -> Result<f64> {
    Ok(match nonlinearity {
        "linear" | "conv1d" | "conv2d" | "conv3d" | "sigmoid" | "conv_transpose1d"
        | "conv_transpose2d" | "conv_transpose3d" => 1.0,
        "tanh" => 5.0 / 3.0,
        "relu" => 2f64.sqrt(),
        "leaky_relu" => {
            let a = param.unwrap_or(0.01);
            (2.0 / (1.0 + a * a)).sqrt()
        }
        "selu" => 0.75,
        other => {
            return Err(value_err(format!("unsupported nonlinearity '{other}'"))
                .hint("one of linear, sigmoid, tanh, relu, leaky_relu, selu"));
        }
    })
}

fn fill_with(t: &Tensor, values: Tensor) -> Result<()> {
    let _off = NoGradGuard::new();
    write_all(t, &values)
}

/// Draws as PyTorch does for a tensor of t's dtype, so seeded inits match.
pub fn uniform_(t: &Tensor, a: f64, b: f64) -> Result<()> {
    fill_with(
        t,
        crate::tensor::ops::creation::uniform(t.shape(), a, b, t.dtype(), t.device())?,
    )
}

pub fn normal_(t: &Tensor, mean: f64, std: f64) -> Result<()> {
    fill_with(
        t,
        crate::tensor::ops::creation::normal(t.shape(), mean, std, t.dtype(), t.device())?,
    )
}

pub fn constant_(t: &Tensor, value: f64) -> Result<()> {
    fill_with(t, Tensor::scalar_f64(value, crate::tensor::DType::F64))
}

fn fan(t: &Tensor, mode: &str) -> Result<f64> {
    let (fan_in, fan_out) = fans(t)?;
    match mode {
        "fan_in" => Ok(fan_in),
        "fan_out" => Ok(fan_out),
        other => Err(value_err(format!(
            "mode must be 'fan_in' or 'fan_out', not '{other}'"
        ))),
    }
}

pub fn kaiming_uniform_(t: &Tensor, a: f64, mode: &str, nonlinearity: &str) -> Result<()> {
    let std = gain(nonlinearity, Some(a))? / fan(t, mode)?.sqrt();
    let bound = 3f64.sqrt() * std;
    uniform_(t, -bound, bound)
}

pub fn kaiming_normal_(t: &Tensor, a: f64, mode: &str, nonlinearity: &str) -> Result<()> {
    let std = gain(nonlinearity, Some(a))? / fan(t, mode)?.sqrt();
    normal_(t, 0.0, std)
}

pub fn xavier_uniform_(t: &Tensor, gain: f64) -> Result<()> {
    let (fan_in, fan_out) = fans(t)?;
    let bound = gain * (6.0 / (fan_in + fan_out)).sqrt();
    uniform_(t, -bound, bound)
}

pub fn xavier_normal_(t: &Tensor, gain: f64) -> Result<()> {
    let (fan_in, fan_out) = fans(t)?;
    normal_(t, 0.0, gain * (2.0 / (fan_in + fan_out)).sqrt())
}
