//! F.group_norm: each sample's channels split into groups, each group
//! normalised, then a per-channel affine. A group's channels lie together in
//! a row-major x, so x seen as `[N·G, (C/G)·spatial]` rows is layer_norm's
//! work without its affine: the backend's one-pass statistics and x's
//! gradient serve as they are. A backward that must itself be differentiated
//! (create_graph) runs the same formula in tensor ops.

use crate::autograd::rules::rule;
use crate::autograd::{Saved, no_grad, record};
use crate::backend::Scalar;
use crate::error::{Result, value_err};
use crate::tensor::op::{ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, mul, num, sub, un};
use crate::tensor::ops::creation::full_on;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{expand, reshape};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

use super::normalization::{affine, backward_recorded, inputs, mean_var, standardise};

/// The views every path takes: x as `[N, G, rest]` and as rows, and the
/// shape that lines a per-channel vector up with dim 1.
#[derive(Clone)]
struct Groups {
    n: i64,
    groups: i64,
    channels: i64,
    channel_shape: Vec<i64>,
    shape: Vec<i64>,
}

impl Groups {
    fn new(x: &Tensor, groups: i64) -> Result<Groups> {
        let c = x.shape().get(1).copied().unwrap_or(0) as i64;
        if x.ndim() < 2 || groups <= 0 || c % groups != 0 {
            return Err(value_err(format!(
                "Expected number of channels in input to be divisible by num_groups, but got input of shape {} and num_groups={groups}",
                fmt_shape(x.shape())
            )));
        }
        let mut channel_shape = vec![1i64; x.ndim()];
        channel_shape[1] = c;
        Ok(Groups {
            n: x.shape()[0] as i64,
            groups,
            channels: c,
            channel_shape,
            shape: x.shape().iter().map(|&d| d as i64).collect(),
        })
    }

    /// `t` seen as `[N·G, rest]`, one group of one sample a row.
    fn rows(&self, t: &Tensor) -> Result<Tensor> {
        no_grad(|| reshape(t, &[self.n * self.groups, -1]))
    }

    /// `t` seen as `[N, C, spatial]`.
    fn planes(&self, t: &Tensor) -> Result<Tensor> {
        reshape(t, &[self.n, self.channels, -1])
    }

    /// A `[N·G]` statistic repeated over its group's channels: `[N, C, 1]`.
    fn per_channel(&self, stat: &Tensor) -> Result<Tensor> {
        let g = reshape(stat, &[self.n, self.groups, 1, 1])?;
        let per = self.channels / self.groups;
        let wide = expand(&g, &[self.n, self.groups, per, 1])?;
        reshape(&wide, &[self.n, self.channels, 1])
    }
}

pub fn group_norm(
    x: &Tensor,
    groups: i64,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let geo = Groups::new(x, groups)?;
    let fits = |p: &Tensor| {
        p.dtype() == x.dtype() && p.device() == x.device() && p.shape() == [geo.channels as usize]
    };
    if !x.dtype().is_float() || x.numel() == 0 || !w.into_iter().chain(b).all(fits) {
        return composite(x, &geo, w, b, eps);
    }
    let (mean, rstd) = group_stats(x, &geo, eps)?;
    let y = scaled(x, &geo, (&mean, &rstd), w, b)?;
    let ins = inputs(x, w, b);
    let (sx, sw) = (Saved::new(x), w.map(Saved::new));
    let (has_b, x_wanted) = (b.is_some(), crate::autograd::needs_grad(&[x]));
    Ok(record(
        y,
        "NativeGroupNormBackward0",
        &ins,
        true,
        move || {
            rule(move |g| {
                let x = sx.get()?;
                let w = sw.as_ref().map(Saved::get).transpose()?;
                if backward_recorded(g, &x, w.as_ref()) {
                    let (xhat, rstd) = standardised(&x, &geo, eps)?;
                    // PyTorch's double-differentiable form is plain ops too
                    // (its dx's node is a ViewBackward0).
                    return grads(g, &xhat, &rstd, w.as_ref(), &geo, has_b);
                }
                let g = g.to_dtype(x.dtype())?;
                let stats = (&mean, &rstd);
                let dx = match x_wanted {
                    true => Some(input_grad(&g, &x, stats, w.as_ref(), &geo)?),
                    false => None,
                };
                let mut out = vec![dx];
                if w.is_some() || has_b {
                    let (dw, db) = parameter_grads(&g, &x, stats, &geo)?;
                    if let Some(w) = &w {
                        out.push(Some(dw.to_dtype(w.dtype())?));
                    }
                    if has_b {
                        out.push(Some(db.to_dtype(x.dtype())?));
                    }
                }
                Ok(out)
            })
        },
    ))
}

