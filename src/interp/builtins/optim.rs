//! torch.optim from the language: optimizer constructors, and the methods and
//! attributes of an optimizer value.

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::nn::optim::{Kind, Optimizer};
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "SGD",
        "SGD(params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, maximize=False)",
        "Stochastic gradient descent (with momentum).",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        sgd
    ),
    row!(
        Function,
        "Adam",
        "Adam(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, maximize=False)",
        "Adam: adaptive moment estimation.",
        "w = ones(2, requires_grad=true); opt = optim.Adam([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        adam
    ),
    row!(
        Function,
        "AdamW",
        "AdamW(params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, maximize=False)",
        "Adam with decoupled weight decay.",
        "w = ones(2, requires_grad=true); opt = optim.AdamW([w], lr=0.1); (w * w).sum().backward(); opt.step(); w",
        adamw
    ),
];

fn params(a: &mut Args) -> Result<Vec<Tensor>> {
    let (v, s) = a.take("params").ok_or_else(|| {
        type_err(format!("{}() missing required argument 'params'", a.name)).at(a.span)
    })?;
    let items = match &v {
        Value::Tensor(t) => vec![Value::Tensor(t.clone())],
        other => other.iter_items().map_err(|e| e.at(s))?,
    };
    items
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(type_err(format!(
                "optimizer parameters must be tensors, not {}",
                other.a_type_name()
            ))
            .at(s)),
        })
        .collect()
}

fn betas(a: &mut Args) -> Result<(f64, f64)> {
    match a.take("betas") {
        None | Some((Value::None, _)) => Ok((0.9, 0.999)),
        Some((v, s)) => {
            let items = v.iter_items().map_err(|e| e.at(s))?;
            match items.as_slice() {
                [b1, b2] => Ok((
                    convert::to_float(b1, a.name, "betas").map_err(|e| e.at(s))?,
                    convert::to_float(b2, a.name, "betas").map_err(|e| e.at(s))?,
                )),
                _ => Err(value_err("betas must be a pair (beta1, beta2)").at(s)),
            }
        }
    }
}

fn optimizer(o: Optimizer) -> Value {
    Value::Optimizer(Rc::new(RefCell::new(o)))
}

fn sgd(_: &mut Interp, mut a: Args) -> Result<Value> {
    let ps = params(&mut a)?;
    let lr = a.float_or("lr", 0.001)?;
    let momentum = a.float_or("momentum", 0.0)?;
    let dampening = a.float_or("dampening", 0.0)?;
    let wd = a.float_or("weight_decay", 0.0)?;
    let nesterov = a.flag("nesterov", false)?;
    let maximize = a.flag("maximize", false)?;
    let span = a.span;
    a.finish()?;
    if nesterov && (momentum <= 0.0 || dampening != 0.0) {
        return Err(value_err("Nesterov momentum requires a momentum and zero dampening").at(span));
    }
    if momentum < 0.0 {
        return Err(value_err(format!("invalid momentum value: {momentum}")).at(span));
    }
    let kind = Kind::Sgd {
        momentum,
        dampening,
        nesterov,
    };
    Optimizer::new(kind, ps, lr, wd, maximize)
        .map(optimizer)
        .map_err(|e| e.at(span))
}

fn adam_like(mut a: Args, decoupled: bool) -> Result<Value> {
    let ps = params(&mut a)?;
    let lr = a.float_or("lr", 0.001)?;
    let (beta1, beta2) = betas(&mut a)?;
    let eps = a.float_or("eps", 1e-8)?;
    let wd = a.float_or("weight_decay", if decoupled { 0.01 } else { 0.0 })?;
    let amsgrad = a.flag("amsgrad", false)?;
    let maximize = a.flag("maximize", false)?;
    let span = a.span;
    a.finish()?;
    for (name, b) in [("beta1", beta1), ("beta2", beta2)] {
        if !(0.0..1.0).contains(&b) {
            return Err(value_err(format!("invalid {name}: {b} (it must be in [0, 1))")).at(span));
        }
    }
    let kind = Kind::Adam {
        beta1,
        beta2,
        eps,
        amsgrad,
        decoupled,
    };
    Optimizer::new(kind, ps, lr, wd, maximize)
        .map(optimizer)
        .map_err(|e| e.at(span))
}

fn adam(_: &mut Interp, a: Args) -> Result<Value> {
    adam_like(a, false)
}

fn adamw(_: &mut Interp, a: Args) -> Result<Value> {
    adam_like(a, true)
}

const OPTIMIZER_ROWS: &[Builtin] = &[
    row!(
        Method,
        "step",
        "step()",
        "Update every parameter that has a gradient.",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.5); w.sum().backward(); opt.step(); w",
        opt_step
    ),
    row!(
        Method,
        "zero_grad",
        "zero_grad(set_to_none=True)",
        "Clear every parameter's gradient.",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w]); w.sum().backward(); opt.zero_grad(); w.grad",
        opt_zero_grad
    ),
];

fn the_optimizer(a: &mut Args) -> Result<Rc<RefCell<Optimizer>>> {
    match a.value("self")? {
        Value::Optimizer(o) => Ok(o),
        other => Err(type_err(format!(
            "expected an optimizer, not {}",
            other.a_type_name()
        ))),
    }
}

fn opt_step(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = the_optimizer(&mut a)?;
    let span = a.span;
    a.finish()?;
    o.borrow_mut().step().map_err(|e| e.at(span))?;
    Ok(Value::None)
}

fn opt_zero_grad(_: &mut Interp, mut a: Args) -> Result<Value> {
    let o = the_optimizer(&mut a)?;
    let set_to_none = a.flag("set_to_none", true)?;
    a.finish()?;
    o.borrow().zero_grad(set_to_none)?;
    Ok(Value::None)
}

pub fn optimizer_methods() -> &'static [Builtin] {
    OPTIMIZER_ROWS
}

pub fn optimizer_method(obj: &Value, name: &str) -> Option<Value> {
    OPTIMIZER_ROWS
        .iter()
        .find(|b| b.name == name)
        .map(|b| Value::Method(Rc::new((obj.clone(), b))))
}

pub fn optimizer_attr_names() -> Vec<&'static str> {
    let mut v = vec!["lr", "weight_decay", "params"];
    v.extend(OPTIMIZER_ROWS.iter().map(|b| b.name));
    v
}

pub fn optimizer_attr(o: &Optimizer, name: &str) -> Option<Value> {
    Some(match name {
        "lr" => Value::Float(o.lr),
        "weight_decay" => Value::Float(o.weight_decay),
        "params" => Value::list(o.params.iter().cloned().map(Value::Tensor).collect()),
        _ => return None,
    })
}

pub fn set_optimizer_attr(o: &mut Optimizer, name: &str, v: &Value) -> Result<()> {
    let x = convert::to_float(v, "optimizer", name)?;
    match name {
        "lr" if x >= 0.0 => o.lr = x,
        "weight_decay" if x >= 0.0 => o.weight_decay = x,
        "lr" | "weight_decay" => return Err(value_err(format!("{name} must not be negative"))),
        other => {
            return Err(
                type_err(format!("the optimizer attribute '{other}' cannot be set"))
                    .hint("settable: lr, weight_decay"),
            );
        }
    }
    Ok(())
}
