//! `torch.distributions`: Normal, Bernoulli, Categorical, Multinomial, Uniform,
//! with `sample`, `rsample`, `log_prob`, `entropy`, `mean`, `variance`, `stddev`.
//! Written in tensor ops (so they run on every device and gradients flow), with
//! PyTorch's formulas, and samples drawn as PyTorch draws them: a seeded
//! `Normal(0, 1).sample()` is PyTorch's number.

use std::rc::Rc;

use super::{Builtin, method, torch_function};
use density::{entropy, log_prob};
use sample::{rsample, sample};

mod density;
mod sample;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::{BinOp, CmpOp, Span};
use crate::tensor::{DType, Tensor};
pub use density::attr;
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    Bernoulli,
    Categorical,
    Multinomial,
    Uniform,
}

/// A distribution and its parameters, broadcast to its batch shape.
#[derive(Debug)]
pub struct Dist {
    pub kind: Kind,
    /// (name, tensor) in PyTorch's order; Bernoulli and Categorical keep both
    /// `probs` and `logits`, the one given first.
    pub params: Vec<(&'static str, Tensor)>,
    pub total_count: i64,
}

impl Dist {
    /// A parameter by name. Unreachable `expect`: each kind is built with the
    /// parameters its code asks for (loc/scale, low/high, probs and logits).
    fn param(&self, name: &str) -> Tensor {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
            .expect("every distribution is built with its parameters")
    }

    fn batch_shape(&self) -> Vec<usize> {
        let t = &self.params[0].1;
        match self.kind {
            Kind::Categorical | Kind::Multinomial => {
                t.shape()[..t.ndim().saturating_sub(1)].to_vec()
            }
            _ => t.shape().to_vec(),
        }
    }

    fn event_shape(&self) -> Vec<usize> {
        match self.kind {
            Kind::Multinomial => vec![*self.params[0].1.shape().last().unwrap_or(&0)],
            _ => vec![],
        }
    }

    /// `Normal(loc: 0.0, scale: 1.0)`, as PyTorch's repr.
    pub fn repr(&self) -> String {
        let name = format!("{:?}", self.kind);
        if self.kind == Kind::Multinomial {
            return format!("{name}()");
        }
        let shown = match self.kind {
            Kind::Normal => vec!["loc", "scale"],
            Kind::Uniform => vec!["low", "high"],
            _ => vec![self.params[0].0],
        };
        let parts: Vec<String> = shown
            .iter()
            .map(|p| {
                let t = self.param(p);
                let v = if t.ndim() == 0 {
                    crate::interp::convert::tensor_item(&t)
                        .map(|x| crate::print::value::plain(&x))
                        .unwrap_or_default()
                } else if t.numel() == 1 {
                    crate::print::value::plain(&Value::Tensor(t))
                } else {
                    format!("torch.Size({})", crate::tensor::shape::fmt_shape(t.shape()))
                };
                format!("{p}: {v}")
            })
            .collect();
        format!("{name}({})", parts.join(", "))
    }
}

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "distributions.Normal",
        "Normal(loc, scale)",
        "The normal distribution.",
        "torch.distributions.Normal(0., 1.).log_prob(tensor(0.))",
        normal
    ),
    row!(
        Module,
        "distributions.Bernoulli",
        "Bernoulli(probs=None, logits=None)",
        "Coin flips: 1 with probability probs.",
        "torch.distributions.Bernoulli(0.3).mean",
        bernoulli
    ),
    row!(
        Module,
        "distributions.Categorical",
        "Categorical(probs=None, logits=None)",
        "One of K categories, by (unnormalised) probabilities.",
        "torch.distributions.Categorical(tensor([1., 3.])).probs",
        categorical
    ),
    row!(
        Module,
        "distributions.Multinomial",
        "Multinomial(total_count=1, probs=None, logits=None)",
        "Counts of total_count draws from K categories.",
        "torch.distributions.Multinomial(10, tensor([0.5, 0.5])).mean",
        multinomial
    ),
    row!(
        Module,
        "distributions.Uniform",
        "Uniform(low, high)",
        "Uniform on [low, high).",
        "torch.distributions.Uniform(0., 4.).entropy()",
        uniform
    ),
];

