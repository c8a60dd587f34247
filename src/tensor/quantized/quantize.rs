//! Floats to quantized integers: `quantize_per_tensor`, `quantize_per_channel`
//! and `quantize_per_tensor_dynamic` (with PyTorch's choice of parameters).

use super::{QDType, QParams, QTensor, channel_shape, require_f32};
use crate::error::{Result, shape_err, value_err};
use crate::tensor::op::{PredicateOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, div, mul, num, un, where_};
use crate::tensor::ops::elementwise::{clamp, predicate};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::scalar::{item_f64, item_i64};
use crate::tensor::ops::view::reshape;
use crate::tensor::{DType, Tensor};

/// `x` quantized with one scale and zero point.
pub fn quantize_per_tensor(
    x: &Tensor,
    scale: f64,
    zero_point: i64,
    dtype: QDType,
) -> Result<QTensor> {
    require_f32(x, "Quantize")?;
    check_zero_point(zero_point, dtype, "quantize_tensor_per_tensor_affine")?;
    let x = x.detached();
    let repr = crate::autograd::no_grad(|| {
        // As fbgemm: the reciprocal is taken in float32 and multiplied, not divided.
        let inv_scale = 1.0f32 / scale as f32;
        levels(
            &mul(&x, &num(inv_scale as f64))?,
            &num(zero_point as f64),
            dtype,
        )
    })?;
    Ok(QTensor::new(
        repr,
        dtype,
        QParams::PerTensor { scale, zero_point },
    ))
}

/// Values already divided by the scale (`x * (1 / scale)`), quantized as
/// PyTorch's kernels do when they fold the scale into their own arithmetic
/// (quantized batch norm): rounded, shifted by the zero point and clamped.
pub fn quantize_scaled(
    scaled: &Tensor,
    scale: f64,
    zero_point: i64,
    dtype: QDType,
) -> Result<QTensor> {
    check_zero_point(zero_point, dtype, "quantize_tensor_per_tensor_affine")?;
    let scaled = scaled.detached();
    let repr = crate::autograd::no_grad(|| levels(&scaled, &num(zero_point as f64), dtype))?;
    Ok(QTensor::new(
        repr,
        dtype,
        QParams::PerTensor { scale, zero_point },
    ))
}

/// `x` quantized with one scale and zero point per index along `axis`.
pub fn quantize_per_channel(
    x: &Tensor,
    scales: &Tensor,
    zero_points: &Tensor,
    axis: i64,
    dtype: QDType,
) -> Result<QTensor> {
    const WHAT: &str = "quantize_tensor_per_channel_affine";
    if x.dtype() != DType::F32 {
        return Err(crate::error::dtype_err(format!(
            "{WHAT} expects a Float Tensor, got {}",
            x.dtype().torch_scalar_name()
        )));
    }
    let axis = channel_axis(x, axis)?;
    let n = x.shape()[axis];
    check_channels(scales, n, "scales")?;
    check_channels(zero_points, n, "zero_points")?;
    if zero_points.dtype().is_float() {
        return Err(value_err(
            "float zero points (torch.per_channel_affine_float_qparams) are not supported by tsh",
        )
        .hint("pass integer zero points, e.g. torch.tensor([0, 1])"));
    }
    let device = x.device();
    let scales = scales.detached().to_dtype(DType::F64)?.to_device(device)?;
    let zero_points = zero_points
        .detached()
        .to_dtype(DType::I64)?
        .to_device(device)?;
    if n > 0 {
        check_zero_points(&zero_points, dtype, WHAT)?;
    }
    let x = x.detached();
    let repr = crate::autograd::no_grad(|| {
        let shape = channel_shape(x.ndim(), axis, n);
        let inv_scales = div(&num(1.0), &scales.to_dtype(DType::F32)?)?;
        let zp = zero_points.to_dtype(DType::F32)?;
        levels(
            &mul(&x, &reshape(&inv_scales, &shape)?)?,
            &reshape(&zp, &shape)?,
            dtype,
        )
    })?;
    Ok(QTensor::new(
        repr,
        dtype,
        QParams::PerChannel {
            scales,
            zero_points,
            axis,
        },
    ))
}

/// `x` quantized with the scale and zero point that map its range (widened to
/// hold 0) onto the dtype's, as PyTorch's dynamic quantization picks them.
pub fn quantize_per_tensor_dynamic(
    x: &Tensor,
    dtype: QDType,
    reduce_range: bool,
) -> Result<QTensor> {
    let (qmin, qmax) = match dtype {
        QDType::QUInt8 | QDType::QInt8 => dtype.range(),
        QDType::QInt32 => {
            return Err(value_err(format!(
                "dtype {}not supported",
                dtype.scalar_name()
            )));
        }
    };
    if x.numel() == 0 {
        return Err(value_err(
            "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.",
        ));
    }
    let min = item_f64(&reduce(x, ReduceOp::Min, None, false)?)? as f32;
    let max = item_f64(&reduce(x, ReduceOp::Max, None, false)?)? as f32;
    let (scale, zero_point) = choose_qparams(min, max, qmin, qmax, reduce_range)?;
    quantize_per_tensor(x, scale, zero_point, dtype)
}

