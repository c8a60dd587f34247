//! The NumPy that PyTorch's tutorials and the course notes use (`import numpy
//! as np`): each function forwards to the torch function of the same meaning,
//! with NumPy's defaults (float64, `axis=`), and gives back arrays.

use super::{Builtin, torch_function};
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::numpy::{unwrap, wrap};
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::{BinOp, Span};
use crate::tensor::DType;

/// `np.NAME`: a row named `np.NAME`, or one of these.
pub fn attr(name: &str) -> Option<Value> {
    Some(match name {
        "float64" | "double" => Value::DType(DType::F64),
        "float32" | "single" => Value::DType(DType::F32),
        "float16" | "half" => Value::DType(DType::F16),
        "int64" => Value::DType(DType::I64),
        "int32" => Value::DType(DType::I32),
        "int16" => Value::DType(DType::I16),
        "int8" => Value::DType(DType::I8),
        "uint8" => Value::DType(DType::U8),
        "bool_" => Value::DType(DType::Bool),
        "pi" => Value::Float(std::f64::consts::PI),
        "e" => Value::Float(std::f64::consts::E),
        "inf" => Value::Float(f64::INFINITY),
        "nan" => Value::Float(f64::NAN),
        "newaxis" => Value::None,
        _ => return None,
    })
}

macro_rules! np_rows {
    ($($name:literal, $sig:literal, $help:literal, $example:literal, $f:ident;)*) => {
        pub const ROWS: &[Builtin] = &[
            $(row!(Module, $name, $sig, $help, $example, $f),)*
        ];
    };
}

np_rows! {
    "np.array", "np.array(object, dtype=None)", "An array from (nested) lists; floats are float64.", "np.array([[1, 2], [3, 4]])", array;
    "np.asarray", "np.asarray(a, dtype=None)", "An array; a tensor or array is shared, not copied.", "np.asarray([1., 2.])", asarray;
    "np.ones", "np.ones(shape, dtype=float64)", "An array of ones.", "np.ones(5)", ones;
    "np.zeros", "np.zeros(shape, dtype=float64)", "An array of zeros.", "np.zeros((2, 3))", zeros;
    "np.empty", "np.empty(shape, dtype=float64)", "An uninitialised (zero) array.", "np.empty(2)", empty;
    "np.full", "np.full(shape, fill_value, dtype=None)", "An array of one value.", "np.full(3, 7)", full;
    "np.arange", "np.arange(start, stop=None, step=1, dtype=None)", "Evenly spaced values in [start, stop).", "np.arange(6).reshape(2, 3)", arange;
    "np.linspace", "np.linspace(start, stop, num=50)", "num evenly spaced values from start to stop.", "np.linspace(0, 1, 5)", linspace;
    "np.eye", "np.eye(N, M=None)", "The identity matrix.", "np.eye(2)", eye;
    "np.add", "np.add(x1, x2, out=None)", "x1 + x2, element by element.", "a = np.ones(3); np.add(a, 1, out=a); a", add;
    "np.subtract", "np.subtract(x1, x2, out=None)", "x1 - x2.", "np.subtract([3, 4], 1)", subtract;
    "np.multiply", "np.multiply(x1, x2, out=None)", "x1 * x2.", "np.multiply([1, 2], 3)", multiply;
    "np.divide", "np.divide(x1, x2, out=None)", "x1 / x2 (true division, float64).", "np.divide([1, 2], 4)", divide;
    "np.power", "np.power(x1, x2, out=None)", "x1 ** x2.", "np.power([1, 2, 3], 2)", power;
    "np.dot", "np.dot(a, b)", "Dot product (matrix product for 2-D).", "np.dot([1, 2], [3, 4])", dot;
    "np.matmul", "np.matmul(a, b)", "Matrix product.", "np.matmul(np.eye(2), np.ones((2, 2)))", matmul;
    "np.sqrt", "np.sqrt(x)", "Square root.", "np.sqrt([1, 4, 9])", sqrt;
    "np.exp", "np.exp(x)", "e to the x.", "np.exp([0, 1])", exp;
    "np.log", "np.log(x)", "Natural logarithm.", "np.log([1, np.e])", log;
    "np.abs", "np.abs(x)", "Absolute value.", "np.abs([-1, 2])", abs;
    "np.sin", "np.sin(x)", "Sine.", "np.sin([0.])", sin;
    "np.cos", "np.cos(x)", "Cosine.", "np.cos([0.])", cos;
    "np.tanh", "np.tanh(x)", "Hyperbolic tangent.", "np.tanh([0.])", tanh;
    "np.sum", "np.sum(a, axis=None, keepdims=False)", "Sum of elements.", "np.sum([[1, 2], [3, 4]], axis=0)", sum;
    "np.mean", "np.mean(a, axis=None, keepdims=False)", "Mean of elements (float64).", "np.mean([1, 2, 3, 4])", mean;
    "np.max", "np.max(a, axis=None, keepdims=False)", "Largest element.", "np.max([1, 5, 3])", max;
    "np.min", "np.min(a, axis=None, keepdims=False)", "Smallest element.", "np.min([1, 5, 3])", min;
    "np.argmax", "np.argmax(a, axis=None)", "Index of the largest element.", "np.argmax([1, 5, 3])", argmax;
    "np.reshape", "np.reshape(a, shape)", "The same elements in a new shape.", "np.reshape(np.arange(4), (2, 2))", reshape;
    "np.concatenate", "np.concatenate(arrays, axis=0)", "Arrays joined along an axis.", "np.concatenate([np.ones(2), np.zeros(1)])", concatenate;
    "np.allclose", "np.allclose(a, b)", "Are all elements close?", "np.allclose([1., 2.], [1., 2.0000001])", allclose;
}

