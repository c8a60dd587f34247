//! Drawing the autograd graph behind a tensor: a tree in the terminal, or Graphviz.

use std::collections::HashMap;
use std::sync::Arc;

use super::node::{Edge, Node};
use crate::tensor::Tensor;
use crate::tensor::shape::fmt_shape;

/// Finds the variable name a tensor is bound to, if any.
pub type Namer<'a> = &'a dyn Fn(&Tensor) -> Option<String>;

/// Deeper than this, the tree stops drawing (a graph built by a long loop).
const MAX_DEPTH: usize = 64;

fn describe(shape: &[usize], dtype: crate::tensor::DType, device: crate::tensor::Device) -> String {
    format!("{} {} {}", fmt_shape(shape), dtype, device)
}

/// The norm of a leaf's gradient, for the drawing (a scalar read to the host).
fn grad_norm(t: &Tensor) -> Option<f64> {
    let g = t.grad()?;
    let norm = crate::autograd::no_grad(|| {
        let g = g.to_dtype(crate::tensor::DType::F64)?;
        crate::tensor::ops::reduce::reduce(&g, crate::tensor::op::ReduceOp::Norm(2.0), None, false)
    });
    norm.and_then(|n| crate::tensor::ops::scalar::item_f64(&n))
        .ok()
}

fn leaf_text(t: &Tensor, names: Namer) -> String {
    let name = names(t).unwrap_or_else(|| "(unnamed)".into());
    let grad = match grad_norm(t) {
        Some(n) => format!("grad norm {n:.4}"),
        None => "grad none".into(),
    };
    format!(
        "{name}  leaf {}  requires_grad={}  {grad}",
        describe(t.shape(), t.dtype(), t.device()),
        t.requires_grad()
    )
}

fn node_text(n: &Node) -> String {
    format!("{}  {}", n.name(), describe(&n.shape, n.dtype, n.device))
}

fn key(n: &Arc<Node>) -> usize {
    Arc::as_ptr(n) as usize
}

fn children(n: &Node) -> Vec<&Edge> {
    n.inputs.iter().flatten().map(|(e, _)| e).collect()
}

/// The graph as an indented tree, root first; a node reached twice is drawn once.
pub fn render_tree(t: &Tensor, names: Namer) -> String {
    let Some(root) = t.grad_fn() else {
        return if t.requires_grad() {
            format!("{}\n(a leaf: no graph behind it)", leaf_text(t, names))
        } else {
            "this tensor has no autograd graph: it does not require grad".into()
        };
    };
    let mut out = node_text(&root);
    out.push('\n');
    let mut seen = HashMap::from([(key(&root), ())]);
    draw(&root, "", 1, names, &mut seen, &mut out);
    out.trim_end().to_string()
}

fn draw(
    node: &Arc<Node>,
    prefix: &str,
    depth: usize,
    names: Namer,
    seen: &mut HashMap<usize, ()>,
    out: &mut String,
) {
    let kids = children(node);
    if depth > MAX_DEPTH && !kids.is_empty() {
        out.push_str(&format!("{prefix}└─ … (deeper nodes not drawn)\n"));
        return;
    }
    for (i, edge) in kids.iter().enumerate() {
        let last = i + 1 == kids.len();
        let branch = if last { "└─ " } else { "├─ " };
        let next_prefix = format!("{prefix}{}", if last { "   " } else { "│  " });
        match edge {
            Edge::Leaf(l) => out.push_str(&format!("{prefix}{branch}{}\n", leaf_text(l, names))),
            Edge::Node(n) if seen.contains_key(&key(n)) => {
                out.push_str(&format!(
                    "{prefix}{branch}{}  (shared, drawn above)\n",
                    n.name()
                ));
            }
            Edge::Node(n) => {
                seen.insert(key(n), ());
                out.push_str(&format!("{prefix}{branch}{}\n", node_text(n)));
                draw(n, &next_prefix, depth + 1, names, seen, out);
            }
        }
    }
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The graph in Graphviz's dot language; edges point the way data flowed.
pub fn render_dot(t: &Tensor, names: Namer) -> String {
    let mut out =
        String::from("digraph autograd {\n  rankdir=BT;\n  node [fontname=\"monospace\"];\n");
    let Some(root) = t.grad_fn() else {
        if t.requires_grad() {
            out.push_str(&format!(
                "  leaf0 [shape=ellipse, style=filled, fillcolor=lightblue, label=\"{}\"];\n",
                dot_escape(&leaf_text(t, names))
            ));
        }
        out.push_str("}\n");
        return out;
    };
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let mut leaf_ids: Vec<(Tensor, usize)> = Vec::new();
    let mut stack = vec![root.clone()];
    ids.insert(key(&root), 0);
    out.push_str(&format!(
        "  n0 [shape=box, label=\"{}\"];\n",
        dot_escape(&node_text(&root))
    ));
    while let Some(n) = stack.pop() {
        let nid = ids[&key(&n)];
        for edge in children(&n) {
            let from = match edge {
                Edge::Node(m) => {
                    let next = ids.len();
                    let id = *ids.entry(key(m)).or_insert_with(|| {
                        stack.push(m.clone());
                        next
                    });
                    if id == next {
                        out.push_str(&format!(
                            "  n{id} [shape=box, label=\"{}\"];\n",
                            dot_escape(&node_text(m))
                        ));
                    }
                    format!("n{id}")
                }
                Edge::Leaf(l) => {
                    let id = match leaf_ids.iter().find(|(t, _)| t.same_tensor(l)) {
                        Some((_, id)) => *id,
                        None => {
                            let id = leaf_ids.len();
                            leaf_ids.push((l.clone(), id));
                            out.push_str(&format!(
                                "  leaf{id} [shape=ellipse, style=filled, fillcolor=lightblue, label=\"{}\"];\n",
                                dot_escape(&leaf_text(l, names))
                            ));
                            id
                        }
                    };
                    format!("leaf{id}")
                }
            };
            out.push_str(&format!("  {from} -> n{nid};\n"));
        }
    }
    out.push_str("}\n");
    out
}

/// The graph's shape in one line, as PyTorch's `grad_fn.next_functions` give it:
/// `MulBackward0(AccumulateGrad, ExpBackward0(AccumulateGrad))`; inputs that take
/// no gradient are left out. None for a tensor without a graph.
pub fn structure(t: &Tensor) -> Option<String> {
    fn node(n: &Node, depth: usize) -> String {
        let kids: Vec<String> = children(n)
            .into_iter()
            .map(|e| match e {
                Edge::Leaf(_) => "AccumulateGrad".to_string(),
                Edge::Node(m) if depth < MAX_DEPTH => node(m, depth + 1),
                Edge::Node(m) => format!("{}(…)", m.name()),
            })
            .collect();
        if kids.is_empty() {
            n.name().to_string()
        } else {
            format!("{}({})", n.name(), kids.join(", "))
        }
    }
    t.grad_fn().map(|n| node(&n, 0))
}
