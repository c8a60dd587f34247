//! Tensor methods that convert: to, type, float/double/half/... and cpu/cuda (the same tensor back when nothing changes, as PyTorch).

use super::Builtin;
use super::tensor_methods::receiver;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::{DType, Device, Tensor};

pub const ROWS: &[Builtin] = &[
    row!(
        Method,
        "to",
        "to(dtype) | to(device) | to(device, dtype) | to(other)",
        "Convert dtype and/or move to a device.",
        "tensor([1, 2]).to(float64)",
        to
    ),
    row!(
        Method,
        "get_device",
        "get_device()",
        "The index of the CUDA device the tensor is on, or -1 on the cpu.",
        "tensor([1, 2]).get_device()",
        get_device
    ),
    row!(
        Method,
        "type",
        "type(dtype=None)",
        "The type name, or a conversion to dtype.",
        "tensor([1, 2]).type(float32)",
        type_
    ),
    row!(
        Method,
        "float",
        "float()",
        "Convert to float32.",
        "tensor([1, 2]).float()",
        to_f32
    ),
    row!(
        Method,
        "double",
        "double()",
        "Convert to float64.",
        "tensor([1, 2]).double()",
        to_f64
    ),
    row!(
        Method,
        "half",
        "half()",
        "Convert to float16.",
        "tensor([1, 2]).half()",
        to_f16
    ),
    row!(
        Method,
        "bfloat16",
        "bfloat16()",
        "Convert to bfloat16.",
        "tensor([1, 2]).bfloat16()",
        to_bf16
    ),
    row!(
        Method,
        "long",
        "long()",
        "Convert to int64.",
        "tensor([1.7, -1.7]).long()",
        to_i64
    ),
    row!(
        Method,
        "int",
        "int()",
        "Convert to int32.",
        "tensor([1.7, -1.7]).int()",
        to_i32
    ),
    row!(
        Method,
        "short",
        "short()",
        "Convert to int16.",
        "tensor([1, 2]).short()",
        to_i16
    ),
    row!(
        Method,
        "char",
        "char()",
        "Convert to int8.",
        "tensor([1, 2]).char()",
        to_i8
    ),
    row!(
        Method,
        "byte",
        "byte()",
        "Convert to uint8.",
        "tensor([1, 2]).byte()",
        to_u8
    ),
    row!(
        Method,
        "bool",
        "bool()",
        "Convert to bool.",
        "tensor([0, 2]).bool()",
        to_bool
    ),
    row!(
        Method,
        "cpu",
        "cpu()",
        "The tensor on the cpu.",
        "tensor([1, 2]).cpu()",
        cpu
    ),
    row!(
        Method,
        "cuda",
        "cuda(device=None)",
        "Move to a CUDA device.",
        "tensor([1, 2]).cuda()",
        cuda
    ),
];

/// The result of a conversion: the same tensor when nothing changes (as PyTorch).
fn convert_to(t: &Tensor, dtype: Option<DType>, device: Option<Device>) -> Result<Value> {
    if let Some(d) = device
        && d != t.device()
    {
        d.check_available()?;
    }
    let dtype = dtype.filter(|&d| d != t.dtype());
    let device = device.filter(|&d| d != t.device());
    Ok(Value::Tensor(match (dtype, device) {
        (None, None) => t.clone(),
        (Some(d), None) => t.to_dtype(d)?,
        (None, Some(dev)) => t.to_device(dev)?,
        // One ToCopyBackward0, as PyTorch records for .to(device, dtype).
        (Some(d), Some(dev)) => {
            let out = crate::autograd::no_grad(|| t.to_device(dev)?.to_dtype(d))?;
            crate::autograd::rules::elementwise::record_identity("ToCopyBackward0", t, out)
        }
    }))
}

fn get_device(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(match t.device() {
        Device::Cpu => -1,
        Device::Cuda(i) => i as i64,
    }))
}

fn to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let (dtype, device) = to_arguments(&mut a)?;
    convert_to(&t, dtype, device)
}

