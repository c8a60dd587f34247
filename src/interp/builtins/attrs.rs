//! Attributes: `t.shape`, `t.T`, `torch.float32`, `x.values`, list methods, and
//! the settable ones (`t.requires_grad = true`).

use std::rc::Rc;

use super::{Builtin, method, module_attr};
use crate::error::{Result, dtype_err, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::{DictView, Value, ViewKind};
use crate::row;
use crate::syntax::ast::Span;
use crate::tensor::Tensor;

/// Attributes a tensor has (besides its methods), for completion and suggestions.
pub fn tensor_attr_names() -> &'static [&'static str] {
    &[
        "shape",
        "dtype",
        "device",
        "T",
        "mT",
        "ndim",
        "requires_grad",
        "is_leaf",
        "grad",
        "grad_dtype",
        "grad_fn",
        "layout",
        "is_sparse",
        "is_sparse_csr",
        "data",
        "is_cuda",
        "is_cpu",
        "is_quantized",
        "itemsize",
        "nbytes",
        "real",
        "imag",
        "mH",
        "H",
    ]
}

fn tensor_attr(t: &Tensor, name: &str) -> Option<Value> {
    Some(match name {
        "shape" => Value::Shape(Rc::new(t.shape().to_vec())),
        "dtype" => Value::DType(t.dtype()),
        "device" => Value::Device(t.device()),
        "T" => Value::Tensor(crate::tensor::ops::view::reverse_dims(t)),
        "mT" => match crate::tensor::ops::view::transpose(t, -2, -1) {
            Ok(x) if t.ndim() >= 2 => Value::Tensor(x),
            _ => return None,
        },
        "ndim" => Value::Int(t.ndim() as i64),
        "requires_grad" => Value::Bool(t.requires_grad()),
        "grad_dtype" => t.grad_dtype().map(Value::DType).unwrap_or(Value::None),
        "is_leaf" => Value::Bool(t.is_leaf()),
        "grad" => match t.grad_fn() {
            None => t.grad().map(Value::Tensor).unwrap_or(Value::None),
            Some(n) => n.retained_grad().map(Value::Tensor).unwrap_or(Value::None),
        },
        "grad_fn" => t.grad_fn().map(Value::GradFn).unwrap_or(Value::None),
        "layout" => Value::Layout("strided"),
        "is_sparse" | "is_sparse_csr" => Value::Bool(false),
        "data" => Value::Tensor(t.view_with(t.layout().clone())),
        "is_cuda" => Value::Bool(t.device() != crate::tensor::Device::Cpu),
        "is_cpu" => Value::Bool(t.device() == crate::tensor::Device::Cpu),
        "is_quantized" => Value::Bool(false),
        "itemsize" => Value::Int(t.dtype().size() as i64),
        "nbytes" => Value::Int((t.dtype().size() * t.numel()) as i64),
        "real" => Value::Tensor(crate::tensor::ops::complex::real(t).ok()?),
        "imag" => Value::Tensor(crate::tensor::ops::complex::imag(t).ok()?),
        "mH" if t.ndim() >= 2 => Value::Tensor(crate::tensor::ops::complex::adjoint(t).ok()?),
        "H" if t.ndim() == 2 => Value::Tensor(crate::tensor::ops::complex::adjoint(t).ok()?),
        _ => return None,
    })
}

const LIST_ROWS: &[Builtin] = &[
    row!(
        Method,
        "append",
        "list.append(x)",
        "Add an item at the end.",
        "l = [1, 2]; l.append(3); l",
        list_append
    ),
    row!(
        Method,
        "pop",
        "list.pop(i=-1)",
        "Remove and return an item.",
        "l = [1, 2, 3]; l.pop()",
        list_pop
    ),
    row!(
        Method,
        "extend",
        "list.extend(items)",
        "Add every item of an iterable.",
        "l = [1]; l.extend([2, 3]); l",
        list_extend
    ),
];

