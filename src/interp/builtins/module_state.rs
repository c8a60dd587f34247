//! A module's state, as torch/nn/modules/module.py keeps it: buffers
//! (register_buffer), state_dict/load_state_dict with PyTorch's key names and
//! error texts, modules/named_modules, apply, requires_grad_, add_module and
//! register_parameter. Buffers are attributes whose names the module lists in
//! its hidden `_buffers` attribute (persistent ones in state_dict).

use std::rc::Rc;

use super::Builtin;
use super::nnmodule::{generator, modules_of};
use crate::error::{Error, ErrorKind, Result, type_err};
use crate::interp::classes::Object;
use crate::interp::value::{NamedTuple, Value};
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::shape::fmt_shape;

const BUFFERS: &str = "_buffers";
const NON_PERSISTENT: &str = "_non_persistent_buffers";

pub const METHODS: &[Builtin] = &[
    op!(
        Method,
        "register_buffer(Any module, str name, Tensor? tensor, bool persistent=True) -> None",
        "Keep a tensor that is state but not a parameter (BatchNorm's running mean); persistent ones go in state_dict().",
        "m = nn.Module(); m.register_buffer('steps', torch.zeros(1)); m.steps",
        |module: Value, name: String, tensor: Option<Tensor>, persistent: bool| {
            register_buffer(&object(&module)?, &name, tensor, persistent)
        }
    ),
    op!(
        Method,
        "buffers(Any module, bool recurse=True) -> Any",
        "Its buffers and its children's, in order.",
        "nn.Module().buffers()",
        |module: Value, _recurse: bool| Ok::<_, Error>(generator(
            "buffers",
            buffers(&object(&module)?)
                .into_iter()
                .map(|(_, t)| Value::Tensor(t))
                .collect()
        ))
    ),
    op!(
        Method,
        "named_buffers(Any module, str prefix=\"\", bool recurse=True) -> Any",
        "(name, buffer) pairs, in order.",
        "nn.Module().named_buffers()",
        |module: Value, _prefix: String, _recurse: bool| Ok::<_, Error>(generator(
            "named_buffers",
            pairs(buffers(&object(&module)?))
        ))
    ),
    op!(
        Method,
        "state_dict(Any module, *, Any destination=None, str prefix=\"\", bool keep_vars=False) -> Any",
        "An OrderedDict of every parameter and persistent buffer by its dotted name (detached).",
        "nn.Linear(2, 1).state_dict().keys()",
        |module: Value, _destination: Value, prefix: String, keep_vars: bool| state_dict(
            &object(&module)?,
            &prefix,
            keep_vars
        )
    ),
    op!(
        Method,
        "load_state_dict(Any module, Any state_dict, bool strict=True, bool assign=False) -> Any",
        "Copy the tensors of a state_dict into the parameters and buffers of the same names.",
        "m = nn.Linear(2, 1); m.load_state_dict(m.state_dict())",
        |module: Value, state_dict: Value, strict: bool, _assign: bool| load_state_dict(
            &object(&module)?,
            &state_dict,
            strict
        )
    ),
    op!(
        Method,
        "modules(Any module) -> Any",
        "The module and all its submodules, depth first.",
        "list(nn.Sequential(nn.ReLU()).modules())",
        |module: Value| Ok::<_, Error>(generator(
            "modules",
            modules_of(&object(&module)?)
                .into_iter()
                .map(|(_, m)| Value::Object(m))
                .collect()
        ))
    ),
    op!(
        Method,
        "named_modules(Any module, Any memo=None, str prefix=\"\", bool remove_duplicate=True) -> Any",
        "(name, module) pairs of the module ('') and all its submodules, depth first.",
        "list(nn.Sequential(nn.ReLU()).named_modules())",
        |module: Value, _memo: Value, prefix: String, _remove_duplicate: bool| {
            let items = modules_of(&object(&module)?)
                .into_iter()
                .map(|(n, m)| {
                    Value::tuple(vec![
                        Value::str(&join(&prefix, n.trim_end_matches('.'))),
                        Value::Object(m),
                    ])
                })
                .collect();
            Ok::<_, Error>(generator("named_modules", items))
        }
    ),
    op!(Method, "apply(Any module, Any func) -> Any",
    "Call func on every submodule (children first) and on the module itself; returns the module.",
    "nn.Sequential(nn.Linear(2, 2)).apply(lambda m: None)",
    |it; module: Value, func: Value| {
        let root = object(&module)?;
        for (_, m) in modules_of(&root).into_iter().rev() {
            it.call(&func, vec![(Value::Object(m), Default::default())], vec![], Default::default())?;
        }
        Ok::<_, Error>(module)
    }),
    op!(
        Method,
        "requires_grad_(Any module, bool requires_grad=True) -> Any",
        "Turn gradient tracking of every parameter on or off (freezing a model).",
        "nn.Linear(2, 1).requires_grad_(False)",
        |module: Value, requires_grad: bool| {
            for (_, p) in parameters(&object(&module)?) {
                p.set_requires_grad(requires_grad);
            }
            Ok::<_, Error>(module)
        }
    ),
    op!(
        Method,
        "add_module(Any module, str name, Any child) -> None",
        "Add a submodule under a name (as setting the attribute does).",
        "m = nn.Sequential(); m.add_module('act', nn.ReLU()); m",
        |module: Value, name: String, child: Value| add_module(&module, &name, child)
    ),
    op!(
        Method,
        "register_module(Any module, str name, Any child) -> None",
        "Alias of add_module.",
        "m = nn.Sequential(); m.register_module('act', nn.ReLU()); m",
        |module: Value, name: String, child: Value| add_module(&module, &name, child)
    ),
    op!(
        Method,
        "register_parameter(Any module, str name, Tensor? param) -> None",
        "Add a parameter under a name (as setting the attribute does).",
        "m = nn.Module(); m.register_parameter('w', nn.Parameter(torch.ones(1))); list(m.parameters())",
        |module: Value, name: String, param: Option<Tensor>| {
            object(&module)?.set(name.into(), param.map_or(Value::None, Value::Tensor));
            Ok::<_, Error>(Value::None)
        }
    ),
];

