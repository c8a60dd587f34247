//! Quantized tensors, as PyTorch's `torch.quint8` / `qint8` / `qint32` tensors:
//! an integer tensor (the "int_repr") and the affine map that reads it as
//! floats, `x = (q - zero_point) * scale`, with one scale and zero point for the
//! whole tensor or one per slice along an axis. Everything here is written in
//! dense tensor ops, so a quantized tensor lives on any device its integers do.

pub mod fake;
pub mod quantize;

use crate::error::{Result, dtype_err, value_err};
use crate::tensor::ops::arith::{mul, num, sub};
use crate::tensor::ops::view::reshape;
use crate::tensor::{DType, Device, Tensor};

pub use quantize::{
    choose_qparams, quantize_per_channel, quantize_per_tensor, quantize_per_tensor_dynamic,
    quantize_scaled,
};

/// The element type of a quantized tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QDType {
    QUInt8,
    QInt8,
    QInt32,
}

impl QDType {
    pub const ALL: [QDType; 3] = [QDType::QUInt8, QDType::QInt8, QDType::QInt32];

    /// The name after `torch.`.
    pub fn name(self) -> &'static str {
        match self {
            QDType::QUInt8 => "quint8",
            QDType::QInt8 => "qint8",
            QDType::QInt32 => "qint32",
        }
    }

    pub fn from_name(name: &str) -> Option<QDType> {
        QDType::ALL.into_iter().find(|d| d.name() == name)
    }

    /// PyTorch's C++ name for it, as its error messages spell it.
    pub fn scalar_name(self) -> &'static str {
        match self {
            QDType::QUInt8 => "QUInt8",
            QDType::QInt8 => "QInt8",
            QDType::QInt32 => "QInt32",
        }
    }

    /// The dense dtype that holds the integers (what `int_repr()` returns).
    pub fn storage(self) -> DType {
        match self {
            QDType::QUInt8 => DType::U8,
            QDType::QInt8 => DType::I8,
            QDType::QInt32 => DType::I32,
        }
    }

    /// The smallest and largest integer it holds.
    pub fn range(self) -> (i64, i64) {
        self.storage().int_range()
    }

    pub fn itemsize(self) -> usize {
        self.storage().size()
    }
}

/// How the floats map onto the integers: PyTorch's `torch.qscheme` values. tsh
/// makes tensors of the two affine schemes; the symmetric ones and
/// float-qparams exist as names (torch attributes) only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QScheme {
    PerTensorAffine,
    PerChannelAffine,
    PerTensorSymmetric,
    PerChannelSymmetric,
    PerChannelAffineFloatQParams,
}

impl QScheme {
    pub const ALL: [QScheme; 5] = [
        QScheme::PerTensorAffine,
        QScheme::PerChannelAffine,
        QScheme::PerTensorSymmetric,
        QScheme::PerChannelSymmetric,
        QScheme::PerChannelAffineFloatQParams,
    ];