const DICT_ROWS: &[Builtin] = &[
    row!(
        Method,
        "keys",
        "dict.keys()",
        "A live view of the keys, in insertion order (`k in d.keys()` is a hash lookup).",
        "dict(a=1, b=2).keys()",
        dict_keys
    ),
    row!(
        Method,
        "values",
        "dict.values()",
        "A live view of the values, in insertion order.",
        "dict(a=1, b=2).values()",
        dict_values
    ),
    row!(
        Method,
        "items",
        "dict.items()",
        "A live view of the (key, value) pairs, in insertion order.",
        "dict(a=1, b=2).items()",
        dict_items
    ),
    row!(
        Method,
        "get",
        "dict.get(key, default=None)",
        "The value for key, or default when it is missing.",
        "dict(a=1).get('b', 0)",
        dict_get
    ),
];

pub(super) fn dict_of(a: &mut Args) -> Result<Rc<std::cell::RefCell<crate::interp::value::Dict>>> {
    match a.value("self")? {
        Value::Dict(d) => Ok(d),
        _ => Err(type_err("expected a dict")),
    }
}

fn dict_view(mut a: Args, kind: ViewKind) -> Result<Value> {
    let dict = dict_of(&mut a)?;
    a.finish()?;
    Ok(Value::DictView(Rc::new(DictView { dict, kind })))
}

fn dict_keys(_: &mut Interp, a: Args) -> Result<Value> {
    dict_view(a, ViewKind::Keys)
}

fn dict_values(_: &mut Interp, a: Args) -> Result<Value> {
    dict_view(a, ViewKind::Values)
}

fn dict_items(_: &mut Interp, a: Args) -> Result<Value> {
    dict_view(a, ViewKind::Items)
}

fn dict_get(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    let key = a.value("key")?;
    let default = a.take("default").map(|(v, _)| v).unwrap_or(Value::None);
    a.finish()?;
    let found = d.borrow().get_key(&key).cloned();
    Ok(found.unwrap_or(default))
}

pub(super) fn list_of(a: &mut Args) -> Result<Rc<std::cell::RefCell<Vec<Value>>>> {
    match a.value("self")? {
        Value::List(l) => Ok(l),
        _ => Err(type_err("expected a list")),
    }
}

fn list_append(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let v = a.value("x")?;
    a.finish()?;
    l.borrow_mut().push(v);
    Ok(Value::None)
}

fn list_extend(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let items = a.value("items")?.iter_items()?;
    a.finish()?;
    l.borrow_mut().extend(items);
    Ok(Value::None)
}

fn list_pop(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let i = a.int_or("i", -1)?;
    a.finish()?;
    let mut items = l.borrow_mut();
    let n = items.len() as i64;
    let j = if i < 0 { i + n } else { i };
    if j < 0 || j >= n {
        return Err(crate::error::index_err("pop index out of range"));
    }
    Ok(items.remove(j as usize))
}

fn no_attr(obj: &Value, name: &str, candidates: Vec<&str>) -> crate::error::Error {
    let mut e = type_err(format!("{} has no attribute '{name}'", obj.a_type_name()));
    if let Some(best) = crate::print::suggest::closest(name, candidates.into_iter()) {
        e = e.hint(format!("did you mean `.{best}`?"));
    }
    e
}

/// The builtin that `obj.name` binds when obj is a tensor, list, dict or str
/// and `name` one of its methods (not one of its attributes): what
/// `get_attr` would wrap in a bound method, for a call to take without
/// making one.
pub fn receiver_method(obj: &Value, name: &str) -> Option<&'static Builtin> {
    match obj {
        Value::Tensor(t) if name != "__class__" && tensor_attr(t, name).is_none() => method(name),
        Value::List(_) => row_named(LIST_ROWS, super::pymethods::LIST_ROWS, name),
        Value::Dict(_) => row_named(DICT_ROWS, super::pymethods::DICT_ROWS, name),
        Value::Str(_) => row_named(super::pytypes::STR_ROWS, super::pymethods::STR_ROWS, name),
        Value::Set(_) => super::pyset_rows::method(name),
        _ => None,
    }
}

/// The method `name` of a Python type's two tables.
fn row_named(
    own: &'static [Builtin],
    more: &'static [Builtin],
    name: &str,
) -> Option<&'static Builtin> {
    own.iter().chain(more).find(|b| b.name == name)
}

pub fn get_attr(it: &mut Interp, obj: &Value, name: &str) -> Result<Value> {
    match obj {
        Value::Module(m) => module_member(it, obj, m, name),
        _ => find_attr(it, obj, name),
    }
}

