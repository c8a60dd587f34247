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
use crate::tensor::ops::arith::{add, bin, div, mul, neg, num, un};
use crate::tensor::ops::elementwise::{add_scaled, add_scaled_in_place, lerp};
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
            let g = if self.maximize { neg(&g)? } else { g };
            match self.update(i, &p, g)? {
                Next::Plus(d, k) if add_scaled_in_place(&p, &d, &num(k), false)? => {}
                Next::Plus(d, k) => write_all(&p, &add_scaled(&p, &d, &num(k), false)?)?,
                Next::Value(v) => write_all(&p, &v)?,
            }
        }
        Ok(())
    }

    /// The parameter's next value. Each line is one PyTorch in-place op, so the
    /// rounding matches: `a.add_(b, alpha=k)` is `add_scaled` (one fused
    /// multiply-add, as ATen computes it).
    fn update(&mut self, i: usize, p: &Tensor, mut g: Tensor) -> Result<Next> {
        let (lr, wd) = (self.lr, self.weight_decay);
        let steps = self.steps;
        let st = &mut self.state[i];
        match self.kind {
            Kind::Sgd {
                momentum,
                dampening,
                nesterov,
            } => {
                g = coupled(p, g, wd)?;
                if momentum != 0.0 {
                    let buf = match &st.m {
                        Some(b) => {
                            add_scaled(&mul(b, &num(momentum))?, &g, &num(1.0 - dampening), false)?
                        }
                        None => g.deep_clone()?,
                    };
                    st.m = Some(buf.clone());
                    g = if nesterov {
                        add_scaled(&g, &buf, &num(momentum), false)?
                    } else {
                        buf
                    };
                }
                Ok(Next::Plus(g, -lr))
            }
            Kind::Adam {
                beta1,
                beta2,
                eps,
                amsgrad,
                decoupled,
            } => {
                let (p, g) = decay(p, g, lr, wd, decoupled)?;
                let (m, v) = adam_moments(st, &p, &g, beta1, beta2)?;
                let used = if amsgrad {
                    let vmax = match st.vmax.take() {
                        Some(x) => bin(BinaryOp::Maximum, &x, &v)?,
                        None => v.clone(),
                    };
                    st.vmax = Some(vmax.clone());
                    vmax
                } else {
                    v.clone()
                };
                let bc1 = 1.0 - beta1.powi(steps as i32);
                let bc2_sqrt = (1.0 - beta2.powi(steps as i32)).sqrt();
                let denom = add(&div(&un(UnaryOp::Sqrt, &used)?, &num(bc2_sqrt))?, &num(eps))?;
                let next = addcdiv(&p, &m, &denom, -lr / bc1)?;
                st.m = Some(m);
                st.v = Some(v);
                Ok(Next::Value(next))
            }
            Kind::RmsProp {
                alpha,
                eps,
                momentum,
                centered,
            } => {
                g = coupled(p, g, wd)?;
                // square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
                let sq = taken(&mut st.m, p)?;
                let sq = addcmul(&mul(&sq, &num(alpha))?, &g, &g, 1.0 - alpha)?;
                let avg = if centered {
                    let ga = taken(&mut st.v, p)?;
                    let ga = lerp(&ga, &g, &num(1.0 - alpha))?;
                    let avg = un(UnaryOp::Sqrt, &addcmul(&sq, &ga, &ga, -1.0)?)?;
                    st.v = Some(ga);
                    avg
                } else {
                    un(UnaryOp::Sqrt, &sq)?
                };
                st.m = Some(sq);
                let avg = add(&avg, &num(eps))?;
                if momentum > 0.0 {
                    let buf = taken(&mut st.vmax, p)?;
                    let buf = addcdiv(&mul(&buf, &num(momentum))?, &g, &avg, 1.0)?;
                    st.vmax = Some(buf.clone());
                    return Ok(Next::Plus(buf, -lr));
                }
                addcdiv(p, &g, &avg, -lr).map(Next::Value)
            }
            Kind::Adagrad {
                lr_decay,
                eps,
                initial_accumulator_value,
            } => {
                g = coupled(p, g, wd)?;
                let clr = lr / (1.0 + (steps as f64 - 1.0) * lr_decay);
                let sum = match st.m.take() {
                    Some(s) => s,
                    None => add(
                        &crate::tensor::ops::arith::zeros_like(p)?,
                        &num(initial_accumulator_value),
                    )?,
                };
                let sum = addcmul(&sum, &g, &g, 1.0)?;
                let std = add(&un(UnaryOp::Sqrt, &sum)?, &num(eps))?;
                st.m = Some(sum);
                addcdiv(p, &g, &std, -clr).map(Next::Value)
            }
            Kind::Adadelta { rho, eps } => {
                g = coupled(p, g, wd)?;
                let sq = taken(&mut st.m, p)?;
                let acc = taken(&mut st.v, p)?;
                // square_avg.mul_(rho).addcmul_(g, g, value=1 - rho)
                let sq = addcmul(&mul(&sq, &num(rho))?, &g, &g, 1.0 - rho)?;
                let std = un(UnaryOp::Sqrt, &add(&sq, &num(eps))?)?;
                let delta = un(UnaryOp::Sqrt, &add(&acc, &num(eps))?)?;
                let delta = mul(&div(&delta, &std)?, &g)?;
                let acc = addcmul(&mul(&acc, &num(rho))?, &delta, &delta, 1.0 - rho)?;
                st.m = Some(sq);
                st.v = Some(acc);
                Ok(Next::Plus(delta, -lr))
            }
            Kind::Adamax { beta1, beta2, eps } => {
                g = coupled(p, g, wd)?;
                let m = taken(&mut st.m, p)?;
                let inf = taken(&mut st.v, p)?;
                let m = lerp(&m, &g, &num(1.0 - beta1))?;
                // exp_inf = max(exp_inf * beta2, |g| + eps)
                let inf = bin(
                    BinaryOp::Maximum,
                    &mul(&inf, &num(beta2))?,
                    &add(&un(UnaryOp::Abs, &g)?, &num(eps))?,
                )?;
                let clr = lr / (1.0 - beta1.powi(steps as i32));
                let next = addcdiv(p, &m, &inf, -clr)?;
                st.m = Some(m);
                st.v = Some(inf);
                Ok(Next::Value(next))
            }
            Kind::NAdam {
                beta1,
                beta2,
                eps,
                momentum_decay,
                decoupled,
            } => {
                let (p, g) = decay(p, g, lr, wd, decoupled)?;
                let t = steps as f64;
                let mu = beta1 * (1.0 - 0.5 * 0.96f64.powf(t * momentum_decay));
                let mu_next = beta1 * (1.0 - 0.5 * 0.96f64.powf((t + 1.0) * momentum_decay));
                // PyTorch keeps the product in a float32 tensor.
                let product = (st.mu_product.unwrap_or(1.0) * mu) as f32 as f64;
                st.mu_product = Some(product);
                let (m, v) = adam_moments(st, &p, &g, beta1, beta2)?;
                let bc2 = 1.0 - beta2.powi(steps as i32);
                let denom = add(&un(UnaryOp::Sqrt, &div(&v, &num(bc2))?)?, &num(eps))?;
                let k1 = -lr * (1.0 - mu) / (1.0 - product);
                let k2 = -lr * mu_next / (1.0 - product * mu_next);
                let next = addcdiv(&p, &g, &denom, k1)?;
                let next = addcdiv(&next, &m, &denom, k2)?;
                st.m = Some(m);
                st.v = Some(v);
                Ok(Next::Value(next))
            }
        }
    }
}