    pub fn name(self) -> &'static str {
        match self {
            QScheme::PerTensorAffine => "per_tensor_affine",
            QScheme::PerChannelAffine => "per_channel_affine",
            QScheme::PerTensorSymmetric => "per_tensor_symmetric",
            QScheme::PerChannelSymmetric => "per_channel_symmetric",
            QScheme::PerChannelAffineFloatQParams => "per_channel_affine_float_qparams",
        }
    }

    pub fn from_name(name: &str) -> Option<QScheme> {
        QScheme::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// The scale(s) and zero point(s).
#[derive(Clone)]
pub enum QParams {
    /// One for the whole tensor; the scale is a double, as PyTorch keeps it.
    PerTensor { scale: f64, zero_point: i64 },
    /// One per index along `axis`: float64 scales and int64 zero points, on the
    /// integers' device.
    PerChannel {
        scales: Tensor,
        zero_points: Tensor,
        axis: usize,
    },
}

#[derive(Clone)]
pub struct QTensor {
    repr: Tensor,
    dtype: QDType,
    params: QParams,
}

/// PyTorch warns once per process, the first time a quantized tensor is made
/// (tsh: once per session).
const DEPRECATED: &str = "torch.quantize_per_tensor, torch.quantize_per_channel and other quantized tensor creation functions that produce tensors with dtype torch.quint8, torch.qint8, and torch.qint32 are deprecated and will be removed in a future PyTorch release. Please see https://github.com/pytorch/pytorch/issues/184982 for more information.";

impl QTensor {
    /// A quantized tensor over `repr`, which must already hold `dtype`'s integers.
    fn new(repr: Tensor, dtype: QDType, params: QParams) -> QTensor {
        debug_assert_eq!(repr.dtype(), dtype.storage());
        crate::warnings::warn_once(crate::warnings::WarningKind::User, DEPRECATED);
        QTensor {
            repr,
            dtype,
            params,
        }
    }

    /// The integers, as a dense tensor (`int_repr()`).
    pub fn int_repr(&self) -> &Tensor {
        &self.repr
    }
    pub fn dtype(&self) -> QDType {
        self.dtype
    }
    pub fn params(&self) -> &QParams {
        &self.params
    }
    pub fn shape(&self) -> &[usize] {
        self.repr.shape()
    }
    pub fn ndim(&self) -> usize {
        self.repr.ndim()
    }
    pub fn numel(&self) -> usize {
        self.repr.numel()
    }
    pub fn device(&self) -> Device {
        self.repr.device()
    }

    pub fn qscheme(&self) -> QScheme {
        match self.params {
            QParams::PerTensor { .. } => QScheme::PerTensorAffine,
            QParams::PerChannel { .. } => QScheme::PerChannelAffine,
        }
    }

    /// The per-tensor scale and zero point; an error for a per-channel tensor.
    pub fn per_tensor(&self) -> Result<(f64, i64)> {
        match self.params {
            QParams::PerTensor { scale, zero_point } => Ok((scale, zero_point)),
            QParams::PerChannel { .. } => Err(scheme_err(QScheme::PerTensorAffine)),
        }
    }

    /// The per-channel scales, zero points and axis; an error for a per-tensor one.
    pub fn per_channel(&self) -> Result<(&Tensor, &Tensor, usize)> {
        match &self.params {
            QParams::PerChannel {
                scales,
                zero_points,
                axis,
            } => Ok((scales, zero_points, *axis)),
            QParams::PerTensor { .. } => Err(scheme_err(QScheme::PerChannelAffine)),
        }
    }

    /// The floats it stands for (float32). PyTorch's kernels: per tensor
    /// `(q - zero_point) * scale` in float32; per channel the difference, widened,
    /// times the double scale, then rounded to float32.
    pub fn dequantize(&self) -> Result<Tensor> {
        let q = self.repr.to_dtype(DType::F32)?;
        match &self.params {
            QParams::PerTensor { scale, zero_point } => mul(
                &sub(&q, &num(*zero_point as f64))?,
                &num(*scale as f32 as f64),
            ),
            QParams::PerChannel {
                scales,
                zero_points,
                axis,
            } => {
                let shape = channel_shape(self.ndim(), *axis, self.shape()[*axis]);
                let zp = reshape(&zero_points.to_dtype(DType::F32)?, &shape)?;
                let diff = sub(&q, &zp)?.to_dtype(DType::F64)?;
                mul(&diff, &reshape(scales, &shape)?)?.to_dtype(DType::F32)
            }
        }
    }

    /// The same quantization over other integers of the same dtype: the result
    /// of a view or an op that only moves integers (indexing, max pooling).
    /// Per-channel parameters would have to follow their axis, so only
    /// per-tensor ones are kept.
    pub fn with_repr(&self, repr: Tensor, what: &str) -> Result<QTensor> {
        if let QParams::PerChannel { .. } = self.params {
            return Err(value_err(format!(
                "{what} of a per-channel quantized tensor is not supported by tsh"
            ))
            .hint("dequantize() it first, or quantize per tensor"));
        }
        Ok(QTensor::new(
            repr.to_dtype(self.dtype.storage())?,
            self.dtype,
            self.params.clone(),
        ))
    }

    /// A copy on `device` (the integers and any per-channel parameters move).
    pub fn to_device(&self, device: Device) -> Result<QTensor> {
        let params = match &self.params {
            QParams::PerTensor { .. } => self.params.clone(),
            QParams::PerChannel {
                scales,
                zero_points,
                axis,
            } => QParams::PerChannel {
                scales: scales.to_device(device)?,
                zero_points: zero_points.to_device(device)?,
                axis: *axis,
            },
        };
        Ok(QTensor {
            repr: self.repr.to_device(device)?,
            dtype: self.dtype,
            params,
        })
    }

    /// An independent copy (`clone()`).
    pub fn deep_clone(&self) -> Result<QTensor> {
        Ok(QTensor {
            repr: self.repr.deep_clone()?,
            dtype: self.dtype,
            params: self.params.clone(),
        })
    }
}

/// The shape that lines a per-channel vector up with `axis` of an `ndim`-d tensor.
pub fn channel_shape(ndim: usize, axis: usize, n: usize) -> Vec<i64> {
    (0..ndim)
        .map(|d| if d == axis { n as i64 } else { 1 })
        .collect()
}

/// An accessor or op of one scheme called on a tensor of the other.
fn scheme_err(wanted: QScheme) -> crate::error::Error {
    let other = match wanted {
        QScheme::PerTensorAffine => QScheme::PerChannelAffine,
        _ => QScheme::PerTensorAffine,
    };
    value_err(format!(
        "this needs a {} quantized tensor, but this one is {}",
        wanted.name(),
        other.name()
    ))
    .hint("q_scale()/q_zero_point() read a per-tensor one (quantize_per_tensor); q_per_channel_scales()/q_per_channel_zero_points() a per-channel one (quantize_per_channel)")
}

/// The input of a quantize: float32 only, as PyTorch's quantizers.
fn require_f32(x: &Tensor, what: &str) -> Result<()> {
    if x.dtype() != DType::F32 {
        return Err(dtype_err(format!(
            "{what} only works on Float Tensor, got {}",
            x.dtype().torch_scalar_name()
        ))
        .hint("convert it first: x.float()"));
    }
    Ok(())
}
