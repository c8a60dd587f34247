//! Conversions between language values and tensors/ints/dtypes/devices.

use crate::backend::Scalar;
use crate::error::{Result, type_err, value_err};
use crate::tensor::ops::scalar;
use crate::tensor::{DType, Device, Tensor};

use super::value::Value;

pub fn to_int(v: &Value, func: &str, param: &str) -> Result<i64> {
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::Tensor(t) if t.numel() == 1 && !t.dtype().is_float() => {
            crate::tensor::ops::scalar::item_i64(t)
        }
        _ => Err(type_err(format!(
            "{func}() argument '{param}' must be an int, not {}",
            describe(v)
        ))),
    }
}

/// A float's integer part as a 64-bit int; NaN, infinities and values beyond
/// 64 bits are `value` errors (Python's ints are unbounded, tsh's are not).
pub fn float_to_int(f: f64) -> Result<i64> {
    if f.is_nan() {
        return Err(value_err("cannot convert float NaN to an int"));
    }
    if f.is_infinite() {
        return Err(value_err("cannot convert float infinity to an int"));
    }
    // 2**63 is exact in f64; every float below it in magnitude truncates into range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    let t = f.trunc();
    if !(-LIMIT..LIMIT).contains(&t) {
        return Err(value_err(format!(
            "integer overflow: {} does not fit in a 64-bit int",
            crate::print::number::py_float_repr(f)
        ))
        .hint("tsh's ints are 64-bit (-2**63 to 2**63 - 1); keep the value a float"));
    }
    Ok(t as i64)
}

pub fn to_float(v: &Value, func: &str, param: &str) -> Result<f64> {
    match v {
        Value::Int(i) => Ok(*i as f64),
        Value::Float(f) => Ok(*f),
        Value::Bool(b) => Ok(*b as i64 as f64),
        Value::Tensor(t) if t.numel() == 1 => crate::tensor::ops::scalar::item_f64(t),
        _ => Err(type_err(format!(
            "{func}() argument '{param}' must be a number, not {}",
            describe(v)
        ))),
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Tensor(t) => {
            let dtype = t.dtype().to_string();
            let article = if dtype.starts_with(['i', 'u']) {
                "an"
            } else {
                "a"
            };
            format!(
                "{article} {dtype} tensor of shape {}",
                crate::tensor::shape::fmt_shape(t.shape())
            )
        }
        v => v.type_name().to_string(),
    }
}

pub fn to_int_list(v: &Value, func: &str, param: &str) -> Result<Vec<i64>> {
    match v {
        Value::List(_) | Value::Tuple(_) | Value::Shape(_) => v
            .iter_items()?
            .iter()
            .map(|x| to_int(x, func, param))
            .collect(),
        Value::Tensor(t) if t.ndim() == 1 && !t.dtype().is_float() => t.to_host_i64(),
        other => Ok(vec![to_int(other, func, param)?]),
    }
}

pub fn to_shape(sizes: &[i64]) -> Result<Vec<usize>> {
    sizes
        .iter()
        .map(|&d| {
            if d < 0 {
                Err(value_err(format!("negative dimension {d} in a shape"))
                    .hint("sizes must be 0 or more"))
            } else {
                Ok(d as usize)
            }
        })
        .collect()
}

/// `torch.DoubleTensor` (or its name) as a dtype: `t.type(torch.DoubleTensor)`.
fn legacy_dtype(name: &str) -> Option<DType> {
    Some(match name {
        "FloatTensor" => DType::F32,
        "DoubleTensor" => DType::F64,
        "HalfTensor" => DType::F16,
        "BFloat16Tensor" => DType::BF16,
        "LongTensor" => DType::I64,
        "IntTensor" => DType::I32,
        "ShortTensor" => DType::I16,
        "CharTensor" => DType::I8,
        "ByteTensor" => DType::U8,
        "BoolTensor" => DType::Bool,
        _ => return None,
    })
}

