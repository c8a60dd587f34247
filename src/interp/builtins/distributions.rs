//! `torch.distributions`: Normal, Bernoulli, Categorical, Multinomial, Uniform,
//! with `sample`, `rsample`, `log_prob`, `entropy`, `mean`, `variance`, `stddev`.
//! Written in tensor ops (so they run on every device and gradients flow), with
//! PyTorch's formulas, and samples drawn as PyTorch draws them: a seeded
//! `Normal(0, 1).sample()` is PyTorch's number.

use std::rc::Rc;

use super::{Builtin, method, torch_function};
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::{BinOp, CmpOp, Span};
use crate::tensor::{DType, Tensor};

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

fn t(v: &Value) -> Result<Tensor> {
    crate::interp::convert::to_tensor_arg(v, "distribution", "value")
}

/// A parameter as a float tensor (Python numbers take the default float dtype).
fn param(v: &Value) -> Result<Tensor> {
    let x = match v {
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => {
            crate::interp::convert::tensor_from_data(
                v,
                Some(crate::tensor::dtype::default_float()),
            )?
        }
        other => t(other)?,
    };
    if x.dtype().is_float() {
        Ok(x)
    } else {
        x.to_dtype(crate::tensor::dtype::default_float())
    }
}

fn bin(op: BinOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::interp::ops::tensor_binary(op, a, b)
}

fn cmp(op: CmpOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    t(&crate::interp::ops::compare(op, &tv(a), &tv(b))?)
}

fn num(x: f64, like: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::creation::full(&[], x, x as i64, like.dtype(), like.device())
}