/// What a distribution answers to: its methods.
pub const METHODS: &[Builtin] = &[
    row!(
        Method,
        "sample",
        "dist.sample(sample_shape=())",
        "Draw samples (no gradient).",
        "manual_seed(0); torch.distributions.Normal(0., 1.).sample((2,))",
        sample
    ),
    row!(
        Method,
        "rsample",
        "dist.rsample(sample_shape=())",
        "Draw reparameterised samples (gradients flow to the parameters).",
        "torch.distributions.Normal(0., 1.).rsample().shape",
        rsample
    ),
    row!(
        Method,
        "log_prob",
        "dist.log_prob(value)",
        "The log of the density (or mass) at value.",
        "torch.distributions.Uniform(0., 4.).log_prob(tensor(1.))",
        log_prob
    ),
    row!(
        Method,
        "entropy",
        "dist.entropy()",
        "The entropy.",
        "torch.distributions.Bernoulli(0.5).entropy()",
        entropy
    ),
];

pub(super) fn t(v: &Value) -> Result<Tensor> {
    crate::interp::convert::to_tensor_arg(v, "distribution", "value")
}

/// A parameter as a float tensor (Python numbers take the default float dtype).
pub(super) fn param(v: &Value) -> Result<Tensor> {
    let x = match v {
        // Where new tensors go (PyTorch's broadcast_all puts a number beside
        // the tensor parameters; tsh uses the default device).
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            crate::interp::convert::tensor_from_data(
                v,
                Some(crate::tensor::dtype::default_float()),
            )?
            .to_device(crate::tensor::device::default_device())?
        }
        other => t(other)?,
    };
    if x.dtype().is_float() {
        Ok(x)
    } else {
        x.to_dtype(crate::tensor::dtype::default_float())
    }
}

pub(super) fn bin(op: BinOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::interp::ops::tensor_binary(op, a, b)
}

pub(super) fn cmp(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::interp::ops::tensor_compare(op, a, b)
}

pub(super) fn num(x: f64, like: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::creation::full(&[], x, x as i64, like.dtype(), like.device())
}

/// Call a torch function (or tensor method) by name on values.
pub(super) fn call(
    it: &mut Interp,
    name: &str,
    args: Vec<Value>,
    kwargs: Vec<(&str, Value)>,
) -> Result<Tensor> {
    let b = torch_function(name)
        .or_else(|| method(name))
        .ok_or_else(|| type_err(format!("no torch.{name}")))?;
    let span = Span::default();
    let positional = args.into_iter().map(|v| (v, span)).collect();
    let keywords = kwargs
        .into_iter()
        .map(|(k, v)| (k.to_string(), v, span))
        .collect();
    match it.call_builtin(b, positional, keywords, span)? {
        Value::Tensor(t) => Ok(t),
        other => t(&other),
    }
}

pub(super) fn tv(x: &Tensor) -> Value {
    Value::Tensor(x.clone())
}

