//! Creation functions: tensor, zeros, ones, full, arange, linspace, eye, random.

use super::Builtin;
use crate::error::{Result, dtype_err, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::dtype::default_float;
use crate::tensor::ops::creation as c;
use crate::tensor::ops::scalar;
use crate::tensor::{DType, Device, Tensor};

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "tensor",
        "tensor(data, *, dtype=None, device=None, requires_grad=False)",
        "A tensor from (nested) lists; dtype inferred as PyTorch does (bool, int64, float32).",
        "tensor([[1, 2], [3, 4]], dtype=float32)",
        tensor
    ),
    row!(
        Function,
        "as_tensor",
        "as_tensor(data, *, dtype=None, device=None)",
        "Like tensor(); an existing tensor is returned as is when nothing changes.",
        "as_tensor([1, 2, 3])",
        as_tensor
    ),
    row!(
        Function,
        "Tensor",
        "Tensor(data) | Tensor(*size)",
        "A float32 tensor from data, or an uninitialised (zero) one of a size.",
        "torch.Tensor([1, 2])",
        tensor_ctor
    ),
    row!(
        Function,
        "zeros",
        "zeros(*size, *, dtype=None, device=None, requires_grad=False)",
        "A tensor of zeros.",
        "zeros(2, 3)",
        zeros
    ),
    row!(
        Function,
        "ones",
        "ones(*size, *, dtype=None, device=None, requires_grad=False)",
        "A tensor of ones.",
        "ones(2, 3, dtype=int64)",
        ones
    ),
    row!(
        Function,
        "empty",
        "empty(*size, *, dtype=None, device=None, requires_grad=False)",
        "An uninitialised tensor (tsh fills it with zeros).",
        "empty(2, 2).shape",
        zeros
    ),
    row!(
        Function,
        "full",
        "full(size, fill_value, *, dtype=None, device=None, requires_grad=False)",
        "A tensor filled with one value; dtype follows the value.",
        "full((2, 3), 7.)",
        full
    ),
    row!(
        Function,
        "eye",
        "eye(n, m=None, *, dtype=None, device=None, requires_grad=False)",
        "The identity matrix.",
        "eye(3)",
        eye
    ),
    row!(
        Function,
        "arange",
        "arange(end) | arange(start, end, step=1, *, dtype=None, device=None)",
        "Values from start up to (not including) end.",
        "arange(0, 10, 2)",
        arange
    ),
    row!(
        Function,
        "logspace",
        "logspace(start, end, steps, base=10.0, *, dtype=None, device=None)",
        "`steps` values from base**start to base**end, evenly spaced in the exponent.",
        "logspace(0, 2, 3)",
        logspace
    ),
    row!(
        Function,
        "linspace",
        "linspace(start, end, steps, *, dtype=None, device=None)",
        "`steps` evenly spaced values from start to end inclusive.",
        "linspace(0, 1, 5)",
        linspace
    ),
    row!(
        Function,
        "rand",
        "rand(*size, *, dtype=None, device=None, requires_grad=False)",
        "Uniform random values in [0, 1).",
        "manual_seed(0); rand(2, 2)",
        rand
    ),
    row!(
        Function,
        "normal",
        "normal(mean, std=1.0, size=None, *, dtype=None, device=None, requires_grad=False)",
        "Normal random values: numbers and a size, or tensors of means and stds.",
        "manual_seed(0); normal(0, 0.01, (2, 3))",
        normal
    ),
    row!(
        Function,
        "randn",
        "randn(*size, *, dtype=None, device=None, requires_grad=False)",
        "Standard normal random values.",
        "manual_seed(0); randn(2, 3)",
        randn
    ),
    row!(
        Function,
        "randint",
        "randint(low=0, high, size, *, dtype=int64, device=None)",
        "Random integers in [low, high).",
        "manual_seed(0); randint(0, 10, (2, 3))",
        randint
    ),
    row!(
        Function,
        "randperm",
        "randperm(n, *, dtype=int64, device=None)",
        "A random permutation of 0..n-1.",
        "manual_seed(0); randperm(5)",
        randperm
    ),
    row!(
        Function,
        "zeros_like",
        "zeros_like(input, *, dtype=None, device=None, requires_grad=False)",
        "Zeros with input's shape (and dtype).",
        "zeros_like(ones(2, 2))",
        zeros_like
    ),
    row!(
        Function,
        "ones_like",
        "ones_like(input, *, dtype=None, device=None, requires_grad=False)",
        "Ones with input's shape (and dtype).",
        "ones_like(zeros(3))",
        ones_like
    ),
    row!(
        Function,
        "empty_like",
        "empty_like(input, *, dtype=None, device=None)",
        "An uninitialised (zero) tensor like input.",
        "empty_like(zeros(2, 2)).shape",
        zeros_like
    ),
    row!(
        Function,
        "full_like",
        "full_like(input, fill_value, *, dtype=None, device=None)",
        "A constant with input's shape (and dtype).",
        "full_like(zeros(2), 5.)",
        full_like
    ),
    row!(
        Function,
        "rand_like",
        "rand_like(input, *, dtype=None, device=None)",
        "Uniform random values with input's shape.",
        "rand_like(zeros(2, 2)).shape",
        rand_like
    ),
    row!(
        Function,
        "randn_like",
        "randn_like(input, *, dtype=None, device=None)",
        "Normal random values with input's shape.",
        "randn_like(zeros(2, 2)).shape",
        randn_like
    ),
    row!(
        Function,
        "manual_seed",
        "manual_seed(seed)",
        "Seed the random generator: the same numbers as PyTorch's CPU generator after torch.manual_seed (rand, randn, randint, randperm, every float dtype).",
        "manual_seed(42); randn(2)",
        manual_seed
    ),
    row!(
        Function,
        "set_default_device",
        "set_default_device(device)",
        "Where creation functions put tensors when no device= is given (torch.set_default_device).",
        "set_default_device('cpu')",
        set_default_device
    ),
    row!(
        Function,
        "get_default_device",
        "get_default_device()",
        "The device creation functions use by default.",
        "get_default_device()",
        get_default_device
    ),
];

