//! Element-wise builtins that take more than the op rows give: add/sub with
//! alpha, div with rounding_mode, round with decimals, pow, clamp, where, the
//! bool tests, nan_to_num, and the closeness checks. (Every other element-wise
//! op is a builtin made from its row: see ops.rs.)

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, UnaryOp};
use crate::tensor::ops::compare;
use crate::tensor::ops::elementwise::{self as ew, binary, unary};
use crate::tensor::ops::reduce::reduce;

pub const ROWS: &[Builtin] = &[
    crate::op!(
        Both,
        "logit(Tensor input, float? eps=None) -> Tensor",
        "log(p / (1 - p)), the inverse of sigmoid; with eps, p is first clamped to [eps, 1 - eps].",
        "logit(tensor([0.5, 0.9]))",
        |input: crate::tensor::Tensor, eps: Option<f64>| {
            let x = match eps {
                Some(e) => crate::tensor::ops::elementwise::clamp(
                    &input,
                    Some(&crate::tensor::ops::arith::num(e)),
                    Some(&crate::tensor::ops::arith::num(1.0 - e)),
                )?,
                None => input,
            };
            crate::tensor::ops::arith::un(crate::tensor::op::UnaryOp::Logit, &x)
        }
    ),
    row!(
        Both,
        "round",
        "round(input, *, decimals=0)",
        "Round half to even.",
        "round(tensor([1.25, 2.5]), decimals=1)",
        round
    ),
    row!(
        Both,
        "logical_not",
        "logical_not(input)",
        "True where x is zero.",
        "logical_not(tensor([true, false]))",
        logical_not
    ),
    row!(
        Both,
        "isnan",
        "isnan(input)",
        "True where x is nan.",
        "isnan(tensor([1., nan]))",
        isnan
    ),
    row!(
        Both,
        "isinf",
        "isinf(input)",
        "True where x is +inf or -inf.",
        "isinf(tensor([1., inf]))",
        isinf
    ),
    row!(
        Both,
        "isfinite",
        "isfinite(input)",
        "True where x is neither inf nor nan.",
        "isfinite(tensor([1., inf, nan]))",
        isfinite
    ),
    row!(
        Both,
        "pow",
        "pow(input, exponent)",
        "input ** exponent, element-wise with broadcasting.",
        "pow(tensor([1., 2., 3.]), 2)",
        pow
    ),
    row!(
        Both,
        "float_power",
        "float_power(input, exponent)",
        "Power computed in float64.",
        "float_power(tensor([2, 3]), 2)",
        float_power
    ),
    row!(
        Both,
        "nan_to_num",
        "nan_to_num(input, nan=0.0, posinf=None, neginf=None)",
        "Replace nan, +inf and -inf (by default with 0 and the dtype's largest and smallest finite values).",
        "nan_to_num(tensor([nan, inf, -inf, 1.5]), posinf=100.)",
        nan_to_num
    ),
    row!(
        Both,
        "clamp",
        "clamp(input, min=None, max=None)",
        "Limit values to [min, max].",
        "clamp(tensor([-2., 0.5, 3.]), min=0, max=1)",
        clamp
    ),
    row!(
        Both,
        "clamp_min",
        "clamp_min(input, min)",
        "Limit values to at least min.",
        "clamp_min(tensor([-2., 0.5, 3.]), 0)",
        |_, mut a| {
            let t = a.tensor("input")?;
            let lo = a.tensor("min")?;
            a.finish()?;
            ew::clamp(&t, Some(&lo), None).map(Value::Tensor)
        }
    ),
    row!(
        Both,
        "clamp_max",
        "clamp_max(input, max)",
        "Limit values to at most max.",
        "clamp_max(tensor([-2., 0.5, 3.]), 1)",
        |_, mut a| {
            let t = a.tensor("input")?;
            let hi = a.tensor("max")?;
            a.finish()?;
            ew::clamp(&t, None, Some(&hi)).map(Value::Tensor)
        }
    ),
    row!(
        Both,
        "clip",
        "clip(input, min=None, max=None)",
        "Alias of clamp.",
        "clip(tensor([-2., 0.5, 3.]), 0, 1)",
        clamp
    ),
    row!(
        Both,
        "where",
        "where(condition, input, other)",
        "input where condition is true, else other.",
        "x = tensor([-1., 2.]); where(x > 0, x, 0.)",
        where_
    ),
    row!(
        Both,
        "add",
        "add(input, other, *, alpha=1)",
        "input + alpha * other.",
        "add(tensor([1, 2]), tensor([10, 20]), alpha=2)",
        add
    ),
    row!(
        Both,
        "sub",
        "sub(input, other, *, alpha=1)",
        "input - alpha * other.",
        "sub(tensor([5., 6.]), 1.)",
        sub
    ),
    row!(
        Both,
        "subtract",
        "subtract(input, other, *, alpha=1)",
        "input - alpha * other.",
        "subtract(tensor([5., 6.]), tensor([1., 2.]))",
        sub
    ),
    row!(
        Both,
        "div",
        "div(input, other, *, rounding_mode=None)",
        "input / other; rounding_mode 'trunc' or 'floor'.",
        "div(tensor([7, -7]), 2, rounding_mode='floor')",
        div
    ),
    row!(
        Both,
        "divide",
        "divide(input, other, *, rounding_mode=None)",
        "Alias of div.",
        "divide(tensor([1., 2.]), 4)",
        div
    ),
    row!(
        Both,
        "true_divide",
        "true_divide(input, other)",
        "input / other (always float).",
        "true_divide(tensor([1, 2]), 2)",
        div
    ),
    row!(
        Both,
        "equal",
        "equal(input, other)",
        "True if both have the same shape and values.",
        "equal(tensor([1, 2]), tensor([1, 2]))",
        equal
    ),
    row!(
        Both,
        "isclose",
        "isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
        "|a - b| <= atol + rtol * |b|, element-wise.",
        "isclose(tensor([1., 2.]), tensor([1.000001, 2.1]))",
        isclose
    ),
    row!(
        Both,
        "allclose",
        "allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)",
        "isclose everywhere.",
        "allclose(tensor([1., 2.]), tensor([1.000001, 2.]))",
        allclose
    ),
    row!(
        Both,
        "dist",
        "dist(input, other, p=2)",
        "The p-norm of input - other.",
        "dist(tensor([0., 0.]), tensor([3., 4.]))",
        dist
    ),
    row!(
        Both,
        "isposinf",
        "isposinf(input)",
        "True where an element is +inf.",
        "isposinf(tensor([1., inf, -inf]))",
        isposinf
    ),
    row!(
        Both,
        "isneginf",
        "isneginf(input)",
        "True where an element is -inf.",
        "isneginf(tensor([1., inf, -inf]))",
        isneginf
    ),
    row!(
        Both,
        "lerp",
        "lerp(input, end, weight)",
        "input + weight * (end - input).",
        "lerp(tensor([0., 10.]), tensor([10., 20.]), 0.5)",
        lerp
    ),
];

