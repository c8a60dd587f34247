//! Element-wise math: unary functions, arithmetic by name, comparisons, logic,
//! clamp, where, and closeness tests.

use super::Builtin;
use crate::backend::cpu::binary::BinaryOp;
use crate::backend::cpu::reduce::ReduceOp;
use crate::backend::cpu::unary::UnaryOp;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Tensor;
use crate::tensor::ops::elementwise::{self as ew, binary, unary};
use crate::tensor::ops::reduce::reduce;

macro_rules! unary_fns {
    ($($f:ident => $op:ident),* $(,)?) => {
        $(fn $f(_: &mut Interp, mut a: Args) -> Result<Value> {
            let t = a.tensor("input")?;
            a.finish()?;
            unary(UnaryOp::$op, &t).map(Value::Tensor)
        })*
    };
}

unary_fns! {
    abs => Abs, neg => Neg, sign => Sign, floor => Floor, ceil => Ceil, trunc => Trunc,
    reciprocal => Reciprocal, square => Square, exp => Exp, exp2 => Exp2, expm1 => Expm1,
    log => Log, log2 => Log2, log10 => Log10, log1p => Log1p, sqrt => Sqrt, rsqrt => Rsqrt,
    sin => Sin, cos => Cos, tan => Tan, asin => Asin, acos => Acos, atan => Atan,
    sinh => Sinh, cosh => Cosh, tanh => Tanh, sigmoid => Sigmoid, relu => Relu, erf => Erf,
    frac => Frac, bitwise_not => BitNot,
}

macro_rules! binary_fns {
    ($($f:ident => $op:ident),* $(,)?) => {
        $(fn $f(_: &mut Interp, mut a: Args) -> Result<Value> {
            let x = a.tensor("input")?;
            let y = a.tensor("other")?;
            a.finish()?;
            binary(BinaryOp::$op, &x, &y).map(Value::Tensor)
        })*
    };
}

binary_fns! {
    mul => Mul, floor_divide => FloorDiv, remainder => Rem, maximum => Maximum, minimum => Minimum,
    atan2 => Atan2, eq => Eq, ne => Ne, lt => Lt, le => Le, gt => Gt, ge => Ge,
    logical_and => LogicalAnd, logical_or => LogicalOr, logical_xor => LogicalXor,
    bitwise_and => BitAnd, bitwise_or => BitOr, bitwise_xor => BitXor, true_divide => Div,
}

