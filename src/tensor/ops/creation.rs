//! Tensors made from nothing: constants, ranges, identity, random numbers.

use crate::backend::{Distribution, Scalar, Storage};
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::core::{Tensor, check_alloc, check_working_set};
use crate::tensor::device::Device;
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::BinaryOp;
use crate::tensor::ops::arith::cmp;
use crate::tensor::ops::view::unsqueeze;

/// `shape` filled with `value` on `device`.
pub fn full_on(shape: &[usize], value: Scalar, dtype: DType, device: Device) -> Result<Tensor> {
    check_alloc(shape, dtype)?;
    if dtype.is_complex() {
        // A real fill value: the real parts hold it, the imaginary parts are zero.
        let part = dtype.real_part();
        let re = full_on(shape, value, part, device)?;
        let im = full_on(shape, Scalar::int(0), part, device)?;
        return crate::tensor::complex::from_parts(&re, &im);
    }
    let s = Storage::full(device, shape.iter().product(), dtype, value)?;
    Ok(Tensor::from_contiguous(s, shape))
}

/// `value` everywhere (`ivalue` for integer dtypes).
pub fn full(
    shape: &[usize],
    value: f64,
    ivalue: i64,
    dtype: DType,
    device: Device,
) -> Result<Tensor> {
    full_on(
        shape,
        Scalar {
            f: value,
            i: ivalue,
        },
        dtype,
        device,
    )
}

pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
    zeros_on(shape, dtype, Device::Cpu)
}

pub fn zeros_on(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    full_on(shape, Scalar::int(0), dtype, device)
}

/// Ones on the CPU (autograd's seed gradient and the like use `full_on`).
pub fn ones(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full_on(shape, Scalar::int(1), dtype, Device::Cpu)
}

/// `arange(start, end, step)`: `ceil((end - start) / step)` values.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType, device: Device) -> Result<Tensor> {
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
    let s = Storage::arange(
        device,
        Scalar {
            f: start,
            i: start as i64,
        },
        Scalar {
            f: step,
            i: step as i64,
        },
        n,
        dtype,
    )?;
    Ok(Tensor::from_contiguous(s, &[n]))
}

/// 0, 1, ..., n-1 as int64 on `device` (index arithmetic).
pub fn arange_on(n: usize, device: Device) -> Result<Tensor> {
    check_alloc(&[n], DType::I64)?;
    let s = Storage::arange(device, Scalar::int(0), Scalar::int(1), n, DType::I64)?;
    Ok(Tensor::from_contiguous(s, &[n]))
}

/// n-1, ..., 1, 0 as int64 on `device` (flips).
pub fn arange_rev_on(n: usize, device: Device) -> Result<Tensor> {
    check_alloc(&[n], DType::I64)?;
    let s = Storage::arange(
        device,
        Scalar::int(n as i64 - 1),
        Scalar::int(-1),
        n,
        DType::I64,
    )?;
    Ok(Tensor::from_contiguous(s, &[n]))
}

/// `steps` values evenly spaced from `start` to `end` (both included), computed
/// as PyTorch computes them (see the backend's linspace).
pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType, device: Device) -> Result<Tensor> {
    if steps < 0 {
        return Err(value_err("linspace: number of steps must be non-negative"));
    }
    if dtype == DType::Bool {
        return Err(dtype_err("linspace is not implemented for bool")
            .hint("make it in a number dtype and compare, e.g. linspace(0, 1, 5) > 0.5"));
    }
    if !dtype.is_float() {
        let (lo, hi) = dtype.int_range();
        for v in [start, end] {
            if !(lo as f64..=hi as f64).contains(&v.trunc()) {
                return Err(value_err(format!(
                    "linspace: {v} cannot be converted to {dtype} without overflow"
                )));
            }
        }
    }
    let n = steps as usize;
    check_alloc(&[n], dtype)?;
    let s = Storage::linspace(device, start, end, n, dtype)?;
    Ok(Tensor::from_contiguous(s, &[n]))
}

/// Zeros, and ones on the diagonal: a one copied onto the diagonal's
/// strided view (a compare of indices and a cast took two passes over the
/// matrix; eye(500) 0.15 ms, PyTorch's 0.02).
pub fn eye(n: usize, m: usize, dtype: DType, device: Device) -> Result<Tensor> {
    check_alloc(&[n, m], dtype)?;
    if dtype.is_complex() {
        // Where the row index equals the column index, cast.
        let rows = unsqueeze(&arange_on(n, device)?, 1)?;
        let cols = arange_on(m, device)?;
        return cmp(BinaryOp::Eq, &rows, &cols)?.to_dtype(dtype);
    }
    let mut s = Storage::full(device, n * m, dtype, Scalar::int(0))?;
    let k = n.min(m);
    if k > 0 {
        let one = Storage::full(device, 1, dtype, Scalar::int(1))?;
        let diagonal = Layout::contiguous(&[n, m]).diagonal(0, 0, 1);
        s.copy_into(&diagonal, &one, &Layout::contiguous(&[1]).expand(&[k]))?;
    }
    Ok(Tensor::from_contiguous(s, &[n, m]))
}