fn round(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let decimals = a.int_or("decimals", 0)?;
    a.finish()?;
    compare::round_decimals(&t, decimals).map(Value::Tensor)
}

fn test(mut a: Args, op: PredicateOp) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    ew::predicate(op, &t).map(Value::Tensor)
}

fn logical_not(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::LogicalNot)
}

fn isnan(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::IsNan)
}

fn isinf(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::IsInf)
}

fn isposinf(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::IsPosInf)
}

fn isneginf(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::IsNegInf)
}

fn isfinite(_: &mut Interp, a: Args) -> Result<Value> {
    test(a, PredicateOp::IsFinite)
}

fn pow(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("exponent")?;
    a.finish()?;
    binary(BinaryOp::Pow, &x, &y).map(Value::Tensor)
}

fn float_power(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?.to_dtype(crate::tensor::DType::F64)?;
    let y = a.tensor("exponent")?.to_dtype(crate::tensor::DType::F64)?;
    a.finish()?;
    binary(BinaryOp::Pow, &x, &y).map(Value::Tensor)
}

fn nan_to_num(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let nan = a.float_or("nan", 0.0)?;
    let posinf = a.opt_float("posinf")?;
    let neginf = a.opt_float("neginf")?;
    a.finish()?;
    ew::nan_to_num(&t, nan, posinf, neginf).map(Value::Tensor)
}