fn set_default_device(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (v, s) = a.take("device").ok_or_else(|| {
        type_err("set_default_device() missing required argument 'device'").at(a.span)
    })?;
    a.finish()?;
    let d = match v {
        Value::None => Device::Cpu,
        other => convert::to_device(&other).map_err(|e| e.at(s))?,
    };
    // A device that cannot hold tensors is refused now, not at the next tensor.
    crate::tensor::ops::creation::zeros_on(&[], DType::F32, d).map_err(|e| e.at(s))?;
    crate::tensor::device::set_default_device(d);
    Ok(Value::None)
}

fn get_default_device(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Device(crate::tensor::device::default_device()))
}

/// device=, requires_grad= for a newly made tensor.
/// Where a new tensor goes: device= wins over the device a *_like input
/// suggests, which wins over the default device.
fn place(a: &mut Args, like: Option<Device>) -> Result<Device> {
    Ok(a.device_kw()?
        .or(like)
        .unwrap_or_else(crate::tensor::device::default_device))
}

/// The new tensor on `device` (tensors built from host data and random ones
/// are made on the host, in PyTorch's CPU streams, and moved), with
/// requires_grad as asked.
fn finish(t: Tensor, a: &mut Args, device: Device) -> Result<Value> {
    let requires_grad = a.kw_flag("requires_grad", false)?;
    let t = t.to_device(device).map_err(|e| e.at(a.span))?;
    if requires_grad {
        if !t.dtype().is_float() {
            return Err(dtype_err(format!(
                "only floating point tensors can require gradients, not {}",
                t.dtype()
            ))
            .at(a.span)
            .hint("pass dtype=float32 (or write the data as floats, e.g. 1.)"));
        }
        t.set_requires_grad(true);
    }
    a.finish_lent()?;
    Ok(Value::Tensor(t))
}

fn tensor(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (data, span) = a
        .take("data")
        .ok_or_else(|| type_err("tensor() missing required argument 'data'").at(a.span))?;
    let dtype = a.dtype_kw()?;
    let device = place(&mut a, None)?;
    let t = convert::tensor_from_data(&data, dtype).map_err(|e| e.at(span))?;
    finish(t, &mut a, device)
}

