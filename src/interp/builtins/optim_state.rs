//! An optimizer's `state_dict()` and `load_state_dict()` as PyTorch's
//! checkpoints hold them, and the order PyTorch's optimizers list settings in.

use std::cell::RefCell;
use std::rc::Rc;

use super::optim::{OptimizerValue, kind_of};
use crate::error::{Result, type_err, value_err};
use crate::interp::value::{Dict, Value};

impl OptimizerValue {
    /// `optimizer.state_dict()`: each parameter's state under PyTorch's
    /// names, keyed by its number across groups, and each group's settings
    /// with its parameters' numbers.
    pub(super) fn state_dict(&self) -> Value {
        let groups = self.groups.borrow();
        let mut state = Dict::default();
        let mut saved_groups = vec![];
        let mut next = 0i64;
        for (opt, d) in groups.iter().zip(self.dicts()) {
            let mut numbers = vec![];
            for i in 0..opt.params.len() {
                let entries = opt.state_of(i);
                if !entries.is_empty() {
                    let mut one = Dict::default();
                    for (name, t) in entries {
                        one.insert(name.into(), Value::Tensor(t));
                    }
                    state.insert_key(Value::Int(next), Value::Dict(Rc::new(RefCell::new(one))));
                }
                numbers.push(Value::Int(next));
                next += 1;
            }
            let mut g = Dict::default();
            for (k, v) in d.borrow().iter() {
                if !matches!(k, Value::Str(s) if s.as_ref() == "params") {
                    g.insert_key(k.clone(), v.clone());
                }
            }
            g.insert("params".into(), Value::list(numbers));
            saved_groups.push(Value::Dict(Rc::new(RefCell::new(g))));
        }
        let mut out = Dict::default();
        out.insert("state".into(), Value::Dict(Rc::new(RefCell::new(state))));
        out.insert("param_groups".into(), Value::list(saved_groups));
        Value::Dict(Rc::new(RefCell::new(out)))
    }

    /// `optimizer.load_state_dict(sd)`: the groups' settings and the
    /// parameters' state from a state_dict of an optimizer like this one.
    pub(super) fn load_state_dict(&self, sd: &Value) -> Result<()> {
        let Value::Dict(sd) = sd else {
            return Err(type_err(
                "load_state_dict expects the dict state_dict() gave",
            ));
        };
        let sd = sd.borrow();
        let saved_groups = sd
            .get("param_groups")
            .cloned()
            .unwrap_or(Value::None)
            .iter_items()?;
        let dicts = self.dicts();
        if saved_groups.len() != dicts.len() {
            return Err(value_err(
                "loaded state dict has a different number of parameter groups",
            ));
        }
        let mut groups = self.groups.borrow_mut();
        let state = match sd.get("state") {
            Some(Value::Dict(s)) => s.borrow().clone(),
            _ => Dict::default(),
        };
        let mut next = 0i64;
        for ((opt, d), saved) in groups.iter_mut().zip(&dicts).zip(&saved_groups) {
            let Value::Dict(saved) = saved else { continue };
            let saved = saved.borrow();
            let count = saved
                .get("params")
                .cloned()
                .unwrap_or(Value::None)
                .iter_items()?
                .len();
            if count != opt.params.len() {
                return Err(value_err(
                    "loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
                ));
            }
            for (k, v) in saved.iter() {
                if !matches!(k, Value::Str(s) if s.as_ref() == "params") {
                    d.borrow_mut().insert_key(k.clone(), v.clone());
                }
            }
            opt.kind = kind_of(self.name, &d.borrow())?;
            for i in 0..opt.params.len() {
                if let Some(Value::Dict(one)) = state.get_key(&Value::Int(next)) {
                    for (k, v) in one.borrow().iter() {
                        if let (Value::Str(name), Value::Tensor(t)) = (k, v) {
                            opt.set_state(i, name, t)?;
                        }
                    }
                }
                next += 1;
            }
        }
        Ok(())
    }
}

/// The order of PyTorch's `defaults` dict literal for optimizers whose
/// settings it does not list in signature order (the order param_groups and
/// state_dict show).
pub(super) fn defaults_order(name: &str) -> &'static [&'static str] {
    match name {
        "RMSprop" => &[
            "lr",
            "momentum",
            "alpha",
            "eps",
            "centered",
            "weight_decay",
            "capturable",
            "foreach",
            "maximize",
            "differentiable",
        ],
        "Adagrad" => &[
            "lr",
            "lr_decay",
            "eps",
            "weight_decay",
            "initial_accumulator_value",
            "foreach",
            "maximize",
            "differentiable",
            "fused",
        ],
        "Adadelta" => &[
            "lr",
            "rho",
            "eps",
            "weight_decay",
            "maximize",
            "capturable",
            "foreach",
            "differentiable",
        ],
        "Adamax" => &[
            "lr",
            "betas",
            "eps",
            "weight_decay",
            "foreach",
            "maximize",
            "differentiable",
            "capturable",
        ],
        "NAdam" => &[
            "lr",
            "betas",
            "eps",
            "weight_decay",
            "momentum_decay",
            "decoupled_weight_decay",
            "maximize",
            "foreach",
            "capturable",
            "differentiable",
        ],
        "Adam" | "AdamW" => &[
            "lr",
            "betas",
            "eps",
            "weight_decay",
            "amsgrad",
            "maximize",
            "foreach",
            "capturable",
            "differentiable",
            "fused",
            "decoupled_weight_decay",
        ],
        _ => &[],
    }
}