/// `module.name`, answered from what the interpreter remembers where it can.
fn module_member(it: &mut Interp, obj: &Value, module: &str, name: &str) -> Result<Value> {
    let mut buf = [0u8; 64];
    let Some(key) = super::dotted(&mut buf, module, name) else {
        return find_attr(it, obj, name);
    };
    if let Some(v) = it.module_members.get(key) {
        return Ok(v.clone());
    }
    let v = find_attr(it, obj, name)?;
    // Flags (`torch.backends.cudnn.benchmark`) can be set: asked afresh.
    if matches!(
        v,
        Value::Builtin(_) | Value::Function(_) | Value::Class(_) | Value::Module(_)
    ) {
        it.module_members.insert(key.into(), v.clone());
    }
    Ok(v)
}

fn find_attr(it: &mut Interp, obj: &Value, name: &str) -> Result<Value> {
    if name == "__class__" {
        return Ok(match obj {
            Value::Object(o) => Value::Class(o.class.clone()),
            other => Value::Type(super::pytypes::class_of(other)),
        });
    }
    match obj {
        Value::Module("torch.optim.lr_scheduler")
            if super::nnmodule::SCHEDULERS.contains(&name) =>
        {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("lr_scheduler has no attribute '{name}'")));
        }
        Value::Module("torch.nn.functional")
            if super::nnmodule::PRELUDE_FUNCTIONAL.contains(&name) =>
        {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch.nn.functional has no attribute '{name}'")));
        }
        Value::Module("torch") if super::nnmodule::PRELUDE_TORCH.contains(&name) => {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch has no attribute '{name}'")));
        }
        Value::Module("torch.nn.utils") if super::nnmodule::NN_UTILS.contains(&name) => {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch.nn.utils has no attribute '{name}'")));
        }
        Value::Module("torch.autograd") if super::nnmodule::AUTOGRAD.contains(&name) => {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch.autograd has no attribute '{name}'")));
        }
        Value::Module("torch.autograd.functional")
            if super::nnmodule::AUTOGRAD_FUNCTIONAL.contains(&name) =>
        {
            return it.nn_layer(name)?.ok_or_else(|| {
                type_err(format!(
                    "torch.autograd.functional has no attribute '{name}'"
                ))
            });
        }
        Value::Module("torch.utils.benchmark") if super::nnmodule::BENCHMARK.contains(&name) => {
            return it.nn_layer(name)?.ok_or_else(|| {
                type_err(format!("torch.utils.benchmark has no attribute '{name}'"))
            });
        }
        Value::Module("torch.utils.data") if super::nnmodule::DATA.contains(&name) => {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch.utils.data has no attribute '{name}'")));
        }
        Value::Module("torch.nn")
            if super::LAYERS.contains(&name) && !super::nnmodule::DATA.contains(&name) =>
        {
            return it
                .nn_layer(name)?
                .ok_or_else(|| type_err(format!("torch.nn has no attribute '{name}'")));
        }
        Value::Object(o) => {
            if let Some(getter) = property_of(o, name) {
                return it.call(
                    &Value::Function(getter),
                    vec![(obj.clone(), Span::default())],
                    vec![],
                    Span::default(),
                );
            }
            return crate::interp::classes::object_attr(o, name).ok_or_else(|| {
                crate::error::name_err(format!(
                    "'{}' object has no attribute '{name}'",
                    o.class.name
                ))
            });
        }
        // A function's name, as Python gives it; torch's builtins in a
        // submodule are named as PyTorch's bindings are (linalg_solve).
        Value::Function(f)
            if f.binding == crate::interp::value::Binding::Property && name == "setter" =>
        {
            return Ok(Value::Method(Rc::new((
                obj.clone(),
                &super::pytypes::PROPERTY_METHODS[0],
            ))));
        }
        Value::Function(f) if name == "__name__" || name == "__qualname__" => {
            return Ok(Value::str(&f.def.name));
        }
        Value::Builtin(b) if name == "__name__" || name == "__qualname__" => {
            return Ok(Value::str(&b.name.replace('.', "_")));
        }
        Value::Super(s) => {
            return crate::interp::classes::super_attr(&s.0, &s.1, name).ok_or_else(|| {
                crate::error::name_err(format!("'super' object has no attribute '{name}'"))
            });
        }
        Value::Class(c) => {
            if name == "__name__" {
                return Ok(Value::Str(c.name.as_ref().into()));
            }
            return c
                .lookup(name)
                .map(|(owner, v)| match v {
                    Value::Function(f) => crate::interp::classes::bind(obj.clone(), c, f, owner),
                    v => v,
                })
                .ok_or_else(|| {
                    crate::error::name_err(format!(
                        "type object '{}' has no attribute '{name}'",
                        c.name
                    ))
                });
        }
        _ => {}
    }
    match obj {
        Value::Set(_) => super::pyset_rows::method(name)
            .map(|b| Value::Method(Rc::new((obj.clone(), b))))
            .ok_or_else(|| {
                no_attr(
                    obj,
                    name,
                    super::pyset_rows::all_methods().map(|b| b.name).collect(),
                )
            }),
        Value::Exception(e) => match name {
            "args" if e.message.is_empty() => Ok(Value::tuple(vec![])),
            "args" => Ok(Value::tuple(vec![Value::str(&e.message)])),
            "__class__" => Ok(Value::Type(super::pytypes::class_of(obj))),
            // SystemExit's code: None, an int, or the text given.
            "code" if e.kind == crate::error::ErrorKind::Exit => Ok(match e.message.parse() {
                _ if e.message.is_empty() => Value::None,
                Ok(n) => Value::Int(n),
                Err(_) => Value::str(&e.message),
            }),
            _ => Err(no_attr(obj, name, vec!["args"])),
        },
        Value::Complex(re, im) => {
            if let Some(v) = crate::interp::pycomplex::attr(*re, *im, name) {
                return Ok(v);
            }
            if name == "conjugate" {
                return Ok(Value::Method(Rc::new((
                    obj.clone(),
                    &super::complex::CONJUGATE,
                ))));
            }
            Err(no_attr(obj, name, vec!["real", "imag", "conjugate"]))
        }
        Value::Sparse(s) => super::sparse_methods::attr(obj, s, name),
        Value::Distribution(d) => {
            super::distributions::attr(it, obj, d, name).unwrap_or_else(|| {
                Err(no_attr(
                    obj,
                    name,
                    vec!["sample", "log_prob", "entropy", "mean", "variance"],
                ))
            })
        }
        Value::QTensor(q) => super::quantized_tensor::attr(obj, q, name),
        Value::QDType(d) => match name {
            "is_floating_point" => Ok(Value::Bool(false)),
            "itemsize" => Ok(Value::Int(d.itemsize() as i64)),
            _ => Err(no_attr(obj, name, vec!["is_floating_point", "itemsize"])),
        },
        Value::Tensor(t) => {
            if let Some(v) = tensor_attr(t, name) {
                return Ok(v);
            }
            if let Some(b) = method(name) {
                return Ok(Value::Method(Rc::new((obj.clone(), b))));
            }
            let mut names: Vec<&str> = tensor_attr_names().to_vec();
            names.extend(
                super::all()
                    .filter(|b| matches!(b.reach, super::Reach::Method | super::Reach::Both))
                    .map(|b| b.name),
            );
            Err(no_attr(obj, name, names))
        }
        Value::Array(t) => {
            if let Some(v) = crate::interp::numpy::attr(t, name) {
                return Ok(v);
            }
            match name {
                "astype" | "copy" | "tolist" | "item" | "reshape" | "sum" | "mean" | "max"
                | "min" | "argmax" | "argmin" | "flatten" | "transpose" | "fill" | "std" => {}
                _ => {
                    return Err(no_attr(
                        obj,
                        name,
                        vec!["shape", "dtype", "sum", "reshape", "astype"],
                    ));
                }
            }
            let b = match name {
                "astype" => method("to"),
                "copy" => method("clone"),
                "max" => method("amax"),
                "min" => method("amin"),
                "fill" => method("fill_"),
                _ => method(name),
            }
            .ok_or_else(|| no_attr(obj, name, vec![]))?;
            // NumPy's mean and std of integers are float64: the method is bound
            // to the array seen as float64.
            let recv = if !t.dtype().is_float() && matches!(name, "mean" | "std" | "var") {
                Value::Array(t.to_dtype(crate::tensor::DType::F64)?)
            } else {
                obj.clone()
            };
            Ok(Value::Method(Rc::new((recv, b))))
        }
        Value::Module(m) => module_attr(m, name).ok_or_else(|| {
            let mut e = crate::error::name_err(format!("{m} has no attribute '{name}'"));
            if let Some(why) = super::modules::missing_hint(m, name) {
                return e.hint(why);
            }
            let names = super::module_names(m);
            if let Some(best) = crate::print::suggest::closest(name, names.into_iter()) {
                e = e.hint(format!("did you mean `{m}.{best}`?"));
            }
            e
        }),
        // A module row's own attributes are rows too: `itertools.chain.from_iterable`.
        Value::Builtin(b)
            if b.reach == super::Reach::Module
                && super::index()
                    .module
                    .contains_key(format!("{}.{name}", b.name).as_str()) =>
        {
            Ok(Value::Builtin(
                super::index().module[format!("{}.{name}", b.name).as_str()],
            ))
        }
        Value::Named(n) => n
            .fields
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| no_attr(obj, name, n.fields.iter().map(|(k, _)| *k).collect())),
        Value::DType(d) => match name {
            "is_floating_point" => Ok(Value::Bool(d.is_float())),
            "itemsize" => Ok(Value::Int(d.size() as i64)),
            _ => Err(no_attr(obj, name, vec!["is_floating_point", "itemsize"])),
        },
        Value::Device(d) => match name {
            "type" => Ok(Value::str(match d {
                crate::tensor::Device::Cpu => "cpu",
                crate::tensor::Device::Cuda(_) => "cuda",
            })),
            "index" => Ok(match d {
                crate::tensor::Device::Cpu => Value::None,
                crate::tensor::Device::Cuda(i) => Value::Int(*i as i64),
            }),
            _ => Err(no_attr(obj, name, vec!["type", "index"])),
        },
        Value::DeviceType(d) => match name {
            "type" => Ok(Value::str(d.kind())),
            "index" => Ok(Value::None),
            _ => Err(no_attr(obj, name, vec!["type", "index"])),
        },
        Value::GradFn(n) => match name {
            "name" => Ok(Value::Method(Rc::new((obj.clone(), &GRAD_FN_NAME)))),
            // ((node, 0), ...) per input: the node that made it, an
            // AccumulateGrad for a leaf that requires grad, None otherwise.
            "next_functions" => Ok(Value::tuple(
                n.inputs
                    .iter()
                    .map(|input| {
                        let f = match input {
                            Some((crate::autograd::node::Edge::Node(m), _)) => {
                                Value::GradFn(m.clone())
                            }
                            Some((crate::autograd::node::Edge::Leaf(_), _)) => {
                                Value::Opaque("AccumulateGrad")
                            }
                            None => Value::None,
                        };
                        Value::tuple(vec![f, Value::Int(0)])
                    })
                    .collect(),
            )),
            _ => Err(no_attr(obj, name, vec!["name", "next_functions"])),
        },
        Value::Generator(_) => super::generators::method(obj, name)
            .ok_or_else(|| no_attr(obj, name, vec!["manual_seed", "initial_seed", "seed"])),
        Value::Optimizer(o) => {
            if let Some(v) = super::optim::optimizer_attr(o, name) {
                return Ok(v);
            }
            super::optim::optimizer_method(obj, name)
                .ok_or_else(|| no_attr(obj, name, super::optim::optimizer_attr_names()))
        }
        Value::Shape(_) => match name {
            "numel" => Ok(Value::Method(Rc::new((obj.clone(), &SHAPE_NUMEL)))),
            _ => Err(no_attr(obj, name, vec!["numel"])),
        },
        Value::Dict(_) => receiver_method(obj, name)
            .map(|b| Value::Method(Rc::new((obj.clone(), b))))
            .ok_or_else(|| no_attr(obj, name, DICT_ROWS.iter().map(|b| b.name).collect())),
        Value::List(_) => receiver_method(obj, name)
            .map(|b| Value::Method(Rc::new((obj.clone(), b))))
            .ok_or_else(|| no_attr(obj, name, LIST_ROWS.iter().map(|b| b.name).collect())),
        Value::Str(_) => receiver_method(obj, name)
            .map(|b| Value::Method(Rc::new((obj.clone(), b))))
            .ok_or_else(|| {
                no_attr(
                    obj,
                    name,
                    super::pytypes::STR_ROWS.iter().map(|b| b.name).collect(),
                )
            }),
        Value::Type(c) if name == "__name__" => Ok(Value::str(c.rsplit('.').next().unwrap_or(c))),
        _ => Err(no_attr(obj, name, vec![])),
    }
}

