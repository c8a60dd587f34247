//! Optimizers with PyTorch's update rules: SGD (momentum, dampening, Nesterov,
//! weight decay), Adam (amsgrad) and AdamW (decoupled weight decay). Updates are
//! tensor ops in the parameter's own dtype and device, in PyTorch's order of
//! operations (so float32 training follows PyTorch's to the last bit), with
//! grad mode off, so parameters stay leaves.

use crate::autograd::NoGradGuard;
use crate::error::{Result, value_err};
use crate::tensor::Tensor;
use crate::tensor::op::BinaryOp;
use crate::tensor::op::UnaryOp;
use crate::tensor::ops::arith::{add, num};
use crate::tensor::ops::index::write_all;
use crate::tensor::ops::update::{Update, Var};

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
    RmsProp {
        alpha: f64,
        eps: f64,
        momentum: f64,
        centered: bool,
    },
    Adagrad {
        lr_decay: f64,
        eps: f64,
        initial_accumulator_value: f64,
    },
    Adadelta {
        rho: f64,
        eps: f64,
    },
    Adamax {
        beta1: f64,
        beta2: f64,
        eps: f64,
    },
    NAdam {
        beta1: f64,
        beta2: f64,
        eps: f64,
        momentum_decay: f64,
        decoupled: bool,
    },
}

/// Per-parameter state: momentum buffer (SGD) or moments (Adam).
#[derive(Default, Clone)]
pub(super) struct State {
    pub(super) m: Option<Tensor>,
    pub(super) v: Option<Tensor>,
    pub(super) vmax: Option<Tensor>,
    /// NAdam's running product of its momentum coefficients.
    pub(super) mu_product: Option<f64>,
}

