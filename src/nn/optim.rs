//! Optimizers with PyTorch's update rules: SGD (momentum, dampening, Nesterov,
//! weight decay), Adam (amsgrad) and AdamW (decoupled weight decay). Updates are
//! computed in f64 per element and written back in the parameter's dtype, with
//! grad mode off, so parameters stay leaves.

use crate::autograd::NoGradGuard;
use crate::error::{Result, value_err};
use crate::tensor::Tensor;
use crate::tensor::ops::index::write_all;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Sgd {
        momentum: f64,
        dampening: f64,
        nesterov: bool,
    },
    Adam {
        beta1: f64,
        beta2: f64,
        eps: f64,
        amsgrad: bool,
        /// AdamW: weight decay shrinks the weights directly, not through the gradient.
        decoupled: bool,
    },
}

/// Per-parameter state: momentum buffer (SGD) or moments (Adam).
#[derive(Default, Clone)]
struct State {
    m: Vec<f64>,
    v: Vec<f64>,
    vmax: Vec<f64>,
    started: bool,
}

pub struct Optimizer {
    pub kind: Kind,
    pub lr: f64,
    pub weight_decay: f64,
    pub maximize: bool,
    pub params: Vec<Tensor>,
    state: Vec<State>,
    steps: u64,
}

impl Optimizer {
    pub fn new(
        kind: Kind,
        params: Vec<Tensor>,
        lr: f64,
        weight_decay: f64,
        maximize: bool,
    ) -> Result<Optimizer> {
        if lr < 0.0 {
            return Err(value_err(format!("invalid learning rate: {lr}")));
        }
        if weight_decay < 0.0 {
            return Err(value_err(format!("invalid weight_decay: {weight_decay}")));
        }
        if params.is_empty() {
            return Err(value_err("the optimizer got an empty parameter list")
                .hint("pass the tensors to train, e.g. SGD([w, b], lr=0.1)"));
        }
        for (i, p) in params.iter().enumerate() {
            if !p.is_leaf() {
                return Err(value_err(format!(
                    "parameter {i} is not a leaf tensor (it was computed by {}), so it cannot be optimized",
                    p.grad_fn().map(|n| n.name()).unwrap_or("an op")
                ))
                .hint("optimize the tensors you created with requires_grad=true"));
            }
            if !p.requires_grad() {
                return Err(value_err(format!(
                    "parameter {i} does not require grad, so it would never get a gradient"
                ))
                .hint("create it with requires_grad=true, or call p.requires_grad_()"));
            }
        }
        let state = vec![State::default(); params.len()];
        Ok(Optimizer {
            kind,
            lr,
            weight_decay,
            maximize,
            params,
            state,
            steps: 0,
        })
    }

    pub fn name(&self) -> &'static str {
        match self.kind {
            Kind::Sgd { .. } => "SGD",
            Kind::Adam {
                decoupled: false, ..
            } => "Adam",
            Kind::Adam { .. } => "AdamW",
        }
    }

    /// Set every parameter's gradient to none (PyTorch's default) or to zeros.
    pub fn zero_grad(&self, set_to_none: bool) -> Result<()> {
        let _off = NoGradGuard::new();
        for p in &self.params {
            match (set_to_none, p.grad()) {
                (false, Some(g)) => write_all(&g, &Tensor::scalar_f64(0.0, g.dtype()))?,
                _ => p.set_grad(None),
            }
        }
        Ok(())
    }

    /// One update of every parameter that has a gradient.
    pub fn step(&mut self) -> Result<()> {
        let _off = NoGradGuard::new();
        self.steps += 1;
        for i in 0..self.params.len() {
            let p = self.params[i].clone();
            let Some(g) = p.grad() else { continue };
            let mut w = p.to_f64_vec();
            let mut grad = g.to_f64_vec();
            if self.maximize {
                grad.iter_mut().for_each(|x| *x = -*x);
            }
            self.update(i, &mut w, &mut grad);
            let new = Tensor::from_vec(w, p.shape()).to_dtype(p.dtype());
            write_all(&p, &new)?;
        }
        Ok(())
    }

    fn update(&mut self, i: usize, w: &mut [f64], grad: &mut [f64]) {
        let (lr, wd) = (self.lr, self.weight_decay);
        let steps = self.steps;
        let st = &mut self.state[i];
        match self.kind {
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            } => {
                if wd != 0.0 {
                    grad.iter_mut()
                        .zip(w.iter())
                        .for_each(|(g, p)| *g += wd * p);
                }
                if momentum != 0.0 {
                    if !st.started {
                        st.m = grad.to_vec();
                        st.started = true;
                    } else {
                        st.m.iter_mut()
                            .zip(grad.iter())
                            .for_each(|(b, g)| *b = momentum * *b + (1.0 - dampening) * g);
                    }
                    if nesterov {
                        grad.iter_mut()
                            .zip(&st.m)
                            .for_each(|(g, b)| *g += momentum * b);
                    } else {
                        grad.copy_from_slice(&st.m);
                    }
                }
                w.iter_mut()
                    .zip(grad.iter())
                    .for_each(|(p, g)| *p -= lr * g);
            }
            Kind::Adam {
                beta1,
                beta2,
                eps,
                amsgrad,
                decoupled,
            } => {
                if !st.started {
                    st.m = vec![0.0; w.len()];
                    st.v = vec![0.0; w.len()];
                    st.vmax = vec![0.0; w.len()];
                    st.started = true;
                }
                if wd != 0.0 {
                    if decoupled {
                        w.iter_mut().for_each(|p| *p *= 1.0 - lr * wd);
                    } else {
                        grad.iter_mut()
                            .zip(w.iter())
                            .for_each(|(g, p)| *g += wd * p);
                    }
                }
                let bc1 = 1.0 - beta1.powi(steps as i32);
                let bc2 = 1.0 - beta2.powi(steps as i32);
                for k in 0..w.len() {
                    let g = grad[k];
                    st.m[k] = beta1 * st.m[k] + (1.0 - beta1) * g;
                    st.v[k] = beta2 * st.v[k] + (1.0 - beta2) * g * g;
                    let v = if amsgrad {
                        st.vmax[k] = st.vmax[k].max(st.v[k]);
                        st.vmax[k]
                    } else {
                        st.v[k]
                    };
                    let denom = (v.sqrt() / bc2.sqrt()) + eps;
                    w[k] -= lr / bc1 * st.m[k] / denom;
                }
            }
        }
    }

    /// How the optimizer prints.
    pub fn describe(&self) -> String {
        let mut s = format!("{} (", self.name());
        s.push_str(&format!(
            "lr={}",
            crate::print::number::py_float_repr(self.lr)
        ));
        match self.kind {
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            } => {
                s.push_str(&format!(
                    ", momentum={momentum}, dampening={dampening}, nesterov={nesterov}"
                ));
            }
            Kind::Adam {
                beta1,
                beta2,
                eps,
                amsgrad,
                ..
            } => {
                s.push_str(&format!(
                    ", betas=({beta1}, {beta2}), eps={eps}, amsgrad={amsgrad}"
                ));
            }
        }
        s.push_str(&format!(
            ", weight_decay={}; {} parameter{}, {} step{} taken)",
            self.weight_decay,
            self.params.len(),
            if self.params.len() == 1 { "" } else { "s" },
            self.steps,
            if self.steps == 1 { "" } else { "s" }
        ));
        s
    }
}
