//! The backward pass: order the graph's nodes so each runs after every node that
//! feeds it a gradient, run their rules, and accumulate into the leaves.

use std::collections::HashMap;
use std::sync::Arc;

use super::node::{Edge, InputMeta, Node};
use super::rules::sum_to;
use crate::error::{Result, shape_err, type_err};
use crate::tensor::Tensor;
use crate::tensor::op::BinaryOp;
use crate::tensor::ops::assign::binary_assign;
use crate::tensor::ops::creation::{full_on, zeros_on};
use crate::tensor::ops::elementwise::binary;
use crate::tensor::ops::index::write_all;
use crate::tensor::shape::fmt_shape;

fn key(n: &Arc<Node>) -> usize {
    Arc::as_ptr(n) as usize
}

/// `root.backward(gradient, retain_graph=..., create_graph=...)`. With
/// `create_graph` the rules run with grad mode on, so the gradients carry a
/// graph of their own (gradients of gradients).
pub fn backward(
    root: &Tensor,
    gradient: Option<&Tensor>,
    retain_graph: bool,
    create_graph: bool,
) -> Result<()> {
    let grad = start_gradient(root, gradient)?;
    let _guard = super::NoGradGuard::set(create_graph);
    let mut sink = |leaf: &Tensor, g: Tensor| accumulate(leaf, g, create_graph);
    match root.grad_fn() {
        None => sink(root, grad),
        Some(node) => run(node, grad, retain_graph || create_graph, &mut sink),
    }
}

/// `torch.autograd.grad`: the gradients of `outputs` (weighted by
/// `grad_outputs`) with respect to `inputs`, leaves or not, returned instead
/// of accumulated; None for an input the outputs do not depend on.
pub fn grad(
    outputs: &[Tensor],
    grad_outputs: &[Option<Tensor>],
    inputs: &[Tensor],
    retain_graph: bool,
    create_graph: bool,
) -> Result<Vec<Option<Tensor>>> {
    let mut found: Vec<Option<Tensor>> = vec![None; inputs.len()];
    let add_to = |slot: &mut Option<Tensor>, g: Tensor| -> Result<()> {
        *slot = Some(match slot.take() {
            Some(prev) => binary(BinaryOp::Add, &prev, &g)?,
            None => g,
        });
        Ok(())
    };
    for (k, out) in outputs.iter().enumerate() {
        let g = start_gradient(out, grad_outputs.get(k).and_then(|g| g.as_ref()))?;
        let _guard = super::NoGradGuard::set(create_graph);
        for (i, x) in inputs.iter().enumerate() {
            if x.same_tensor(out) {
                add_to(&mut found[i], g.clone())?;
            }
        }
        let Some(node) = out.grad_fn() else { continue };
        let watched: Vec<usize> = inputs
            .iter()
            .map(|x| x.grad_fn().map_or(0, |n| key(&n)))
            .collect();
        let mut at_nodes: HashMap<usize, Tensor> = HashMap::new();
        let keep = retain_graph || create_graph || k + 1 < outputs.len();
        let mut sink = |leaf: &Tensor, g: Tensor| -> Result<()> {
            for (i, x) in inputs.iter().enumerate() {
                if x.grad_fn().is_none() && x.same_tensor(leaf) {
                    add_to(&mut found[i], g.clone())?;
                }
            }
            Ok(())
        };
        run_watching(node, g, keep, &mut sink, &watched, &mut at_nodes)?;
        for (i, w) in watched.iter().enumerate() {
            if let Some(g) = at_nodes.remove(w).filter(|_| *w != 0) {
                add_to(&mut found[i], g)?;
            }
        }
    }
    Ok(found)
}

