//! torch.Generator: a random stream of its own (ops take it as `generator=`),
//! and the in-place samplers random_, uniform_ and normal_ (PyTorch's CPU streams).

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Error, Result, type_err, value_err};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::ops::creation::{self as c, GeneratorState};
use crate::tensor::{DType, Device, Tensor};

/// PyTorch's default seed, which a new torch.Generator starts from.
const DEFAULT_SEED: u64 = 67_280_421_310_721;

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "Generator(Device? device=None) -> Any",
        "A random number generator of its own: pass it as generator= to rand, randperm, DataLoader…",
        "g = torch.Generator().manual_seed(42); torch.rand(2, generator=g)",
        |device: Option<Device>| {
            if let Some(d) = device {
                d.check_available()?;
            }
            Ok::<_, Error>(Value::Generator(Rc::new(RefCell::new(
                GeneratorState::new(DEFAULT_SEED),
            ))))
        }
    ),
    op!(Method inplace, "random(Tensor input, Any from_=None, int? to=None) -> Tensor",
        "Integers drawn uniformly from [from, to) (from [0, to) with one bound; the dtype's range with none).",
        "torch.zeros(3, dtype=torch.int64).random_(10)",
        |input: Tensor, from_: Value, to: Option<i64>| random(&input, &from_, to)),
    op!(Method inplace, "uniform(Tensor input, float from_=0, float to=1) -> Tensor",
        "Values drawn uniformly from [from, to).", "torch.empty(3).uniform_(-1, 1)",
        |input: Tensor, from_: f64, to: f64| c::uniform(input.shape(), from_, to, input.dtype(), input.device())),
    op!(Method inplace, "normal(Tensor input, float mean=0, float std=1) -> Tensor",
        "Values drawn from a normal distribution.", "torch.empty(3).normal_(0, 0.1)",
        |input: Tensor, mean: f64, std: f64| c::normal(input.shape(), mean, std, input.dtype(), input.device())),
    op!(
        Both,
        "bernoulli(Tensor input, float? p=None) -> Tensor",
        "1 with probability input (or p) for each element, else 0.",
        "torch.bernoulli(torch.full((4,), 0.5))",
        |input: Tensor, p: Option<f64>| bernoulli(&input, p)
    ),
];

/// The methods of a generator.
pub const METHODS: &[Builtin] = &[
    op!(
        Method,
        "manual_seed(Any generator, int seed) -> Any",
        "Seed this generator; returns it.",
        "torch.Generator().manual_seed(0)",
        |generator: Value, seed: i64| {
            *state(&generator)?.borrow_mut() = GeneratorState::new(seed as u64);
            Ok::<_, Error>(generator)
        }
    ),
    op!(
        Method,
        "initial_seed(Any generator) -> int",
        "The seed this generator started from.",
        "torch.Generator().initial_seed()",
        |generator: Value| Ok::<_, Error>(state(&generator)?.borrow().seed as i64)
    ),
    op!(
        Method,
        "seed(Any generator) -> int",
        "Seed this generator from the clock; returns the seed.",
        "torch.Generator().seed() > 0",
        |generator: Value| {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            *state(&generator)?.borrow_mut() = GeneratorState::new(seed);
            Ok::<_, Error>(seed as i64)
        }
    ),
];

fn state(v: &Value) -> Result<Rc<RefCell<GeneratorState>>> {
    match v {
        Value::Generator(g) => Ok(g.clone()),
        other => Err(type_err(format!(
            "expected a torch.Generator, not {}",
            other.type_name()
        ))),
    }
}

/// The method of a generator value called `name`.
pub fn method(obj: &Value, name: &str) -> Option<Value> {
    METHODS
        .iter()
        .find(|b| b.name == name)
        .map(|b| Value::Method(Rc::new((obj.clone(), b))))
}

/// random_: [from, to), or as PyTorch's random_() with no bounds: [0, 2^63) for
/// int64, [0, 2^mantissa] for floats, the dtype's non-negative range otherwise.
fn random(t: &Tensor, from: &Value, to: Option<i64>) -> Result<Tensor> {
    let from = match from {
        Value::None => None,
        v => Some(crate::interp::convert::to_int(v, "random_", "from")?),
    };
    let (low, high) = match (from, to) {
        (Some(a), Some(b)) => (a, b),
        (Some(b), None) => (0, b),
        (None, Some(b)) => (0, b),
        (None, None) => (
            0,
            match t.dtype() {
                DType::I64 => i64::MAX,
                DType::I32 => i32::MAX as i64 + 1,
                DType::I16 => i16::MAX as i64 + 1,
                DType::I8 => 128,
                DType::U8 => 256,
                DType::Bool => 2,
                DType::F64 => (1 << 53) + 1,
                DType::F32 => (1 << 24) + 1,
                DType::F16 => (1 << 11) + 1,
                DType::BF16 => (1 << 8) + 1,
            },
        ),
    };
    if high <= low {
        return Err(value_err(format!(
            "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
        )));
    }
    // int64's full range is [0, 2^63): one past i64::MAX, drawn as PyTorch does.
    let drawn = if high == i64::MAX && from.is_none() && to.is_none() {
        c::randint_full(t.shape(), t.device())?
    } else {
        c::randint(low, high, t.shape(), DType::I64, t.device())?
    };
    drawn.to_dtype(t.dtype())
}

/// bernoulli: PyTorch's CPU kernel draws one float uniform per element.
fn bernoulli(t: &Tensor, p: Option<f64>) -> Result<Tensor> {
    let u = c::uniform(t.shape(), 0.0, 1.0, DType::F32, t.device())?;
    let probs = match p {
        Some(p) => crate::tensor::ops::arith::num(p),
        None => t.clone(),
    };
    crate::tensor::ops::arith::cmp(crate::tensor::op::BinaryOp::Lt, &u, &probs)?.to_dtype(t.dtype())
}