/// Each group's mean and 1/σ, float64 `[N·G]`: two reductions over x's
/// rows, which write nothing; in float for the half types, whose own
/// reductions would round the statistics to them (layer_norm's pass gives
/// them in float64, writing an x̂ it drops).
fn group_stats(x: &Tensor, geo: &Groups, eps: f64) -> Result<(Tensor, Tensor)> {
    let rows = geo.rows(x)?;
    if !matches!(x.dtype(), DType::F32 | DType::F64) {
        let (_, mean, rstd) = rows.read().layer_norm(rows.layout(), None, None, eps)?;
        let stats = [mean.len()];
        return Ok((
            Tensor::from_contiguous(mean, &stats),
            Tensor::from_contiguous(rstd, &stats),
        ));
    }
    let over_row = |op| reduce(&rows, op, Some(&[1]), false)?.to_dtype(DType::F64);
    let (mean, var) = (over_row(ReduceOp::Mean)?, over_row(ReduceOp::Var(0.0))?);
    Ok((mean, un(UnaryOp::Rsqrt, &add(&var, &num(eps))?)?))
}

/// y = x·α + β with α = w·rstd and β = b - mean·α per (sample, channel), in
/// float64 (ATen's scale and bias): one backend pass, batch_norm's, over x
/// seen as `[1, N·C, spatial]` with α and β as its parameters and
/// statistics that leave them as they are (mean 0, variance 1, eps 0).
fn scaled(
    x: &Tensor,
    geo: &Groups,
    (mean, rstd): (&Tensor, &Tensor),
    w: Option<&Tensor>,
    b: Option<&Tensor>,
) -> Result<Tensor> {
    let channel = |p: &Tensor| reshape(&p.to_dtype(DType::F64)?, &[1, geo.channels]);
    let rows = [geo.n, geo.channels];
    let (m, r) = (
        reshape(&geo.per_channel(mean)?, &rows)?,
        reshape(&geo.per_channel(rstd)?, &rows)?,
    );
    let alpha = match w {
        Some(w) => mul(&r, &channel(w)?)?,
        None => r,
    };
    let beta = sub(
        &b.map(channel).transpose()?.unwrap_or(num(0.0)),
        &mul(&m, &alpha)?,
    )?;
    let flat = |t: &Tensor| reshape(t, &[-1]);
    let (alpha, beta) = (flat(&alpha)?, flat(&beta)?.contiguous()?);
    let (zeros, ones) = neutral_stats(geo, x)?;
    let x3 = reshape(x, &[1, geo.n * geo.channels, -1])?;
    let (y, _, _) = {
        let (a, bt, z, o) = (alpha.read(), beta.read(), zeros.read(), ones.read());
        x3.read()
            .batch_norm(x3.layout(), Some((&z, &o)), Some(&a), Some(&bt), 0.0)?
    };
    Ok(Tensor::from_contiguous(y, x.shape()))
}

/// A float64 mean of 0 and variance of 1 for each (sample, channel).
fn neutral_stats(geo: &Groups, x: &Tensor) -> Result<(Tensor, Tensor)> {
    let shape = [(geo.n * geo.channels) as usize];
    let on = |v: f64| full_on(&shape, Scalar::float(v), DType::F64, x.device());
    Ok((on(0.0)?, on(1.0)?))
}

/// dx: the backend's layer_norm gradient of g·w over each group's row.
fn input_grad(
    g: &Tensor,
    x: &Tensor,
    (mean, rstd): (&Tensor, &Tensor),
    w: Option<&Tensor>,
    geo: &Groups,
) -> Result<Tensor> {
    let gw = match w {
        Some(w) => mul(g, &reshape(w, &geo.channel_shape)?)?,
        None => g.clone(),
    };
    let (g2, x2) = (geo.rows(&gw)?, geo.rows(x)?);
    let (dx, _, _) = {
        let (x2s, ms, rs) = (x2.read(), mean.read(), rstd.read());
        g2.read()
            .layer_norm_backward(g2.layout(), (&x2s, x2.layout()), (&ms, &rs), None)?
    };
    Ok(Tensor::from_contiguous(dx, x.shape()))
}