pub fn manual_seed(seed: u64) {
    crate::backend::manual_seed(seed);
}

pub use crate::backend::GeneratorState;

/// Run `f` drawing from `state` (a torch.Generator) instead of the default
/// CPU generator; the default's state is untouched.
pub fn with_generator<T>(state: &mut GeneratorState, f: impl FnOnce() -> T) -> T {
    crate::backend::swap_generator(state);
    let out = f();
    crate::backend::swap_generator(state);
    out
}

/// Random floats need a floating point dtype (PyTorch refuses the rest too).
pub fn random_float_dtype(what: &str, dtype: DType) -> Result<()> {
    if dtype.is_float() || dtype.is_complex() {
        return Ok(());
    }
    Err(
        dtype_err(format!("{what} needs a floating point dtype, not {dtype}"))
            .hint("pass dtype=torch.float32, or use randint for random integers"),
    )
}

/// Drawn where the tensor lives: the CPU's generator on the CPU (PyTorch's
/// streams), Philox on a CUDA device.
fn random(shape: &[usize], dist: Distribution, dtype: DType, device: Device) -> Result<Tensor> {
    if dtype.is_complex() {
        // As PyTorch: the (re, im) pairs drawn as one real tensor, a normal's
        // spread split between the two parts (each has half the variance).
        let dist = match dist {
            Distribution::Normal { mean, std } => Distribution::Normal {
                mean,
                std: std / std::f64::consts::SQRT_2,
            },
            d => d,
        };
        let mut pairs = shape.to_vec();
        pairs.push(2);
        return random(&pairs, dist, dtype.real_part(), device)?.view_as_complex();
    }
    // The generator draws through a 64-bit buffer.
    check_working_set(shape, dtype, 8 + dtype.size())?;
    let s = Storage::random(device, dist, shape.iter().product(), dtype)?;
    Ok(Tensor::from_contiguous(s, shape))
}

/// Uniform in [low, high) (rand is [0, 1)).
pub fn uniform(
    shape: &[usize],
    low: f64,
    high: f64,
    dtype: DType,
    device: Device,
) -> Result<Tensor> {
    random_float_dtype("uniform_", dtype)?;
    random(shape, Distribution::Uniform { low, high }, dtype, device)
}

pub fn normal(
    shape: &[usize],
    mean: f64,
    std: f64,
    dtype: DType,
    device: Device,
) -> Result<Tensor> {
    random_float_dtype("normal_", dtype)?;
    random(shape, Distribution::Normal { mean, std }, dtype, device)
}

pub fn rand(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    random_float_dtype("rand", dtype)?;
    random(
        shape,
        Distribution::Uniform {
            low: 0.0,
            high: 1.0,
        },
        dtype,
        device,
    )
}

pub fn randn(shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
    random_float_dtype("randn", dtype)?;
    random(
        shape,
        Distribution::Normal {
            mean: 0.0,
            std: 1.0,
        },
        dtype,
        device,
    )
}

pub fn randint(
    low: i64,
    high: i64,
    shape: &[usize],
    dtype: DType,
    device: Device,
) -> Result<Tensor> {
    if high <= low {
        return Err(value_err(format!(
            "randint: high ({high}) must be greater than low ({low})"
        )));
    }
    random(shape, Distribution::Integers { low, high }, dtype, device)
}

/// int64s from the whole non-negative range [0, 2^63), as PyTorch's
/// `random_()` draws them (one 64-bit word, modulo 2^63), from the CPU
/// generator, which reads the range as `high - low` in 128 bits cut to 64:
/// `high` = i64::MIN gives 2^63.
pub fn randint_full(shape: &[usize], device: Device) -> Result<Tensor> {
    let full_range = Distribution::Integers {
        low: 0,
        high: i64::MIN,
    };
    random(shape, full_range, DType::I64, Device::Cpu)?.to_device(device)
}

pub fn randperm(n: usize, dtype: DType, device: Device) -> Result<Tensor> {
    random(&[n], Distribution::Permutation, dtype, device)
}
