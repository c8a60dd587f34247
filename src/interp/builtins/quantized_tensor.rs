//! A quantized tensor as a value: its attributes, its methods (the accessors
//! of builtins/quantize.rs and the few below), and reading it (and its dtype)
//! as an argument.

use std::rc::Rc;

use super::Builtin;
use super::quantize::ROWS;
use crate::error::{Error, Result, type_err, value_err};
use crate::interp::bind::{Bad, FromArg, IntoValue};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::Device;
use crate::tensor::quantized::{QDType, QTensor};

/// The methods only a quantized tensor has (the accessors of
/// builtins/quantize.rs are its methods too).
pub const METHODS: &[Builtin] = &[
    op!(
        Method,
        "qscheme(Tensor self) -> Any",
        "How a quantized tensor maps floats to integers: torch.per_tensor_affine or torch.per_channel_affine.",
        "torch.quantize_per_tensor(tensor([1.]), 0.1, 10, torch.quint8).qscheme()",
        |self_: QTensor| Ok::<_, Error>(Value::QScheme(self_.qscheme()))
    ),
    op!(
        Method,
        "size(Tensor self, int? dim=None) -> Any",
        "A quantized tensor's shape, or one dim's size.",
        "torch.quantize_per_tensor(ones(2, 3), 0.1, 10, torch.quint8).size(1)",
        |self_: QTensor, dim: Option<i64>| size(&self_, dim)
    ),
    op!(
        Method,
        "dim(Tensor self) -> int",
        "A quantized tensor's number of dims.",
        "torch.quantize_per_tensor(ones(2, 3), 0.1, 10, torch.quint8).dim()",
        |self_: QTensor| Ok::<_, Error>(self_.ndim() as i64)
    ),
    op!(
        Method,
        "numel(Tensor self) -> int",
        "A quantized tensor's number of elements.",
        "torch.quantize_per_tensor(ones(2, 3), 0.1, 10, torch.quint8).numel()",
        |self_: QTensor| Ok::<_, Error>(self_.numel() as i64)
    ),
    op!(
        Method,
        "clone(Tensor self) -> Tensor",
        "An independent copy of a quantized tensor.",
        "torch.quantize_per_tensor(ones(2), 0.1, 10, torch.quint8).clone()",
        |self_: QTensor| self_.deep_clone()
    ),
    op!(
        Method,
        "cpu(Tensor self) -> Tensor",
        "A quantized tensor on the CPU.",
        "torch.quantize_per_tensor(ones(2), 0.1, 10, torch.quint8).cpu()",
        |self_: QTensor| self_.to_device(Device::Cpu)
    ),
    op!(
        Method,
        "cuda(Tensor self, Device? device=None) -> Tensor",
        "A quantized tensor on a CUDA device (cuda:0 by default).",
        "torch.quantize_per_tensor(ones(2), 0.1, 10, torch.quint8).cuda()",
        |self_: QTensor, device: Option<Device>| {
            let device = device.unwrap_or(Device::Cuda(0));
            device.check_available()?;
            self_.to_device(device)
        }
    ),
    op!(
        Method,
        "to(Tensor self, Device device) -> Tensor",
        "A quantized tensor on another device (its dtype cannot change).",
        "torch.quantize_per_tensor(ones(2), 0.1, 10, torch.quint8).to('cpu')",
        |self_: QTensor, device: Device| {
            device.check_available()?;
            self_.to_device(device)
        }
    ),
];

impl FromArg for QTensor {
    const TY: &'static str = "Tensor";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::QTensor(q) => Ok(q.clone()),
            Value::Tensor(t) => Err(Bad::Err(
                type_err(format!(
                    "this needs a quantized tensor, not a dense {} one",
                    t.dtype()
                ))
                .hint(
                    "make one with torch.quantize_per_tensor(x, scale, zero_point, torch.quint8)",
                ),
            )),
            _ => Err(Bad::Type),
        }
    }
}

impl FromArg for QDType {
    const TY: &'static str = "ScalarType";
    fn from_arg(v: &Value) -> std::result::Result<Self, Bad> {
        match v {
            Value::QDType(d) => Ok(*d),
            Value::DType(d) => Err(Bad::Err(
                value_err(format!(
                    "ScalarType {} is not supported in new_qtensor.",
                    d.torch_scalar_name()
                ))
                .hint("a quantized dtype is torch.quint8, torch.qint8 or torch.qint32"),
            )),
            _ => Err(Bad::Type),
        }
    }
}

impl IntoValue for QTensor {
    fn into_value(self) -> Value {
        Value::QTensor(self)
    }
}

/// What `q.NAME` is for a quantized tensor: an attribute, one of its methods,
/// or an error saying what a quantized tensor lacks.
pub fn attr(obj: &Value, q: &QTensor, name: &str) -> Result<Value> {
    let v = match name {
        "dtype" => Value::QDType(q.dtype()),
        "shape" => Value::Shape(Rc::new(q.shape().to_vec())),
        "device" => Value::Device(q.device()),
        "is_quantized" => Value::Bool(true),
        "ndim" => Value::Int(q.ndim() as i64),
        "is_cuda" => Value::Bool(q.device() != Device::Cpu),
        "is_cpu" => Value::Bool(q.device() == Device::Cpu),
        "requires_grad" => Value::Bool(false),
        "grad" | "grad_fn" => Value::None,
        "layout" => Value::str("torch.strided"),
        _ => return method(obj, name),
    };
    Ok(v)
}

fn method(obj: &Value, name: &str) -> Result<Value> {
    let row = METHODS
        .iter()
        .chain(ROWS.iter().filter(|b| reads_quantized(b)))
        .find(|b| b.name == name);
    match row {
        Some(b) => Ok(Value::Method(Rc::new((obj.clone(), b)))),
        None => Err(crate::error::name_err(format!(
            "a quantized tensor has no attribute '{name}' in tsh"
        ))
        .hint("call .dequantize() for a float tensor, then use any tensor op")),
    }
}

/// The rows that are methods of a quantized tensor: those taking it first.
fn reads_quantized(b: &Builtin) -> bool {
    b.name == "dequantize" || b.name == "int_repr" || b.name.starts_with("q_")
}

/// What completion offers after `q.`.
pub fn attr_names() -> Vec<String> {
    let attrs = [
        "dtype",
        "shape",
        "device",
        "is_quantized",
        "ndim",
        "is_cuda",
        "is_cpu",
    ];
    attrs
        .iter()
        .map(|s| s.to_string())
        .chain(METHODS.iter().map(|b| b.name.to_string()))
        .chain(
            ROWS.iter()
                .filter(|b| reads_quantized(b))
                .map(|b| b.name.to_string()),
        )
        .collect()
}

fn size(q: &QTensor, dim: Option<i64>) -> Result<Value> {
    match dim {
        None => Ok(Value::Shape(Rc::new(q.shape().to_vec()))),
        Some(d) => {
            let d = crate::tensor::shape::existing_dim(d, q.ndim())?;
            Ok(Value::Int(q.shape()[d] as i64))
        }
    }
}
