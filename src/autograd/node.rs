//! A node of the autograd graph: one recorded op, its backward rule, and edges to
//! the nodes (or leaves) its inputs came from.

use std::sync::Mutex;

use crate::error::{Result, value_err};
use crate::tensor::{DType, Device, Tensor};

/// Given the gradient of an op's output, the gradient for each of its inputs
/// (None where an input gets none).
pub type BackwardFn = Box<dyn Fn(&Tensor) -> Result<Vec<Option<Tensor>>> + Send + Sync>;

/// For a view that picks distinct elements of its input (select, slice,
/// split, chunk, unbind): the same view of a tensor of the input's shape, so
/// the backward pass can add the gradient straight into the part it covers.
pub type Placement = std::sync::Arc<dyn Fn(&Tensor) -> Result<Tensor> + Send + Sync>;

/// Where an input's gradient goes.
pub enum Edge {
    Node(std::sync::Arc<Node>),
    /// A leaf that requires grad: its gradient accumulates in `.grad`.
    Leaf(Tensor),
}

/// What a gradient for an input must look like.
pub struct InputMeta {
    pub shape: Vec<usize>,
    pub dtype: DType,
    /// Where the input lives: a gradient that crossed devices goes back (.cuda()).
    pub device: crate::tensor::Device,
}

pub struct Node {
    /// PyTorch's grad_fn name; composite functions relabel their last node.
    name: Mutex<&'static str>,
    pub inputs: Vec<Option<(Edge, InputMeta)>>,
    /// The output's shape, dtype and device, for `:graph`.
    pub shape: Vec<usize>,
    pub dtype: DType,
    pub device: Device,
    saves: bool,
    /// None once a backward without retain_graph has run it.
    backward: Mutex<Option<BackwardFn>>,
    /// `retain_grad()` on the tensor this node made: keep the gradient here.
    pub retain: std::sync::atomic::AtomicBool,
    pub retained: Mutex<Option<Tensor>>,
    /// `register_hook` on the tensor this node made: run on its gradient first.
    pub hooks: super::callback::Hooks,
    /// Set on the nodes of views (see `Placement`).
    placement: std::sync::OnceLock<Placement>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Nothing panics while holding these locks, so poisoning cannot happen.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Node {
    pub fn new(
        name: &'static str,
        inputs: &[&Tensor],
        out: &Tensor,
        saves: bool,
        backward: BackwardFn,
    ) -> Node {
        let inputs = inputs
            .iter()
            .map(|t| {
                if !t.requires_grad() {
                    return None;
                }
                super::edge_of(t).map(|e| {
                    (
                        e,
                        InputMeta {
                            shape: t.shape().to_vec(),
                            dtype: t.dtype(),
                            device: t.device(),
                        },
                    )
                })
            })
            .collect();
        Node {
            name: Mutex::new(name),
            inputs,
            shape: out.shape().to_vec(),
            dtype: out.dtype(),
            device: out.device(),
            saves,
            backward: Mutex::new(Some(backward)),
            retain: std::sync::atomic::AtomicBool::new(false),
            retained: Mutex::new(None),
            hooks: Default::default(),
            placement: std::sync::OnceLock::new(),
        }
    }

    pub fn placement(&self) -> Option<&Placement> {
        self.placement.get()
    }
    pub fn set_placement(&self, view: Placement) {
        // A node is made by one op, which sets this at most once.
        let _ = self.placement.set(view);
    }

    /// Run the backward rule; free it afterwards unless the graph is retained.
    pub fn apply(&self, grad: &Tensor, retain_graph: bool) -> Result<Vec<Option<Tensor>>> {
        let mut slot = lock(&self.backward);
        let Some(f) = slot.as_ref() else {
            return Err(value_err(format!(
                "trying to backward through the graph a second time: {}'s saved tensors were freed by the first backward",
                self.name()
            ))
            .hint("pass retain_graph=true to the first backward() to keep the graph, or recompute the forward pass"));
        };
        let grads = f(grad)?;
        if !retain_graph && self.saves {
            *slot = None;
        }
        Ok(grads)
    }

    pub fn name(&self) -> &'static str {
        *lock(&self.name)
    }
    pub fn set_name(&self, name: &'static str) {
        *lock(&self.name) = name;
    }

    pub fn retained_grad(&self) -> Option<Tensor> {
        lock(&self.retained).clone()
    }
    pub fn set_retained(&self, g: Tensor) {
        *lock(&self.retained) = Some(g);
    }
}
