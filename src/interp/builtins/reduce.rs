//! Reductions, scans and softmax as builtins.

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::call::named;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::op::BinaryOp;
use crate::tensor::op::{ReduceOp, ScanOp};
use crate::tensor::ops::reduce::{self as r, reduce};

pub const ROWS: &[Builtin] = &[
    row!(
        Both,
        "sum",
        "sum(input, dim=None, keepdim=False, *, dtype=None)",
        "Sum of all elements, or over dim(s).",
        "sum(tensor([[1, 2], [3, 4]]), dim=0)",
        sum
    ),
    row!(
        Both,
        "mean",
        "mean(input, dim=None, keepdim=False, *, dtype=None)",
        "Mean (floating point tensors only).",
        "mean(tensor([[1., 2.], [3., 4.]]), dim=1, keepdim=true)",
        mean
    ),
    row!(
        Both,
        "prod",
        "prod(input, dim=None, keepdim=False, *, dtype=None)",
        "Product of elements.",
        "prod(tensor([[1., 2.], [3., 4.]]), dim=1)",
        prod
    ),
    row!(
        Both,
        "max",
        "max(input) | max(input, dim, keepdim=False) | max(input, other)",
        "Largest element; with dim, (values, indices).",
        "max(tensor([[1, 5], [3, 2]]), dim=1)",
        max
    ),
    row!(
        Both,
        "min",
        "min(input) | min(input, dim, keepdim=False) | min(input, other)",
        "Smallest element; with dim, (values, indices).",
        "min(tensor([[1, 5], [3, 2]]), dim=1)",
        min
    ),
    row!(
        Both,
        "amax",
        "amax(input, dim=None, keepdim=False)",
        "Largest values over dim(s).",
        "amax(tensor([[1, 5], [3, 2]]), dim=0)",
        amax
    ),
    row!(
        Both,
        "amin",
        "amin(input, dim=None, keepdim=False)",
        "Smallest values over dim(s).",
        "amin(tensor([[1, 5], [3, 2]]), dim=0)",
        amin
    ),
    row!(
        Both,
        "argmax",
        "argmax(input, dim=None, keepdim=False)",
        "Index of the largest element (flattened without dim).",
        "argmax(tensor([[1, 5], [3, 2]]), dim=1)",
        argmax
    ),
    row!(
        Both,
        "argmin",
        "argmin(input, dim=None, keepdim=False)",
        "Index of the smallest element (flattened without dim).",
        "argmin(tensor([[1, 5], [3, 2]]), dim=1)",
        argmin
    ),
    row!(
        Both,
        "std",
        "std(input, dim=None, *, correction=1, keepdim=False)",
        "Standard deviation (Bessel-corrected by default).",
        "std(tensor([1., 2., 3., 4.]))",
        std
    ),
    row!(
        Both,
        "var",
        "var(input, dim=None, *, correction=1, keepdim=False)",
        "Variance (Bessel-corrected by default).",
        "var(tensor([1., 2., 3., 4.]), correction=0)",
        var
    ),
    row!(
        Both,
        "norm",
        "norm(input, p='fro', dim=None, keepdim=False)",
        "Vector p-norm over all elements or dim(s).",
        "norm(tensor([3., 4.]))",
        norm
    ),
    row!(
        Both,
        "all",
        "all(input, dim=None, keepdim=False)",
        "True if every element is non-zero.",
        "all(tensor([true, false]))",
        all
    ),
    row!(
        Both,
        "any",
        "any(input, dim=None, keepdim=False)",
        "True if any element is non-zero.",
        "any(tensor([true, false]))",
        any
    ),
    row!(
        Both,
        "count_nonzero",
        "count_nonzero(input, dim=None)",
        "Number of non-zero elements.",
        "count_nonzero(tensor([0, 1, 2, 0]))",
        count_nonzero
    ),
    row!(
        Both,
        "logsumexp",
        "logsumexp(input, dim, keepdim=False)",
        "log(sum(exp(x))), computed stably.",
        "logsumexp(tensor([1., 2., 3.]), dim=0)",
        logsumexp
    ),
    row!(
        Both,
        "cumsum",
        "cumsum(input, dim)",
        "Running sum along dim.",
        "cumsum(tensor([1, 2, 3]), dim=0)",
        cumsum
    ),
    row!(
        Both,
        "cumprod",
        "cumprod(input, dim)",
        "Running product along dim.",
        "cumprod(tensor([1, 2, 3]), dim=0)",
        cumprod
    ),
    row!(
        Both,
        "softmax",
        "softmax(input, dim)",
        "exp(x) / sum(exp(x)) along dim.",
        "softmax(tensor([1., 2., 3.]), dim=0)",
        softmax
    ),
    row!(
        Both,
        "log_softmax",
        "log_softmax(input, dim)",
        "log(softmax(x)) along dim, computed stably.",
        "log_softmax(tensor([1., 2., 3.]), dim=0)",
        log_softmax
    ),
];