static GRAD_FN_NAME: Builtin = row!(
    Method,
    "name",
    "grad_fn.name()",
    "The node's name, e.g. MulBackward0.",
    "(ones(2, requires_grad=true) * 2).grad_fn.name()",
    grad_fn_name
);

fn grad_fn_name(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("self")?;
    a.finish()?;
    match v {
        Value::GradFn(n) => Ok(Value::str(n.name())),
        _ => Err(type_err("expected a grad_fn")),
    }
}

static SHAPE_NUMEL: Builtin = row!(
    Method,
    "numel",
    "shape.numel()",
    "Product of the sizes.",
    "zeros(2, 3).shape.numel()",
    shape_numel
);

fn shape_numel(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("self")?;
    a.finish()?;
    match v {
        Value::Shape(s) => Ok(Value::Int(s.iter().product::<usize>() as i64)),
        _ => Err(type_err("expected a shape")),
    }
}

pub fn set_requires_grad(t: &Tensor, on: bool) -> Result<()> {
    if !t.is_leaf() {
        if on {
            return Ok(());
        }
        return Err(value_err(
            "requires_grad can only be changed on leaf tensors; this one was computed by an op",
        )
        .hint("use t.detach() to get a tensor without history"));
    }
    if on && !t.dtype().is_float() {
        return Err(dtype_err(format!(
            "only floating point tensors can require gradients, not {}",
            t.dtype()
        ))
        .hint("convert first: t = t.float()"));
    }
    t.set_requires_grad(on);
    Ok(())
}