/// The gradient backward starts from: ones for a scalar, else the one given.
fn start_gradient(root: &Tensor, gradient: Option<&Tensor>) -> Result<Tensor> {
    if !root.requires_grad() {
        return Err(type_err(
            "this tensor does not require grad and has no grad_fn, so there is nothing to differentiate",
        )
        .hint("make the inputs you want gradients for with requires_grad=true, outside no_grad { }"));
    }
    match gradient {
        None if root.numel() != 1 => Err(shape_err(format!(
            "backward() without a gradient needs a scalar output, but this one has shape {}",
            fmt_shape(root.shape())
        ))
        .hint("reduce it first (e.g. y.sum().backward()), or pass a gradient of the same shape: y.backward(ones_like(y))")),
        None => full_on(
            root.shape(),
            crate::backend::Scalar::int(1),
            root.dtype(),
            root.device(),
        ),
        Some(g) => {
            if g.shape() != root.shape() {
                return Err(shape_err(format!(
                    "the gradient's shape {} does not match the output's shape {}",
                    fmt_shape(g.shape()),
                    fmt_shape(root.shape())
                ))
                .hint("backward(gradient) needs a gradient with exactly the output's shape"));
            }
            g.to_dtype(root.dtype())?.to_device(root.device())
        }
    }
}

/// Every node reachable from `root`, and how many edges point at each.
fn dependencies(root: &Arc<Node>) -> HashMap<usize, usize> {
    let mut deps: HashMap<usize, usize> = HashMap::new();
    deps.insert(key(root), 0);
    let mut stack = vec![root.clone()];
    while let Some(n) = stack.pop() {
        for (edge, _) in n.inputs.iter().flatten() {
            if let Edge::Node(next) = edge {
                let count = deps.entry(key(next)).or_insert(0);
                *count += 1;
                if *count == 1 {
                    stack.push(next.clone());
                }
            }
        }
    }
    deps
}

/// Where a gradient that reaches a leaf goes: `.grad` for `backward()`, a list
/// for a composite op's own inner graph.
pub type LeafSink<'a> = &'a mut dyn FnMut(&Tensor, Tensor) -> Result<()>;

/// Run the graph behind `root` backward from `grad`, handing each leaf's
/// gradient to `sink`.
pub fn run(root: Arc<Node>, grad: Tensor, retain_graph: bool, sink: LeafSink) -> Result<()> {
    run_watching(root, grad, retain_graph, sink, &[], &mut HashMap::new())
}

/// `run`, also keeping in `seen` the whole gradient that reached each node
/// whose key is in `watch` (a non-leaf input of autograd.grad).
fn run_watching(
    root: Arc<Node>,
    grad: Tensor,
    retain_graph: bool,
    sink: LeafSink,
    watch: &[usize],
    seen: &mut HashMap<usize, Tensor>,
) -> Result<()> {
    let mut deps = dependencies(&root);
    let mut pending: HashMap<usize, Tensor> = HashMap::new();
    pending.insert(key(&root), grad);
    let mut ready = vec![root];
    while let Some(node) = ready.pop() {
        crate::interrupt::check()?;
        // A node that got no gradient (all its consumers gave none) still
        // releases its inputs, so nodes reached by other paths can run.
        let grads = match pending.remove(&key(&node)) {
            Some(g) => {
                let g = node.hooks.apply(g)?;
                if watch.contains(&key(&node)) {
                    seen.insert(key(&node), g.clone());
                }
                if node.retain.load(std::sync::atomic::Ordering::Relaxed) {
                    node.set_retained(g.deep_clone()?);
                }
                if place(&node, &g, &mut pending)? {
                    vec![None]
                } else {
                    super::running(&node, || node.apply(&g, retain_graph))?
                }
            }
            None => vec![None; node.inputs.len()],
        };
        for (input, g) in node.inputs.iter().zip(grads) {
            let Some((edge, meta)) = input else { continue };
            let g = match g {
                Some(g) => Some(conform(g, meta)?),
                None => None,
            };
            match edge {
                Edge::Leaf(t) => {
                    if let Some(g) = g {
                        sink(t, t.leaf_hooks().apply(g)?)?;
                    }
                }
                Edge::Node(next) => {
                    let k = key(next);
                    if let Some(g) = g {
                        let sum = match pending.remove(&k) {
                            Some(prev) => add_grads(prev, &g)?,
                            None => g,
                        };
                        pending.insert(k, sum);
                    }
                    // Unreachable: `deps` was filled by walking this same graph.
                    let count = deps.get_mut(&k).expect("every reachable node was counted");
                    *count -= 1;
                    if *count == 0 {
                        ready.push(next.clone());
                    }
                }
            }
        }
    }
    Ok(())
}