pub fn to_dtype(v: &Value) -> Result<DType> {
    match v {
        Value::DType(d) => Ok(*d),
        // Bare `int`, `float`, `bool` are Python's conversions, but as a dtype they
        // mean torch.int, torch.float, torch.bool ("everything reachable bare").
        // Python's own `float` and `int` are float64 and int64, as in PyTorch.
        Value::Builtin(b) if b.name == "float" => Ok(DType::F64),
        Value::Builtin(b) if b.name == "int" => Ok(DType::I64),
        Value::Builtin(b) if DType::from_name(b.name).is_some() => {
            Ok(DType::from_name(b.name).unwrap_or(DType::F32))
        }
        Value::Builtin(b) if legacy_dtype(b.name).is_some() => {
            Ok(legacy_dtype(b.name).unwrap_or(DType::F32))
        }
        Value::Str(s) if legacy_dtype(s.trim_start_matches("torch.")).is_some() => {
            Ok(legacy_dtype(s.trim_start_matches("torch.")).unwrap_or(DType::F32))
        }
        Value::Str(s) => DType::from_name(s.trim_start_matches("torch.")).ok_or_else(|| {
            type_err(format!("unknown dtype '{s}'"))
                .hint("dtypes: float32 float64 float16 bfloat16 int64 int32 int16 int8 uint8 bool")
        }),
        Value::QDType(d) => Err(crate::error::dtype_err(format!(
            "torch.{} is a quantized dtype: only quantized tensors have it",
            d.name()
        ))
        .hint("make one with torch.quantize_per_tensor(x, scale, zero_point, dtype)")),
        v => Err(type_err(format!(
            "expected a dtype, got {}",
            v.a_type_name()
        ))),
    }
}

/// A quantized tensor where a dense one is needed.
pub fn quantized_where_dense(func: &str) -> crate::error::Error {
    let what = if func.is_empty() {
        "this op".to_string()
    } else {
        format!("{func}()")
    };
    type_err(format!("{what} takes dense tensors, not quantized ones"))
        .hint("call .dequantize() for a float tensor (or .int_repr() for its integers)")
}

pub fn to_device(v: &Value) -> Result<Device> {
    match v {
        Value::Device(d) | Value::DeviceType(d) => Ok(*d),
        Value::Str(s) => Device::parse(s),
        Value::Int(i) if *i >= 0 => Ok(Device::Cuda(*i as usize)),
        v => Err(type_err(format!(
            "expected a device, got {}",
            v.type_name()
        ))),
    }
}

/// A Python number as a wrapped 0-d tensor, so promotion treats it as a scalar.
pub fn scalar_tensor(v: &Value) -> Option<Tensor> {
    let t = match v {
        Value::Int(i) => return Some(Tensor::wrapped_scalar(Scalar::int(*i), DType::I64)),
        Value::Float(f) => return Some(Tensor::wrapped_scalar(Scalar::float(*f), DType::F64)),
        Value::Bool(b) => {
            return Some(Tensor::wrapped_scalar(Scalar::int(*b as i64), DType::Bool));
        }
        Value::Complex(re, im) => {
            let pair = Tensor::from_vec(vec![*re, *im], &[2]);
            pair.view_as_complex().ok()?
        }
        _ => return None,
    };
    Some(Tensor::wrapped_number(t))
}

/// A tensor argument: tensors as they are, numbers as wrapped scalars, and
/// (nested) lists converted as `tensor(...)` would.
pub fn to_tensor_arg(v: &Value, func: &str, param: &str) -> Result<Tensor> {
    match v {
        Value::Tensor(t) | Value::Array(t) => Ok(t.clone()),
        Value::List(_) | Value::Tuple(_) => tensor_from_data(v, None),
        Value::Sparse(s) => Err(type_err(format!(
            "{func}() does not take sparse tensors in tsh ('{param}' is a torch.{} tensor)",
            s.layout().name()
        ))
        .hint("make it dense with .to_dense() first")),
        Value::QTensor(_) => Err(quantized_where_dense(func)),
        v => scalar_tensor(v).ok_or_else(|| {
            type_err(format!(
                "{func}() argument '{param}' must be a tensor, not {}",
                v.type_name()
            ))
        }),
    }
}

#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Kind {
    Bool,
    Int,
    Float,
    Complex,
}