/// `t.grad = none` (what zero_grad does) or a tensor of t's shape and dtype.
fn set_grad(t: &Tensor, v: Value) -> Result<()> {
    match v {
        Value::None => {
            t.set_grad(None);
            Ok(())
        }
        Value::Tensor(g) => {
            if let Some(want) = t.grad_dtype()
                && g.dtype() != want
                && g.shape() == t.shape()
            {
                return Err(crate::error::dtype_err(format!(
                    "attempting to assign a gradient with dtype '{}' to a tensor with grad_dtype '{}'. The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype).",
                    g.dtype().name(),
                    want.name()
                ))
                .hint("set t.grad_dtype to the gradient's dtype, or to None to allow any dtype"));
            }
            if g.shape() != t.shape() {
                return Err(crate::error::shape_err(format!(
                    "a gradient must match its tensor: got {} {}, but the tensor is {} {}",
                    crate::tensor::shape::fmt_shape(g.shape()),
                    g.dtype(),
                    crate::tensor::shape::fmt_shape(t.shape()),
                    t.dtype()
                )));
            }
            t.set_grad(Some(g));
            Ok(())
        }
        other => Err(type_err(format!(
            "t.grad must be none or a tensor, not {}",
            other.a_type_name()
        ))),
    }
}

/// The getter of a property named `name` on the object's class, where the
/// object has no attribute of its own by that name.
fn property_of(
    o: &Rc<crate::interp::classes::Object>,
    name: &str,
) -> Option<Rc<crate::interp::value::Func>> {
    if o.get(name).is_some() {
        return None;
    }
    match o.class.lookup(name) {
        Some((_, Value::Function(f))) if f.binding == crate::interp::value::Binding::Property => {
            Some(f)
        }
        _ => None,
    }
}

