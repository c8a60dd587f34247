//! Autograd from the language: backward, retain_grad, detach_, grad mode.

use super::Builtin;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Method,
        "backward",
        "backward(gradient=None, retain_graph=False)",
        "Compute gradients of this tensor with respect to the leaves; they accumulate in .grad.",
        "w = tensor([2.], requires_grad=true); (w ** 2).sum().backward(); w.grad",
        backward
    ),
    row!(
        Method,
        "retain_grad",
        "retain_grad()",
        "Keep .grad for this non-leaf tensor at the next backward.",
        "w = ones(2, requires_grad=true); y = w * 3; y.retain_grad(); y.sum().backward(); y.grad",
        retain_grad
    ),
    row!(
        Method,
        "detach_",
        "detach_()",
        "Cut this tensor from its graph, in place: it becomes a leaf.",
        "y = ones(2, requires_grad=true) * 2; y.detach_(); y.requires_grad",
        detach_
    ),
    row!(
        Function,
        "is_grad_enabled",
        "is_grad_enabled()",
        "Whether ops record the autograd graph now (false inside no_grad).",
        "is_grad_enabled()",
        is_grad_enabled
    ),
    row!(
        Function,
        "no_grad",
        "no_grad()",
        "A context for `with`: ops inside record no autograd graph.",
        "with torch.no_grad(): print((ones(2, requires_grad=True) * 2).requires_grad)",
        no_grad
    ),
    row!(
        Function,
        "enable_grad",
        "enable_grad()",
        "A context for `with`: ops inside record the graph, even within no_grad.",
        "with torch.enable_grad(): print(is_grad_enabled())",
        enable_grad
    ),
    row!(
        Function,
        "inference_mode",
        "inference_mode(mode=True)",
        "A context for `with`: like no_grad (tsh records no graph inside).",
        "with torch.inference_mode(): print(is_grad_enabled())",
        inference_mode
    ),
    row!(
        Function,
        "set_grad_enabled",
        "set_grad_enabled(mode)",
        "Switch grad mode on or off: from now on, or for a `with` block.",
        "with torch.set_grad_enabled(False): print(is_grad_enabled())",
        set_grad_enabled
    ),
];

fn no_grad(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::GradMode(crate::interp::value::GradMode::NoGrad))
}

fn enable_grad(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::GradMode(crate::interp::value::GradMode::EnableGrad))
}

fn inference_mode(_: &mut Interp, mut a: Args) -> Result<Value> {
    let on = a.flag("mode", true)?;
    a.finish()?;
    Ok(Value::GradMode(if on {
        crate::interp::value::GradMode::InferenceMode
    } else {
        crate::interp::value::GradMode::EnableGrad
    }))
}

/// Takes effect at once (as in PyTorch); as a `with` context it is undone at the end.
fn set_grad_enabled(_: &mut Interp, mut a: Args) -> Result<Value> {
    let on = a.value("mode")?.truthy()?;
    a.finish()?;
    let before = crate::autograd::is_enabled();
    crate::autograd::set_enabled(on);
    Ok(Value::GradMode(crate::interp::value::GradMode::Set {
        on,
        before,
    }))
}

fn backward(it: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let gradient = a.opt_tensor("gradient")?;
    let retain = match a.take("retain_graph") {
        None | Some((Value::None, _)) => false,
        Some((v, s)) => v.truthy().map_err(|e| e.at(s))?,
    };
    let create_graph = a.kw_flag("create_graph", false)?;
    let span = a.span;
    a.finish()?;
    it.with_autograd(|| {
        crate::autograd::engine::backward(&t, gradient.as_ref(), retain, create_graph)
    })
    .map_err(|e| e.at(span))?;
    Ok(Value::None)
}