fn as_tensor(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (data, span) = a
        .take("data")
        .ok_or_else(|| type_err("as_tensor() missing required argument 'data'").at(a.span))?;
    let dtype = a.dtype_kw()?;
    let (t, like) = match &data {
        Value::Tensor(t) | Value::Array(t) => {
            (t.to_dtype(dtype.unwrap_or(t.dtype()))?, Some(t.device()))
        }
        _ => (
            convert::tensor_from_data(&data, dtype).map_err(|e| e.at(span))?,
            None,
        ),
    };
    let device = place(&mut a, like)?;
    finish(t, &mut a, device)
}

fn tensor_ctor(_: &mut Interp, mut a: Args) -> Result<Value> {
    let data_form = matches!(
        a.positional.first(),
        Some((
            Value::List(_) | Value::Tuple(_) | Value::Tensor(_) | Value::Array(_),
            _
        ))
    );
    let t = if data_form {
        let (data, span) = a
            .take("data")
            .ok_or_else(|| type_err("Tensor() needs data or a size"))?;
        convert::tensor_from_data(&data, Some(default_float())).map_err(|e| e.at(span))?
    } else {
        let shape = a.shape("size")?;
        c::zeros(&shape, default_float()).map_err(|e| e.at(a.span))?
    };
    let device = place(&mut a, None)?;
    finish(t, &mut a, device)
}