pub fn set_attr(it: &mut Interp, obj: &Value, name: &str, v: Value) -> Result<()> {
    if let Value::Object(o) = obj
        && let Some(p) = property_of(o, name)
    {
        let Some(setter) = p.setter.clone() else {
            return Err(crate::error::name_err(format!(
                "property '{name}' of '{}' object has no setter",
                o.class.name
            )));
        };
        let args = vec![(obj.clone(), Span::default()), (v, Span::default())];
        return it
            .call(&Value::Function(setter), args, vec![], Span::default())
            .map(|_| ());
    }
    match (obj, name) {
        (Value::Tensor(t), "requires_grad") => set_requires_grad(t, v.truthy()?),
        (Value::Tensor(t), "grad") => set_grad(t, v),
        (Value::Tensor(t), "grad_dtype") => {
            if !t.is_leaf() {
                return Err(crate::error::value_err(
                    "grad_dtype can only be set on leaf tensors.",
                ));
            }
            match v {
                Value::None => t.set_grad_dtype(None),
                Value::DType(d) => t.set_grad_dtype(Some(d)),
                other => {
                    return Err(type_err(format!(
                        "grad_dtype must be a dtype or None, not {}",
                        other.a_type_name()
                    )));
                }
            }
            Ok(())
        }
        (Value::Tensor(_), other) => Err(type_err(format!(
            "the tensor attribute '{other}' cannot be set"
        ))
        .hint("settable attributes: requires_grad, grad, grad_dtype")),
        (Value::Optimizer(o), name) => super::optim::set_optimizer_attr(o, name, &v),
        (Value::Object(o), name) => {
            o.set(name.into(), v);
            Ok(())
        }
        (Value::Class(c), name) => {
            let mut attrs = c.attrs.borrow_mut();
            match attrs.iter_mut().find(|(k, _)| k.as_ref() == name) {
                Some(slot) => slot.1 = v,
                None => attrs.push((name.into(), v)),
            }
            Ok(())
        }
        (Value::Module(m), name) => {
            super::backend_flags::set(m, name, &v).unwrap_or_else(|| Err(cannot_set(obj, name)))
        }
        (o, n) => Err(cannot_set(o, n)),
    }
}