/// A view's gradient (select, slice, split, chunk, unbind) added in place
/// into the gradient its input is gathering; true when it was. The view's own
/// rule writes it into zeros of the input's whole shape, so a loop over a
/// sequence's steps (an RNN reading gates[t]) made, and summed, one
/// sequence-sized tensor per step. Not while a graph of the gradients is
/// being built (create_graph), nor for a leaf input, whose `.grad` the sink
/// keeps.
fn place(node: &Node, g: &Tensor, pending: &mut HashMap<usize, Tensor>) -> Result<bool> {
    let Some(view) = node.placement() else {
        return Ok(false);
    };
    let [Some((Edge::Node(next), meta))] = node.inputs.as_slice() else {
        return Ok(false);
    };
    if super::is_enabled() || g.dtype() != meta.dtype || g.device() != meta.device {
        return Ok(false);
    }
    let k = key(next);
    // Only a buffer that nothing else sees may be written: one this pass made.
    let sum = match pending.remove(&k) {
        Some(prev) if prev.is_sole_owner() && prev.grad_fn().is_none() => prev,
        Some(prev) => prev.deep_clone()?,
        None => zeros_on(&meta.shape, meta.dtype, meta.device)?,
    };
    let part = view(&sum)?;
    if !binary_assign(BinaryOp::Add, &part, g)? {
        write_all(&part, &binary(BinaryOp::Add, &part, g)?)?;
    }
    pending.insert(k, sum);
    Ok(true)
}

/// Two gradients for one input, summed: into `a` itself when this pass made
/// it and nothing else holds it (as PyTorch's InputBuffer accumulates), which
/// spares a fresh buffer per sum (a weight shared by 50 steps of an RNN gets
/// 50), else into a new tensor. Under create_graph the sum is recorded.
fn add_grads(a: Tensor, b: &Tensor) -> Result<Tensor> {
    if !super::is_enabled()
        && a.is_sole_owner()
        && a.grad_fn().is_none()
        && a.shape() == b.shape()
        && binary_assign(BinaryOp::Add, &a, b)?
    {
        return Ok(a);
    }
    binary(BinaryOp::Add, &a, b)
}

/// Make a gradient fit its input: the input's device and dtype, and its shape (a
/// rule may hand back the broadcast shape; summing over the broadcast dims is the
/// one place broadcasting is undone).
fn conform(g: Tensor, meta: &InputMeta) -> Result<Tensor> {
    let g = if g.shape() != meta.shape.as_slice() {
        sum_to(&g, &meta.shape)?
    } else {
        g
    };
    g.to_device(meta.device)?.to_dtype(meta.dtype)
}

/// Add `g` into a leaf's `.grad` (in place, as PyTorch does, when one is there;
/// out of place, keeping both graphs, under create_graph).
fn accumulate(leaf: &Tensor, g: Tensor, create_graph: bool) -> Result<()> {
    // Cast to the leaf's grad_dtype (its own dtype unless set; None: as is).
    // Moved, not re-bound from a borrow: a shadowed `g` would live on and
    // make every gradient look shared, so each would be copied below.
    let g = if g.device() == leaf.device() {
        g
    } else {
        g.to_device(leaf.device())?
    };
    let g = match leaf.grad_dtype() {
        Some(d) if d != g.dtype() => g.to_dtype(d)?,
        _ => g,
    };
    if create_graph {
        let sum = match leaf.grad() {
            Some(existing) => binary(BinaryOp::Add, &existing, &g)?,
            None => g,
        };
        leaf.set_grad(Some(sum));
        return Ok(());
    }
    match leaf.grad() {
        Some(existing) if existing.shape() == g.shape() => {
            if binary_assign(BinaryOp::Add, &existing, &g)? {
                return Ok(());
            }
            let sum = binary(BinaryOp::Add, &existing, &g)?;
            write_all(&existing, &sum)
        }
        // A gradient nothing else holds becomes .grad as it is (PyTorch's
        // AccumulateGrad steals it too); others are copied, so that .grad
        // never aliases a tensor of the graph.
        _ if g.is_sole_owner() && g.grad_fn().is_none() && !g.requires_grad() => {
            leaf.set_grad(Some(g));
            Ok(())
        }
        _ => {
            leaf.set_grad(Some(g.deep_clone()?));
            Ok(())
        }
    }
}