fn make(kind: Kind, params: Vec<(&'static str, Tensor)>, total_count: i64) -> Value {
    Value::Distribution(Rc::new(Dist {
        kind,
        params,
        total_count,
    }))
}

fn normal(it: &mut Interp, mut a: Args) -> Result<Value> {
    let loc = param(&a.value("loc")?)?;
    let scale = param(&a.value("scale")?)?;
    let _ = a.take_kw("validate_args");
    a.finish()?;
    let (loc, scale) = broadcast(it, &loc, &scale)?;
    Ok(make(Kind::Normal, vec![("loc", loc), ("scale", scale)], 0))
}

fn uniform(it: &mut Interp, mut a: Args) -> Result<Value> {
    let low = param(&a.value("low")?)?;
    let high = param(&a.value("high")?)?;
    let _ = a.take_kw("validate_args");
    a.finish()?;
    let (low, high) = broadcast(it, &low, &high)?;
    Ok(make(Kind::Uniform, vec![("low", low), ("high", high)], 0))
}

pub(super) fn broadcast(it: &mut Interp, a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    let zero = bin(BinOp::Mul, &bin(BinOp::Add, a, b)?, &num(0.0, a)?)?;
    let shape = Value::Shape(Rc::new(zero.shape().to_vec()));
    let a2 = call(it, "expand", vec![tv(a), shape.clone()], vec![])?;
    let b2 = call(it, "expand", vec![tv(b), shape], vec![])?;
    Ok((a2, b2))
}

/// `probs=` or `logits=` (exactly one), both kept as PyTorch derives them.
fn probs_or_logits(
    it: &mut Interp,
    a: &mut Args,
    categorical: bool,
) -> Result<Vec<(&'static str, Tensor)>> {
    let probs = a.take("probs").filter(|(v, _)| !matches!(v, Value::None));
    let logits = a.take("logits").filter(|(v, _)| !matches!(v, Value::None));
    let _ = a.take_kw("validate_args");
    // Categorical and Multinomial spread their probabilities over the last dim.
    for (given, name) in [(&probs, "probs"), (&logits, "logits")] {
        if let Some((v, s)) = given
            && categorical
            && param(v)?.ndim() == 0
        {
            return Err(value_err(format!(
                "`{name}` parameter must be at least one-dimensional."
            ))
            .at(*s));
        }
    }
    match (probs, logits) {
        (Some((p, _)), None) => {
            let mut p = param(&p)?;
            if categorical {
                let total = call(
                    it,
                    "sum",
                    vec![tv(&p)],
                    vec![("dim", Value::Int(-1)), ("keepdim", Value::Bool(true))],
                )?;
                p = bin(BinOp::Div, &p, &total)?;
            }
            let eps = finfo_eps(p.dtype());
            let clamped = call(
                it,
                "clamp",
                vec![tv(&p), Value::Float(eps), Value::Float(1.0 - eps)],
                vec![],
            )?;
            let logits = if categorical {
                call(it, "log", vec![tv(&clamped)], vec![])?
            } else {
                let one_minus = call(
                    it,
                    "log1p",
                    vec![Value::Tensor(bin(
                        BinOp::Mul,
                        &clamped,
                        &num(-1.0, &clamped)?,
                    )?)],
                    vec![],
                )?;
                bin(
                    BinOp::Sub,
                    &call(it, "log", vec![tv(&clamped)], vec![])?,
                    &one_minus,
                )?
            };
            Ok(vec![("probs", p), ("logits", logits)])
        }
        (None, Some((l, _))) => {
            let mut l = param(&l)?;
            let probs = if categorical {
                let lse = call(
                    it,
                    "logsumexp",
                    vec![tv(&l)],
                    vec![("dim", Value::Int(-1)), ("keepdim", Value::Bool(true))],
                )?;
                l = bin(BinOp::Sub, &l, &lse)?;
                call(it, "softmax", vec![tv(&l)], vec![("dim", Value::Int(-1))])?
            } else {
                call(it, "sigmoid", vec![tv(&l)], vec![])?
            };
            Ok(vec![("logits", l), ("probs", probs)])
        }
        _ => Err(value_err(
            "Either `probs` or `logits` must be specified, but not both.",
        )),
    }
}

fn finfo_eps(d: DType) -> f64 {
    match d {
        DType::F64 => f64::EPSILON,
        DType::F16 => 0.0009765625,
        DType::BF16 => 0.0078125,
        _ => f32::EPSILON as f64,
    }
}

fn bernoulli(it: &mut Interp, mut a: Args) -> Result<Value> {
    let params = probs_or_logits(it, &mut a, false)?;
    a.finish()?;
    Ok(make(Kind::Bernoulli, params, 0))
}

fn categorical(it: &mut Interp, mut a: Args) -> Result<Value> {
    let params = probs_or_logits(it, &mut a, true)?;
    a.finish()?;
    Ok(make(Kind::Categorical, params, 0))
}

fn multinomial(it: &mut Interp, mut a: Args) -> Result<Value> {
    let n = a.int_or("total_count", 1)?;
    let params = probs_or_logits(it, &mut a, true)?;
    a.finish()?;
    Ok(make(Kind::Multinomial, params, n))
}

pub(super) fn receiver(a: &mut Args) -> Result<Rc<Dist>> {
    match a.value("self")? {
        Value::Distribution(d) => Ok(d),
        other => Err(type_err(format!(
            "{} is not a distribution",
            other.a_type_name()
        ))),
    }
}

pub(super) fn sample_shape(a: &mut Args) -> Result<Vec<usize>> {
    match a.take("sample_shape") {
        None | Some((Value::None, _)) => Ok(vec![]),
        Some((v, s)) => {
            let sizes = crate::interp::convert::to_int_list(&v, "sample", "sample_shape")
                .map_err(|e| e.at(s))?;
            crate::interp::convert::to_shape(&sizes)
        }
    }
}