pub const ROWS: &[Builtin] = &[
    row!(
        Both,
        "abs",
        "abs(input)",
        "Absolute value, element-wise.",
        "abs(tensor([-1, 2]))",
        abs
    ),
    row!(
        Both,
        "neg",
        "neg(input)",
        "Negation, element-wise.",
        "neg(tensor([0.25, 0.5, 1.]))",
        neg
    ),
    row!(
        Both,
        "negative",
        "negative(input)",
        "Negation, element-wise.",
        "negative(tensor([0.25, 0.5, 1.]))",
        neg
    ),
    row!(
        Both,
        "sign",
        "sign(input)",
        "-1, 0 or 1 by sign.",
        "sign(tensor([0.25, 0.5, 1.]))",
        sign
    ),
    row!(
        Both,
        "floor",
        "floor(input)",
        "Round down.",
        "floor(tensor([0.25, 0.5, 1.]))",
        floor
    ),
    row!(
        Both,
        "ceil",
        "ceil(input)",
        "Round up.",
        "ceil(tensor([0.25, 0.5, 1.]))",
        ceil
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
        "trunc",
        "trunc(input)",
        "Round toward zero.",
        "trunc(tensor([0.25, 0.5, 1.]))",
        trunc
    ),
    row!(
        Both,
        "fix",
        "fix(input)",
        "Round toward zero.",
        "fix(tensor([0.25, 0.5, 1.]))",
        trunc
    ),
    row!(
        Both,
        "reciprocal",
        "reciprocal(input)",
        "1 / x.",
        "reciprocal(tensor([0.25, 0.5, 1.]))",
        reciprocal
    ),
    row!(
        Both,
        "square",
        "square(input)",
        "x * x.",
        "square(tensor([0.25, 0.5, 1.]))",
        square
    ),
    row!(
        Both,
        "exp",
        "exp(input)",
        "e ** x.",
        "exp(tensor([0.25, 0.5, 1.]))",
        exp
    ),
    row!(
        Both,
        "exp2",
        "exp2(input)",
        "2 ** x.",
        "exp2(tensor([0.25, 0.5, 1.]))",
        exp2
    ),
    row!(
        Both,
        "expm1",
        "expm1(input)",
        "e ** x - 1, accurate near 0.",
        "expm1(tensor([0.25, 0.5, 1.]))",
        expm1
    ),
    row!(
        Both,
        "log",
        "log(input)",
        "Natural logarithm.",
        "log(tensor([0.25, 0.5, 1.]))",
        log
    ),
    row!(
        Both,
        "log2",
        "log2(input)",
        "Base-2 logarithm.",
        "log2(tensor([0.25, 0.5, 1.]))",
        log2
    ),
    row!(
        Both,
        "log10",
        "log10(input)",
        "Base-10 logarithm.",
        "log10(tensor([0.25, 0.5, 1.]))",
        log10
    ),
    row!(
        Both,
        "log1p",
        "log1p(input)",
        "log(1 + x), accurate near 0.",
        "log1p(tensor([0.25, 0.5, 1.]))",
        log1p
    ),
    row!(
        Both,
        "sqrt",
        "sqrt(input)",
        "Square root.",
        "sqrt(tensor([0.25, 0.5, 1.]))",
        sqrt
    ),
    row!(
        Both,
        "rsqrt",
        "rsqrt(input)",
        "1 / sqrt(x).",
        "rsqrt(tensor([0.25, 0.5, 1.]))",
        rsqrt
    ),
    row!(
        Both,
        "sin",
        "sin(input)",
        "Sine.",
        "sin(tensor([0.25, 0.5, 1.]))",
        sin
    ),
    row!(
        Both,
        "cos",
        "cos(input)",
        "Cosine.",
        "cos(tensor([0.25, 0.5, 1.]))",
        cos
    ),
    row!(
        Both,
        "tan",
        "tan(input)",
        "Tangent.",
        "tan(tensor([0.25, 0.5, 1.]))",
        tan
    ),
    row!(
        Both,
        "asin",
        "asin(input)",
        "Arcsine.",
        "asin(tensor([0.25, 0.5, 1.]))",
        asin
    ),
    row!(
        Both,
        "acos",
        "acos(input)",
        "Arccosine.",
        "acos(tensor([0.25, 0.5, 1.]))",
        acos
    ),
    row!(
        Both,
        "atan",
        "atan(input)",
        "Arctangent.",
        "atan(tensor([0.25, 0.5, 1.]))",
        atan
    ),
    row!(
        Both,
        "sinh",
        "sinh(input)",
        "Hyperbolic sine.",
        "sinh(tensor([0.25, 0.5, 1.]))",
        sinh
    ),
    row!(
        Both,
        "cosh",
        "cosh(input)",
        "Hyperbolic cosine.",
        "cosh(tensor([0.25, 0.5, 1.]))",
        cosh
    ),
    row!(
        Both,
        "tanh",
        "tanh(input)",
        "Hyperbolic tangent.",
        "tanh(tensor([0., 1.]))",
        tanh
    ),
    row!(
        Both,
        "sigmoid",
        "sigmoid(input)",
        "1 / (1 + e ** -x).",
        "sigmoid(tensor([0., 2.]))",
        sigmoid
    ),
    row!(
        Both,
        "relu",
        "relu(input)",
        "max(x, 0).",
        "relu(tensor([-1., 2.]))",
        relu
    ),
    row!(
        Both,
        "erf",
        "erf(input)",
        "The error function.",
        "erf(tensor([0.25, 0.5, 1.]))",
        erf
    ),
    row!(
        Both,
        "frac",
        "frac(input)",
        "Fractional part, x - trunc(x).",
        "frac(tensor([0.25, 0.5, 1.]))",
        frac
    ),
    row!(
        Both,
        "bitwise_not",
        "bitwise_not(input)",
        "~x on bool and integer tensors.",
        "bitwise_not(tensor([1, 2]))",
        bitwise_not
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
        "mul",
        "mul(input, other)",
        "input * other.",
        "mul(tensor([1., 2.]), 3)",
        mul
    ),
    row!(
        Both,
        "multiply",
        "multiply(input, other)",
        "input * other.",
        "multiply(tensor([1., 2.]), tensor([3., 4.]))",
        mul
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
        true_divide
    ),
    row!(
        Both,
        "floor_divide",
        "floor_divide(input, other)",
        "input // other.",
        "floor_divide(tensor([7, -7]), 2)",
        floor_divide
    ),
    row!(
        Both,
        "remainder",
        "remainder(input, other)",
        "input % other (the divisor's sign, as Python).",
        "remainder(tensor([7, -7]), 3)",
        remainder
    ),
    row!(
        Both,
        "maximum",
        "maximum(input, other)",
        "Element-wise max of two tensors.",
        "maximum(tensor([1, 5]), tensor([3, 2]))",
        maximum
    ),
    row!(
        Both,
        "minimum",
        "minimum(input, other)",
        "Element-wise min of two tensors.",
        "minimum(tensor([1, 5]), tensor([3, 2]))",
        minimum
    ),
    row!(
        Both,
        "atan2",
        "atan2(input, other)",
        "Angle of (other, input).",
        "atan2(tensor([1., -1.]), tensor([1., 1.]))",
        atan2
    ),
    row!(
        Both,
        "eq",
        "eq(input, other)",
        "input == other.",
        "eq(tensor([1, 2]), tensor([1, 3]))",
        eq
    ),
    row!(
        Both,
        "ne",
        "ne(input, other)",
        "input != other.",
        "ne(tensor([1, 2]), tensor([1, 3]))",
        ne
    ),
    row!(
        Both,
        "lt",
        "lt(input, other)",
        "input < other.",
        "lt(tensor([1, 2]), 2)",
        lt
    ),
    row!(
        Both,
        "le",
        "le(input, other)",
        "input <= other.",
        "le(tensor([1, 2]), 2)",
        le
    ),
    row!(
        Both,
        "gt",
        "gt(input, other)",
        "input > other.",
        "gt(tensor([1, 2]), 1)",
        gt
    ),
    row!(
        Both,
        "ge",
        "ge(input, other)",
        "input >= other.",
        "ge(tensor([1, 2]), 2)",
        ge
    ),
    row!(
        Both,
        "less",
        "less(input, other)",
        "input < other.",
        "less(tensor([1, 2]), 2)",
        lt
    ),
    row!(
        Both,
        "greater",
        "greater(input, other)",
        "input > other.",
        "greater(tensor([1, 2]), 1)",
        gt
    ),
    row!(
        Both,
        "logical_and",
        "logical_and(input, other)",
        "Both non-zero.",
        "logical_and(tensor([true, false]), tensor([true, true]))",
        logical_and
    ),
    row!(
        Both,
        "logical_or",
        "logical_or(input, other)",
        "Either non-zero.",
        "logical_or(tensor([true, false]), tensor([false, false]))",
        logical_or
    ),
    row!(
        Both,
        "logical_xor",
        "logical_xor(input, other)",
        "Exactly one non-zero.",
        "logical_xor(tensor([true, false]), tensor([true, true]))",
        logical_xor
    ),
    row!(
        Both,
        "bitwise_and",
        "bitwise_and(input, other)",
        "input & other.",
        "bitwise_and(tensor([12, 10]), tensor([10, 6]))",
        bitwise_and
    ),
    row!(
        Both,
        "bitwise_or",
        "bitwise_or(input, other)",
        "input | other.",
        "bitwise_or(tensor([12, 10]), tensor([10, 6]))",
        bitwise_or
    ),
    row!(
        Both,
        "bitwise_xor",
        "bitwise_xor(input, other)",
        "input ^ other.",
        "bitwise_xor(tensor([12, 10]), tensor([10, 6]))",
        bitwise_xor
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
];

fn round(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    let decimals = a.int_or("decimals", 0)?;
    a.finish()?;
    if decimals == 0 {
        return unary(UnaryOp::Round, &t).map(Value::Tensor);
    }
    let p = 10f64.powi(decimals as i32);
    Ok(Value::Tensor(ew::map_float(&t, move |x| {
        (x * p).round_ties_even() / p
    })))
}

fn logical_not(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Tensor(ew::test(&t, |x| x == 0.0)))
}