/// NumPy's arguments as torch's: arrays and lists become tensors.
fn tensors(positional: Vec<(Value, Span)>) -> Vec<(Value, Span)> {
    positional
        .into_iter()
        .map(|(v, s)| (unwrap(&v), s))
        .collect()
}

/// Call the torch function `name` on NumPy's arguments; give back arrays.
fn forward(it: &mut Interp, mut a: Args, name: &str, float_default: bool) -> Result<Value> {
    let mut positional = tensors(a.rest());
    let mut keywords: Vec<(String, Value, Span)> = a
        .keywords_left()
        .into_iter()
        .map(|(k, v)| (k, unwrap(&v), a.span))
        .collect();
    if float_default && !keywords.iter().any(|(k, _, _)| k == "dtype") {
        keywords.push(("dtype".into(), Value::DType(DType::F64), a.span));
    }
    // NumPy takes a shape as one tuple argument: `np.zeros((2, 3))`.
    if let Some((Value::Tuple(items), s)) = positional.first().cloned()
        && matches!(name, "ones" | "zeros" | "empty" | "full")
    {
        positional.remove(0);
        positional.splice(0..0, items.iter().map(|v| (v.clone(), s)));
    }
    let b = torch_function(name).ok_or_else(|| type_err(format!("no torch.{name}")))?;
    wrap(it.call_builtin(b, positional, keywords, a.span)?)
}

/// Integer arrays as float64 first (NumPy's sqrt, mean, ... of ints are float64).
fn floated(it: &mut Interp, mut a: Args, name: &str) -> Result<Value> {
    let (x, s) = a
        .take("x")
        .ok_or_else(|| type_err(format!("{name}() missing required argument 'x'")))?;
    let t = crate::interp::convert::to_tensor_arg(&unwrap(&x), name, "x").map_err(|e| e.at(s))?;
    let t = if t.dtype().is_float() {
        t
    } else {
        t.to_dtype(DType::F64)?
    };
    let mut rest = vec![(Value::Tensor(t), s)];
    rest.extend(a.rest());
    let keywords = a.keywords_left();
    let args = Args::new(
        a.name,
        rest,
        keywords.into_iter().map(|(k, v)| (k, v, s)).collect(),
        a.span,
    );
    forward(it, args, name, false)
}

fn elementwise(mut a: Args, op: BinOp) -> Result<Value> {
    let x = a.value("x1")?;
    let y = a.value("x2")?;
    a.finish()?;
    let as_array = |v: Value| match v {
        Value::List(_) | Value::Tuple(_) => {
            crate::interp::convert::tensor_from_data(&v, None).map(Value::Array)
        }
        Value::Tensor(t) => Ok(Value::Array(t)),
        other => Ok(other),
    };
    let (x, y) = (as_array(x)?, as_array(y)?);
    crate::interp::ops::binary(op, &x, &y)
}

