//! One element to the host as a Python number: `item()`, `int(t)`, `bool(t)`,
//! and the few ops whose result's shape depends on a value (a 0-d bool index).

use crate::error::{Result, value_err};
use crate::tensor::Tensor;
use crate::tensor::shape::fmt_shape;

fn single(t: &Tensor, what: &str) -> Result<crate::backend::HostBuffer> {
    if t.numel() != 1 {
        return Err(value_err(format!(
            "{what} needs a tensor with exactly one element, but this one has shape {}",
            fmt_shape(t.shape())
        ))
        .hint("reduce it first (e.g. t.sum()), or index one element"));
    }
    t.to_host()
}

pub fn item_f64(t: &Tensor) -> Result<f64> {
    Ok(single(t, "a Python number")?.get_f64(0))
}

pub fn item_i64(t: &Tensor) -> Result<i64> {
    Ok(single(t, "a Python number")?.get_i64(0))
}

pub fn item_bool(t: &Tensor) -> Result<bool> {
    Ok(single(t, "a truth value")?.get_f64(0) != 0.0)
}