fn filled(mut a: Args, value: f64) -> Result<Value> {
    let shape = a.shape("size")?;
    let dtype = a.dtype_kw()?.unwrap_or(default_float());
    let device = place(&mut a, None)?;
    let t = c::full(&shape, value, value as i64, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn zeros(_: &mut Interp, a: Args) -> Result<Value> {
    filled(a, 0.0)
}

fn ones(_: &mut Interp, a: Args) -> Result<Value> {
    filled(a, 1.0)
}

/// A fill value and the dtype PyTorch infers from it.
fn fill_value(v: &Value) -> Result<(f64, i64, DType)> {
    Ok(match v {
        Value::Bool(b) => (*b as i64 as f64, *b as i64, DType::Bool),
        Value::Int(i) => (*i as f64, *i, DType::I64),
        Value::Float(f) => (*f, *f as i64, default_float()),
        Value::Tensor(t) if t.numel() == 1 => {
            let (f, i) = (scalar::item_f64(t)?, scalar::item_i64(t)?);
            (f, i, t.dtype())
        }
        other => {
            return Err(type_err(format!(
                "fill_value must be a number, not {}",
                other.type_name()
            )));
        }
    })
}

fn full(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (sv, ss) = a
        .take("size")
        .ok_or_else(|| type_err("full() missing required argument 'size'").at(a.span))?;
    let shape =
        convert::to_shape(&convert::to_int_list(&sv, "full", "size").map_err(|e| e.at(ss))?)
            .map_err(|e| e.at(ss))?;
    let (fv, fs) = a
        .take("fill_value")
        .ok_or_else(|| type_err("full() missing required argument 'fill_value'").at(a.span))?;
    let (f, i, inferred) = fill_value(&fv).map_err(|e| e.at(fs))?;
    let dtype = a.dtype_kw()?.unwrap_or(inferred);
    let device = place(&mut a, None)?;
    let t = c::full(&shape, f, i, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn eye(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = crate::interp::args::check_positive(a.int("n")?, "n").map_err(|e| e.at(a.span))?;
    let m = match a.opt_int("m")? {
        Some(m) => crate::interp::args::check_positive(m, "m").map_err(|e| e.at(a.span))?,
        None => n,
    };
    let dtype = a.dtype_kw()?.unwrap_or(default_float());
    let device = place(&mut a, None)?;
    let t = c::eye(n, m, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn number(v: &Value) -> Result<(f64, bool)> {
    match v {
        Value::Int(i) => Ok((*i as f64, false)),
        Value::Bool(b) => Ok((*b as i64 as f64, false)),
        Value::Float(f) => Ok((*f, true)),
        Value::Tensor(t) if t.numel() == 1 => Ok((
            crate::tensor::ops::scalar::item_f64(t)?,
            t.dtype().is_float(),
        )),
        other => Err(type_err(format!(
            "expected a number, got {}",
            other.type_name()
        ))),
    }
}

fn arange(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mut nums = Vec::new();
    for name in ["start", "end", "step"] {
        if let Some((v, s)) = a.take(name) {
            nums.push(number(&v).map_err(|e| e.at(s))?);
        }
    }
    let any_float = nums.iter().any(|(_, f)| *f);
    let (start, end, step) = match nums.as_slice() {
        [(e, _)] => (0.0, *e, 1.0),
        [(s, _), (e, _)] => (*s, *e, 1.0),
        [(s, _), (e, _), (st, _)] => (*s, *e, *st),
        _ => return Err(type_err("arange() needs end, or start and end (and step)").at(a.span)),
    };
    let dtype = a.dtype_kw()?.unwrap_or(if any_float {
        default_float()
    } else {
        DType::I64
    });
    let device = place(&mut a, None)?;
    let t = c::arange(start, end, step, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn linspace(_: &mut Interp, mut a: Args) -> Result<Value> {
    let start = a.float("start")?;
    let end = a.float("end")?;
    let steps = a.int("steps")?;
    let dtype = a.dtype_kw()?.unwrap_or(default_float());
    let device = place(&mut a, None)?;
    let t = c::linspace(start, end, steps, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn normal(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mean = a.value("mean")?;
    // `normal(mean=t)`: PyTorch's overload with std=1.
    let std = match (&mean, a.take("std")) {
        (Value::Tensor(_), None) => Value::Float(1.0),
        (_, Some((v, _))) => v,
        (_, None) => a.value("std")?,
    };
    let size = match a.take("size") {
        None | Some((Value::None, _)) => None,
        Some((v, s)) => {
            let sizes = convert::to_int_list(&v, "normal", "size").map_err(|e| e.at(s))?;
            Some(convert::to_shape(&sizes).map_err(|e| e.at(s))?)
        }
    };
    let dtype = a.dtype_kw()?;
    let device = place(&mut a, None)?;
    let number = |v: &Value| matches!(v, Value::Int(_) | Value::Float(_));
    let t = if number(&mean) && number(&std) {
        let (m, s) = (
            convert::to_float(&mean, "normal", "mean")?,
            convert::to_float(&std, "normal", "std")?,
        );
        if s < 0.0 {
            return Err(crate::error::value_err(format!(
                "normal expects std >= 0.0, but found std {s}"
            )));
        }
        let shape = size.ok_or_else(|| {
            type_err("normal() with a number mean and std needs a size").at(a.span)
        })?;
        c::normal(&shape, m, s, dtype.unwrap_or(default_float()), device)
            .map_err(|e| e.at(a.span))?
    } else {
        // Tensors of means and stds: standard normals scaled and shifted, as
        // PyTorch's normal does.
        let m = convert::to_tensor_arg(&mean, "normal", "mean")?;
        let s = convert::to_tensor_arg(&std, "normal", "std")?;
        let spread = crate::interp::ops::tensor_binary(crate::syntax::ast::BinOp::Mul, &m, &s)?;
        let dtype = dtype.unwrap_or(if spread.dtype().is_float() {
            spread.dtype()
        } else {
            default_float()
        });
        let z = c::randn(spread.shape(), dtype, spread.device()).map_err(|e| e.at(a.span))?;
        let scaled = crate::interp::ops::tensor_binary(crate::syntax::ast::BinOp::Mul, &z, &s)?;
        crate::interp::ops::tensor_binary(crate::syntax::ast::BinOp::Add, &scaled, &m)?
    };
    finish(t, &mut a, device)
}

fn logspace(_: &mut Interp, mut a: Args) -> Result<Value> {
    let start = a.float("start")?;
    let end = a.float("end")?;
    let steps = a.int("steps")?;
    let base = a.float_or("base", 10.0)?;
    let dtype = a.dtype_kw()?.unwrap_or(default_float());
    let device = place(&mut a, None)?;
    // As PyTorch: the exponents by linspace, then the powers, both in the dtype.
    let work = if dtype.is_float() { dtype } else { DType::F64 };
    let exps = c::linspace(start, end, steps, work, device).map_err(|e| e.at(a.span))?;
    let base = c::full(&[], base, base as i64, work, device)?;
    let t = crate::interp::ops::tensor_binary(crate::syntax::ast::BinOp::Pow, &base, &exps)?
        .to_dtype(dtype)?;
    finish(t, &mut a, device)
}

fn random(mut a: Args, normal: bool) -> Result<Value> {
    let shape = a.shape("size")?;
    let dtype = a.dtype_kw()?.unwrap_or(default_float());
    let device = place(&mut a, None)?;
    let t = if normal {
        c::randn(&shape, dtype, device)
    } else {
        c::rand(&shape, dtype, device)
    }
    .map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn rand(_: &mut Interp, a: Args) -> Result<Value> {
    random(a, false)
}

fn randn(_: &mut Interp, a: Args) -> Result<Value> {
    random(a, true)
}

fn randint(_: &mut Interp, mut a: Args) -> Result<Value> {
    // randint(high, size) or randint(low, high, size).
    let mut ints = Vec::new();
    let mut size = None;
    for (v, s) in a.rest() {
        match v {
            Value::Tuple(_) | Value::List(_) | Value::Shape(_) => size = Some((v, s)),
            other => {
                ints.push(convert::to_int(&other, "randint", "low/high").map_err(|e| e.at(s))?)
            }
        }
    }
    if let Some(v) = a.take_kw("low") {
        ints.insert(0, convert::to_int(&v.0, "randint", "low")?);
    }
    if let Some(v) = a.take_kw("high") {
        ints.push(convert::to_int(&v.0, "randint", "high")?);
    }
    if let Some(v) = a.take_kw("size") {
        size = Some(v);
    }
    let (low, high) = match ints.as_slice() {
        [h] => (0, *h),
        [l, h] => (*l, *h),
        _ => {
            return Err(
                type_err("randint() needs high (or low and high) and a size tuple").at(a.span),
            );
        }
    };
    let Some((sv, ss)) = size else {
        return Err(type_err(
            "randint() missing required argument 'size' (a tuple such as (2, 3))",
        )
        .at(a.span));
    };
    let shape =
        convert::to_shape(&convert::to_int_list(&sv, "randint", "size")?).map_err(|e| e.at(ss))?;
    let dtype = a.dtype_kw()?.unwrap_or(DType::I64);
    let device = place(&mut a, None)?;
    let t = c::randint(low, high, &shape, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

fn randperm(_: &mut Interp, mut a: Args) -> Result<Value> {
    let n = crate::interp::args::check_positive(a.int("n")?, "n").map_err(|e| e.at(a.span))?;
    let dtype = a.dtype_kw()?.unwrap_or(DType::I64);
    let device = place(&mut a, None)?;
    let t = c::randperm(n, dtype, device).map_err(|e| e.at(a.span))?;
    finish(t, &mut a, device)
}

/// A tensor shaped like the input, made by `make` on the device it goes to.
fn like(mut a: Args, make: impl Fn(&[usize], DType, Device) -> Result<Tensor>) -> Result<Value> {
    let t = a.tensor("input")?;
    let dtype = a.dtype_kw()?.unwrap_or(t.dtype());
    let device = place(&mut a, Some(t.device()))?;
    let out = make(t.shape(), dtype, device).map_err(|e| e.at(a.span))?;
    finish(out, &mut a, device)
}

fn zeros_like(_: &mut Interp, a: Args) -> Result<Value> {
    like(a, |s, d, dev| c::full(s, 0.0, 0, d, dev))
}

fn ones_like(_: &mut Interp, a: Args) -> Result<Value> {
    like(a, |s, d, dev| c::full(s, 1.0, 1, d, dev))
}

fn full_like(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let (fv, fs) = a
        .take("fill_value")
        .ok_or_else(|| type_err("full_like() missing required argument 'fill_value'").at(a.span))?;
    let (f, i, _) = fill_value(&fv).map_err(|e| e.at(fs))?;
    let dtype = a.dtype_kw()?.unwrap_or(t.dtype());
    let device = place(&mut a, Some(t.device()))?;
    let out = c::full(t.shape(), f, i, dtype, device).map_err(|e| e.at(a.span))?;
    finish(out, &mut a, device)
}

fn rand_like(_: &mut Interp, a: Args) -> Result<Value> {
    like(a, c::rand)
}

fn randn_like(_: &mut Interp, a: Args) -> Result<Value> {
    like(a, c::randn)
}

fn manual_seed(_: &mut Interp, mut a: Args) -> Result<Value> {
    let seed = a.int("seed")?;
    a.finish()?;
    c::manual_seed(seed as u64);
    // PyTorch returns its default generator (the REPL echoes it).
    Ok(Value::Opaque("torch._C.Generator"))
}