fn add_module(module: &Value, name: &str, child: Value) -> Result<Value> {
    object(module)?.set(name.into(), child);
    Ok(Value::None)
}

fn object(v: &Value) -> Result<Rc<Object>> {
    match v {
        Value::Object(o) if o.class.module => Ok(o.clone()),
        other => Err(type_err(format!(
            "{} is not an nn.Module",
            other.a_type_name()
        ))),
    }
}

fn join(prefix: &str, name: &str) -> String {
    match (prefix.is_empty(), name.is_empty()) {
        (true, _) => name.to_string(),
        (false, true) => prefix.to_string(),
        (false, false) => format!("{prefix}.{name}"),
    }
}

fn names(o: &Object, list: &str) -> Vec<String> {
    match o.get(list) {
        Some(v) => v
            .iter_items()
            .unwrap_or_default()
            .iter()
            .filter_map(|n| match n {
                Value::Str(s) => Some(s.to_string()),
                _ => None,
            })
            .collect(),
        None => vec![],
    }
}

fn register_buffer(
    o: &Rc<Object>,
    name: &str,
    t: Option<Tensor>,
    persistent: bool,
) -> Result<Value> {
    if name.contains('.') || name.is_empty() {
        return Err(Error::new(
            ErrorKind::Name,
            format!("buffer name can't contain \".\" or be empty, got: {name}"),
        ));
    }
    for (list, on) in [(BUFFERS, true), (NON_PERSISTENT, !persistent)] {
        let mut have = names(o, list);
        if on && !have.iter().any(|n| n == name) {
            have.push(name.to_string());
            o.set(
                list.into(),
                Value::list(have.iter().map(|n| Value::str(n)).collect()),
            );
        }
    }
    o.set(name.into(), t.map_or(Value::None, Value::Tensor));
    Ok(Value::None)
}

/// A module's own tensors of one kind: (name, tensor) in attribute order.
fn own(m: &Object, buffers: bool) -> Vec<(String, Tensor)> {
    let listed = names(m, BUFFERS);
    m.attrs
        .borrow()
        .iter()
        .filter_map(|(n, v)| match v {
            Value::Tensor(t) if listed.iter().any(|b| b == n.as_ref()) == buffers => (buffers
                || crate::nn::parameter::is_parameter(t))
            .then(|| (n.to_string(), t.clone())),
            _ => None,
        })
        .collect()
}

/// A module's own buffers, (name, tensor).
pub fn own_buffers(m: &Object) -> Vec<(String, Tensor)> {
    own(m, true)
}

fn walk(o: &Rc<Object>, buffers: bool, persistent_only: bool) -> Vec<(String, Tensor)> {
    let mut out = vec![];
    for (prefix, m) in modules_of(o) {
        let skip = if persistent_only {
            names(&m, NON_PERSISTENT)
        } else {
            vec![]
        };
        for (n, t) in own(&m, buffers) {
            if !skip.contains(&n) {
                out.push((format!("{prefix}{n}"), t));
            }
        }
    }
    out
}

