//! torch.save / torch.load in PyTorch's own format: values to and from the
//! checkpoint data model (tensors, Parameters, dicts, OrderedDicts, lists,
//! tuples, numbers, strings), so files move between tsh and PyTorch.

use crate::error::{Result, type_err};
use crate::interp::value::Value;
use crate::io::pt::{self, PyObj};
use crate::tensor::Device;

/// The bytes of a .pt file holding `v`.
pub fn save(v: &Value) -> Result<Vec<u8>> {
    pt::write(&to_obj(v, 0)?)
}

/// The value a .pt file holds, its tensors moved to `device` when given.
pub fn load(bytes: &[u8], device: Option<Device>) -> Result<Value> {
    of_obj(&pt::read(bytes)?, device)
}

fn to_obj(v: &Value, depth: usize) -> Result<PyObj> {
    if depth > 100 {
        return Err(type_err("torch.save: the value nests too deeply"));
    }
    let all = |items: &[Value]| -> Result<Vec<PyObj>> {
        items.iter().map(|x| to_obj(x, depth + 1)).collect()
    };
    Ok(match v {
        Value::None => PyObj::None,
        Value::Bool(b) => PyObj::Bool(*b),
        Value::Int(i) => PyObj::Int(*i),
        Value::Float(f) => PyObj::Float(*f),
        Value::Str(s) => PyObj::Str(s.to_string()),
        Value::Tensor(t) => {
            PyObj::Tensor(pt::tensor_data(t, crate::nn::parameter::is_parameter(t))?)
        }
        Value::List(l) => PyObj::List(all(&l.borrow())?),
        Value::Tuple(t) => PyObj::Tuple(all(t)?),
        Value::Named(n) => PyObj::Tuple(all(&n
            .fields
            .iter()
            .map(|(_, x)| x.clone())
            .collect::<Vec<_>>())?),
        Value::Shape(s) => PyObj::Tuple(s.iter().map(|&d| PyObj::Int(d as i64)).collect()),
        Value::Dict(d) => {
            let d = d.borrow();
            let items = d
                .iter()
                .map(|(k, x)| Ok((to_obj(k, depth + 1)?, to_obj(x, depth + 1)?)))
                .collect::<Result<Vec<_>>>()?;
            if d.ordered {
                PyObj::OrderedDict(items)
            } else {
                PyObj::Dict(items)
            }
        }
        Value::Object(o) if o.class.module => {
            return Err(type_err(format!(
                "torch.save stores tensors and containers of them, not a whole {} module",
                o.class.name
            ))
            .hint("save its weights: torch.save(model.state_dict(), path), then model.load_state_dict(torch.load(path))"));
        }
        other => {
            return Err(type_err(format!(
                "torch.save cannot store {}",
                other.a_type_name()
            )));
        }
    })
}

fn of_obj(o: &PyObj, device: Option<Device>) -> Result<Value> {
    let all = |items: &[PyObj]| -> Result<Vec<Value>> {
        items.iter().map(|x| of_obj(x, device)).collect()
    };
    Ok(match o {
        PyObj::None => Value::None,
        PyObj::Bool(b) => Value::Bool(*b),
        PyObj::Int(i) => Value::Int(*i),
        PyObj::Float(f) => Value::Float(*f),
        PyObj::Str(s) => Value::Str(s.as_str().into()),
        PyObj::List(items) => Value::list(all(items)?),
        PyObj::Tuple(items) => Value::tuple(all(items)?),
        PyObj::Dict(items) | PyObj::OrderedDict(items) => {
            let items = items
                .iter()
                .map(|(k, x)| Ok((of_obj(k, device)?, of_obj(x, device)?)))
                .collect::<Result<Vec<_>>>()?;
            match o {
                PyObj::OrderedDict(_) => Value::ordered_dict(items),
                _ => {
                    let d = Value::ordered_dict(items);
                    if let Value::Dict(inner) = &d {
                        inner.borrow_mut().ordered = false;
                    }
                    d
                }
            }
        }
        PyObj::Tensor(d) => {
            let mut t = pt::tensor_of(d)?;
            if let Some(dev) = device.filter(|&dev| dev != Device::Cpu) {
                let moved = t.to_device(dev)?.detached();
                moved.set_requires_grad(d.requires_grad);
                t = moved;
            }
            if d.parameter {
                crate::nn::parameter::mark(&t);
            }
            Value::Tensor(t)
        }
    })
}