/// The arguments of `.to(...)` (a tensor's or a module's): a dtype, a device
/// (object or string) or a tensor to match, positionally or as keywords.
pub(crate) fn to_arguments(a: &mut Args) -> Result<(Option<DType>, Option<Device>)> {
    let mut dtype = a.dtype_kw()?;
    let mut device = a.device_kw()?;
    for (v, s) in a.rest() {
        match &v {
            Value::DType(_) | Value::QDType(_) | Value::Builtin(_) => {
                dtype = Some(convert::to_dtype(&v).map_err(|e| e.at(s))?)
            }
            Value::Device(d) | Value::DeviceType(d) => device = Some(*d),
            Value::Str(st) => device = Some(Device::parse(st).map_err(|e| e.at(s))?),
            Value::Tensor(o) => {
                dtype = Some(o.dtype());
                device = Some(o.device());
            }
            other => {
                return Err(type_err(format!(
                    "to() takes a dtype, a device or a tensor, not {}",
                    other.a_type_name()
                ))
                .at(s));
            }
        }
    }
    let _ = a.take_kw("non_blocking");
    let _ = a.take_kw("copy");
    a.finish_lent()?;
    Ok((dtype, device))
}

/// The device `.cuda(device=None)` names (a tensor's or a module's).
pub(crate) fn cuda_argument(a: &mut Args) -> Result<Device> {
    let device = match a.take("device") {
        None | Some((Value::None, _)) => Device::Cuda(0),
        Some((Value::Int(i), _)) if i >= 0 => Device::Cuda(i as usize),
        Some((v, s)) => match convert::to_device(&v).map_err(|e| e.at(s))? {
            Device::Cpu => {
                return Err(crate::error::value_err("Invalid device, must be cuda device").at(s));
            }
            d => d,
        },
    };
    let _ = a.take_kw("non_blocking");
    a.finish_lent()?;
    Ok(device)
}

/// `t.type()`: PyTorch's legacy class name, 'torch.FloatTensor' (in
/// torch.cuda for a CUDA tensor).
pub fn legacy_type_name(t: &Tensor) -> String {
    let name = match t.dtype() {
        DType::F32 => "torch.FloatTensor",
        DType::F64 => "torch.DoubleTensor",
        DType::F16 => "torch.HalfTensor",
        DType::BF16 => "torch.BFloat16Tensor",
        DType::I64 => "torch.LongTensor",
        DType::I32 => "torch.IntTensor",
        DType::I16 => "torch.ShortTensor",
        DType::I8 => "torch.CharTensor",
        DType::U8 => "torch.ByteTensor",
        DType::Bool => "torch.BoolTensor",
        DType::C64 => "torch.ComplexFloatTensor",
        DType::C128 => "torch.ComplexDoubleTensor",
    };
    match t.device() {
        Device::Cpu => name.to_string(),
        Device::Cuda(_) => name.replace("torch.", "torch.cuda."),
    }
}

fn type_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let target = a.take("dtype");
    a.finish()?;
    match target {
        None | Some((Value::None, _)) => Ok(Value::str(&legacy_type_name(&t))),
        Some((v, s)) => {
            let d = convert::to_dtype(&v).map_err(|e| e.at(s))?;
            convert_to(&t, Some(d), None)
        }
    }
}

macro_rules! conversions {
    ($($f:ident => $d:ident),* $(,)?) => {
        $(fn $f(_: &mut Interp, mut a: Args) -> Result<Value> {
            let t = receiver(&mut a)?;
            a.finish()?;
            convert_to(&t, Some(DType::$d), None)
        })*
    };
}
conversions! {
    to_f32 => F32, to_f64 => F64, to_f16 => F16, to_bf16 => BF16, to_i64 => I64, to_i32 => I32,
    to_i16 => I16, to_i8 => I8, to_u8 => U8, to_bool => Bool,
}

fn cpu(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    convert_to(&t, None, Some(Device::Cpu))
}

fn cuda(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let device = cuda_argument(&mut a)?;
    convert_to(&t, None, Some(device))
}