/// The weight's and bias's gradients (float64 `[C]`) as ATen's kernel
/// forms them: per (sample, channel) Σg·x and Σg in one backend pass
/// (batch_norm's gradient sums over `[1, N·C, spatial]` with neutral
/// statistics), then dw = Σₙ (Σg·x - mean·Σg)·rstd and db = Σₙ Σg.
fn parameter_grads(
    g: &Tensor,
    x: &Tensor,
    (mean, rstd): (&Tensor, &Tensor),
    geo: &Groups,
) -> Result<(Tensor, Tensor)> {
    let planes = [1, geo.n * geo.channels, -1];
    let (g3, x3) = (reshape(g, &planes)?, reshape(x, &planes)?);
    let (zeros, ones) = neutral_stats(geo, x)?;
    let (_, sg, sgx) = {
        let (xs, z, o) = (x3.read(), zeros.read(), ones.read());
        g3.read().batch_norm_backward(
            g3.layout(),
            (&xs, x3.layout()),
            (&z, &o),
            None,
            (0.0, false),
        )?
    };
    let rows = [geo.n, geo.channels];
    let (sg, sgx) = (
        reshape(
            &Tensor::from_contiguous(sg, &[rows[0] as usize * rows[1] as usize]),
            &rows,
        )?,
        reshape(
            &Tensor::from_contiguous(sgx, &[rows[0] as usize * rows[1] as usize]),
            &rows,
        )?,
    );
    let m = reshape(&geo.per_channel(mean)?, &rows)?;
    let r = reshape(&geo.per_channel(rstd)?, &rows)?;
    let sum0 = |t: &Tensor| reduce(t, ReduceOp::Sum, Some(&[0]), false);
    Ok((sum0(&mul(&sub(&sgx, &mul(&m, &sg)?)?, &r)?)?, sum0(&sg)?))
}

/// x̂ and 1/σ over each group, in tensor ops (with history where x has one),
/// shaped as x and as `[N, C, 1]`.
fn standardised(x: &Tensor, geo: &Groups, eps: f64) -> Result<(Tensor, Tensor)> {
    let xg = reshape(x, &[geo.n, geo.groups, -1])?;
    let (mean, var) = mean_var(&xg, &[2])?;
    let rstd = un(UnaryOp::Rsqrt, &add(&var, &num(eps))?)?;
    let xhat = reshape(&mul(&sub(&xg, &mean)?, &rstd)?, &geo.shape)?;
    Ok((xhat, geo.per_channel(&rstd)?))
}

/// The gradients in tensor ops, over each group's `[C/G, spatial]`:
/// dx = (g·w - mean(g·w) - x̂·mean(g·w·x̂)) / σ, dw = Σ g·x̂ and db = Σ g
/// over the batch and the spatial dims.
fn grads(
    g: &Tensor,
    xhat: &Tensor,
    rstd: &Tensor,
    w: Option<&Tensor>,
    geo: &Groups,
    has_b: bool,
) -> Result<Vec<Option<Tensor>>> {
    let gw = match w {
        Some(w) => mul(g, &reshape(w, &geo.channel_shape)?)?,
        None => g.clone(),
    };
    let grouped = |t: &Tensor| reshape(t, &[geo.n, geo.groups, -1]);
    let mean_in_group = |t: &Tensor| reduce(&grouped(t)?, ReduceOp::Mean, Some(&[2]), true);
    let (c1, c2) = (mean_in_group(&gw)?, mean_in_group(&mul(&gw, xhat)?)?);
    let dxg = sub(&sub(&grouped(&gw)?, &c1)?, &mul(&grouped(xhat)?, &c2)?)?;
    let dx = mul(&geo.planes(&reshape(&dxg, &geo.shape)?)?, rstd)?;
    let mut out = vec![Some(reshape(&dx, &geo.shape)?)];
    let per_channel_sum = |t: &Tensor| reduce(&geo.planes(t)?, ReduceOp::Sum, Some(&[0, 2]), false);
    if w.is_some() {
        out.push(Some(per_channel_sum(&mul(g, xhat)?)?));
    }
    if has_b {
        out.push(Some(per_channel_sum(g)?));
    }
    Ok(out)
}

/// Integer or empty inputs, or parameters of another dtype, device or shape:
/// the definition in tensor ops, as one node, which refuses as PyTorch does.
fn composite(
    x: &Tensor,
    geo: &Groups,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let ins = inputs(x, w, b);
    crate::autograd::composite::composite("NativeGroupNormBackward0", &ins, |t| {
        let g = reshape(&t[0], &[geo.n, geo.groups, -1])?;
        let (mean, var) = mean_var(&g, &[2])?;
        let y = reshape(&standardise(&g, &mean, &var, eps)?, &geo.shape)?;
        affine(
            &y,
            w.map(|_| &t[1]),
            b.map(|_| &t[ins.len() - 1]),
            &geo.channel_shape,
        )
    })
}