fn isnan(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Tensor(ew::test(&t, f64::is_nan)))
}

fn isinf(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Tensor(ew::test(&t, f64::is_infinite)))
}

fn isfinite(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("input")?;
    a.finish()?;
    Ok(Value::Tensor(ew::test(&t, f64::is_finite)))
}

fn pow(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = a.tensor("exponent")?;
    a.finish()?;
    binary(BinaryOp::Pow, &x, &y).map(Value::Tensor)
}

fn float_power(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?.to_dtype(crate::tensor::DType::F64);
    let y = a.tensor("exponent")?.to_dtype(crate::tensor::DType::F64);
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

fn where_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let c = a.tensor("condition")?;
    if !a.has_more_positional() && a.keywords.is_empty() {
        // where(cond) is nonzero(cond, as_tuple=True).
        let nz = crate::tensor::ops::sort::nonzero(&c);
        let cols = (0..c.ndim())
            .map(|j| {
                crate::tensor::ops::view::select(&nz, 1, j as i64)
                    .map(|t| Value::Tensor(t.contiguous()))
            })
            .collect::<Result<Vec<_>>>()?;
        return Ok(Value::tuple(cols));
    }
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    a.finish()?;
    ew::where_(&c, &x, &y).map(Value::Tensor)
}

fn scaled(a: &mut Args) -> Result<Tensor> {
    let y = a.tensor("other")?;
    match a.take_kw("alpha") {
        None => Ok(y),
        Some((v, s)) => {
            let alpha =
                crate::interp::convert::to_tensor_arg(&v, "add", "alpha").map_err(|e| e.at(s))?;
            binary(BinaryOp::Mul, &y, &alpha)
        }
    }
}