fn clamp(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let lo = a.opt_tensor("min")?;
    let hi = a.opt_tensor("max")?;
    a.finish()?;
    ew::clamp(&t, lo.as_ref(), hi.as_ref()).map(Value::Tensor)
}

fn lerp(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.tensor("input")?;
    let e = a.tensor("end")?;
    let w = a.tensor("weight")?;
    a.finish()?;
    ew::lerp(&s, &e, &w).map(Value::Tensor)
}

fn where_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let c = a.tensor("condition")?;
    if !a.has_more_positional() && a.keywords.is_empty() {
        // where(cond) is nonzero(cond, as_tuple=True).
        let nz = crate::tensor::ops::sort::nonzero(&c)?;
        let cols = (0..c.ndim())
            .map(|j| {
                crate::tensor::ops::view::select(&nz, 1, j as i64)?
                    .contiguous()
                    .map(Value::Tensor)
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::tuple(cols));
    }
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    a.finish()?;
    ew::where_(&c, &x, &y).map(Value::Tensor)
}

/// add and sub: `input ± alpha * other`, alpha a keyword.
fn add_or_sub(mut a: Args, subtract: bool) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    let alpha = match a.take_kw("alpha") {
        None => None,
        Some((v, s)) => {
            Some(crate::interp::convert::to_tensor_arg(&v, a.name, "alpha").map_err(|e| e.at(s))?)
        }
    };
    a.finish()?;
    let op = if subtract {
        BinaryOp::Sub
    } else {
        BinaryOp::Add
    };
    match alpha {
        None => binary(op, &x, &y),
        Some(alpha) => ew::add_scaled(&x, &y, &alpha, subtract),
    }
    .map(Value::Tensor)
}

fn add(_: &mut Interp, a: Args) -> Result<Value> {
    add_or_sub(a, false)
}

fn sub(_: &mut Interp, a: Args) -> Result<Value> {
    add_or_sub(a, true)
}

fn div(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    let mode = match a.take_kw("rounding_mode") {
        None | Some((Value::None, _)) => None,
        Some((Value::Str(s), _)) => Some(s.to_string()),
        Some((_, s)) => {
            return Err(value_err("rounding_mode must be none, 'trunc' or 'floor'").at(s));
        }
    };
    a.finish()?;
    let out = match mode.as_deref() {
        None => binary(BinaryOp::Div, &x, &y)?,
        Some("floor") => binary(BinaryOp::FloorDiv, &x, &y)?,
        Some("trunc") => {
            let q = binary(BinaryOp::Div, &x, &y)?;
            let q = unary(UnaryOp::Trunc, &q)?;
            let d = crate::tensor::promote::result_type(&[x.operand(), y.operand()]);
            q.to_dtype(d)?
        }
        Some(other) => {
            return Err(value_err(format!(
                "rounding_mode must be none, 'trunc' or 'floor', not '{other}'"
            )));
        }
    };
    Ok(Value::Tensor(out))
}

fn equal(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    a.finish()?;
    compare::equal(&x, &y).map(Value::Bool)
}

fn closeness(a: &mut Args) -> Result<Tensor> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    let rtol = a.float_or("rtol", 1e-5)?;
    let atol = a.float_or("atol", 1e-8)?;
    let equal_nan = a.flag("equal_nan", false)?;
    compare::isclose(&x, &y, rtol, atol, equal_nan)
}

fn isclose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = closeness(&mut a)?;
    a.finish()?;
    Ok(Value::Tensor(t))
}

fn allclose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = closeness(&mut a)?;
    a.finish()?;
    compare::all(&t).map(Value::Bool)
}

fn dist(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    let p = a.float_or("p", 2.0)?;
    a.finish()?;
    let d = binary(BinaryOp::Sub, &x, &y)?;
    if !d.dtype().is_float() {
        return Err(crate::error::dtype_err(format!(
            "dist needs floating point tensors, not {}",
            d.dtype()
        ))
        .hint("convert with .float()"));
    }
    reduce(&d, ReduceOp::Norm(p), None, false).map(Value::Tensor)
}