pub struct Optimizer {
    pub kind: Kind,
    pub lr: f64,
    pub weight_decay: f64,
    pub maximize: bool,
    pub params: Vec<Tensor>,
    pub(super) state: Vec<State>,
    pub(super) steps: u64,
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
            Kind::RmsProp { .. } => "RMSprop",
            Kind::Adagrad { .. } => "Adagrad",
            Kind::Adadelta { .. } => "Adadelta",
            Kind::Adamax { .. } => "Adamax",
            Kind::NAdam { .. } => "NAdam",
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
        if self.params.iter().any(crate::nn::parameter::was_replaced) {
            return Err(crate::error::value_err(
                "this optimizer holds parameters from before the model was moved or cast \
                 (model.to / .cuda() / .double() made new ones), so its steps would not train the model",
            )
            .hint("make the optimizer after moving the model: model.to(device), then torch.optim.SGD(model.parameters(), ...)"));
        }
        let _off = NoGradGuard::new();
        self.steps += 1;
        for i in 0..self.params.len() {
            let p = self.params[i].clone();
            let Some(g) = p.grad() else { continue };
            self.update(i, &p, &g)?;
        }
        Ok(())
    }

    /// One parameter's update, written as PyTorch's in-place ops (each line
    /// one op, so each rounds as PyTorch's does: `a.add_(b, alpha=k)` is one
    /// fused multiply-add, as ATen computes it) and run as one program: a
    /// single pass over the parameter, its gradient and its state on the CPU.
    fn update(&mut self, i: usize, param: &Tensor, grad: &Tensor) -> Result<()> {
        let (lr, wd) = (self.lr, self.weight_decay);
        let steps = self.steps;
        let st = &mut self.state[i];
        let mut update = Update::new(param.dtype());
        let u = &mut update;
        let p = u.operand(param);
        let mut g = u.operand(grad);
        if self.maximize {
            g = u.unary(UnaryOp::Neg, g);
        }
        match self.kind {
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            } => {
                g = coupled(u, p, g, wd);
                if momentum != 0.0 {
                    let first = st.m.is_none();
                    let buf = u.operand(&state(&mut st.m, param)?);
                    // The first step's buffer is the gradient itself.
                    let next = if first {
                        u.copy(g)
                    } else {
                        let kept = u.mul(buf, momentum);
                        u.add_scaled(kept, g, 1.0 - dampening)
                    };
                    u.set(buf, next);
                    g = if nesterov {
                        u.add_scaled(g, next, momentum)
                    } else {
                        next
                    };
                }
                let next = u.add_scaled(p, g, -lr);
                u.set(p, next);
            }
            Kind::Adam {
                beta1,
                beta2,
                eps,
                amsgrad,
                decoupled,
            } => {
                let (decayed, g) = decay(u, p, g, lr, wd, decoupled);
                let (m, v) = adam_moments(u, st, param, g, beta1, beta2)?;
                let used = if amsgrad {
                    let first = st.vmax.is_none();
                    let vmax = u.operand(&state(&mut st.vmax, param)?);
                    let next = if first {
                        u.copy(v)
                    } else {
                        u.binary(BinaryOp::Maximum, vmax, v)
                    };
                    u.set(vmax, next);
                    next
                } else {
                    v
                };
                let bc1 = 1.0 - beta1.powi(steps as i32);
                let bc2_sqrt = (1.0 - beta2.powi(steps as i32)).sqrt();
                // denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                let root = u.sqrt(used);
                let scaled = u.div(root, bc2_sqrt);
                let denom = u.add(scaled, eps);
                let next = u.addcdiv(decayed, m, denom, -lr / bc1);
                u.set(p, next);
            }
            Kind::RmsProp {
                alpha,
                eps,
                momentum,
                centered,
            } => {
                g = coupled(u, p, g, wd);
                // square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                let sq = u.operand(&state(&mut st.m, param)?);
                let kept = u.mul(sq, alpha);
                let next_sq = u.addcmul(kept, g, g, 1.0 - alpha);
                u.set(sq, next_sq);
                let avg = if centered {
                    let ga = u.operand(&state(&mut st.v, param)?);
                    let next_ga = u.lerp(ga, g, 1.0 - alpha);
                    u.set(ga, next_ga);
                    let var = u.addcmul(next_sq, next_ga, next_ga, -1.0);
                    u.sqrt(var)
                } else {
                    u.sqrt(next_sq)
                };
                let avg = u.add(avg, eps);
                let next = if momentum > 0.0 {
                    let buf = u.operand(&state(&mut st.vmax, param)?);
                    let kept = u.mul(buf, momentum);
                    let next_buf = u.addcdiv(kept, g, avg, 1.0);
                    u.set(buf, next_buf);
                    u.add_scaled(p, next_buf, -lr)
                } else {
                    u.addcdiv(p, g, avg, -lr)
                };
                u.set(p, next);
            }
            Kind::Adagrad {
                lr_decay,
                eps,
                initial_accumulator_value,
            } => {
                g = coupled(u, p, g, wd);
                let clr = lr / (1.0 + (steps as f64 - 1.0) * lr_decay);
                if st.m.is_none() {
                    let zeros = crate::tensor::ops::arith::zeros_like(param)?;
                    st.m = Some(add(&zeros, &num(initial_accumulator_value))?);
                }
                let sum = u.operand(&state(&mut st.m, param)?);
                let next_sum = u.addcmul(sum, g, g, 1.0);
                u.set(sum, next_sum);
                let root = u.sqrt(next_sum);
                let std = u.add(root, eps);
                let next = u.addcdiv(p, g, std, -clr);
                u.set(p, next);
            }
            Kind::Adadelta { rho, eps } => {
                g = coupled(u, p, g, wd);
                let sq = u.operand(&state(&mut st.m, param)?);
                let acc = u.operand(&state(&mut st.v, param)?);
                // square_avg.mul_(rho).addcmul_(g, g, value=1 - rho)
                let kept = u.mul(sq, rho);
                let next_sq = u.addcmul(kept, g, g, 1.0 - rho);
                u.set(sq, next_sq);
                let shifted = u.add(next_sq, eps);
                let std = u.sqrt(shifted);
                let shifted = u.add(acc, eps);
                let delta = u.sqrt(shifted);
                let ratio = u.div(delta, std);
                let delta = u.mul(ratio, g);
                let kept = u.mul(acc, rho);
                let next_acc = u.addcmul(kept, delta, delta, 1.0 - rho);
                u.set(acc, next_acc);
                let next = u.add_scaled(p, delta, -lr);
                u.set(p, next);
            }
            Kind::Adamax { beta1, beta2, eps } => {
                g = coupled(u, p, g, wd);
                let m = u.operand(&state(&mut st.m, param)?);
                let inf = u.operand(&state(&mut st.v, param)?);
                let next_m = u.lerp(m, g, 1.0 - beta1);
                u.set(m, next_m);
                // exp_inf = max(exp_inf * beta2, |g| + eps)
                let kept = u.mul(inf, beta2);
                let size = u.unary(UnaryOp::Abs, g);
                let size = u.add(size, eps);
                let next_inf = u.binary(BinaryOp::Maximum, kept, size);
                u.set(inf, next_inf);
                let clr = lr / (1.0 - beta1.powi(steps as i32));
                let next = u.addcdiv(p, next_m, next_inf, -clr);
                u.set(p, next);
            }
            Kind::NAdam {
                beta1,
                beta2,
                eps,
                momentum_decay,
                decoupled,
            } => {
                let (decayed, g) = decay(u, p, g, lr, wd, decoupled);
                let t = steps as f64;
                let mu = beta1 * (1.0 - 0.5 * 0.96f64.powf(t * momentum_decay));
                let mu_next = beta1 * (1.0 - 0.5 * 0.96f64.powf((t + 1.0) * momentum_decay));
                // PyTorch keeps the product in a float32 tensor, and
                // `mu_product *= mu` multiplies in float32 (mu rounded first).
                let product = (st.mu_product.unwrap_or(1.0) as f32 * mu as f32) as f64;
                st.mu_product = Some(product);
                let (m, v) = adam_moments(u, st, param, g, beta1, beta2)?;
                let bc2 = 1.0 - beta2.powi(steps as i32);
                let corrected = u.div(v, bc2);
                let root = u.sqrt(corrected);
                let denom = u.add(root, eps);
                let k1 = -lr * (1.0 - mu) / (1.0 - product);
                let k2 = -lr * mu_next / (1.0 - product * mu_next);
                let next = u.addcdiv(decayed, g, denom, k1);
                let next = u.addcdiv(next, m, denom, k2);
                u.set(p, next);
            }
        }
        update.run()
    }
}

