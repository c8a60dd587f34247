//! torch.optim from the language. An optimizer value keeps PyTorch's
//! `param_groups` (a list of dicts the user and the lr schedulers may change)
//! and, for each group, the Rust optimizer that updates its parameters with
//! PyTorch's rules; each step reads the group's hyperparameters first.

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Error, Result, type_err, value_err};
use crate::interp::convert;
use crate::interp::value::{Dict, Value};
use crate::nn::optim::{Kind, Optimizer};
use crate::op;
use crate::tensor::Tensor;

/// `SGD(...)`, `Adam(...)`: the groups as Python sees them and as Rust updates them.
pub struct OptimizerValue {
    pub name: &'static str,
    pub param_groups: Value,
    /// A group's hyperparameters that the user did not give (add_param_group fills from them).
    defaults: Vec<(&'static str, Value)>,
    pub(super) groups: RefCell<Vec<Optimizer>>,
}

/// An optimizer's row: its schema is PyTorch's signature, and every setting
/// after `params` goes, in that order, into each group's dict.
macro_rules! optimizer_row {
    ($sig:literal, $help:literal, $example:literal) => {
        Builtin {
            name: crate::interp::schema::name_of($sig),
            sig: $sig,
            help: $help,
            example: $example,
            reach: super::Reach::Function,
            func: |_, args| construct($sig, args),
            typed: &[],
            inplace: false,
        }
    };
}

pub const ROWS: &[Builtin] = &[
    optimizer_row!(
        "SGD(Any params, Any lr=0.001, Any momentum=0, Any dampening=0, Any weight_decay=0, bool nesterov=False, *, bool maximize=False, Any foreach=None, bool differentiable=False, Any fused=None) -> Any",
        "Stochastic gradient descent (with momentum).",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "Adam(Any params, Any lr=0.001, Any betas=(0.9, 0.999), Any eps=1e-08, Any weight_decay=0, bool amsgrad=False, *, bool maximize=False, Any foreach=None, bool capturable=False, bool differentiable=False, Any fused=None, bool decoupled_weight_decay=False) -> Any",
        "Adam: adaptive moment estimation.",
        "w = ones(2, requires_grad=true); opt = optim.Adam([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "AdamW(Any params, Any lr=0.001, Any betas=(0.9, 0.999), Any eps=1e-08, Any weight_decay=0.01, bool amsgrad=False, *, bool maximize=False, Any foreach=None, bool capturable=False, bool differentiable=False, Any fused=None, bool decoupled_weight_decay=True) -> Any",
        "Adam with decoupled weight decay.",
        "w = ones(2, requires_grad=true); opt = optim.AdamW([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "RMSprop(Any params, Any lr=0.01, Any alpha=0.99, Any eps=1e-08, Any weight_decay=0, Any momentum=0, bool centered=False, bool capturable=False, Any foreach=None, bool maximize=False, bool differentiable=False) -> Any",
        "RMSprop: steps scaled by a running average of squared gradients.",
        "w = ones(2, requires_grad=true); opt = optim.RMSprop([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "Adadelta(Any params, Any lr=1.0, Any rho=0.9, Any eps=1e-06, Any weight_decay=0, Any foreach=None, *, bool capturable=False, bool maximize=False, bool differentiable=False) -> Any",
        "Adadelta: steps scaled by running averages of squared gradients and squared updates.",
        "w = ones(2, requires_grad=true); opt = optim.Adadelta([w]); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "Adamax(Any params, Any lr=0.002, Any betas=(0.9, 0.999), Any eps=1e-08, Any weight_decay=0, Any foreach=None, *, bool maximize=False, bool differentiable=False, bool capturable=False) -> Any",
        "Adamax: Adam with the infinity norm of past gradients.",
        "w = ones(2, requires_grad=true); opt = optim.Adamax([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "NAdam(Any params, Any lr=0.002, Any betas=(0.9, 0.999), Any eps=1e-08, Any weight_decay=0, Any momentum_decay=0.004, bool decoupled_weight_decay=False, *, Any foreach=None, bool maximize=False, bool capturable=False, bool differentiable=False) -> Any",
        "NAdam: Adam with Nesterov momentum.",
        "w = ones(2, requires_grad=true); opt = optim.NAdam([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
    optimizer_row!(
        "Adagrad(Any params, Any lr=0.01, Any lr_decay=0, Any weight_decay=0, Any initial_accumulator_value=0, Any eps=1e-10, Any foreach=None, *, bool maximize=False, bool differentiable=False, Any fused=None) -> Any",
        "Adagrad: steps scaled by the sum of all squared gradients so far.",
        "w = ones(2, requires_grad=true); opt = optim.Adagrad([w], lr=0.1); (w * w).sum().backward(); opt.step(); w"
    ),
];

fn construct(sig: &'static str, args: crate::interp::args::Args) -> Result<Value> {
    let mut b = crate::interp::bind::bind(sig, args)?;
    let params: Value = b.take("params")?;
    let mut settings = vec![];
    for name in b.names().into_iter().skip(1) {
        settings.push((name, b.take::<Value>(name)?));
    }
    let name = crate::interp::schema::name_of(sig);
    let order = super::optim_state::defaults_order(name);
    settings.sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
    build(name, &params, settings)
}

fn float(d: &Dict, key: &str) -> Result<f64> {
    let v = d.get(key).cloned().unwrap_or(Value::None);
    convert::to_float(&v, "optimizer", key)
}

fn flag(d: &Dict, key: &str) -> Result<bool> {
    d.get(key).map_or(Ok(false), |v| v.truthy())
}

/// The Rust update rule a group's dict describes.
pub(super) fn kind_of(name: &str, d: &Dict) -> Result<Kind> {
    Ok(match name {
        "SGD" => {
            let (momentum, dampening, nesterov) = (
                float(d, "momentum")?,
                float(d, "dampening")?,
                flag(d, "nesterov")?,
            );
            if nesterov && (momentum <= 0.0 || dampening != 0.0) {
                return Err(value_err(
                    "Nesterov momentum requires a momentum and zero dampening",
                ));
            }
            if momentum < 0.0 {
                return Err(value_err(format!("Invalid momentum value: {momentum}")));
            }
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            }
        }
        "RMSprop" => Kind::RmsProp {
            alpha: float(d, "alpha")?,
            eps: float(d, "eps")?,
            momentum: float(d, "momentum")?,
            centered: flag(d, "centered")?,
        },
        "Adagrad" => Kind::Adagrad {
            lr_decay: float(d, "lr_decay")?,
            eps: float(d, "eps")?,
            initial_accumulator_value: float(d, "initial_accumulator_value")?,
        },
        "Adadelta" => Kind::Adadelta {
            rho: float(d, "rho")?,
            eps: float(d, "eps")?,
        },
        "Adamax" => {
            let (beta1, beta2) = betas(name, d)?;
            Kind::Adamax {
                beta1,
                beta2,
                eps: float(d, "eps")?,
            }
        }
        "NAdam" => {
            let (beta1, beta2) = betas(name, d)?;
            Kind::NAdam {
                beta1,
                beta2,
                eps: float(d, "eps")?,
                momentum_decay: float(d, "momentum_decay")?,
                decoupled: flag(d, "decoupled_weight_decay")?,
            }
        }
        _ => {
            let (beta1, beta2) = betas(name, d)?;
            Kind::Adam {
                beta1,
                beta2,
                eps: float(d, "eps")?,
                amsgrad: flag(d, "amsgrad")?,
                decoupled: flag(d, "decoupled_weight_decay")?,
            }
        }
    })
}

/// A group's `betas`, checked as PyTorch checks them.
fn betas(name: &str, d: &Dict) -> Result<(f64, f64)> {
    let betas = d
        .get("betas")
        .cloned()
        .unwrap_or(Value::None)
        .iter_items()?;
    let [b1, b2] = betas.as_slice() else {
        return Err(value_err("betas must be a pair (beta1, beta2)"));
    };
    let (beta1, beta2) = (
        convert::to_float(b1, name, "betas")?,
        convert::to_float(b2, name, "betas")?,
    );
    for (i, b) in [beta1, beta2].into_iter().enumerate() {
        if !(0.0..1.0).contains(&b) {
            return Err(value_err(format!(
                "Invalid beta parameter at index {i}: {b}"
            )));
        }
    }
    Ok((beta1, beta2))
}

fn tensors(v: &Value) -> Result<Vec<Tensor>> {
    let items = match v {
        Value::Tensor(t) => vec![Value::Tensor(t.clone())],
        other => other.iter_items()?,
    };
    items
        .iter()
        .map(|v| match v {
            Value::Tensor(t) => Ok(t.clone()),
            other => Err(type_err(format!(
                "optimizer can only optimize Tensors, but one of the params is {}",
                other.a_type_name()
            ))),
        })
        .collect()
}

/// A group's dict: `params` first, then each default unless the group gives it.
fn group_dict(given: &Value, defaults: &[(&'static str, Value)]) -> Result<Dict> {
    let mut d = Dict::default();
    let own = match given {
        Value::Dict(g) => Some(g.borrow().clone()),
        _ => None,
    };
    let params = match &own {
        Some(g) => g
            .get("params")
            .cloned()
            .ok_or_else(|| value_err("a parameter group needs 'params'"))?,
        None => given.clone(),
    };
    d.insert(
        "params".into(),
        Value::list(tensors(&params)?.into_iter().map(Value::Tensor).collect()),
    );
    for (k, v) in defaults {
        let v = own
            .as_ref()
            .and_then(|g| g.get(k).cloned())
            .unwrap_or_else(|| v.clone());
        d.insert((*k).into(), v);
    }
    Ok(d)
}

fn optimizer_for(name: &str, d: &Dict) -> Result<Optimizer> {
    let params = tensors(d.get("params").unwrap_or(&Value::None))?;
    let lr = float(d, "lr")?;
    let wd = float(d, "weight_decay")?;
    Optimizer::new(kind_of(name, d)?, params, lr, wd, flag(d, "maximize")?)
}

fn build(
    name: &'static str,
    params: &Value,
    defaults: Vec<(&'static str, Value)>,
) -> Result<Value> {
    let given = match params {
        Value::Tensor(_) => vec![params.clone()],
        other => other.iter_items()?,
    };
    if given.is_empty() {
        return Err(value_err("optimizer got an empty parameter list")
            .hint("pass the tensors to train, e.g. SGD(model.parameters(), lr=0.1)"));
    }
    let group_values: Vec<Value> = if given.iter().all(|g| matches!(g, Value::Dict(_))) {
        given
    } else {
        vec![Value::list(given)]
    };
    let mut dicts = vec![];
    let mut groups = vec![];
    for g in &group_values {
        let d = group_dict(g, &defaults)?;
        groups.push(optimizer_for(name, &d)?);
        dicts.push(Value::Dict(Rc::new(RefCell::new(d))));
    }
    Ok(Value::Optimizer(Rc::new(OptimizerValue {
        name,
        param_groups: Value::list(dicts),
        defaults,
        groups: RefCell::new(groups),
    })))
}

impl OptimizerValue {
    pub(super) fn dicts(&self) -> Vec<Rc<RefCell<Dict>>> {
        self.param_groups
            .iter_items()
            .unwrap_or_default()
            .into_iter()
            .filter_map(|v| match v {
                Value::Dict(d) => Some(d),
                _ => None,
            })
            .collect()
    }

    /// One update: each group's hyperparameters as its dict says now.
    pub fn step(&self) -> Result<()> {
        let mut groups = self.groups.borrow_mut();
        for (opt, d) in groups.iter_mut().zip(self.dicts()) {
            let d = d.borrow();
            opt.lr = float(&d, "lr")?;
            opt.weight_decay = float(&d, "weight_decay")?;
            opt.maximize = flag(&d, "maximize")?;
            opt.kind = kind_of(self.name, &d)?;
            opt.step()?;
        }
        Ok(())
    }

    pub fn zero_grad(&self, set_to_none: bool) -> Result<()> {
        self.groups
            .borrow()
            .iter()
            .try_for_each(|o| o.zero_grad(set_to_none))
    }

    fn add_param_group(&self, group: &Value) -> Result<()> {
        let d = group_dict(group, &self.defaults)?;
        self.groups.borrow_mut().push(optimizer_for(self.name, &d)?);
        if let Value::List(l) = &self.param_groups {
            l.borrow_mut().push(Value::Dict(Rc::new(RefCell::new(d))));
        }
        Ok(())
    }

    /// PyTorch's repr: each group's settings, sorted, without its params.
    pub fn describe(&self) -> String {
        let groups: Vec<String> = self
            .dicts()
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let d = d.borrow();
                let mut items: Vec<(String, String)> = d
                    .iter()
                    .filter_map(|(k, v)| match k {
                        Value::Str(k) if k.as_ref() != "params" => {
                            Some((k.to_string(), crate::print::value::plain(v)))
                        }
                        _ => None,
                    })
                    .collect();
                items.sort();
                let lines: String = items
                    .iter()
                    .map(|(k, v)| format!("    {k}: {v}\n"))
                    .collect();
                format!("Parameter Group {i}\n{lines}")
            })
            .collect();
        format!("{} (\n{})", self.name, groups.join("\n"))
    }
}

const OPTIMIZER_ROWS: &[Builtin] = &[
    op!(Method, "step(Any optimizer, Any closure=None) -> None",
    "Update every parameter that has a gradient.",
    "w = ones(2, requires_grad=true); opt = optim.SGD([w], lr=0.5); w.sum().backward(); opt.step(); w",
    |it; optimizer: Value, closure: Value| {
        let loss = match closure {
            Value::None => Value::None,
            f => {
                let _on = crate::autograd::NoGradGuard::set(true);
                it.call(&f, vec![], vec![], Default::default())?
            }
        };
        the(&optimizer)?.step()?;
        Ok::<_, Error>(loss)
    }),
    op!(
        Method,
        "zero_grad(Any optimizer, bool set_to_none=True) -> None",
        "Clear every parameter's gradient.",
        "w = ones(2, requires_grad=true); opt = optim.SGD([w]); w.sum().backward(); opt.zero_grad(); w.grad",
        |optimizer: Value, set_to_none: bool| the(&optimizer)?
            .zero_grad(set_to_none)
            .map(|_| Value::None)
    ),
    op!(
        Method,
        "add_param_group(Any optimizer, Any param_group) -> None",
        "Add a group of parameters with settings of its own.",
        "opt = optim.SGD([ones(1, requires_grad=true)], lr=0.1); opt.add_param_group({'params': [ones(1, requires_grad=true)], 'lr': 0.01}); len(opt.param_groups)",
        |optimizer: Value, param_group: Value| the(&optimizer)?
            .add_param_group(&param_group)
            .map(|_| Value::None)
    ),
    op!(
        Method,
        "state_dict(Any optimizer) -> Any",
        "The optimizer's state (each parameter's buffers under PyTorch's names) and its groups' settings, to save.",
        "w = ones(2, requires_grad=true); opt = optim.Adam([w]); w.sum().backward(); opt.step(); opt.state_dict()",
        |optimizer: Value| the(&optimizer).map(|o| o.state_dict())
    ),
    op!(
        Method,
        "load_state_dict(Any optimizer, Any state_dict) -> None",
        "Restore what state_dict() gave (settings and buffers) into this optimizer.",
        "w = ones(2, requires_grad=true); opt = optim.Adam([w]); opt.load_state_dict(opt.state_dict())",
        |optimizer: Value, state_dict: Value| the(&optimizer)?
            .load_state_dict(&state_dict)
            .map(|_| Value::None)
    ),
];

fn the(v: &Value) -> Result<Rc<OptimizerValue>> {
    match v {
        Value::Optimizer(o) => Ok(o.clone()),
        other => Err(type_err(format!(
            "expected an optimizer, not {}",
            other.a_type_name()
        ))),
    }
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
    let mut v = vec!["param_groups", "defaults", "lr"];
    v.extend(OPTIMIZER_ROWS.iter().map(|b| b.name));
    v
}

pub fn optimizer_attr(o: &OptimizerValue, name: &str) -> Option<Value> {
    Some(match name {
        "param_groups" => o.param_groups.clone(),
        "defaults" => Value::dict(
            o.defaults
                .iter()
                .map(|(k, v)| (Rc::from(*k), v.clone()))
                .collect(),
        ),
        // tsh's shorthand for the first group's learning rate.
        "lr" => o.dicts().first()?.borrow().get("lr").cloned()?,
        _ => return None,
    })
}

pub fn set_optimizer_attr(o: &OptimizerValue, name: &str, v: &Value) -> Result<()> {
    match name {
        "lr" => {
            for d in o.dicts() {
                d.borrow_mut().insert("lr".into(), v.clone());
            }
            Ok(())
        }
        other => Err(
            type_err(format!("the optimizer attribute '{other}' cannot be set"))
                .hint("change a group's settings: opt.param_groups[0]['lr'] = 0.01"),
        ),
    }
}