fn is_sequence(v: &Value) -> bool {
    match v {
        Value::List(_) | Value::Tuple(_) | Value::Shape(_) | Value::Range(..) => true,
        Value::Tensor(t) => t.ndim() > 0,
        _ => false,
    }
}

/// Most dimensions nested data may describe.
const MAX_DATA_DIMS: usize = 64;

/// The shape nested data claims, read along its first elements.
fn data_shape(v: &Value) -> Result<Vec<usize>> {
    let mut shape = Vec::new();
    let mut cur = v.clone();
    while is_sequence(&cur) {
        if let Value::Tensor(t) = &cur {
            shape.extend(t.shape());
            break;
        }
        let items = cur.iter_items()?;
        shape.push(items.len());
        // A list that holds itself would claim dimensions forever.
        if shape.len() > MAX_DATA_DIMS {
            return Err(value_err(format!(
                "data nested more than {MAX_DATA_DIMS} levels deep cannot be a tensor"
            ))
            .hint("does a list hold itself?"));
        }
        match items.into_iter().next() {
            Some(first) => cur = first,
            None => break,
        }
    }
    Ok(shape)
}

struct Flat {
    floats: Vec<f64>,
    ints: Vec<i64>,
    /// Imaginary parts (zero for real numbers), kept beside `floats`.
    imags: Vec<f64>,
    kind: Option<Kind>,
    /// The dtype of tensors found inside the data, if any.
    inner_dtype: Option<DType>,
}

impl Flat {
    fn push(&mut self, f: f64, i: i64, k: Kind) {
        self.push_complex(f, 0.0, i, k);
    }
    fn push_complex(&mut self, f: f64, im: f64, i: i64, k: Kind) {
        self.floats.push(f);
        self.imags.push(im);
        self.ints.push(i);
        self.kind = Some(match self.kind {
            Some(old) if old > k => old,
            _ => k,
        });
    }
}

fn fill(v: &Value, shape: &[usize], depth: usize, out: &mut Flat) -> Result<()> {
    if depth == shape.len() {
        return match v {
            Value::Bool(b) => {
                out.push(*b as i64 as f64, *b as i64, Kind::Bool);
                Ok(())
            }
            Value::Int(i) => {
                out.push(*i as f64, *i, Kind::Int);
                Ok(())
            }
            Value::Float(f) => {
                out.push(*f, *f as i64, Kind::Float);
                Ok(())
            }
            Value::Complex(re, im) => {
                out.push_complex(*re, *im, *re as i64, Kind::Complex);
                Ok(())
            }
            Value::Tensor(t) if t.ndim() == 0 && t.dtype().is_complex() => {
                let d = t.dtype();
                out.inner_dtype = Some(
                    out.inner_dtype
                        .map_or(d, |o| crate::tensor::promote::promote_types(o, d)),
                );
                let pair = t.to_host()?.to_f64_vec();
                out.push_complex(pair[0], pair[1], pair[0] as i64, Kind::Complex);
                Ok(())
            }
            Value::Tensor(t) if t.ndim() == 0 => {
                let d = t.dtype();
                let k = if d.is_float() {
                    Kind::Float
                } else if d.is_bool() {
                    Kind::Bool
                } else {
                    Kind::Int
                };
                out.inner_dtype = Some(
                    out.inner_dtype
                        .map_or(d, |o| crate::tensor::promote::promote_types(o, d)),
                );
                out.push(scalar::item_f64(t)?, scalar::item_i64(t)?, k);
                Ok(())
            }
            v if is_sequence(v) => Err(value_err(format!(
                "tensor() data is ragged: found a sequence where dim {depth} should hold numbers"
            ))
            .hint("every row of a tensor must have the same length")),
            other => Err(
                type_err(format!("tensor() cannot hold {}", other.a_type_name()))
                    .hint("tensor data is numbers, bools, or (nested) lists of them"),
            ),
        };
    }
    if !is_sequence(v) {
        return Err(value_err(format!(
            "tensor() data is ragged: expected a sequence at dim {depth}, found a number"
        ))
        .hint("every row of a tensor must have the same length"));
    }
    let items = v.iter_items()?;
    if items.len() != shape[depth] {
        return Err(value_err(format!(
            "tensor() data is ragged: expected a sequence of length {} at dim {depth} (got {})",
            shape[depth],
            items.len()
        ))
        .hint("every row of a tensor must have the same length"));
    }
    for item in &items {
        fill(item, shape, depth + 1, out)?;
    }
    Ok(())
}

