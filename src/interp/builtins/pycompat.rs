//! PyTorch API that tutorials touch beyond the ops: `x.new_ones(...)` and the
//! other `new_*` methods, the legacy `torch.FloatTensor` constructors,
//! `set/get_default_dtype`, `set_printoptions`, `t.trace()`, and NumPy's bridge
//! (`t.numpy()`, `torch.from_numpy`).

use super::{Builtin, torch_function};
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::{DType, Device};

pub const ROWS: &[Builtin] = &[
    row!(
        Method,
        "new_ones",
        "new_ones(size, *, dtype=None, device=None, requires_grad=False)",
        "Ones with this tensor's dtype and device (unless given).",
        "tensor([1., 2.], dtype=float64).new_ones(3)",
        new_ones
    ),
    row!(
        Method,
        "new_zeros",
        "new_zeros(size, *, dtype=None, device=None, requires_grad=False)",
        "Zeros with this tensor's dtype and device (unless given).",
        "tensor([1, 2]).new_zeros((2, 2))",
        new_zeros
    ),
    row!(
        Method,
        "new_full",
        "new_full(size, fill_value, *, dtype=None, device=None, requires_grad=False)",
        "A tensor full of one value, with this tensor's dtype and device.",
        "tensor([1., 2.]).new_full((2,), 7)",
        new_full
    ),
    row!(
        Method,
        "new_empty",
        "new_empty(size, *, dtype=None, device=None, requires_grad=False)",
        "An uninitialised (zero) tensor with this tensor's dtype and device.",
        "tensor([1., 2.]).new_empty(2)",
        new_empty
    ),
    crate::op!(
        Function,
        "empty_strided(int[] size, int[] stride, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor",
        "An uninitialised (zero in tsh) tensor with these sizes and strides.",
        "empty_strided((2, 3), (1, 2)).stride()",
        |size: Vec<i64>,
         stride: Vec<i64>,
         dtype: Option<DType>,
         device: Option<Device>,
         requires_grad: bool| {
            strided_new(&size, Some(&stride), None, dtype, device, requires_grad)
        }
    ),
    crate::op!(
        Function,
        "empty_permuted(int[] size, int[] physical_layout, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor",
        "An uninitialised (zero in tsh) tensor stored densely in the dim order physical_layout.",
        "empty_permuted((2, 3, 4), (0, 2, 1)).stride()",
        |size: Vec<i64>,
         physical_layout: Vec<i64>,
         dtype: Option<DType>,
         device: Option<Device>,
         requires_grad: bool| {
            strided_new(
                &size,
                None,
                Some(&physical_layout),
                dtype,
                device,
                requires_grad,
            )
        }
    ),
    crate::op!(
        Method,
        "new_empty_strided(Tensor self, int[] size, int[] stride, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor",
        "empty_strided with this tensor's dtype and device (unless given).",
        "tensor([1., 2.]).new_empty_strided((2, 2), (1, 2)).stride()",
        |self_: crate::tensor::Tensor,
         size: Vec<i64>,
         stride: Vec<i64>,
         dtype: Option<DType>,
         device: Option<Device>,
         requires_grad: bool| {
            strided_new(
                &size,
                Some(&stride),
                None,
                Some(dtype.unwrap_or(self_.dtype())),
                Some(device.unwrap_or(self_.device())),
                requires_grad,
            )
        }
    ),
    crate::op!(
        Method,
        "dim_order(Tensor self) -> Any",
        "The dims from outermost to innermost in memory.",
        "zeros(2, 3).t().dim_order()",
        |self_: crate::tensor::Tensor| Ok::<Value, crate::error::Error>(Value::tuple(
            crate::tensor::ops::strided::dim_order(&self_)
                .into_iter()
                .map(Value::Int)
                .collect()
        ))
    ),
    row!(
        Method,
        "new_tensor",
        "new_tensor(data, *, dtype=None, device=None, requires_grad=False)",
        "A tensor from data, with this tensor's dtype and device (unless given).",
        "tensor([1., 2.]).new_tensor([3, 4])",
        new_tensor
    ),
    row!(
        Function,
        "set_default_dtype",
        "set_default_dtype(d)",
        "The float dtype of float data and of creation functions without dtype=.",
        "set_default_dtype(torch.float64); x = tensor([1.5]); set_default_dtype(torch.float32); x",
        set_default_dtype
    ),
    row!(
        Function,
        "get_default_dtype",
        "get_default_dtype()",
        "The float dtype used when none is given (float32 unless set).",
        "get_default_dtype()",
        get_default_dtype
    ),
    row!(
        Function,
        "set_printoptions",
        "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None)",
        "How tensors print (as torch.set_printoptions; also :set).",
        "set_printoptions(precision=2); tensor([1/3]); set_printoptions(profile='default')",
        set_printoptions
    ),
    row!(
        Method,
        "numpy",
        "numpy()",
        "The same memory as a NumPy array (CPU tensors without grad).",
        "t = ones(2); n = t.numpy(); t.add_(1); n",
        numpy
    ),
    row!(
        Function,
        "from_numpy",
        "from_numpy(ndarray)",
        "A tensor that shares the array's memory: changing one changes the other.",
        "import numpy as np; a = np.ones(2); t = torch.from_numpy(a); a += 1; t",
        from_numpy
    ),
    row!(
        Function,
        "FloatTensor",
        "FloatTensor(data) | FloatTensor(*size)",
        "Legacy constructor: a float32 tensor.",
        "torch.FloatTensor([1, 2])",
        float_tensor
    ),
    row!(
        Function,
        "DoubleTensor",
        "DoubleTensor(data) | DoubleTensor(*size)",
        "Legacy constructor: a float64 tensor.",
        "torch.DoubleTensor([1, 2])",
        double_tensor
    ),
    row!(
        Function,
        "LongTensor",
        "LongTensor(data) | LongTensor(*size)",
        "Legacy constructor: an int64 tensor.",
        "torch.LongTensor([1, 2])",
        long_tensor
    ),
    row!(
        Function,
        "IntTensor",
        "IntTensor(data) | IntTensor(*size)",
        "Legacy constructor: an int32 tensor.",
        "torch.IntTensor([1, 2])",
        int_tensor
    ),
    row!(
        Function,
        "BoolTensor",
        "BoolTensor(data) | BoolTensor(*size)",
        "Legacy constructor: a bool tensor.",
        "torch.BoolTensor([True, False])",
        bool_tensor
    ),
    row!(
        Function,
        "ByteTensor",
        "ByteTensor(data) | ByteTensor(*size)",
        "Legacy constructor: a uint8 tensor.",
        "torch.ByteTensor([1, 2])",
        byte_tensor
    ),
    row!(
        Function,
        "HalfTensor",
        "HalfTensor(data) | HalfTensor(*size)",
        "Legacy constructor: a float16 tensor.",
        "torch.HalfTensor([1, 2])",
        half_tensor
    ),
];

