//! In-place tensor methods: add_, sub_, mul_, div_, pow_, fill_, zero_, clamp_,
//! copy_, addcmul_, addcdiv_ and requires_grad_.

use super::Builtin;
use super::tensor_methods::receiver;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::ops::write_into;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::BinOp;
use crate::tensor::Tensor;
use crate::tensor::ops::elementwise as ew;

pub const ROWS: &[Builtin] = &[
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
        "addcmul_",
        "addcmul_(tensor1, tensor2, *, value=1)",
        "In place: self += value * tensor1 * tensor2.",
        "x = ones(2); x.addcmul_(tensor([1., 2.]), tensor([3., 4.]), value=0.5); x",
        addcmul_
    ),
    row!(
        Method,
        "addcdiv_",
        "addcdiv_(tensor1, tensor2, *, value=1)",
        "In place: self += value * tensor1 / tensor2.",
        "x = ones(2); x.addcdiv_(tensor([1., 2.]), tensor([4., 4.])); x",
        addcdiv_
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

fn requires_grad_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = receiver(&mut a)?;
    let on = a.flag("requires_grad", true)?;
    a.finish()?;
    super::attrs::set_requires_grad(&t, on)?;
    Ok(Value::Tensor(t))
}

fn inplace_op(mut a: Args, op: BinOp, param: &str) -> Result<Value> {
    let t = receiver(&mut a)?;
    let other = a.tensor(param)?;
    if let Some((v, s)) = a.take_kw("alpha") {
        // `t ± alpha * other` as add and sub with alpha compute it (one
        // rounding), written back.
        let alpha = convert::to_tensor_arg(&v, a.name, "alpha").map_err(|e| e.at(s))?;
        a.finish()?;
        if ew::add_scaled_in_place(&t, &other, &alpha, op == BinOp::Sub)? {
            return Ok(Value::Tensor(t));
        }
        let source = crate::interp::ops::inplace_source(&t)?;
        let r = ew::add_scaled(&source, &other, &alpha, op == BinOp::Sub)?;
        write_into(&t, &r, op.symbol())?;
        return Ok(Value::Tensor(t));
    }
    a.finish()?;
    crate::interp::ops::inplace_binary(&t, op, &other, op.symbol())?;
    Ok(Value::Tensor(t))
}

fn addcmul_(it: &mut Interp, a: Args) -> Result<Value> {
    addc_(it, a, false)
}

fn addcdiv_(it: &mut Interp, a: Args) -> Result<Value> {
    addc_(it, a, true)
}

/// addcmul_/addcdiv_: one pass over the tensor where its operands are
/// tensors of its shape and dtype (`exp_avg_sq.addcmul_(g, g, value=...)`),
/// else the op's result written back, as every in-place op.
fn addc_(it: &mut Interp, a: Args, divide: bool) -> Result<Value> {
    if let [
        (Value::Tensor(t), _),
        (Value::Tensor(t1), _),
        (Value::Tensor(t2), _),
    ] = &a.positional[..]
    {
        let value = match &a.keywords[..] {
            [] => Some(1.0),
            [(k, Value::Float(x), _)] if k == "value" => Some(*x),
            [(k, Value::Int(i), _)] if k == "value" => Some(*i as f64),
            _ => None,
        };
        if let Some(value) = value
            && crate::tensor::ops::stats::addc_in_place(t, t1, t2, value, divide)?
        {
            return Ok(Value::Tensor(t.clone()));
        }
    }
    let name = if divide { "addcdiv" } else { "addcmul" };
    match super::method(name) {
        Some(base) => crate::interp::bind::call_inplace(it, base, a),
        None => Err(value_err(format!("internal: no method {name}"))),
    }
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
