//! Tensors made from nothing: constants, ranges, identity, random numbers.

use std::sync::Mutex;

use crate::backend::cpu::map::filled;
use crate::error::{Result, value_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::dtype::DType;

pub fn full(shape: &[usize], value: f64, ivalue: i64, dtype: DType) -> Result<Tensor> {
    check_alloc(shape, dtype)?;
    Ok(Tensor::from_contiguous(
        filled(dtype, shape.iter().product(), value, ivalue),
        shape,
    ))
}

pub fn zeros(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full(shape, 0.0, 0, dtype)
}

pub fn ones(shape: &[usize], dtype: DType) -> Result<Tensor> {
    full(shape, 1.0, 1, dtype)
}

/// `arange(start, end, step)`: `ceil((end - start) / step)` values.
pub fn arange(start: f64, end: f64, step: f64, dtype: DType) -> Result<Tensor> {
    if step == 0.0 {
        return Err(value_err("arange: step must be non-zero"));
    }
    if !(start.is_finite() && end.is_finite() && step.is_finite()) {
        return Err(value_err("arange: start, end and step must be finite"));
    }
    if (end - start) * step < 0.0 {
        return Err(value_err(format!(
            "arange: the range from {start} to {end} cannot be walked with step {step}"
        ))
        .hint("use a negative step to count down"));
    }
    let n = ((end - start) / step).ceil().max(0.0);
    if n > 1e15 {
        return Err(value_err("arange: too many elements"));
    }
    let n = n as usize;
    check_alloc(&[n], dtype)?;
    let t = if dtype.is_float() {
        Tensor::from_vec(
            (0..n)
                .map(|i| start + i as f64 * step)
                .collect::<Vec<f64>>(),
            &[n],
        )
    } else {
        let (s, st) = (start as i64, step as i64);
        Tensor::from_vec(
            (0..n).map(|i| s + i as i64 * st).collect::<Vec<i64>>(),
            &[n],
        )
    };
    Ok(t.to_dtype(dtype))
}

/// `linspace`, computed from both ends as PyTorch does so the last value is exact.
pub fn linspace(start: f64, end: f64, steps: i64, dtype: DType) -> Result<Tensor> {
    if steps < 0 {
        return Err(value_err("linspace: number of steps must be non-negative"));
    }
    let n = steps as usize;
    check_alloc(&[n], dtype)?;
    let step = if n > 1 {
        (end - start) / (n - 1) as f64
    } else {
        0.0
    };
    let half = n / 2;
    let v: Vec<f64> = (0..n)
        .map(|i| {
            if i < half {
                start + step * i as f64
            } else {
                end - step * (n - 1 - i) as f64
            }
        })
        .collect();
    Ok(Tensor::from_vec(v, &[n]).to_dtype(dtype))
}

pub fn eye(n: usize, m: usize, dtype: DType) -> Result<Tensor> {
    check_alloc(&[n, m], dtype)?;
    let mut v = vec![0.0f64; n * m];
    for i in 0..n.min(m) {
        v[i * m + i] = 1.0;
    }
    Ok(Tensor::from_vec(v, &[n, m]).to_dtype(dtype))
}

/// xoshiro256** — small, fast and good enough for teaching; not PyTorch's stream.
struct Rng([u64; 4]);

impl Rng {
    fn seeded(seed: u64) -> Rng {
        // splitmix64 spreads the seed over the state.
        let mut z = seed;
        let mut next = || {
            z = z.wrapping_add(0x9E3779B97F4A7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D049BB133111EB);
            x ^ (x >> 31)
        };
        Rng([next(), next(), next(), next()])
    }
    fn next_u64(&mut self) -> u64 {
        let s = &mut self.0;
        let result = s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }
    /// Uniform in [0, 1) with 53 random bits.
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    fn normal(&mut self) -> f64 {
        // Box–Muller; 1 - u keeps the log's argument in (0, 1].
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }
}

/// The default seed is fixed, so scripts are reproducible without `manual_seed`.
const DEFAULT_SEED: u64 = 67280421310721;
static RNG: Mutex<Option<Rng>> = Mutex::new(None);

fn with_rng<R>(f: impl FnOnce(&mut Rng) -> R) -> R {
    let mut guard = RNG.lock().unwrap_or_else(|e| e.into_inner());
    let rng = guard.get_or_insert_with(|| Rng::seeded(DEFAULT_SEED));
    f(rng)
}

pub fn manual_seed(seed: u64) {
    *RNG.lock().unwrap_or_else(|e| e.into_inner()) = Some(Rng::seeded(seed));
}

pub fn rand(shape: &[usize], dtype: DType) -> Result<Tensor> {
    check_alloc(shape, dtype)?;
    let n = shape.iter().product();
    let v: Vec<f64> = with_rng(|r| (0..n).map(|_| r.uniform()).collect());
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randn(shape: &[usize], dtype: DType) -> Result<Tensor> {
    check_alloc(shape, dtype)?;
    let n = shape.iter().product();
    let v: Vec<f64> = with_rng(|r| (0..n).map(|_| r.normal()).collect());
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randint(low: i64, high: i64, shape: &[usize], dtype: DType) -> Result<Tensor> {
    if high <= low {
        return Err(value_err(format!(
            "randint: high ({high}) must be greater than low ({low})"
        )));
    }
    check_alloc(shape, dtype)?;
    let n = shape.iter().product();
    let span = (high as i128 - low as i128) as u64;
    let v: Vec<i64> = with_rng(|r| {
        (0..n)
            .map(|_| low.wrapping_add(r.below(span) as i64))
            .collect()
    });
    Ok(Tensor::from_vec(v, shape).to_dtype(dtype))
}

pub fn randperm(n: usize, dtype: DType) -> Result<Tensor> {
    check_alloc(&[n], dtype)?;
    let mut v: Vec<i64> = (0..n as i64).collect();
    with_rng(|r| {
        for i in (1..n).rev() {
            let j = r.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    });
    Ok(Tensor::from_vec(v, &[n]).to_dtype(dtype))
}