/// `tensor(data, dtype=...)`: dtype inferred as PyTorch does (bool, int64, float32).
pub fn tensor_from_data(v: &Value, dtype: Option<DType>) -> Result<Tensor> {
    if let Value::Tensor(t) | Value::Array(t) = v {
        return t.to_dtype(dtype.unwrap_or(t.dtype()))?.deep_clone();
    }
    let shape = data_shape(v)?;
    // Data is gathered as a float and an int per element before the cast.
    crate::tensor::core::check_working_set(&shape, dtype.unwrap_or(DType::F32), 16)?;
    let mut flat = Flat {
        floats: vec![],
        ints: vec![],
        imags: vec![],
        kind: None,
        inner_dtype: None,
    };
    fill(v, &shape, 0, &mut flat)?;
    let inferred = match flat.kind {
        None => crate::tensor::dtype::default_float(),
        Some(Kind::Bool) => DType::Bool,
        Some(Kind::Int) => DType::I64,
        Some(Kind::Float) => crate::tensor::dtype::default_float(),
        Some(Kind::Complex) => crate::tensor::dtype::default_float().to_complex(),
    };
    let inferred = match flat.inner_dtype {
        Some(d) if d.category() >= inferred.category() => d,
        _ => inferred,
    };
    let dtype = dtype.unwrap_or(inferred);
    if flat.kind == Some(Kind::Complex) {
        let pairs: Vec<f64> = flat
            .floats
            .iter()
            .zip(&flat.imags)
            .flat_map(|(re, im)| [*re, *im])
            .collect();
        let mut pair_shape = shape.clone();
        pair_shape.push(2);
        let t = Tensor::from_vec(pairs, &pair_shape).view_as_complex()?;
        return t.to_dtype(dtype);
    }
    let t = if flat.kind == Some(Kind::Float) || dtype.is_float() {
        Tensor::from_vec(flat.floats, &shape)
    } else {
        Tensor::from_vec(flat.ints, &shape)
    };
    t.to_dtype(dtype)
}

/// The one element of a one-element tensor, as a Python number (`item()`).
pub fn tensor_item(t: &Tensor) -> Result<Value> {
    let h = t.to_host()?;
    let (f, n) = if t.dtype().is_float() || t.dtype().is_complex() {
        (h.to_f64_vec(), vec![])
    } else {
        (vec![], h.to_i64_vec())
    };
    Ok(element_value(t, 0, &f, &n))
}

/// One element as a plain value.
pub fn element_value(t: &Tensor, i: usize, f: &[f64], n: &[i64]) -> Value {
    match t.dtype() {
        DType::Bool => Value::Bool(n[i] != 0),
        d if d.is_float() => Value::Float(f[i]),
        // A complex tensor's host data is its (re, im) pairs.
        d if d.is_complex() => Value::Complex(f[2 * i], f[2 * i + 1]),
        _ => Value::Int(n[i]),
    }
}

/// `tolist()`: nested lists of plain numbers.
pub fn tolist(t: &Tensor) -> Result<Value> {
    super::value::check_items(t.numel() as u128)?;
    let h = t.to_host()?;
    let (f, n) = if t.dtype().is_float() || t.dtype().is_complex() {
        (h.to_f64_vec(), vec![])
    } else {
        (vec![], h.to_i64_vec())
    };
    fn build(
        t: &Tensor,
        dim: usize,
        base: usize,
        strides: &[usize],
        f: &[f64],
        n: &[i64],
    ) -> Value {
        if dim == t.ndim() {
            return element_value(t, base, f, n);
        }
        let items = (0..t.shape()[dim])
            .map(|i| build(t, dim + 1, base + i * strides[dim], strides, f, n))
            .collect();
        Value::list(items)
    }
    let strides = crate::tensor::layout::contiguous_strides(t.shape());
    Ok(build(t, 0, 0, &strides, &f, &n))
}
