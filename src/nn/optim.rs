//! Optimizers with PyTorch's update rules: SGD (momentum, dampening, Nesterov,
//! weight decay), Adam (amsgrad) and AdamW (decoupled weight decay). Updates are
//! computed in f64 per element and written back in the parameter's dtype, with
//! grad mode off, so parameters stay leaves.

use crate::autograd::NoGradGuard;
use crate::error::{Result, value_err};
use crate::tensor::ops::index::write_all;
use crate::tensor::{DType, Tensor};

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
            // float32 parameters update in float32 arithmetic, as PyTorch does, so
            // that training runs follow PyTorch's to the last bit as far as possible.
            if p.dtype() == DType::F64 {
                self.update::<f64>(i, &mut w, &mut grad);
            } else {
                self.update::<f32>(i, &mut w, &mut grad);
            }
            let new = Tensor::from_vec(w, p.shape()).to_dtype(p.dtype());
            write_all(&p, &new)?;
        }
        Ok(())
    }

    fn update<T: Real>(&mut self, i: usize, w: &mut [f64], grad: &mut [f64]) {
        let (lr64, wd64) = (self.lr, self.weight_decay);
        let wd = T::of(wd64);
        let steps = self.steps;
        let st = &mut self.state[i];
        let r = |x: f64| T::of(x);
        match self.kind {
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            } => {
                let (mom, damp) = (r(momentum), r(1.0 - dampening));
                if !st.started && momentum != 0.0 {
                    st.m = vec![0.0; w.len()];
                }
                for k in 0..w.len() {
                    let p = r(w[k]);
                    let mut g = r(grad[k]);
                    if self.weight_decay != 0.0 {
                        g = g + wd * p;
                    }
                    if momentum != 0.0 {
                        let buf = if st.started {
                            r(st.m[k]) * mom + damp * g
                        } else {
                            g
                        };
                        st.m[k] = buf.to_f64();
                        g = if nesterov { g + mom * buf } else { buf };
                    }
                    w[k] = (p + T::of(-lr64) * g).to_f64();
                }
                st.started = true;
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
                let bc1 = 1.0 - beta1.powi(steps as i32);
                let bc2_sqrt = T::of((1.0 - beta2.powi(steps as i32)).sqrt());
                let step_size = T::of(lr64 / bc1);
                let shrink = T::of(1.0 - lr64 * wd64);
                let (w1, b2, w2, e) = (r(1.0 - beta1), r(beta2), r(1.0 - beta2), r(eps));
                for k in 0..w.len() {
                    let mut p = r(w[k]);
                    let mut g = r(grad[k]);
                    if self.weight_decay != 0.0 {
                        if decoupled {
                            p = p * shrink;
                        } else {
                            g = g + wd * p;
                        }
                    }
                    // m.lerp_(g, 1 - beta1); v.mul_(beta2).addcmul_(g, g, value=1 - beta2)
                    let m = r(st.m[k]);
                    let m = m + w1 * (g - m);
                    let v = r(st.v[k]) * b2 + w2 * g * g;
                    st.m[k] = m.to_f64();
                    st.v[k] = v.to_f64();
                    let v_used = if amsgrad {
                        let vmax = if r(st.vmax[k]) > v { r(st.vmax[k]) } else { v };
                        st.vmax[k] = vmax.to_f64();
                        vmax
                    } else {
                        v
                    };
                    let denom = v_used.sqrt() / bc2_sqrt + e;
                    w[k] = (p + (T::of(0.0) - step_size) * m / denom).to_f64();
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

/// The arithmetic an update runs in: the parameter's own precision.
trait Real:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    fn of(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn sqrt(self) -> Self;
}

impl Real for f32 {
    fn of(v: f64) -> f32 {
        v as f32
    }
    fn to_f64(self) -> f64 {
        self as f64
    }
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
}

impl Real for f64 {
    fn of(v: f64) -> f64 {
        v
    }
    fn to_f64(self) -> f64 {
        self
    }
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
}