/// Below this a scale is raised to it (PyTorch's SMALL_SCALE_THRESHOLD).
const SMALL_SCALE: f32 = 6.1e-5;

/// PyTorch's `ChooseQuantizationParams` (ATen's quantized/cpu/QuantUtils.h),
/// without its symmetric and power-of-two options: the scale spreads
/// [min(min, 0), max(max, 0)] over [qmin, qmax] in double precision; the zero
/// point comes from whichever end gives the smaller rounding error, nudged to
/// an integer in range.
pub fn choose_qparams(
    min: f32,
    max: f32,
    qmin: i64,
    qmax: i64,
    reduce_range: bool,
) -> Result<(f64, i64)> {
    if min > max {
        return Err(value_err(format!(
            "In ChooseQuantizationParams, min should be less than or equal to max; min: {min} max: {max}"
        )));
    }
    let (qmin, qmax) = if reduce_range {
        (qmin / 2, qmax / 2)
    } else {
        (qmin, qmax)
    };
    let (mut min, mut max) = (min.min(0.0), max.max(0.0));
    let mut scale = (max as f64 - min as f64) / (qmax - qmin) as f64;
    // A scale whose float reciprocal overflows would break fbgemm's multiply.
    if scale as f32 == 0.0 || (1.0f32 / scale as f32).is_infinite() {
        scale = 0.1;
    }
    if scale < SMALL_SCALE as f64 {
        let original = scale as f32;
        scale = SMALL_SCALE as f64;
        if min == 0.0 {
            max = SMALL_SCALE * (qmax - qmin) as f32;
        } else if max == 0.0 {
            min = -SMALL_SCALE * (qmax - qmin) as f32;
        } else {
            let amplifier = SMALL_SCALE / original;
            min *= amplifier;
            max *= amplifier;
        }
    }
    let (qmin_f, qmax_f) = (qmin as f64, qmax as f64);
    let from_min = qmin_f - min as f64 / scale;
    let from_max = qmax_f - max as f64 / scale;
    let error_min = qmin_f.abs() - (min as f64 / scale).abs();
    let error_max = qmax_f.abs() - (max as f64 / scale).abs();
    let initial = if error_min < error_max {
        from_min
    } else {
        from_max
    };
    let zero_point = if initial < qmin_f {
        qmin
    } else if initial > qmax_f {
        qmax
    } else {
        initial.round_ties_even() as i64
    };
    Ok((scale, zero_point))
}

/// PyTorch's `quantize_val`: `zero_point + nearbyint(x * inv_scale)` in float32
/// (halves to even), clamped to the dtype's range. `scaled` is `x * inv_scale`.
fn levels(scaled: &Tensor, zero_point: &Tensor, dtype: QDType) -> Result<Tensor> {
    let q = add(&un(UnaryOp::Round, scaled)?, zero_point)?;
    let (lo, hi) = dtype.range();
    // NaN passes fbgemm's float clamp and lands where its conversion puts it:
    // the top for 8-bit dtypes, the bottom for qint32.
    let nan_level = if dtype == QDType::QInt32 { lo } else { hi };
    let q = where_(
        &predicate(PredicateOp::IsNan, &q)?,
        &num(nan_level as f64),
        &q,
    )?;
    // float32 cannot hold qint32's bounds exactly; float64 can.
    let q = clamp(
        &q.to_dtype(DType::F64)?,
        Some(&num(lo as f64)),
        Some(&num(hi as f64)),
    )?;
    q.to_dtype(dtype.storage())
}

/// PyTorch's check that a zero point fits the dtype.
fn check_zero_point(zero_point: i64, dtype: QDType, what: &str) -> Result<()> {
    let (lo, hi) = dtype.range();
    if zero_point > hi {
        return Err(value_err(format!(
            "{what} zero_point {zero_point} is above upper bound."
        )));
    }
    if zero_point < lo {
        return Err(value_err(format!(
            "{what} zero_point {zero_point} is below lower bound."
        )));
    }
    Ok(())
}

/// The same check for every per-channel zero point (their extremes are read).
fn check_zero_points(zero_points: &Tensor, dtype: QDType, what: &str) -> Result<()> {
    let hi = item_i64(&reduce(zero_points, ReduceOp::Max, None, false)?)?;
    let lo = item_i64(&reduce(zero_points, ReduceOp::Min, None, false)?)?;
    check_zero_point(hi, dtype, what)?;
    check_zero_point(lo, dtype, what)
}

/// The per-channel axis, which PyTorch takes as it is (no negative counting).
fn channel_axis(x: &Tensor, axis: i64) -> Result<usize> {
    if axis < 0 || axis as usize >= x.ndim() {
        return Err(shape_err(format!(
            "Channel axis out of range in per channel affine quantization. Got: {axis}Expected: [0, {})",
            x.ndim()
        )));
    }
    Ok(axis as usize)
}

/// One scale (or zero point) per channel, as a vector.
fn check_channels(t: &Tensor, n: usize, what: &str) -> Result<()> {
    if t.ndim() != 1 || t.numel() != n {
        return Err(shape_err(format!(
            "length of {what} must equal to channel, expected {n} got, {}",
            t.numel()
        )));
    }
    Ok(())
}