/// Weight decay as Adam-family optimizers apply it: decoupled, it shrinks
/// the weights (AdamW); otherwise it joins the gradient. (The weights to
/// update, the gradient.)
fn decay(u: &mut Update, p: Var, g: Var, lr: f64, wd: f64, decoupled: bool) -> (Var, Var) {
    if wd == 0.0 {
        return (p, g);
    }
    if decoupled {
        return (u.mul(p, 1.0 - lr * wd), g);
    }
    (p, coupled(u, p, g, wd))
}

/// `grad = grad.add(param, alpha=weight_decay)`.
fn coupled(u: &mut Update, p: Var, g: Var, wd: f64) -> Var {
    if wd == 0.0 {
        return g;
    }
    u.add_scaled(g, p, wd)
}

/// A state buffer, zeros like the parameter on its first step.
fn state(slot: &mut Option<Tensor>, p: &Tensor) -> Result<Tensor> {
    if let Some(t) = slot {
        return Ok(t.clone());
    }
    let t = crate::tensor::ops::arith::zeros_like(p)?;
    *slot = Some(t.clone());
    Ok(t)
}

/// Adam's two moments after gradient `g`, as PyTorch's in-place ops round
/// them: `m.lerp_(g, 1 - beta1)`, `v.mul_(beta2).addcmul_(g, g, value=1 - beta2)`.
fn adam_moments(
    u: &mut Update,
    st: &mut State,
    p: &Tensor,
    g: Var,
    beta1: f64,
    beta2: f64,
) -> Result<(Var, Var)> {
    let m = u.operand(&state(&mut st.m, p)?);
    let v = u.operand(&state(&mut st.v, p)?);
    let next_m = u.lerp(m, g, 1.0 - beta1);
    u.set(m, next_m);
    let kept = u.mul(v, beta2);
    let next_v = u.addcmul(kept, g, g, 1.0 - beta2);
    u.set(v, next_v);
    Ok((next_m, next_v))
}
