//! Tensors made from nothing: constants, ranges, identity, random numbers.

use crate::backend::cpu::map::filled;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::core::{Tensor, check_alloc, check_working_set};
use crate::tensor::dtype::DType;
use crate::tensor::random;

pub fn full(shape: &[usize], value: f64, ivalue: i64, dtype: DType) -> Result<Tensor> {
    check_alloc(shape, dtype)?;
    Ok(Tensor::from_contiguous(
        filled(dtype, shape.iter().product(), value, ivalue),
        shape,
    ))
}

pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full(shape, 0.0, 0, dtype)
}

pub fn ones(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full(shape, 1.0, 1, dtype)
}

/// `arange(start, end, step)`: `ceil((end - start) / step)` values.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    if step == 0.0 {
        return Err(value_err("arange: step must be non-zero"));
    }
    if !(start.is_finite() && end.is_finite() && step.is_finite()) {
        return Err(value_err("arange: start, end and step must be finite"));
    }
    if (end - start) * step < 0.0 {
        return Err(value_err(format!(
            "arange: the range from {start} to {end} cannot be walked with step {step}"
        ))
        .hint("use a negative step to count down"));
    }
    let n = ((end - start) / step).ceil().max(0.0);
    if n > 1e15 {
        return Err(value_err("arange: too many elements"));
    }
    let n = n as usize;
    check_working_set(&[n], dtype, 8 + dtype.size())?;
    let t = if dtype.is_float() {
        Tensor::from_vec(
            (0..n)
                .map(|i| start + i as f64 * step)
                .collect::<Vec<f64>>(),
            &[n],
        )
    } else {
        let (s, st) = (start as i64, step as i64);
        Tensor::from_vec(
            (0..n).map(|i| s + i as i64 * st).collect::<Vec<i64>>(),
            &[n],
        )
    };
    Ok(t.to_dtype(dtype))
}

/// `linspace`, computed from both ends as PyTorch does so the last value is exact.
pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType) -> Result<Tensor> {
    if steps < 0 {
        return Err(value_err("linspace: number of steps must be non-negative"));
    }
    let n = steps as usize;
    check_alloc(&[n], dtype)?;
    let step = if n > 1 {
        (end - start) / (n - 1) as f64
    } else {
        0.0
    };
    let half = n / 2;
    let v: Vec<f64> = (0..n)
        .map(|i| {
            if i < half {
                start + step * i as f64
            } else {
                end - step * (n - 1 - i) as f64
            }
        })
        .collect();
    Ok(Tensor::from_vec(v, &[n]).to_dtype(dtype))
}

pub fn eye(n: usize, m: usize, dtype: DType) -> Result<Tensor> {
    check_alloc(&[n, m], dtype)?;
    let mut v = vec![0.0f64; n * m];
    for i in 0..n.min(m) {
        v[i * m + i] = 1.0;
    }
    Ok(Tensor::from_vec(v, &[n, m]).to_dtype(dtype))
}

pub fn manual_seed(seed: u64) {
    random::manual_seed(seed);
}

/// Random floats need a floating point dtype (PyTorch refuses the rest too).
pub fn random_float_dtype(what: &str, dtype: DType) -> Result<()> {
    if dtype.is_float() {
        return Ok(());
    }
    Err(
        dtype_err(format!("{what} needs a floating point dtype, not {dtype}"))
            .hint("pass dtype=torch.float32, or use randint for random integers"),
    )
}

pub fn rand(shape: &[usize], dtype: DType) -> Result<Tensor> {
    random_float_dtype("rand", dtype)?;
    check_working_set(shape, dtype, 8 + dtype.size())?;
    let v = random::uniform(shape.iter().product(), dtype, 0.0, 1.0);
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randn(shape: &[usize], dtype: DType) -> Result<Tensor> {
    random_float_dtype("randn", dtype)?;
    check_working_set(shape, dtype, 8 + dtype.size())?;
    let v = random::normal(shape.iter().product(), dtype, 0.0, 1.0);
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Tensor> {
    if high <= low {
        return Err(value_err(format!(
            "randint: high ({high}) must be greater than low ({low})"
        )));
    }
    check_working_set(shape, dtype, 8 + dtype.size())?;
    let v = random::integers(shape.iter().product(), low, high);
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randperm(n: usize, dtype: DType) -> Result<Tensor> {
    check_working_set(&[n], dtype, 8 + dtype.size())?;
    Ok(Tensor::from_vec(random::permutation(n), &[n]).to_dtype(dtype))
}
