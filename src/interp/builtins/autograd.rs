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

fn backward(_: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("self")?;
    let gradient = a.opt_tensor("gradient")?;
    let retain = match a.take("retain_graph") {
        None | Some((Value::None, _)) => false,
        Some((v, s)) => v.truthy().map_err(|e| e.at(s))?,
    };
    if a.kw_flag("create_graph", false)? {
        return Err(crate::error::value_err(
            "create_graph=true (gradients of gradients) is not supported by tsh",
        )
        .at(a.span));
    }
    let span = a.span;
    a.finish()?;
    crate::autograd::engine::backward(&t, gradient.as_ref(), retain).map_err(|e| e.at(span))?;
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