/// The common `(input, dim=None, keepdim=False, *, dtype=None)` shape of reductions.
fn simple(mut a: Args, op: ReduceOp) -> Result<Value> {
    let t = a.tensor("input")?;
    let dims = a.dims("dim")?;
    let keepdim = a.flag("keepdim", false)?;
    let dtype = a.dtype_kw()?;
    a.finish()?;
    let t = match dtype {
        Some(d) => t.to_dtype(d)?,
        None => t,
    };
    reduce(&t, op, dims.as_deref(), keepdim).map(Value::Tensor)
}

/// The reductions that take exactly `simple`'s parameters.
macro_rules! simple_fns {
    ($($f:ident => $op:ident),* $(,)?) => {
        $(fn $f(_: &mut Interp, a: Args) -> Result<Value> {
            simple(a, ReduceOp::$op)
        })*
    };
}

simple_fns! {
    sum => Sum, mean => Mean, prod => Prod, all => All, any => Any,
    count_nonzero => CountNonzero,
}

fn amax(_: &mut Interp, a: Args) -> Result<Value> {
    let v = simple(a, ReduceOp::Max)?;
    Ok(relabeled(v, "AmaxBackward0"))
}

fn amin(_: &mut Interp, a: Args) -> Result<Value> {
    let v = simple(a, ReduceOp::Min)?;
    Ok(relabeled(v, "AminBackward0"))
}

/// PyTorch's grad_fn name for a builtin built from other ops.
fn relabeled(v: Value, name: &'static str) -> Value {
    match v {
        Value::Tensor(t) => Value::Tensor(crate::autograd::relabel(t, name)),
        other => other,
    }
}

fn extreme(mut a: Args, is_max: bool) -> Result<Value> {
    let t = a.tensor("input")?;
    let second = a.take("dim");
    let keepdim = a.flag("keepdim", false)?;
    a.finish()?;
    match second {
        None | Some((Value::None, _)) => reduce(
            &t,
            if is_max { ReduceOp::Max } else { ReduceOp::Min },
            None,
            false,
        )
        .map(Value::Tensor),
        Some((Value::Tensor(other), _)) if other.ndim() != 0 || other.dtype().is_float() => {
            let op = if is_max {
                BinaryOp::Maximum
            } else {
                BinaryOp::Minimum
            };
            crate::tensor::ops::elementwise::binary(op, &t, &other).map(Value::Tensor)
        }
        Some((v, s)) => {
            let dim = crate::interp::convert::to_int(&v, if is_max { "max" } else { "min" }, "dim")
                .map_err(|e| e.at(s))?;
            let (values, indices) = r::max_min_dim(&t, dim, keepdim, is_max)?;
            Ok(named(
                if is_max { "max" } else { "min" },
                vec![
                    ("values", Value::Tensor(values)),
                    ("indices", Value::Tensor(indices)),
                ],
            ))
        }
    }
}

fn max(_: &mut Interp, a: Args) -> Result<Value> {
    extreme(a, true)
}

fn min(_: &mut Interp, a: Args) -> Result<Value> {
    extreme(a, false)
}

fn arg(mut a: Args, op: ReduceOp) -> Result<Value> {
    let t = a.tensor("input")?;
    let dim = a.opt_int("dim")?;
    let keepdim = a.flag("keepdim", false)?;
    a.finish()?;
    match dim {
        Some(d) => reduce(&t, op, Some(&[d]), keepdim).map(Value::Tensor),
        None => {
            let out = reduce(&t, op, None, false)?;
            if keepdim {
                let ones = vec![1i64; t.ndim()];
                return crate::tensor::ops::view::reshape(&out, &ones).map(Value::Tensor);
            }
            Ok(Value::Tensor(out))
        }
    }
}