/// Call the torch function `name` with the receiver's dtype and device as defaults.
fn like_self(it: &mut Interp, mut a: Args, name: &str) -> Result<Value> {
    let t = a.tensor("self")?;
    let mut positional = a.rest();
    let keywords = a.keywords_left();
    // `x.new_ones(2, 3)` and `x.new_ones((2, 3))` both name a size.
    if name != "tensor"
        && let [(Value::List(_) | Value::Tuple(_) | Value::Shape(_), _), ..] = positional.as_slice()
    {
        let (size, s) = positional.remove(0);
        let mut spread: Vec<(Value, crate::syntax::ast::Span)> =
            size.iter_items()?.into_iter().map(|v| (v, s)).collect();
        spread.append(&mut positional);
        positional = spread;
    }
    let span = a.span;
    it.call_builtin(
        torch_function_named(name)?,
        positional,
        self_defaults(keywords, &t, span),
        span,
    )
}

/// The keywords, with dtype= and device= the receiver's where not given.
fn self_defaults(
    mut keywords: Vec<(String, Value)>,
    t: &crate::tensor::Tensor,
    span: crate::syntax::ast::Span,
) -> Vec<(String, Value, crate::syntax::ast::Span)> {
    if !keywords.iter().any(|(k, _)| k == "dtype") {
        keywords.push(("dtype".into(), Value::DType(t.dtype())));
    }
    if !keywords.iter().any(|(k, _)| k == "device") {
        keywords.push(("device".into(), Value::Device(t.device())));
    }
    keywords.into_iter().map(|(k, v)| (k, v, span)).collect()
}

fn torch_function_named(name: &str) -> Result<&'static Builtin> {
    torch_function(name).ok_or_else(|| type_err(format!("no torch.{name}")))
}

fn new_ones(it: &mut Interp, a: Args) -> Result<Value> {
    like_self(it, a, "ones")
}

fn new_zeros(it: &mut Interp, a: Args) -> Result<Value> {
    like_self(it, a, "zeros")
}

fn new_empty(it: &mut Interp, a: Args) -> Result<Value> {
    like_self(it, a, "empty")
}

fn new_tensor(it: &mut Interp, a: Args) -> Result<Value> {
    like_self(it, a, "tensor")
}

fn new_full(it: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let size = a.value("size")?;
    let fill = a.value("fill_value")?;
    let keywords = a.keywords_left();
    let span = a.span;
    let keywords = self_defaults(keywords, &t, span);
    it.call_builtin(
        torch_function_named("full")?,
        vec![(size, span), (fill, span)],
        keywords,
        span,
    )
}

/// The diagonal picked out by an identity mask, then summed: gradients flow.
fn set_default_dtype(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = convert::to_dtype(&a.value("d")?)?;
    a.finish()?;
    if !matches!(d, DType::F32 | DType::F64 | DType::F16 | DType::BF16) {
        return Err(type_err(format!(
            "only floating-point types are supported as the default type, not {d}"
        )));
    }
    crate::tensor::dtype::set_default_float(d);
    Ok(Value::None)
}

