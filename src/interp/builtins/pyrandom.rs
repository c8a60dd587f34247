//! Python's `random` module, with CPython's own generator: a Mersenne Twister
//! seeded by `init_by_array` over the seed's 32-bit words, so `random.seed(0);
//! random.random()` is Python's number. It is not torch's generator (that one
//! is seeded by `torch.manual_seed`), as in Python.

use std::cell::RefCell;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

struct Twister {
    mt: crate::mt19937::Mt19937,
    /// The second value of the last Box-Muller pair (`random.gauss`).
    gauss_next: Option<f64>,
}

impl Twister {
    /// CPython's seeding: `init_by_array` over the seed's 32-bit words.
    fn seeded(seed: u64) -> Twister {
        let lo = seed as u32;
        let hi = (seed >> 32) as u32;
        let key: &[u32] = if hi == 0 { &[lo] } else { &[lo, hi] };
        Twister {
            mt: crate::mt19937::Mt19937::from_key(key),
            gauss_next: None,
        }
    }

    fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn random(&mut self) -> f64 {
        let a = (self.next_u32() >> 5) as f64;
        let b = (self.next_u32() >> 6) as f64;
        (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    }

    fn getrandbits(&mut self, k: u32) -> u64 {
        if k <= 32 {
            return (self.next_u32() >> (32 - k)) as u64;
        }
        let low = self.next_u32() as u64;
        let high = (self.next_u32() >> (64 - k)) as u64;
        low | (high << 32)
    }

    /// A uniform integer in [0, n), by rejection as CPython's `_randbelow`.
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }
}

thread_local! {
    static GEN: RefCell<Twister> = RefCell::new(Twister::seeded(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    ));
}

/// Python's `random.seed(s)` from Rust (the device check runs each program
/// twice from the same state).
pub fn reseed(s: u64) {
    GEN.with(|g| *g.borrow_mut() = Twister::seeded(s));
}

fn with<R>(f: impl FnOnce(&mut Twister) -> R) -> R {
    GEN.with(|g| f(&mut g.borrow_mut()))
}

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "random.seed",
        "random.seed(a=None)",
        "Seed Python's generator (not torch's).",
        "import random; random.seed(0); random.random()",
        seed
    ),
    row!(
        Module,
        "random.random",
        "random.random()",
        "A float in [0, 1).",
        "import random; random.random()",
        random
    ),
    row!(
        Module,
        "random.uniform",
        "random.uniform(a, b)",
        "A float between a and b.",
        "import random; random.uniform(1, 2)",
        uniform
    ),
    row!(
        Module,
        "random.randint",
        "random.randint(a, b)",
        "An int in [a, b], both ends included.",
        "import random; random.randint(1, 6)",
        randint
    ),
    row!(
        Module,
        "random.randrange",
        "random.randrange(start, stop=None, step=1)",
        "An int from range(start, stop, step).",
        "import random; random.randrange(10)",
        randrange
    ),
    row!(
        Module,
        "random.choice",
        "random.choice(seq)",
        "One item of a sequence.",
        "import random; random.choice(['a', 'b'])",
        choice
    ),
    row!(
        Module,
        "random.shuffle",
        "random.shuffle(x)",
        "Shuffle a list in place.",
        "import random; l = [1, 2, 3]; random.shuffle(l); len(l)",
        shuffle
    ),
    row!(
        Module,
        "random.gauss",
        "random.gauss(mu=0.0, sigma=1.0)",
        "A normal sample.",
        "import random; random.gauss()",
        gauss
    ),
];

fn seed(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.opt_int("a")?;
    a.finish()?;
    let s = s.map(|s| s.unsigned_abs()).unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    reseed(s);
    Ok(Value::None)
}

fn random(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Float(with(|g| g.random())))
}

fn uniform(_: &mut Interp, mut a: Args) -> Result<Value> {
    let lo = a.float("a")?;
    let hi = a.float("b")?;
    a.finish()?;
    Ok(Value::Float(lo + (hi - lo) * with(|g| g.random())))
}

fn range_pick(start: i64, stop: i64, step: i64) -> Result<i64> {
    if step == 0 {
        return Err(value_err("zero step for randrange()"));
    }
    let n = if step > 0 {
        (stop - start + step - 1) / step
    } else {
        (start - stop - step - 1) / -step
    };
    if n <= 0 {
        return Err(value_err(format!(
            "empty range in randrange({start}, {stop})"
        )));
    }
    Ok(start + step * with(|g| g.below(n as u64)) as i64)
}

fn randint(_: &mut Interp, mut a: Args) -> Result<Value> {
    let lo = a.int("a")?;
    let hi = a.int("b")?;
    a.finish()?;
    range_pick(lo, hi.saturating_add(1), 1).map(Value::Int)
}

fn randrange(_: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.int("start")?;
    let stop = a.opt_int("stop")?;
    let step = a.int_or("step", 1)?;
    a.finish()?;
    let (start, stop) = match stop {
        Some(s) => (first, s),
        None => (0, first),
    };
    range_pick(start, stop, step).map(Value::Int)
}

fn choice(it: &mut Interp, mut a: Args) -> Result<Value> {
    let seq = a.value("seq")?;
    a.finish()?;
    let items = it.iterate_items(&seq)?;
    if items.is_empty() {
        return Err(crate::error::index_err(
            "Cannot choose from an empty sequence",
        ));
    }
    let i = with(|g| g.below(items.len() as u64)) as usize;
    Ok(items[i].clone())
}

fn shuffle(_: &mut Interp, mut a: Args) -> Result<Value> {
    let Value::List(l) = a.value("x")? else {
        return Err(type_err("shuffle() takes a list"));
    };
    a.finish()?;
    let mut items = l.borrow_mut();
    for i in (1..items.len()).rev() {
        let j = with(|g| g.below(i as u64 + 1)) as usize;
        items.swap(i, j);
    }
    Ok(Value::None)
}

fn gauss(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mu = a.float_or("mu", 0.0)?;
    let sigma = a.float_or("sigma", 1.0)?;
    a.finish()?;
    let z = with(|g| match g.gauss_next.take() {
        Some(z) => z,
        None => {
            let x2pi = g.random() * std::f64::consts::TAU;
            let g2rad = (-2.0 * (1.0 - g.random()).ln()).sqrt();
            g.gauss_next = Some(x2pi.sin() * g2rad);
            x2pi.cos() * g2rad
        }
    });
    Ok(Value::Float(mu + z * sigma))
}

#[doc(hidden)]
pub mod tests {
    use super::Twister;

    crate::unit_tests! {
        /// CPython 3: random.seed(0); [random.random() for _ in range(3)], and
        /// random.seed(42); random.random().
        fn matches_cpython() {
            let mut t = Twister::seeded(0);
            assert_eq!(t.random(), 0.8444218515250481);
            assert_eq!(t.random(), 0.7579544029403025);
            assert_eq!(t.random(), 0.420571580830845);
            assert_eq!(Twister::seeded(42).random(), 0.6394267984578837);
        }
    }
}