fn argmax(_: &mut Interp, a: Args) -> Result<Value> {
    arg(a, ReduceOp::ArgMax)
}

fn argmin(_: &mut Interp, a: Args) -> Result<Value> {
    arg(a, ReduceOp::ArgMin)
}

fn spread(mut a: Args, is_std: bool) -> Result<Value> {
    let t = a.tensor("input")?;
    // Legacy form std(input, unbiased) takes a bool second.
    let mut correction = 1.0;
    let dims = match a.take("dim") {
        Some((Value::Bool(unbiased), _)) => {
            correction = if unbiased { 1.0 } else { 0.0 };
            None
        }
        None | Some((Value::None, _)) => None,
        Some((v, s)) => {
            Some(crate::interp::convert::to_int_list(&v, a.name, "dim").map_err(|e| e.at(s))?)
        }
    };
    if let Some((v, s)) = a.take_kw("unbiased") {
        correction = if v.truthy().map_err(|e| e.at(s))? {
            1.0
        } else {
            0.0
        };
    }
    if let Some((v, s)) = a.take_kw("correction") {
        correction =
            crate::interp::convert::to_float(&v, a.name, "correction").map_err(|e| e.at(s))?;
    }
    let keepdim = a.flag("keepdim", false)?;
    a.finish()?;
    let op = if is_std {
        ReduceOp::Std(correction)
    } else {
        ReduceOp::Var(correction)
    };
    reduce(&t, op, dims.as_deref(), keepdim).map(Value::Tensor)
}

fn std(_: &mut Interp, a: Args) -> Result<Value> {
    spread(a, true)
}

fn var(_: &mut Interp, a: Args) -> Result<Value> {
    spread(a, false)
}

fn norm(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let p = match a.take("p") {
        None | Some((Value::None, _)) => 2.0,
        Some((Value::Str(s), sp)) => match s.as_ref() {
            "fro" => 2.0,
            other => {
                return Err(type_err(format!(
                    "norm: p='{other}' is not supported (use a number or 'fro')"
                ))
                .at(sp));
            }
        },
        Some((v, s)) => crate::interp::convert::to_float(&v, "norm", "p").map_err(|e| e.at(s))?,
    };
    let dims = a.dims("dim")?;
    let keepdim = a.flag("keepdim", false)?;
    a.finish()?;
    reduce(&t, ReduceOp::Norm(p), dims.as_deref(), keepdim).map(Value::Tensor)
}

fn logsumexp(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let dims = a.dims("dim")?;
    let keepdim = a.flag("keepdim", false)?;
    a.finish()?;
    reduce(&t, ReduceOp::LogSumExp, dims.as_deref(), keepdim).map(Value::Tensor)
}

fn scan(mut a: Args, op: ScanOp) -> Result<Value> {
    let t = a.tensor("input")?;
    let dim = a.int("dim")?;
    let dtype = a.dtype_kw()?;
    a.finish()?;
    let t = match dtype {
        Some(d) => t.to_dtype(d)?,
        None => t,
    };
    r::scan(&t, op, dim).map(Value::Tensor)
}

fn cumsum(_: &mut Interp, a: Args) -> Result<Value> {
    scan(a, ScanOp::Sum)
}

fn cumprod(_: &mut Interp, a: Args) -> Result<Value> {
    scan(a, ScanOp::Prod)
}

fn softmax_like(mut a: Args, log: bool) -> Result<Value> {
    let t = a.tensor("input")?;
    let dim = a.int("dim")?;
    let dtype = a.dtype_kw()?;
    a.finish()?;
    let t = match dtype {
        Some(d) => t.to_dtype(d)?,
        None => t,
    };
    if log {
        r::log_softmax(&t, dim)
    } else {
        r::softmax(&t, dim)
    }
    .map(Value::Tensor)
}

fn softmax(_: &mut Interp, a: Args) -> Result<Value> {
    softmax_like(a, false)
}

fn log_softmax(_: &mut Interp, a: Args) -> Result<Value> {
    softmax_like(a, true)
}
