//! Tensor methods that are not torch functions: item, tolist, size, stride,
//! conversions, in-place updates, and a few that are both (numel, clone).

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::ops::write_into;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::BinOp;
use crate::tensor::op::BinaryOp;
use crate::tensor::ops::elementwise as ew;
use crate::tensor::{DType, Device, Tensor};

pub const ROWS: &[Builtin] = &[
    row!(
        Method,
        "item",
        "item()",
        "The single element as a plain number.",
        "tensor([2.5]).item()",
        item
    ),
    row!(
        Method,
        "tolist",
        "tolist()",
        "Nested lists of plain numbers.",
        "tensor([[1, 2], [3, 4]]).tolist()",
        tolist
    ),
    row!(
        Method,
        "size",
        "size(dim=None)",
        "The shape, or the size of one dim.",
        "zeros(2, 3).size(1)",
        size
    ),
    row!(
        Method,
        "dim",
        "dim()",
        "Number of dimensions.",
        "zeros(2, 3).dim()",
        dim
    ),
    row!(
        Method,
        "ndimension",
        "ndimension()",
        "Number of dimensions.",
        "zeros(2, 3).ndimension()",
        dim
    ),
    row!(
        Both,
        "numel",
        "numel(input)",
        "Number of elements.",
        "numel(zeros(2, 3))",
        numel
    ),
    row!(
        Method,
        "nelement",
        "nelement()",
        "Number of elements.",
        "zeros(2, 3).nelement()",
        numel
    ),
    row!(
        Method,
        "stride",
        "stride(dim=None)",
        "Steps in storage between neighbours along each dim.",
        "zeros(2, 3).t().stride()",
        stride
    ),
    row!(
        Method,
        "storage_offset",
        "storage_offset()",
        "Index of the first element in the storage.",
        "arange(6)[2:].storage_offset()",
        storage_offset
    ),
    row!(
        Method,
        "is_contiguous",
        "is_contiguous()",
        "Is the layout row-major without gaps?",
        "zeros(2, 3).t().is_contiguous()",
        is_contiguous
    ),
    row!(
        Method,
        "contiguous",
        "contiguous()",
        "The tensor itself if contiguous, else a row-major copy.",
        "zeros(2, 3).t().contiguous().stride()",
        contiguous
    ),
    row!(
        Both,
        "clone",
        "clone(input)",
        "A copy with its own storage.",
        "clone(tensor([1, 2]))",
        clone
    ),
    row!(
        Method,
        "detach",
        "detach()",
        "The same data, cut from the autograd graph.",
        "(ones(2, requires_grad=true) * 2).detach()",
        detach
    ),
    row!(
        Method,
        "element_size",
        "element_size()",
        "Bytes per element.",
        "zeros(2, dtype=float16).element_size()",
        element_size
    ),
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
    row!(
        Method,
        "is_floating_point",
        "is_floating_point()",
        "Is the dtype a float type?",
        "tensor([1, 2]).is_floating_point()",
        is_floating_point
    ),
    row!(
        Method,
        "requires_grad_",
        "requires_grad_(requires_grad=True)",
        "Set requires_grad in place.",
        "zeros(2).requires_grad_()",
        requires_grad_
    ),
    row!(
        Method,
        "add_",
        "add_(other, *, alpha=1)",
        "In place: self += alpha * other.",
        "x = zeros(2); x.add_(1); x",
        add_
    ),
    row!(
        Method,
        "sub_",
        "sub_(other, *, alpha=1)",
        "In place: self -= alpha * other.",
        "x = ones(2); x.sub_(tensor([1., 2.])); x",
        sub_
    ),
    row!(
        Method,
        "mul_",
        "mul_(other)",
        "In place: self *= other.",
        "x = ones(2); x.mul_(3); x",
        mul_
    ),
    row!(
        Method,
        "div_",
        "div_(other)",
        "In place: self /= other.",
        "x = ones(2); x.div_(4); x",
        div_
    ),
    row!(
        Method,
        "pow_",
        "pow_(exponent)",
        "In place: self **= exponent.",
        "x = tensor([2., 3.]); x.pow_(2); x",
        pow_
    ),
    row!(
        Method,
        "fill_",
        "fill_(value)",
        "In place: every element becomes value.",
        "x = zeros(3); x.fill_(7); x",
        fill_
    ),
    row!(
        Method,
        "zero_",
        "zero_()",
        "In place: every element becomes 0.",
        "x = ones(3); x.zero_(); x",
        zero_
    ),
    row!(
        Method,
        "clamp_",
        "clamp_(min=None, max=None)",
        "In place clamp.",
        "x = tensor([-1., 2.]); x.clamp_(min=0); x",
        clamp_
    ),
    row!(
        Method,
        "copy_",
        "copy_(src)",
        "In place: copy src (broadcast, converted) into self.",
        "x = zeros(2); x.copy_(tensor([1., 2.])); x",
        copy_
    ),
];

fn receiver(a: &mut Args) -> Result<Tensor> {
    a.tensor("self")
}

fn item(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    if t.numel() != 1 {
        return Err(value_err(format!(
            "item() needs a tensor with exactly one element, but this one has {} (shape {})",
            t.numel(),
            crate::tensor::shape::fmt_shape(t.shape())
        ))
        .hint("index one element first (t[0, 1].item()) or reduce it (t.sum().item())"));
    }
    let h = t.to_host()?;
    let (f, n) = if t.dtype().is_float() {
        (h.to_f64_vec(), vec![])
    } else {
        (vec![], h.to_i64_vec())
    };
    Ok(convert::element_value(&t, 0, &f, &n))
}