fn array(_: &mut Interp, mut a: Args) -> Result<Value> {
    let data = a.value("object")?;
    let dtype = match a.take("dtype") {
        None | Some((Value::None, _)) => None,
        Some((v, s)) => Some(crate::interp::convert::to_dtype(&v).map_err(|e| e.at(s))?),
    };
    a.finish()?;
    let t = crate::interp::convert::tensor_from_data(&unwrap(&data), dtype)?;
    // NumPy's floats are float64: rebuild from the data rather than widen float32.
    let t = if dtype.is_none() && t.dtype() == DType::F32 && !matches!(data, Value::Array(_)) {
        crate::interp::convert::tensor_from_data(&unwrap(&data), Some(DType::F64))?
    } else {
        t
    };
    Ok(Value::Array(t))
}

fn asarray(it: &mut Interp, a: Args) -> Result<Value> {
    match a.positional.first() {
        Some((Value::Array(t) | Value::Tensor(t), _)) if a.keywords.is_empty() => {
            Ok(Value::Array(t.clone()))
        }
        _ => array(it, a),
    }
}

/// One-line forms: `np.NAME` as torch's function of the same meaning.
macro_rules! np_forward {
    ($($f:ident => $how:ident $arg:tt;)*) => {
        $(fn $f(it: &mut Interp, a: Args) -> Result<Value> {
            np_forward!(@ it, a, $how $arg)
        })*
    };
    (@ $it:ident, $a:ident, float64 $name:literal) => { forward($it, $a, $name, true) };
    (@ $it:ident, $a:ident, same $name:literal) => { forward($it, $a, $name, false) };
    (@ $it:ident, $a:ident, floated $name:literal) => { floated($it, $a, $name) };
    (@ $it:ident, $a:ident, op $op:ident) => {{
        let _ = &$it;
        elementwise($a, BinOp::$op)
    }};
}

np_forward! {
    ones => float64 "ones";
    zeros => float64 "zeros";
    empty => float64 "empty";
    eye => float64 "eye";
    add => op Add;
    subtract => op Sub;
    multiply => op Mul;
    divide => op Div;
    power => op Pow;
    dot => same "matmul";
    matmul => same "matmul";
    sqrt => floated "sqrt";
    exp => floated "exp";
    log => floated "log";
    abs => same "abs";
    sin => floated "sin";
    cos => floated "cos";
    tanh => floated "tanh";
    sum => same "sum";
    mean => floated "mean";
    max => same "amax";
    min => same "amin";
    argmax => same "argmax";
    reshape => same "reshape";
}

fn full(it: &mut Interp, a: Args) -> Result<Value> {
    let float = matches!(a.positional.get(1), Some((Value::Float(_), _)));
    forward(it, a, "full", float)
}
fn arange(it: &mut Interp, a: Args) -> Result<Value> {
    let float = a
        .positional
        .iter()
        .any(|(v, _)| matches!(v, Value::Float(_)));
    forward(it, a, "arange", float)
}
fn linspace(it: &mut Interp, mut a: Args) -> Result<Value> {
    if let Some(i) = a.keywords.iter().position(|(k, _, _)| k == "num") {
        a.keywords[i].0 = "steps".into();
    }
    if a.positional.len() < 3 && !a.keywords.iter().any(|(k, _, _)| k == "steps") {
        a.keywords.push(("steps".into(), Value::Int(50), a.span));
    }
    forward(it, a, "linspace", true)
}
fn concatenate(it: &mut Interp, mut a: Args) -> Result<Value> {
    if let Some((Value::List(items), _)) = a.positional.first_mut() {
        let unwrapped: Vec<Value> = items.borrow().iter().map(unwrap).collect();
        *items = std::rc::Rc::new(std::cell::RefCell::new(unwrapped));
    }
    forward(it, a, "cat", false)
}
fn allclose(it: &mut Interp, mut a: Args) -> Result<Value> {
    for (v, _) in a.positional.iter_mut() {
        if let Value::List(_) | Value::Tuple(_) = v {
            *v = Value::Tensor(crate::interp::convert::tensor_from_data(
                v,
                Some(DType::F64),
            )?);
        }
    }
    forward(it, a, "allclose", false)
}
