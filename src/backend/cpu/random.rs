//! Random numbers as PyTorch's CPU generator makes them: the same Mersenne
//! Twister (mt19937, seeded like PyTorch, default seed 67280421310721) and the
//! same transformations (24/53-bit uniforms, Box–Muller in blocks of 16 for
//! n >= 16, cached pairs below that), so `manual_seed(0); randn(4, 4)` gives
//! PyTorch's numbers.

use std::cell::RefCell;

use super::elem::{CpuStorage, Element};
use crate::backend::Distribution;
use crate::error::Result;
use crate::tensor::DType;

/// PyTorch's CPU generator: its seed, MT19937 words, and the cached second normal.
struct Mt19937 {
    seed: u64,
    mt: crate::mt19937::Mt19937,
    /// The second value of the last Box–Muller pair (PyTorch caches it).
    next_normal: Option<f64>,
}

impl Mt19937 {
    fn new(seed: u64) -> Mt19937 {
        Mt19937 {
            seed,
            mt: crate::mt19937::Mt19937::new(seed as u32),
            next_normal: None,
        }
    }

    fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        let hi = self.next_u32() as u64;
        let lo = self.next_u32() as u64;
        (hi << 32) | lo
    }

    /// A uniform in [0, 1): 53 random bits for float64, else 24 (PyTorch draws
    /// float16 and bfloat16 as float32 and rounds).
    fn uniform(&mut self, dtype: DType) -> f64 {
        match dtype {
            DType::F64 => unit53(self.next_u64()),
            _ => unit24(self.next_u32()),
        }
    }

    /// `n` uniforms as `n` calls of `uniform` give them, the words drawn in bulk.
    fn uniforms(&mut self, n: usize, dtype: DType) -> Vec<f64> {
        let wide = dtype == DType::F64;
        let mut words = vec![0u32; if wide { 2 * n } else { n }];
        self.mt.fill(&mut words);
        if wide {
            (words.chunks_exact(2))
                .map(|w| unit53((w[0] as u64) << 32 | w[1] as u64))
                .collect()
        } else {
            words.iter().map(|&w| unit24(w)).collect()
        }
    }
}

/// A uniform in [0, 1) from a word's low 53 bits (float64).
fn unit53(w: u64) -> f64 {
    (w & ((1 << 53) - 1)) as f64 / (1u64 << 53) as f64
}

/// A uniform in [0, 1) from a word's low 24 bits (the other float dtypes).
fn unit24(w: u32) -> f64 {
    (w & ((1 << 24) - 1)) as f64 / (1u64 << 24) as f64
}