fn add(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = scaled(&mut a)?;
    a.finish()?;
    binary(BinaryOp::Add, &x, &y).map(Value::Tensor)
}

fn sub(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.tensor("input")?;
    let y = scaled(&mut a)?;
    a.finish()?;
    binary(BinaryOp::Sub, &x, &y).map(Value::Tensor)
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
            q.to_dtype(d)
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
    if x.shape() != y.shape() {
        return Ok(Value::Bool(false));
    }
    let eq = binary(BinaryOp::Eq, &x, &y)?;
    Ok(Value::Bool(eq.to_i64_vec().iter().all(|&v| v != 0)))
}

fn closeness(a: &mut Args) -> Result<Tensor> {
    let x = a.tensor("input")?;
    let y = a.tensor("other")?;
    let rtol = a.float_or("rtol", 1e-5)?;
    let atol = a.float_or("atol", 1e-8)?;
    let equal_nan = a.flag("equal_nan", false)?;
    let shape = crate::tensor::shape::broadcast_shapes(x.shape(), y.shape())?;
    let xv = x.view_with(x.layout().expand(&shape)).to_f64_vec();
    let yv = y.view_with(y.layout().expand(&shape)).to_f64_vec();
    let v: Vec<bool> = xv
        .iter()
        .zip(&yv)
        .map(|(&p, &q)| {
            if p.is_nan() || q.is_nan() {
                equal_nan && p.is_nan() && q.is_nan()
            } else if p == q {
                true
            } else {
                (p - q).abs() <= atol + rtol * q.abs()
            }
        })
        .collect();
    Ok(Tensor::from_vec(v, &shape))
}

fn isclose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = closeness(&mut a)?;
    a.finish()?;
    Ok(Value::Tensor(t))
}

fn allclose(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = closeness(&mut a)?;
    a.finish()?;
    Ok(Value::Bool(t.to_i64_vec().iter().all(|&v| v != 0)))
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
