//! Autograd written in Python: `torch.autograd.Function` (a forward and a
//! backward the user defines) and `t.register_hook(fn)`. The graph keeps a
//! number for each (autograd/callback.rs); this file keeps what the number
//! stands for and runs it when a backward pass asks.

use std::cell::RefCell;
use std::collections::HashMap;

use super::Builtin;
use crate::autograd::callback::{self, Owned};
use crate::error::{Result, type_err, value_err};
use crate::interp::{Interp, Value};
use crate::syntax::ast::Span;
use crate::tensor::Tensor;

#[derive(Clone)]
enum Callback {
    /// `t.register_hook(fn)`: `fn(grad)` gives a new gradient or None.
    Hook(Value),
    /// A Function's `backward(ctx, *grads)`; `tensors` marks which of the
    /// forward's arguments were tensors (they alone got graph edges).
    Function {
        class: Value,
        ctx: Value,
        tensors: Vec<bool>,
    },
}

thread_local! {
    static CALLBACKS: RefCell<HashMap<u64, Callback>> = RefCell::new(HashMap::new());
}

fn register(cb: Callback) -> u64 {
    let id = callback::new_id();
    CALLBACKS.with(|c| {
        let mut c = c.borrow_mut();
        for dead in callback::take_dead() {
            c.remove(&dead);
        }
        c.insert(id, cb);
    });
    id
}

impl Interp {
    /// Run a backward pass (`f`) whose graph may hold Python callbacks.
    pub fn with_autograd<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let mut runner = |id, grads| run_callback(self, id, grads);
        callback::with_runner(&mut runner, f)
    }
}

fn run_callback(
    it: &mut Interp,
    id: u64,
    grads: Vec<Option<Tensor>>,
) -> Result<Vec<Option<Tensor>>> {
    let span = Span::default();
    let Some(cb) = CALLBACKS.with(|c| c.borrow().get(&id).cloned()) else {
        return Ok(vec![None; grads.len()]);
    };
    let grad_values: Vec<(Value, Span)> = grads
        .into_iter()
        .map(|g| (g.map_or(Value::None, Value::Tensor), span))
        .collect();
    match cb {
        Callback::Hook(f) => match it.call(&f, grad_values, vec![], span)? {
            Value::None => Ok(vec![None]),
            Value::Tensor(t) => Ok(vec![Some(t)]),
            other => Err(type_err(format!(
                "a gradient hook must return a tensor or None, not {}",
                other.a_type_name()
            ))),
        },
        Callback::Function {
            class,
            ctx,
            tensors,
        } => {
            let backward = super::get_attr(it, &class, "backward")?;
            let mut args = vec![(ctx, span)];
            args.extend(grad_values);
            let out = it.call(&backward, args, vec![], span)?;
            let items = match out {
                Value::Tuple(t) => t.as_ref().clone(),
                other => vec![other],
            };
            if items.len() != tensors.len() {
                return Err(value_err(format!(
                    "function {}Backward returned an incorrect number of gradients (expected {}, got {})",
                    class_name(&class),
                    tensors.len(),
                    items.len()
                )));
            }
            let mut grads = vec![];
            for (item, is_tensor) in items.into_iter().zip(tensors) {
                match (item, is_tensor) {
                    (Value::Tensor(g), true) => grads.push(Some(g)),
                    (Value::None, true) => grads.push(None),
                    (Value::None, false) => {}
                    (other, _) => {
                        return Err(type_err(format!(
                            "backward gave {} for an input that is not a tensor (return None there)",
                            other.a_type_name()
                        )));
                    }
                }
            }
            Ok(grads)
        }
    }
}

fn class_name(class: &Value) -> String {
    match class {
        Value::Class(c) => c.name.to_string(),
        _ => "Function".into(),
    }
}

/// A node name, made once per distinct text (names live as long as tsh).
fn intern(name: String) -> &'static str {
    thread_local! {
        static NAMES: RefCell<HashMap<String, &'static str>> = RefCell::new(HashMap::new());
    }
    NAMES.with(|n| {
        *n.borrow_mut()
            .entry(name.clone())
            .or_insert_with(|| super::ops::leak(name))
    })
}

/// PyTorch's name for a Function's node.
fn node_name(class: &str) -> &'static str {
    intern(format!("{class}Backward"))
}

