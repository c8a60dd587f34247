//! torch.Generator: a random stream of its own (ops take it as `generator=`),
//! and the in-place samplers random_, uniform_ and normal_ (PyTorch's CPU streams).

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Error, Result, type_err, value_err};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::ops::creation::{self as c, GeneratorState};
use crate::tensor::ops::sampling;
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
    op!(Method inplace, "bernoulli(Tensor input, Any p=0.5) -> Tensor",
        "1 with probability p (a number, or a tensor per element), else 0.",
        "torch.empty(4).bernoulli_(0.5)",
        |input: Tensor, p: Value| bernoulli_p(&input, &p)),
    op!(Method inplace, "exponential(Tensor input, float lambd=1.) -> Tensor",
        "Values drawn from the exponential distribution with rate lambd.",
        "torch.empty(3).exponential_()",
        |input: Tensor, lambd: f64| sampling::exponential(&input, lambd)),
    op!(Method inplace, "geometric(Tensor input, float p) -> Tensor",
        "Trials to the first success of Bernoulli(p) draws.",
        "torch.empty(3).geometric_(0.5)",
        |input: Tensor, p: f64| sampling::geometric(&input, p)),
    op!(Method inplace, "cauchy(Tensor input, float median=0., float sigma=1.) -> Tensor",
        "Values drawn from the Cauchy distribution.",
        "torch.empty(3).cauchy_()",
        |input: Tensor, median: f64, sigma: f64| sampling::cauchy(&input, median, sigma)),
    op!(
        Both,
        "multinomial(Tensor input, int num_samples, bool replacement=False) -> Tensor",
        "Indices drawn with the rows' (unnormalised) probabilities.",
        "torch.multinomial(tensor([0.1, 0.5, 0.4]), 2)",
        |input: Tensor, num_samples: i64, replacement: bool| sampling::multinomial(
            &input,
            num_samples,
            replacement
        )
    ),
    op!(
        Function,
        "poisson(Tensor input) -> Tensor",
        "A Poisson draw with each element's rate.",
        "torch.poisson(tensor([1., 5.]))",
        |input: Tensor| sampling::poisson(&input)
    ),
    crate::row!(
        Function,
        "get_rng_state",
        "get_rng_state()",
        "The random generator's state, as a uint8 tensor (PyTorch's layout).",
        "torch.get_rng_state().shape",
        get_rng_state
    ),
    op!(
        Function,
        "set_rng_state(Tensor new_state) -> None",
        "Restore a state from get_rng_state().",
        "torch.set_rng_state(torch.get_rng_state())",
        |new_state: Tensor| {
            let bytes: Vec<u8> = new_state
                .to_host_i64()?
                .into_iter()
                .map(|b| b as u8)
                .collect();
            crate::backend::cpu::random::set_rng_state(&bytes).map(|_| Value::None)
        }
    ),
    crate::row!(
        Function,
        "thread_safe_generator",
        "thread_safe_generator()",
        "A DataLoader thread worker's own generator; None elsewhere (tsh's loaders run in the main thread), which the samplers read as the default generator.",
        "torch.randint(0, 10, (2,), generator=torch.thread_safe_generator())",
        |_, _| Ok(Value::None)
    ),
    crate::row!(
        Function,
        "initial_seed",
        "initial_seed()",
        "The seed the random generator was last given.",
        "torch.initial_seed()",
        initial_seed
    ),
    op!(
        Both,
        "bernoulli(Tensor input, Any p=None) -> Tensor",
        "1 with probability input (or p) for each element, else 0.",
        "torch.bernoulli(torch.full((4,), 0.5))",
        |input: Tensor, p: Value| match p {
            Value::None => bernoulli(&input, None),
            p => bernoulli_p(&input, &p),
        }
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
                DType::C64 | DType::C128 => {
                    return Err(crate::error::dtype_err(format!(
                        "random_ not implemented for '{}'",
                        t.dtype().torch_scalar_name()
                    )));
                }
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

/// bernoulli_(p): p a number, or a tensor broadcast to the input's shape.
fn bernoulli_p(t: &Tensor, p: &Value) -> Result<Tensor> {
    match p {
        Value::Tensor(p) => {
            let p = crate::tensor::ops::view::expand(p, &crate::tensor::shape::sizes(t.shape()))?;
            bernoulli(&p, None)?.to_dtype(t.dtype())
        }
        other => bernoulli(
            t,
            Some(crate::interp::convert::to_float(other, "bernoulli_", "p")?),
        ),
    }
}

fn get_rng_state(_: &mut crate::interp::Interp, a: crate::interp::args::Args) -> Result<Value> {
    a.finish()?;
    let bytes: Vec<i64> = crate::backend::cpu::random::rng_state()
        .into_iter()
        .map(|b| b as i64)
        .collect();
    Ok(Value::Tensor(
        Tensor::from_vec(bytes, &[5056]).to_dtype(DType::U8)?,
    ))
}

fn initial_seed(_: &mut crate::interp::Interp, a: crate::interp::args::Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(
        crate::backend::cpu::random::initial_seed() as i64
    ))
}

/// bernoulli: PyTorch's CPU kernels draw one uniform per element: a float
/// one against a tensor of probabilities, a double one against a number.
fn bernoulli(t: &Tensor, p: Option<f64>) -> Result<Tensor> {
    let draw = if p.is_some() { DType::F64 } else { DType::F32 };
    let u = c::uniform(t.shape(), 0.0, 1.0, draw, t.device())?;
    let probs = match p {
        Some(p) => crate::tensor::ops::arith::num(p),
        None => t.clone(),
    };
    crate::tensor::ops::arith::cmp(crate::tensor::op::BinaryOp::Lt, &u, &probs)?.to_dtype(t.dtype())
}