fn retain_grad(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    a.finish()?;
    if let Some(n) = t.grad_fn() {
        n.retain.store(true, std::sync::atomic::Ordering::Relaxed);
    } else if !t.requires_grad() {
        return Err(crate::error::value_err(
            "retain_grad() on a tensor that does not require grad",
        )
        .hint("only tensors in an autograd graph have gradients"));
    }
    Ok(Value::None)
}

fn detach_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    a.finish()?;
    t.set_grad_fn(None);
    t.set_requires_grad(false);
    Ok(Value::Tensor(t))
}

fn is_grad_enabled(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(crate::autograd::is_enabled()))
}

/// torch.autograd's functions.
pub const MODULE_ROWS: &[Builtin] = &[crate::op!(
    Module,
    "autograd.grad(Any outputs, Any inputs, Any grad_outputs=None, bool? retain_graph=None, bool create_graph=False, bool only_inputs=True, bool? allow_unused=None, bool is_grads_batched=False, bool materialize_grads=False) -> Any",
    "The gradients of outputs with respect to inputs, returned (not accumulated in .grad); create_graph=True makes them differentiable.",
    "x = tensor(2., requires_grad=True); torch.autograd.grad(x ** 3, x)",
    |it;
     outputs: Value,
     inputs: Value,
     grad_outputs: Value,
     retain_graph: Option<bool>,
     create_graph: bool,
     _only_inputs: bool,
     allow_unused: Option<bool>,
     _is_grads_batched: bool,
     materialize_grads: bool| {
        it.with_autograd(|| autograd_grad(
            &outputs,
            &inputs,
            &grad_outputs,
            retain_graph,
            create_graph,
            allow_unused,
            materialize_grads,
        ))
    }
)];

/// A tensor, or a list or tuple of them (None entries kept as None).
fn tensors(v: &Value, what: &str) -> Result<Vec<Option<crate::tensor::Tensor>>> {
    let items = match v {
        Value::List(_) | Value::Tuple(_) => v.iter_items()?,
        Value::None => vec![],
        other => vec![other.clone()],
    };
    items
        .iter()
        .map(|x| match x {
            Value::None => Ok(None),
            x => crate::interp::convert::to_tensor_arg(x, "grad", what).map(Some),
        })
        .collect()
}

fn autograd_grad(
    outputs: &Value,
    inputs: &Value,
    grad_outputs: &Value,
    retain_graph: Option<bool>,
    create_graph: bool,
    allow_unused: Option<bool>,
    materialize: bool,
) -> Result<Value> {
    let outs: Vec<_> = tensors(outputs, "outputs")?.into_iter().flatten().collect();
    let ins: Vec<_> = tensors(inputs, "inputs")?.into_iter().flatten().collect();
    let gouts = tensors(grad_outputs, "grad_outputs")?;
    if gouts.len() > outs.len() || (!gouts.is_empty() && gouts.len() != outs.len()) {
        return Err(crate::error::value_err(format!(
            "grad requires one grad_output per output: {} outputs, {} grad_outputs",
            outs.len(),
            gouts.len()
        )));
    }
    for x in &ins {
        if !x.requires_grad() {
            return Err(crate::error::value_err(
                "One of the differentiated Tensors does not require grad",
            ));
        }
    }
    let retain = retain_graph.unwrap_or(create_graph);
    let grads = crate::autograd::engine::grad(&outs, &gouts, &ins, retain, create_graph)?;
    let mut out = vec![];
    for (i, (g, x)) in grads.into_iter().zip(&ins).enumerate() {
        out.push(match g {
            Some(g) => Value::Tensor(g),
            None if materialize => Value::Tensor(crate::tensor::ops::arith::zeros_like(x)?),
            None if allow_unused.unwrap_or(materialize) => Value::None,
            None => {
                return Err(crate::error::value_err(format!(
                    "The differentiated Tensor at index {i} appears to not have been used in the graph. Set allow_unused=True if this is the desired behavior."
                )));
            }
        });
    }
    Ok(Value::tuple(out))
}