/// `MyFn.apply(*args)`: forward without recording, then one node whose rule
/// is the class's backward.
fn function_apply(it: &mut Interp, class: Value, ctx: Value, args: Value) -> Result<Value> {
    let args = args.iter_items()?;
    let tensors: Vec<bool> = args.iter().map(|a| matches!(a, Value::Tensor(_))).collect();
    let inputs: Vec<Tensor> = args
        .iter()
        .filter_map(|a| match a {
            Value::Tensor(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let needs: Vec<Value> = args
        .iter()
        .map(|a| Value::Bool(matches!(a, Value::Tensor(t) if t.requires_grad())))
        .collect();
    if let Value::Object(o) = &ctx {
        o.set("needs_input_grad".into(), Value::tuple(needs));
    }
    let forward = super::get_attr(it, &class, "forward")?;
    let mut call_args = vec![(ctx.clone(), Span::default())];
    call_args.extend(args.iter().map(|a| (a.clone(), Span::default())));
    let out = {
        let _off = crate::autograd::NoGradGuard::new();
        it.call(&forward, call_args, vec![], Span::default())?
    };
    let refs: Vec<&Tensor> = inputs.iter().collect();
    if !crate::autograd::needs_grad(&refs) {
        return Ok(out);
    }
    let Value::Tensor(t) = out else {
        return match out {
            Value::Tuple(_) => Err(type_err(
                "tsh's Functions give one tensor: return several outputs from several Functions",
            )),
            _ => Ok(out),
        };
    };
    if non_differentiable(&ctx).iter().any(|n| n.same_tensor(&t)) {
        return Ok(Value::Tensor(t));
    }
    let id = register(Callback::Function {
        class: class.clone(),
        ctx,
        tensors,
    });
    let owned = Owned(id);
    let name = node_name(&class_name(&class));
    let rec = crate::autograd::record(t.detached(), name, &refs, true, move || {
        Box::new(move |g: &Tensor| {
            let _keep = &owned;
            callback::call(id, vec![Some(g.clone())])
        })
    });
    Ok(Value::Tensor(rec))
}

fn non_differentiable(ctx: &Value) -> Vec<Tensor> {
    let Value::Object(o) = ctx else { return vec![] };
    let Some(v) = o.get("non_differentiable") else {
        return vec![];
    };
    v.iter_items()
        .unwrap_or_default()
        .into_iter()
        .filter_map(|v| match v {
            Value::Tensor(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// `t.register_hook(fn)`: a handle whose `remove()` takes it off again.
fn register_hook(it: &mut Interp, t: Tensor, hook: Value) -> Result<Value> {
    if !t.requires_grad() {
        return Err(value_err(
            "cannot register a hook on a tensor that doesn't require gradient",
        ));
    }
    let id = register(Callback::Hook(hook));
    match t.grad_fn() {
        Some(node) => node.hooks.add(id),
        None => t.leaf_hooks().add(id),
    }
    removable_handle(it, Value::Tensor(t), id as i64, Value::None)
}

/// The prelude's RemovableHandle for hook `id`: on a tensor's gradient, or in
/// a module's `hooks` list.
pub(super) fn removable_handle(
    it: &mut Interp,
    tensor: Value,
    id: i64,
    hooks: Value,
) -> Result<Value> {
    let handle = it
        .nn_layer("RemovableHandle")?
        .ok_or_else(|| value_err("the prelude has no RemovableHandle"))?;
    let args = [tensor, Value::Int(id), hooks]
        .into_iter()
        .map(|v| (v, Span::default()))
        .collect();
    it.call(&handle, args, vec![], Span::default())
}

fn remove_hook(t: Tensor, id: i64) -> Result<Value> {
    match t.grad_fn() {
        Some(node) => node.hooks.remove(id as u64),
        None => t.leaf_hooks().remove(id as u64),
    }
    Ok(Value::None)
}

pub const ROWS: &[Builtin] = &[
    crate::op!(
        Method,
        "register_hook(Tensor self, Any hook) -> Any",
        "Call hook(grad) on this tensor's gradient whenever backward computes it; a tensor it returns replaces the gradient. Returns a handle: handle.remove().",
        "x = tensor([1., 2.], requires_grad=True); h = x.register_hook(lambda g: g * 2); (x * 3).sum().backward(); x.grad",
        |it; self_: Tensor, hook: Value| register_hook(it, self_, hook)
    ),
    crate::op!(
        Module,
        "autograd._function_apply(Any cls, Any ctx, Any args) -> Any",
        "What torch.autograd.Function.apply runs: forward without recording, then one node whose backward is the class's.",
        "torch.autograd.Function",
        |it; cls: Value, ctx: Value, args: Value| function_apply(it, cls, ctx, args)
    ),
    crate::op!(
        Module,
        "autograd._remove_hook(Tensor tensor, int id) -> Any",
        "What a hook handle's remove() runs.",
        "torch.autograd.Function",
        |tensor: Tensor, id: i64| remove_hook(tensor, id)
    ),
    crate::op!(
        Function,
        "_grad_fn_name(Tensor input, str name) -> Tensor",
        "Name the node that made a tensor as PyTorch names the whole function (the prelude's composite losses).",
        "torch._grad_fn_name",
        |input: Tensor, name: String| Ok::<_, crate::error::Error>(crate::autograd::relabel(
            input,
            intern(name)
        ))
    ),
];
