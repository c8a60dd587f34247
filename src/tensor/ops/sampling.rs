//! Samplers drawn from PyTorch's CPU stream, as ATen's CPU kernels draw them
//! (one 53-bit uniform per draw): exponential_, geometric_, cauchy_,
//! multinomial, poisson. They draw on the host and move the result, so a
//! seed gives PyTorch's CPU numbers on every device.

use crate::backend::cpu::random::{double, doubles};
use crate::error::{Result, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;

fn from_host(vals: Vec<f64>, like: &Tensor, dtype: DType) -> Result<Tensor> {
    Tensor::from_vec(vals, like.shape())
        .to_dtype(dtype)?
        .to_device(like.device())
}

fn float_only(what: &str, t: &Tensor) -> Result<()> {
    if t.dtype().is_float() {
        Ok(())
    } else {
        Err(crate::error::dtype_err(format!(
            "{what} expects a floating point tensor, got {}",
            t.dtype().name()
        )))
    }
}

/// exponential_(λ): -log1p(-u)/λ.
pub fn exponential(like: &Tensor, lambd: f64) -> Result<Tensor> {
    float_only("exponential_", like)?;
    if lambd <= 0.0 {
        return Err(value_err(format!(
            "exponential_ expects lambda > 0.0, but found lambda={lambd}"
        )));
    }
    let v = doubles(like.numel())
        .into_iter()
        .map(|u| -1.0 / lambd * (-u).ln_1p())
        .collect();
    from_host(v, like, like.dtype())
}

/// geometric_(p): the number of Bernoulli(p) trials to the first success.
pub fn geometric(like: &Tensor, p: f64) -> Result<Tensor> {
    if !(0.0 < p && p < 1.0) {
        return Err(value_err(format!(
            "geometric_ expects p to be in (0, 1), but got p={p}"
        )));
    }
    let v = doubles(like.numel())
        .into_iter()
        .map(|u| (u.ln() / (-p).ln_1p()).ceil())
        .collect();
    from_host(v, like, like.dtype())
}

/// cauchy_(median, sigma): median + sigma·tan(π(u - 1/2)).
pub fn cauchy(like: &Tensor, median: f64, sigma: f64) -> Result<Tensor> {
    float_only("cauchy_", like)?;
    let v = doubles(like.numel())
        .into_iter()
        .map(|u| median + sigma * (std::f64::consts::PI * (u - 0.5)).tan())
        .collect();
    from_host(v, like, like.dtype())
}

/// torch.multinomial: with replacement, a binary search of each draw in the
/// row's normalised cumulative sums; without, ATen's exponential trick (the
/// top n of p / Exp(1)).
pub fn multinomial(probs: &Tensor, n: i64, replacement: bool) -> Result<Tensor> {
    if probs.ndim() == 0 || probs.ndim() > 2 {
        return Err(shape_err("prob_dist must be 1 or 2 dim"));
    }
    float_only("multinomial", probs)?;
    let cats = probs.shape()[probs.ndim() - 1];
    if n <= 0 {
        return Err(value_err("cannot sample n_sample <= 0 samples"));
    }
    if !replacement && n as usize > cats {
        return Err(value_err(
            "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
        ));
    }
    let p = probs.to_host_f64()?;
    if p.iter().any(|&v| v < 0.0 || !v.is_finite()) {
        return Err(value_err(
            "probability tensor contains either `inf`, `nan` or element < 0",
        ));
    }
    let rows = p.len() / cats.max(1);
    if (0..rows).any(|r| p[r * cats..(r + 1) * cats].iter().sum::<f64>() <= 0.0) {
        return Err(value_err(
            "invalid multinomial distribution (sum of probabilities <= 0)",
        ));
    }
    let n = n as usize;
    let out: Vec<i64> = if replacement {
        let mut out = Vec::with_capacity(rows * n);
        for r in 0..rows {
            let row = &p[r * cats..(r + 1) * cats];
            let total: f64 = row.iter().sum();
            let mut acc = 0.0;
            let cum: Vec<f64> = row
                .iter()
                .map(|v| {
                    acc += v;
                    acc / total
                })
                .collect();
            for u in doubles(n) {
                let (mut lo, mut hi) = (0, cats);
                while hi > lo {
                    let mid = lo + (hi - lo) / 2;
                    if cum[mid] < u { lo = mid + 1 } else { hi = mid }
                }
                out.push(lo as i64);
            }
        }
        out
    } else {
        // p / Exp(1), both in the probabilities' dtype as ATen computes them.
        let in_dtype = |v: f64| {
            if probs.dtype() == DType::F64 {
                v
            } else {
                v as f32 as f64
            }
        };
        let q: Vec<f64> = doubles(p.len())
            .into_iter()
            .map(|u| in_dtype(-(-u).ln_1p()))
            .collect();
        let mut out = Vec::with_capacity(rows * n);
        for r in 0..rows {
            let mut keys: Vec<(f64, usize)> = (0..cats)
                .map(|j| (in_dtype(p[r * cats + j] / q[r * cats + j]), j))
                .collect();
            keys.sort_by(|a, b| b.0.total_cmp(&a.0));
            out.extend(keys[..n].iter().map(|&(_, j)| j as i64));
        }
        out
    };
    let mut shape = probs.shape().to_vec();
    let last = shape.len() - 1;
    shape[last] = n;
    Tensor::from_vec(out, &shape).to_device(probs.device())
}

/// torch.poisson: ATen's sampler, the product of uniforms below λ = 10 and
/// Hörmann's transformed rejection (PTRS) above.
pub fn poisson(rates: &Tensor) -> Result<Tensor> {
    float_only("poisson", rates)?;
    let v = rates
        .to_host_f64()?
        .into_iter()
        .map(|l| {
            if l < 0.0 || l.is_nan() {
                Err(value_err(
                    "poisson(): invalid Poisson rate, expected rate to be non-negative",
                ))
            } else {
                Ok(sample_poisson(l) as f64)
            }
        })
        .collect::<Result<Vec<f64>>>()?;
    from_host(v, rates, rates.dtype())
}

fn sample_poisson(lambda: f64) -> i64 {
    if lambda >= 10.0 {
        let slam = lambda.sqrt();
        let loglam = lambda.ln();
        let b = 0.931 + 2.53 * slam;
        let a = -0.059 + 0.02483 * b;
        let invalpha = 1.1239 + 1.1328 / (b - 3.4);
        let vr = 0.9277 - 3.6224 / (b - 2.0);
        loop {
            let u = double() - 0.5;
            let v = double();
            let us = 0.5 - u.abs();
            let k = ((2.0 * a / us + b) * u + lambda + 0.43).floor() as i64;
            if us >= 0.07 && v <= vr {
                return k;
            }
            if k < 0 || (us < 0.013 && v > us) {
                continue;
            }
            let lhs = v.ln() + invalpha.ln() - (a / (us * us) + b).ln();
            let rhs =
                -lambda + k as f64 * loglam - crate::tensor::op::math::libm::lgamma(k as f64 + 1.0);
            if lhs <= rhs {
                return k;
            }
        }
    }
    if lambda == 0.0 {
        return 0;
    }
    let enlam = (-lambda).exp();
    let mut x = 0;
    let mut prod = 1.0;
    loop {
        prod *= double();
        if prod > enlam {
            x += 1;
        } else {
            return x;
        }
    }
}