pub fn buffers(o: &Rc<Object>) -> Vec<(String, Tensor)> {
    walk(o, true, false)
}

fn parameters(o: &Rc<Object>) -> Vec<(String, Tensor)> {
    walk(o, false, false)
}

fn pairs(items: Vec<(String, Tensor)>) -> Vec<Value> {
    items
        .into_iter()
        .map(|(n, t)| Value::tuple(vec![Value::str(&n), Value::Tensor(t)]))
        .collect()
}

/// Parameters then persistent buffers, module by module (PyTorch's order).
fn entries(o: &Rc<Object>) -> Vec<(String, Tensor)> {
    let mut out = vec![];
    for (prefix, m) in modules_of(o) {
        let skip = names(&m, NON_PERSISTENT);
        out.extend(
            own(&m, false)
                .into_iter()
                .map(|(n, t)| (format!("{prefix}{n}"), t)),
        );
        out.extend(
            own(&m, true)
                .into_iter()
                .filter(|(n, _)| !skip.contains(n))
                .map(|(n, t)| (format!("{prefix}{n}"), t)),
        );
    }
    out
}

fn state_dict(o: &Rc<Object>, prefix: &str, keep_vars: bool) -> Result<Value> {
    let items = entries(o)
        .into_iter()
        .map(|(n, t)| {
            let t = if keep_vars { t } else { t.detached() };
            (Value::str(&format!("{prefix}{n}")), Value::Tensor(t))
        })
        .collect();
    Ok(Value::ordered_dict(items))
}

fn quoted(keys: &[String]) -> String {
    keys.iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn load_state_dict(o: &Rc<Object>, sd: &Value, strict: bool) -> Result<Value> {
    let Value::Dict(d) = sd else {
        return Err(type_err(format!(
            "Expected state_dict to be dict-like, got {}.",
            sd.type_name()
        )));
    };
    let given: Vec<(String, Value)> = d
        .borrow()
        .iter()
        .filter_map(|(k, v)| match k {
            Value::Str(s) => Some((s.to_string(), v.clone())),
            _ => None,
        })
        .collect();
    let want = entries(o);
    let missing: Vec<String> = want
        .iter()
        .filter(|(n, _)| !given.iter().any(|(g, _)| g == n))
        .map(|(n, _)| n.clone())
        .collect();
    let unexpected: Vec<String> = given
        .iter()
        .filter(|(g, _)| !want.iter().any(|(n, _)| n == g))
        .map(|(g, _)| g.clone())
        .collect();
    let mut errors = vec![];
    if strict && !unexpected.is_empty() {
        errors.push(format!(
            "Unexpected key(s) in state_dict: {}. ",
            quoted(&unexpected)
        ));
    }
    if strict && !missing.is_empty() {
        errors.insert(
            0,
            format!("Missing key(s) in state_dict: {}. ", quoted(&missing)),
        );
    }
    for (name, target) in &want {
        let Some((_, v)) = given.iter().find(|(g, _)| g == name) else {
            continue;
        };
        let Value::Tensor(src) = v else {
            errors.push(format!("While copying the parameter named \"{name}\", expected torch.Tensor or Tensor-like object from checkpoint but received {}", v.type_name()));
            continue;
        };
        if src.shape() != target.shape() {
            errors.push(format!(
                "size mismatch for {name}: copying a param with shape torch.Size({}) from checkpoint, the shape in current model is torch.Size({}).",
                fmt_shape(src.shape()),
                fmt_shape(target.shape())
            ));
            continue;
        }
        crate::autograd::no_grad(|| {
            let v = src.to_dtype(target.dtype())?.to_device(target.device())?;
            crate::tensor::ops::index::write_all(target, &v)
        })?;
    }
    if !errors.is_empty() {
        return Err(Error::new(
            ErrorKind::Value,
            format!(
                "Error(s) in loading state_dict for {}:\n\t{}",
                o.class.name,
                errors.join("\n\t")
            ),
        ));
    }
    let list = |keys: Vec<String>| Value::list(keys.iter().map(|k| Value::str(k)).collect());
    Ok(Value::Named(Rc::new(NamedTuple {
        name: "_IncompatibleKeys",
        fields: vec![
            ("missing_keys", list(missing)),
            ("unexpected_keys", list(unexpected)),
        ],
    })))
}