fn cannot_set(obj: &Value, name: &str) -> crate::error::Error {
    type_err(format!(
        "cannot set attribute '{name}' on {}",
        obj.a_type_name()
    ))
}

/// Every attribute and method name `obj.NAME` can take (for completion).
pub fn attr_names(obj: &Value) -> Vec<String> {
    let mut names: Vec<String> = match obj {
        Value::Tensor(_) => tensor_attr_names()
            .iter()
            .map(|s| s.to_string())
            .chain(
                super::all()
                    .filter(|b| matches!(b.reach, super::Reach::Method | super::Reach::Both))
                    .map(|b| b.name.to_string()),
            )
            .collect(),
        Value::QTensor(_) => super::quantized_tensor::attr_names(),
        Value::Optimizer(_) => super::optim::optimizer_attr_names()
            .into_iter()
            .map(String::from)
            .collect(),
        Value::Module(m) => super::module_names(m)
            .into_iter()
            .map(String::from)
            .collect(),
        Value::Device(_) | Value::DeviceType(_) => vec!["type".into(), "index".into()],
        Value::GradFn(_) => vec!["name".into(), "next_functions".into()],
        Value::Shape(_) => vec!["numel".into()],
        Value::Sparse(_) => super::sparse_methods::names(),
        Value::List(_) => LIST_ROWS.iter().map(|b| b.name.to_string()).collect(),
        Value::Dict(_) => DICT_ROWS.iter().map(|b| b.name.to_string()).collect(),
        Value::Object(o) => {
            let own = o
                .attrs
                .borrow()
                .iter()
                .map(|(k, _)| k.to_string())
                .collect();
            class_attr_names(&o.class, own)
        }
        Value::Class(c) => class_attr_names(c, vec![]),
        _ => vec![],
    };
    names.sort();
    names.dedup();
    names
}

/// A class's attributes and its bases', after `names`.
fn class_attr_names(c: &crate::interp::classes::Class, mut names: Vec<String>) -> Vec<String> {
    names.extend(c.attrs.borrow().iter().map(|(k, _)| k.to_string()));
    for b in &c.bases {
        names = class_attr_names(b, names);
    }
    names
}

/// Methods of values other than tensors: lists, dicts, shapes, grad_fn nodes
/// (with the optimizers', they complete the reference and :help).
pub fn value_methods() -> impl Iterator<Item = &'static Builtin> {
    LIST_ROWS
        .iter()
        .chain(DICT_ROWS)
        .chain(super::pytypes::STR_ROWS)
        .chain(super::pymethods::LIST_ROWS)
        .chain(super::pymethods::DICT_ROWS)
        .chain(super::pymethods::STR_ROWS)
        .chain([&SHAPE_NUMEL, &GRAD_FN_NAME])
}