impl Mt19937 {
    /// One standard normal from PyTorch's scalar path (double precision, pairs cached).
    fn normal_scalar(&mut self) -> f64 {
        if let Some(v) = self.next_normal.take() {
            return v;
        }
        let u1 = self.uniform(DType::F64);
        let u2 = self.uniform(DType::F64);
        let r = (-2.0 * (-u2).ln_1p()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * u1;
        self.next_normal = Some(r * theta.sin());
        r * theta.cos()
    }
}

crate::multiversion! {
    /// Box–Muller over 16 uniforms in place: first 8 pair with the last 8.
    /// (Compiled for AVX2/AVX-512 as well: the eight lanes vectorise.)
    fn box_muller_16(d: &mut [f64], single: bool) {
        let d = &mut d[..16];
        for j in 0..8 {
            let (u1, u2) = (1.0 - d[j], d[j + 8]);
            if single {
                // PyTorch's AVX2 kernel: avx_mathfun's log and sincos.
                let (u1, u2) = (u1 as f32, u2 as f32);
                let r = (-2.0 * super::mathfun::log_ps(u1)).sqrt();
                let theta = 2.0 * std::f32::consts::PI * u2;
                let (sin, cos) = super::mathfun::sincos_ps(theta);
                d[j] = (r * cos) as f64;
                d[j + 8] = (r * sin) as f64;
            } else {
                let r = (-2.0 * u1.ln()).sqrt();
                let theta = 2.0 * std::f64::consts::PI * u2;
                d[j] = r * theta.cos();
                d[j + 8] = r * theta.sin();
            }
        }
    }
}

pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

thread_local! {
    /// One generator per interpreter thread (PyTorch has one per process; tsh runs
    /// one interpreter per thread, and tests run several side by side).
    static GENERATOR: RefCell<Option<Box<Mt19937>>> = const { RefCell::new(None) };
}

fn with_gen<R>(f: impl FnOnce(&mut Mt19937) -> R) -> R {
    GENERATOR.with(|g| {
        let mut g = g.borrow_mut();
        f(g.get_or_insert_with(|| Box::new(Mt19937::new(DEFAULT_SEED))))
    })
}

pub fn manual_seed(seed: u64) {
    GENERATOR.with(|g| *g.borrow_mut() = Some(Box::new(Mt19937::new(seed))));
}

/// The seed the thread's generator was last given (torch.initial_seed()).
pub fn initial_seed() -> u64 {
    with_gen(|g| g.seed)
}

/// torch.get_rng_state(): the generator in PyTorch's 5056-byte layout (the
/// seed, mt19937's `left`/`seeded`/`next` and 624 words as u64, the cached
/// normal), so a saved state restores the same stream.
pub fn rng_state() -> Vec<u8> {
    with_gen(|g| {
        let (words, index) = g.mt.words();
        let mut b = Vec::with_capacity(5056);
        b.extend(g.seed.to_le_bytes());
        let left = if index >= crate::mt19937::N {
            1
        } else {
            (crate::mt19937::N - index + 1) as i32
        };
        b.extend(left.to_le_bytes());
        b.extend(1i32.to_le_bytes());
        b.extend((index as u64).to_le_bytes());
        for w in words {
            b.extend((*w as u64).to_le_bytes());
        }
        let cached = g.next_normal.unwrap_or(0.0);
        b.extend(0f64.to_le_bytes());
        b.extend(cached.to_le_bytes());
        b.extend(0f64.to_le_bytes());
        b.extend((g.next_normal.is_some() as i32).to_le_bytes());
        b.extend([0u8; 4]);
        b.extend(0f32.to_le_bytes());
        b.extend([0u8; 4]);
        b
    })
}

/// torch.set_rng_state(state): the inverse of rng_state.
pub fn set_rng_state(b: &[u8]) -> Result<()> {
    if b.len() != 5056 {
        return Err(crate::error::value_err(format!(
            "RNG state is wrong size: expected 5056 bytes, got {}",
            b.len()
        )));
    }
    let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
    let i32_at = |i: usize| i32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
    let seed = u64_at(0);
    let left = i32_at(8);
    let next = u64_at(16) as usize;
    let mut words = [0u32; crate::mt19937::N];
    for (k, w) in words.iter_mut().enumerate() {
        *w = u64_at(24 + 8 * k) as u32;
    }
    let normal_at = 24 + 8 * crate::mt19937::N;
    let cached = f64::from_bits(u64_at(normal_at + 8));
    let valid = i32_at(normal_at + 24) != 0;
    let index = if left <= 1 { crate::mt19937::N } else { next };
    GENERATOR.with(|g| {
        *g.borrow_mut() = Some(Box::new(Mt19937 {
            seed,
            mt: crate::mt19937::Mt19937::from_words(words, index),
            next_normal: valid.then_some(cached),
        }))
    });
    Ok(())
}

/// `n` standard uniforms in [0, 1) with 53 bits (PyTorch's double draws).
pub fn doubles(n: usize) -> Vec<f64> {
    with_gen(|g| (0..n).map(|_| g.uniform(DType::F64)).collect())
}

/// One such uniform (rejection samplers draw them one at a time).
pub fn double() -> f64 {
    with_gen(|g| g.uniform(DType::F64))
}

/// A generator of its own (torch.Generator()): its state, which an op given
/// `generator=` draws from while it is swapped in for the thread's.
pub struct GeneratorState {
    state: Option<Box<Mt19937>>,
    pub seed: u64,
}

impl GeneratorState {
    pub fn new(seed: u64) -> GeneratorState {
        GeneratorState {
            state: Some(Box::new(Mt19937::new(seed))),
            seed,
        }
    }
}

/// Exchange the thread's generator with `state` (twice puts it back).
pub fn swap_generator(state: &mut GeneratorState) {
    GENERATOR.with(|g| {
        let mut g = g.borrow_mut();
        if g.is_none() {
            *g = Some(Box::new(Mt19937::new(DEFAULT_SEED)));
        }
        std::mem::swap(&mut *g, &mut state.state);
    });
}

/// `n` uniforms in [from, to), drawn for a tensor of `dtype`.
fn uniform(n: usize, dtype: DType, from: f64, to: f64) -> Vec<f64> {
    with_gen(|g| {
        let mut u = g.uniforms(n, dtype);
        crate::with_dtype!(dtype, T => scale::<T>(&mut u, from, to));
        u
    })
}

/// `v` rounded to T (as the value stored would be).
#[inline(always)]
fn in_dtype<T: Element>(v: f64) -> f64 {
    T::from_f64(v).to_f64()
}

crate::multiversion! {
    /// `x * (to - from) + from` as ATen computes it: one fused multiply-add,
    /// in float64 for float64, else in float from the ends rounded to the
    /// dtype (their difference too). A value that rounds up to `to` in the
    /// dtype gives `from`, so the range stays half-open, as PyTorch's does.
    fn scale<T: Element>(u: &mut [f64], from: f64, to: f64) {
        let top = in_dtype::<T>(to);
        if T::DTYPE == DType::F64 {
            for x in u.iter_mut() {
                let v = x.mul_add(to - from, from);
                *x = if v == top { from } else { v };
            }
            return;
        }
        let lo = in_dtype::<T>(from) as f32;
        let range = in_dtype::<T>((top as f32 - lo) as f64) as f32;
        for x in u.iter_mut() {
            let v = (*x as f32).mul_add(range, lo) as f64;
            *x = if in_dtype::<T>(v) == top { lo as f64 } else { v };
        }
    }
}

/// `n` normals with `mean` and `std`, drawn for a contiguous tensor of `dtype`.
fn normal(n: usize, dtype: DType, mean: f64, std: f64) -> Vec<f64> {
    with_gen(|g| {
        if n < 16 {
            return (0..n).map(|_| g.normal_scalar() * std + mean).collect();
        }
        let single = dtype != DType::F64;
        // float16 and bfloat16 draw only the whole blocks of 16 before the tail;
        // float32 and float64 draw one uniform per element.
        let drawn = if dtype.is_reduced_float() {
            n - n % 16
        } else {
            n
        };
        let mut d = g.uniforms(drawn, dtype);
        d.resize(n, 0.0);
        for i in (0..n - 15).step_by(16) {
            box_muller_16(&mut d[i..i + 16], single);
        }
        if !n.is_multiple_of(16) {
            // PyTorch redraws the last 16 and transforms them again.
            let tail = &mut d[n - 16..];
            for x in tail.iter_mut() {
                *x = g.uniform(dtype);
            }
            box_muller_16(tail, single);
        }
        d.iter().map(|z| z * std + mean).collect()
    })
}

/// `n` integers in [low, high).
fn integers(n: usize, low: i64, high: i64) -> Vec<i64> {
    let range = (high as i128 - low as i128) as u64;
    with_gen(|g| {
        (0..n)
            .map(|_| {
                let r = if range >= 1 << 32 {
                    g.next_u64() % range
                } else {
                    g.next_u32() as u64 % range
                };
                low.wrapping_add(r as i64)
            })
            .collect()
    })
}

/// A random permutation of 0..n (PyTorch's swap-forward shuffle).
fn permutation(n: usize) -> Vec<i64> {
    let mut v: Vec<i64> = (0..n as i64).collect();
    with_gen(|g| {
        for i in 0..n.saturating_sub(1) {
            let z = g.next_u32() as usize % (n - i);
            v.swap(i, i + z);
        }
    });
    v
}

/// `n` values of `dist` in `dtype`, from this thread's generator.
pub fn fill(dist: Distribution, n: usize, dtype: DType) -> Result<CpuStorage> {
    Ok(match dist {
        Distribution::Uniform { low, high } => {
            CpuStorage::from_f64s(&uniform(n, dtype, low, high), dtype)
        }
        Distribution::Normal { mean, std } => {
            CpuStorage::from_f64s(&normal(n, dtype, mean, std), dtype)
        }
        Distribution::Integers { low, high } => {
            CpuStorage::from_i64s(&integers(n, low, high), dtype)
        }
        Distribution::Permutation => CpuStorage::from_i64s(&permutation(n), dtype),
    })
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    // Values printed by PyTorch 2.x.

    crate::unit_tests! {
        fn matches_pytorch_streams() {
            manual_seed(0);
            let r: Vec<f64> = uniform(3, DType::F32, 0.0, 1.0);
            assert!((r[0] - 0.4963).abs() < 1e-4 && (r[2] - 0.0885).abs() < 1e-4);
            manual_seed(0);
            let n = normal(6, DType::F32, 0.0, 1.0);
            let want = [1.5410, -0.2934, -2.1788, 0.5684, -1.0845, -1.3986];
            assert!(
                n.iter().zip(want).all(|(a, b)| (a - b).abs() < 1e-4),
                "{n:?}"
            );
            manual_seed(0);
            let n = normal(16, DType::F32, 0.0, 1.0);
            assert!(
                (n[0] + 1.1258).abs() < 1e-4 && (n[15] + 0.2473).abs() < 1e-4,
                "{n:?}"
            );
            manual_seed(0);
            assert_eq!(integers(5, 0, 10), vec![4, 9, 3, 0, 3]);
        }
    }
}