fn get_default_dtype(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::DType(crate::tensor::dtype::default_float()))
}

fn set_printoptions(it: &mut Interp, mut a: Args) -> Result<Value> {
    let precision = a.opt_int("precision")?;
    let threshold = a.opt_float("threshold")?;
    let edgeitems = a.opt_int("edgeitems")?;
    let linewidth = a.opt_int("linewidth")?;
    let profile = match a.take("profile") {
        Some((Value::Str(s), _)) => Some(s.to_string()),
        _ => None,
    };
    let sci_mode = match a.take("sci_mode") {
        None | Some((Value::None, _)) => None,
        Some((v, s)) => Some(v.truthy().map_err(|e| e.at(s))?),
    };
    a.finish()?;
    let opts = &mut it.print_opts;
    match profile.as_deref() {
        Some("default") => *opts = Default::default(),
        Some("short") => {
            opts.precision = 2;
            opts.threshold = 1000;
            opts.edgeitems = 2;
            opts.linewidth = 80;
        }
        Some("full") => {
            opts.precision = 4;
            opts.threshold = usize::MAX;
            opts.edgeitems = 3;
            opts.linewidth = 80;
        }
        Some(other) => {
            return Err(type_err(format!(
                "unknown profile '{other}': use 'default', 'short' or 'full'"
            )));
        }
        None => {}
    }
    if let Some(p) = precision {
        opts.precision = p.clamp(0, 30) as usize;
    }
    if let Some(t) = threshold {
        opts.threshold = if t.is_finite() {
            t.max(0.0) as usize
        } else {
            usize::MAX
        };
    }
    if let Some(e) = edgeitems {
        opts.edgeitems = e.max(0) as usize;
    }
    if let Some(l) = linewidth {
        opts.linewidth = l.max(1) as usize;
    }
    if sci_mode.is_some() || profile.is_some() {
        opts.sci_mode = sci_mode;
    }
    Ok(Value::None)
}

fn numpy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let force = a
        .take_kw("force")
        .is_some_and(|(v, _)| v.truthy().unwrap_or(false));
    a.finish()?;
    if let crate::tensor::Device::Cuda(_) = t.device() {
        if !force {
            return Err(type_err(format!(
                "can't convert {} device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.",
                t.device()
            ))
            .hint("t.cpu().numpy()"));
        }
        return crate::interp::numpy::from_tensor(&t.to_device(crate::tensor::Device::Cpu)?);
    }
    crate::interp::numpy::from_tensor(&t)
}

fn from_numpy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("ndarray")?;
    a.finish()?;
    match v {
        Value::Array(t) => Ok(Value::Tensor(t)),
        other => Err(type_err(format!(
            "expected np.ndarray (got {})",
            super::pytypes::class_of(&other)
        ))),
    }
}

/// `torch.FloatTensor(data)` or `torch.FloatTensor(2, 3)`.
fn legacy(it: &mut Interp, a: Args, dtype: DType) -> Result<Value> {
    let b = torch_function_named("Tensor")?;
    let span = a.span;
    let mut positional = a.positional.clone();
    for (v, _) in positional.iter_mut() {
        *v = crate::interp::numpy::unwrap(v);
    }
    let t = it.call_builtin(b, positional, vec![], span)?;
    match t {
        Value::Tensor(t) => Ok(Value::Tensor(t.to_dtype(dtype)?)),
        other => Ok(other),
    }
}

macro_rules! legacy_ctor {
    ($($f:ident => $d:ident),* $(,)?) => {
        $(fn $f(it: &mut Interp, a: Args) -> Result<Value> {
            legacy(it, a, DType::$d)
        })*
    };
}

legacy_ctor!(
    float_tensor => F32,
    double_tensor => F64,
    long_tensor => I64,
    int_tensor => I32,
    bool_tensor => Bool,
    byte_tensor => U8,
    half_tensor => F16,
);

/// empty_strided and empty_permuted: the layout asked for, on the device
/// asked for, requiring grad if asked.
fn strided_new(
    size: &[i64],
    stride: Option<&[i64]>,
    physical_layout: Option<&[i64]>,
    dtype: Option<DType>,
    device: Option<Device>,
    requires_grad: bool,
) -> Result<crate::tensor::Tensor> {
    use crate::tensor::ops::strided as st;
    let dtype = dtype.unwrap_or_else(crate::tensor::dtype::default_float);
    let device = device.unwrap_or_else(crate::tensor::device::default_device);
    let t = match (stride, physical_layout) {
        (Some(stride), _) => st::empty_strided(size, stride, dtype, device)?,
        (None, Some(order)) => st::empty_permuted(size, order, dtype, device)?,
        (None, None) => st::empty_strided(size, &[], dtype, device)?,
    };
    if requires_grad {
        if !dtype.is_float() {
            return Err(crate::error::dtype_err(
                "Only Tensors of floating point and complex dtype can require gradients",
            ));
        }
        t.set_requires_grad(true);
    }
    Ok(t)
}