/// Weight decay as Adam-family optimizers apply it: decoupled, it shrinks
/// the weights (AdamW); otherwise it joins the gradient.
fn decay(p: &Tensor, g: Tensor, lr: f64, wd: f64, decoupled: bool) -> Result<(Tensor, Tensor)> {
    if wd == 0.0 {
        return Ok((p.clone(), g));
    }
    if decoupled {
        return Ok((mul(p, &num(1.0 - lr * wd))?, g));
    }
    Ok((p.clone(), coupled(p, g, wd)?))
}

/// A parameter's next value: computed whole, or p + k·d (PyTorch's
/// `p.add_(d, alpha=k)`), which `step` writes into p in one pass where the
/// in-place fused multiply-add applies.
enum Next {
    Value(Tensor),
    Plus(Tensor, f64),
}

/// `grad = grad.add(param, alpha=weight_decay)`.
fn coupled(p: &Tensor, g: Tensor, wd: f64) -> Result<Tensor> {
    if wd == 0.0 {
        return Ok(g);
    }
    add_scaled(&g, p, &num(wd), false)
}

/// A state buffer, zeros like the parameter on its first step.
fn taken(slot: &mut Option<Tensor>, p: &Tensor) -> Result<Tensor> {
    match slot.take() {
        Some(t) => Ok(t),
        None => crate::tensor::ops::arith::zeros_like(p),
    }
}

/// Adam's two moments after gradient `g`, as PyTorch's in-place ops round
/// them: `m.lerp_(g, 1 - beta1)`, `v.mul_(beta2).addcmul_(g, g, value=1 - beta2)`.
fn adam_moments(
    st: &mut State,
    p: &Tensor,
    g: &Tensor,
    beta1: f64,
    beta2: f64,
) -> Result<(Tensor, Tensor)> {
    let m = taken(&mut st.m, p)?;
    let v = taken(&mut st.v, p)?;
    let m = lerp(&m, g, &num(1.0 - beta1))?;
    let v = addcmul(&mul(&v, &num(beta2))?, g, g, 1.0 - beta2)?;
    Ok((m, v))
}

/// `x.addcmul(t1, t2, value=k)`: x + (k * t1) * t2, as ATen rounds it.
fn addcmul(x: &Tensor, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
    crate::tensor::ops::stats::addc(x, t1, t2, value, false)
}

/// `x.addcdiv(t1, t2, value=k)`: x + (k * t1) / t2, as ATen rounds it.
fn addcdiv(x: &Tensor, t1: &Tensor, t2: &Tensor, value: f64) -> Result<Tensor> {
    crate::tensor::ops::stats::addc(x, t1, t2, value, true)
}