/// Call a torch function (or tensor method) by name on values.
fn call(
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

fn tv(x: &Tensor) -> Value {
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

fn broadcast(it: &mut Interp, a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
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
    if params[0].1.ndim() == 0 {
        return Err(value_err(
            "`probs` parameter must be at least one-dimensional.",
        ));
    }
    Ok(make(Kind::Categorical, params, 0))
}

fn multinomial(it: &mut Interp, mut a: Args) -> Result<Value> {
    let n = a.int_or("total_count", 1)?;
    let params = probs_or_logits(it, &mut a, true)?;
    a.finish()?;
    Ok(make(Kind::Multinomial, params, n))
}

fn receiver(a: &mut Args) -> Result<Rc<Dist>> {
    match a.value("self")? {
        Value::Distribution(d) => Ok(d),
        other => Err(type_err(format!(
            "{} is not a distribution",
            other.a_type_name()
        ))),
    }
}

fn sample_shape(a: &mut Args) -> Result<Vec<usize>> {
    match a.take("sample_shape") {
        None | Some((Value::None, _)) => Ok(vec![]),
        Some((v, s)) => {
            let sizes = crate::interp::convert::to_int_list(&v, "sample", "sample_shape")
                .map_err(|e| e.at(s))?;
            crate::interp::convert::to_shape(&sizes)
        }
    }
}

fn sample(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let shape = sample_shape(&mut a)?;
    a.finish()?;
    let _off = crate::autograd::NoGradGuard::new();
    draw(it, &d, &shape).map(Value::Tensor)
}

fn rsample(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let shape = sample_shape(&mut a)?;
    a.finish()?;
    if !matches!(d.kind, Kind::Normal | Kind::Uniform) {
        return Err(type_err(format!(
            "{:?} has no rsample (it is not reparameterizable)",
            d.kind
        )));
    }
    draw(it, &d, &shape).map(Value::Tensor)
}

fn draw(it: &mut Interp, d: &Dist, sample_shape: &[usize]) -> Result<Tensor> {
    use crate::tensor::ops::creation as c;
    let mut shape = sample_shape.to_vec();
    shape.extend(d.batch_shape());
    match d.kind {
        Kind::Normal => {
            let (loc, scale) = (d.param("loc"), d.param("scale"));
            let eps = c::randn(&shape, loc.dtype())?.to_device(loc.device())?;
            bin(BinOp::Add, &loc, &bin(BinOp::Mul, &eps, &scale)?)
        }
        Kind::Uniform => {
            let (low, high) = (d.param("low"), d.param("high"));
            let u = c::rand(&shape, low.dtype())?.to_device(low.device())?;
            bin(
                BinOp::Add,
                &low,
                &bin(BinOp::Mul, &u, &bin(BinOp::Sub, &high, &low)?)?,
            )
        }
        Kind::Bernoulli => {
            let p = d.param("probs");
            let u = c::rand(&shape, p.dtype())?.to_device(p.device())?;
            cmp(CmpOp::Lt, &u, &p)?.to_dtype(p.dtype())
        }
        Kind::Categorical => categorical_draw(it, &d.param("probs"), sample_shape),
        Kind::Multinomial => {
            let p = d.param("probs");
            let mut inner = vec![d.total_count.max(0) as usize];
            inner.extend(sample_shape);
            let picks = categorical_draw(it, &p, &inner)?;
            let k = *p.shape().last().unwrap_or(&1) as i64;
            let hot = call(it, "one_hot", vec![tv(&picks), Value::Int(k)], vec![])?;
            let counts = call(it, "sum", vec![tv(&hot)], vec![("dim", Value::Int(0))])?;
            counts.to_dtype(p.dtype())
        }
    }
}

/// PyTorch's multinomial with replacement: per distribution (row), one float64
/// uniform per sample, the first category whose cumulative probability reaches it.
fn categorical_draw(it: &mut Interp, probs: &Tensor, sample_shape: &[usize]) -> Result<Tensor> {
    let k = *probs.shape().last().unwrap_or(&1);
    let batch: Vec<usize> = probs.shape()[..probs.ndim() - 1].to_vec();
    let rows: usize = batch.iter().product();
    let n: usize = sample_shape.iter().product();
    let mut shape: Vec<Value> = sample_shape.iter().map(|&s| Value::Int(s as i64)).collect();
    shape.extend(batch.iter().map(|&s| Value::Int(s as i64)));
    if n == 1 {
        // PyTorch's one-sample path: argmax of probs / Exp(1), the exponentials
        // drawn in float64 as -log1p(-u).
        let p2 = call(
            it,
            "reshape",
            vec![tv(probs), Value::Int(rows as i64), Value::Int(k as i64)],
            vec![],
        )?;
        let u = crate::tensor::ops::creation::rand(&[rows, k], DType::F64)?
            .to_device(probs.device())?;
        let neg = bin(BinOp::Mul, &u, &num(-1.0, &u)?)?;
        let log = call(it, "log1p", vec![tv(&neg)], vec![])?;
        let q = bin(BinOp::Mul, &log, &num(-1.0, &log)?)?.to_dtype(probs.dtype())?;
        let ratio = bin(BinOp::Div, &p2, &q)?;
        let idx = call(
            it,
            "argmax",
            vec![tv(&ratio)],
            vec![("dim", Value::Int(-1))],
        )?;
        let mut args = vec![tv(&idx)];
        args.extend(shape);
        return call(it, "reshape", args, vec![]);
    }
    let p2 = call(
        it,
        "reshape",
        vec![tv(probs), Value::Int(rows as i64), Value::Int(k as i64)],
        vec![],
    )?
    .to_dtype(DType::F64)?;
    let cum = call(it, "cumsum", vec![tv(&p2)], vec![("dim", Value::Int(-1))])?;
    let last = call(
        it,
        "narrow",
        vec![
            tv(&cum),
            Value::Int(-1),
            Value::Int(k as i64 - 1),
            Value::Int(1),
        ],
        vec![],
    )?;
    let cum = bin(BinOp::Div, &cum, &last)?;
    let u =
        crate::tensor::ops::creation::rand(&[rows, n], DType::F64)?.to_device(probs.device())?;
    let below = cmp(
        CmpOp::Lt,
        &call(it, "unsqueeze", vec![tv(&cum), Value::Int(1)], vec![])?,
        &call(it, "unsqueeze", vec![tv(&u), Value::Int(2)], vec![])?,
    )?;
    let idx = call(it, "sum", vec![tv(&below)], vec![("dim", Value::Int(-1))])?;
    // (rows, n) → sample_shape + batch_shape.
    let idx = call(it, "t", vec![tv(&idx)], vec![])?;
    let mut args = vec![tv(&idx)];
    args.extend(shape);
    call(it, "reshape", args, vec![])
}

fn log_prob(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    let x = t(&a.value("value")?)?;
    a.finish()?;
    let out = match d.kind {
        Kind::Normal => {
            let (loc, scale) = (d.param("loc"), d.param("scale"));
            let var = bin(BinOp::Mul, &scale, &scale)?;
            let diff = bin(BinOp::Sub, &x, &loc)?;
            let sq = bin(BinOp::Mul, &diff, &diff)?;
            let quad = bin(
                BinOp::Div,
                &bin(BinOp::Mul, &sq, &num(-1.0, &sq)?)?,
                &bin(BinOp::Mul, &var, &num(2.0, &var)?)?,
            )?;
            let log_scale = call(it, "log", vec![tv(&scale)], vec![])?;
            let c = (2.0 * std::f64::consts::PI).sqrt().ln();
            bin(
                BinOp::Sub,
                &bin(BinOp::Sub, &quad, &log_scale)?,
                &num(c, &quad)?,
            )?
        }
        Kind::Uniform => {
            let (low, high) = (d.param("low"), d.param("high"));
            let lb = cmp(CmpOp::Le, &low, &x)?.to_dtype(low.dtype())?;
            let ub = cmp(CmpOp::Gt, &high, &x)?.to_dtype(low.dtype())?;
            let inside = call(
                it,
                "log",
                vec![Value::Tensor(bin(BinOp::Mul, &lb, &ub)?)],
                vec![],
            )?;
            let width = call(
                it,
                "log",
                vec![Value::Tensor(bin(BinOp::Sub, &high, &low)?)],
                vec![],
            )?;
            bin(BinOp::Sub, &inside, &width)?
        }
        Kind::Bernoulli => {
            let logits = broadcast_like(it, &d.param("logits"), &x)?;
            let target = x.to_dtype(logits.dtype())?;
            let bce = call(
                it,
                "binary_cross_entropy_with_logits",
                vec![tv(&logits), tv(&target)],
                vec![("reduction", Value::str("none"))],
            )?;
            bin(BinOp::Mul, &bce, &num(-1.0, &bce)?)?
        }
        Kind::Categorical => {
            let logits = d.param("logits");
            let k = *logits.shape().last().unwrap_or(&1) as i64;
            let hot = call(
                it,
                "one_hot",
                vec![Value::Tensor(x.to_dtype(DType::I64)?), Value::Int(k)],
                vec![],
            )?;
            let picked = bin(BinOp::Mul, &hot.to_dtype(logits.dtype())?, &logits)?;
            call(it, "sum", vec![tv(&picked)], vec![("dim", Value::Int(-1))])?
        }
        Kind::Multinomial => {
            return Err(type_err(
                "Multinomial.log_prob is not in tsh yet (it needs torch.lgamma)",
            ));
        }
    };
    Ok(Value::Tensor(out))
}

fn broadcast_like(it: &mut Interp, p: &Tensor, x: &Tensor) -> Result<Tensor> {
    let (p2, _) = broadcast(it, p, &x.to_dtype(p.dtype())?)?;
    Ok(p2)
}

fn entropy(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = receiver(&mut a)?;
    a.finish()?;
    let out = match d.kind {
        Kind::Normal => {
            let log_scale = call(it, "log", vec![tv(&d.param("scale"))], vec![])?;
            let c = 0.5 + 0.5 * (2.0 * std::f64::consts::PI).ln();
            bin(BinOp::Add, &num(c, &log_scale)?, &log_scale)?
        }
        Kind::Uniform => call(
            it,
            "log",
            vec![Value::Tensor(bin(
                BinOp::Sub,
                &d.param("high"),
                &d.param("low"),
            )?)],
            vec![],
        )?,
        Kind::Bernoulli => call(
            it,
            "binary_cross_entropy_with_logits",
            vec![tv(&d.param("logits")), tv(&d.param("probs"))],
            vec![("reduction", Value::str("none"))],
        )?,
        Kind::Categorical => {
            let logits = d.param("logits");
            let min = if logits.dtype() == DType::F64 {
                f64::MIN
            } else {
                f32::MIN as f64
            };
            let clamped = call(
                it,
                "clamp",
                vec![tv(&logits)],
                vec![("min", Value::Float(min))],
            )?;
            let plogp = bin(BinOp::Mul, &clamped, &d.param("probs"))?;
            let s = call(it, "sum", vec![tv(&plogp)], vec![("dim", Value::Int(-1))])?;
            bin(BinOp::Mul, &s, &num(-1.0, &s)?)?
        }
        Kind::Multinomial => return Err(type_err("Multinomial.entropy is not in tsh yet")),
    };
    Ok(Value::Tensor(out))
}

/// The attributes: parameters, moments and shapes.
pub fn attr(it: &mut Interp, obj: &Value, d: &Dist, name: &str) -> Option<Result<Value>> {
    let shape = |s: Vec<usize>| Value::Shape(Rc::new(s));
    let r = (|| -> Result<Option<Value>> {
        Ok(Some(match (d.kind, name) {
            (_, "batch_shape") => shape(d.batch_shape()),
            (_, "event_shape") => shape(d.event_shape()),
            (_, n) if d.params.iter().any(|(p, _)| *p == n) => tv(&d.param(n)),
            (Kind::Multinomial, "total_count") => Value::Int(d.total_count),
            (Kind::Normal, "mean") => tv(&d.param("loc")),
            (Kind::Normal, "stddev") => tv(&d.param("scale")),
            (Kind::Normal, "variance") => {
                let s = d.param("scale");
                Value::Tensor(bin(BinOp::Mul, &s, &s)?)
            }
            (Kind::Bernoulli, "mean") => tv(&d.param("probs")),
            (Kind::Bernoulli, "variance") => {
                let p = d.param("probs");
                Value::Tensor(bin(BinOp::Mul, &p, &bin(BinOp::Sub, &num(1.0, &p)?, &p)?)?)
            }
            (Kind::Categorical, "mean" | "variance") => {
                let b = d.batch_shape();
                let p = d.param("probs");
                Value::Tensor(crate::tensor::ops::creation::full(
                    &b,
                    f64::NAN,
                    0,
                    p.dtype(),
                    p.device(),
                )?)
            }
            (Kind::Uniform, "mean") => {
                let s = bin(BinOp::Add, &d.param("high"), &d.param("low"))?;
                Value::Tensor(bin(BinOp::Div, &s, &num(2.0, &s)?)?)
            }
            (Kind::Uniform, "variance" | "stddev") => {
                let w = bin(BinOp::Sub, &d.param("high"), &d.param("low"))?;
                let v = bin(BinOp::Div, &bin(BinOp::Mul, &w, &w)?, &num(12.0, &w)?)?;
                if name == "stddev" {
                    Value::Tensor(call(it, "sqrt", vec![Value::Tensor(v)], vec![])?)
                } else {
                    Value::Tensor(v)
                }
            }
            (Kind::Multinomial, "mean") => {
                let p = d.param("probs");
                Value::Tensor(bin(BinOp::Mul, &p, &num(d.total_count as f64, &p)?)?)
            }
            (Kind::Multinomial, "variance") => {
                let p = d.param("probs");
                let q = bin(BinOp::Sub, &num(1.0, &p)?, &p)?;
                Value::Tensor(bin(
                    BinOp::Mul,
                    &bin(BinOp::Mul, &p, &q)?,
                    &num(d.total_count as f64, &p)?,
                )?)
            }
            (Kind::Bernoulli | Kind::Multinomial, "stddev") => return Ok(None),
            _ => {
                return Ok(METHODS
                    .iter()
                    .find(|b| b.name == name)
                    .map(|b| Value::Method(Rc::new((obj.clone(), b)))));
            }
        }))
    })();
    r.transpose()
}