fn tolist(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    convert::tolist(&t)
}

fn size(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let d = a.opt_int("dim")?;
    a.finish()?;
    match d {
        None => Ok(Value::Shape(std::rc::Rc::new(t.shape().to_vec()))),
        Some(d) => {
            let i = crate::tensor::shape::existing_dim(d, t.ndim())?;
            Ok(Value::Int(t.shape()[i] as i64))
        }
    }
}

fn dim(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.ndim() as i64))
}

fn numel(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Int(t.numel() as i64))
}

fn stride(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let d = a.opt_int("dim")?;
    a.finish()?;
    match d {
        None => Ok(Value::tuple(
            t.strides().iter().map(|&s| Value::Int(s as i64)).collect(),
        )),
        Some(d) => {
            let i = crate::tensor::shape::existing_dim(d, t.ndim())?;
            Ok(Value::Int(t.strides()[i] as i64))
        }
    }
}

fn storage_offset(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.offset() as i64))
}

fn is_contiguous(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Bool(t.is_contiguous()))
}

fn contiguous(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    t.contiguous().map(Value::Tensor)
}

fn clone(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    t.deep_clone().map(Value::Tensor)
}

fn detach(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Tensor(t.view_with(t.layout().clone())))
}

fn element_size(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Int(t.dtype().size() as i64))
}

/// The result of a conversion: the same tensor when nothing changes (as PyTorch).
fn convert_to(t: &Tensor, dtype: Option<DType>, device: Option<Device>) -> Result<Value> {
    if let Some(d) = device
        && d != t.device()
    {
        d.check_available()?;
    }
    Ok(Value::Tensor(match dtype {
        Some(d) if d != t.dtype() => t.to_dtype(d)?,
        _ => t.clone(),
    }))
}

fn to(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let mut dtype = a.dtype_kw()?;
    let mut device = a.device_kw()?;
    for (v, s) in a.rest() {
        match &v {
            Value::DType(_) | Value::Builtin(_) => {
                dtype = Some(convert::to_dtype(&v).map_err(|e| e.at(s))?)
            }
            Value::Device(d) => device = Some(*d),
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
    a.finish()?;
    convert_to(&t, dtype, device)
}

fn type_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let target = a.take("dtype");
    a.finish()?;
    match target {
        None | Some((Value::None, _)) => {
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
            };
            Ok(Value::str(name))
        }
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
    let index = a.opt_int("device")?.unwrap_or(0).max(0) as usize;
    a.finish()?;
    convert_to(&t, None, Some(Device::Cuda(index)))
}

fn is_floating_point(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    Ok(Value::Bool(t.dtype().is_float()))
}

fn requires_grad_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let on = a.flag("requires_grad", true)?;
    a.finish()?;
    super::attrs::set_requires_grad(&t, on)?;
    Ok(Value::Tensor(t))
}

fn inplace_op(mut a: Args, op: BinOp, param: &str) -> Result<Value> {
    let t = receiver(&mut a)?;
    let mut other = a.tensor(param)?;
    if let Some((v, s)) = a.take_kw("alpha") {
        let alpha = convert::to_tensor_arg(&v, a.name, "alpha").map_err(|e| e.at(s))?;
        other = ew::binary(BinaryOp::Mul, &other, &alpha)?;
    }
    a.finish()?;
    let result =
        crate::interp::ops::tensor_binary(op, &crate::interp::ops::inplace_source(&t)?, &other)?;
    write_into(&t, &result, op.symbol())?;
    Ok(Value::Tensor(t))
}

fn add_(_: &mut Interp, a: Args) -> Result<Value> {
    inplace_op(a, BinOp::Add, "other")
}

fn sub_(_: &mut Interp, a: Args) -> Result<Value> {
    inplace_op(a, BinOp::Sub, "other")
}

fn mul_(_: &mut Interp, a: Args) -> Result<Value> {
    inplace_op(a, BinOp::Mul, "other")
}

fn div_(_: &mut Interp, a: Args) -> Result<Value> {
    inplace_op(a, BinOp::Div, "other")
}

fn pow_(_: &mut Interp, a: Args) -> Result<Value> {
    inplace_op(a, BinOp::Pow, "exponent")
}

fn fill_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let v = a.tensor("value")?;
    a.finish()?;
    if v.numel() != 1 {
        return Err(value_err("fill_ takes a single value"));
    }
    crate::tensor::ops::index::write_all(&t, &crate::tensor::ops::view::reshape(&v, &[])?)?;
    Ok(Value::Tensor(t))
}

fn zero_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    a.finish()?;
    crate::tensor::ops::index::write_all(&t, &Tensor::scalar_i64(0, t.dtype()))?;
    Ok(Value::Tensor(t))
}

fn clamp_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let lo = a.opt_tensor("min")?;
    let hi = a.opt_tensor("max")?;
    a.finish()?;
    let r = ew::clamp(
        &crate::interp::ops::inplace_source(&t)?,
        lo.as_ref(),
        hi.as_ref(),
    )?;
    write_into(&t, &r, "clamp_")?;
    Ok(Value::Tensor(t))
}

fn copy_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let src = a.tensor("src")?;
    a.finish()?;
    if src.device() != t.device() {
        return Err(crate::error::device_err(
            "copy_ between devices is not available",
        ));
    }
    crate::tensor::ops::index::write_all(&t, &src)?;
    Ok(Value::Tensor(t))
}
