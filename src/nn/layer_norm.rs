//! F.layer_norm: each sample normalised over its last `normalized_shape` dims.
//! The forward and the first backward are one backend pass each (statistics,
//! output and gradients computed from a row held in the cache); a backward
//! that must itself be differentiated (create_graph) runs the same formula in
//! tensor ops instead, so that it records its own graph.

use crate::autograd::rules::rule;
use crate::autograd::{Saved, no_grad, record};
use crate::error::{Result, shape_err};
use crate::tensor::op::{ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, mul, num, sub, un};
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::reshape;
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

use super::normalization::{affine, backward_recorded, check_mixed, inputs, mean_var, named_twice};

/// What every path shares: the normalised dims, the parameters' shape, and the
/// rows × n view the backend works on.
#[derive(Clone)]
struct Geometry {
    normalized: Vec<usize>,
    dims: Vec<i64>,
    shape: Vec<i64>,
    lead: usize,
    rows: usize,
    n: usize,
}

impl Geometry {
    fn new(x: &Tensor, normalized: &[usize]) -> Result<Geometry> {
        let k = normalized.len();
        if k > x.ndim() || x.shape()[x.ndim() - k..] != *normalized {
            return Err(shape_err(format!(
                "Given normalized_shape={}, expected input with shape [*, {}], but got input of size{}",
                fmt_shape(normalized),
                normalized
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                fmt_shape(x.shape())
            )));
        }
        let lead = x.ndim() - k;
        Ok(Geometry {
            normalized: normalized.to_vec(),
            dims: (lead..x.ndim()).map(|d| d as i64).collect(),
            shape: normalized.iter().map(|&d| d as i64).collect(),
            lead,
            rows: x.shape()[..lead].iter().product(),
            n: normalized.iter().product(),
        })
    }

    /// `t` seen as `[rows, n]` (a view wherever the layout allows one).
    fn rows(&self, t: &Tensor) -> Result<Tensor> {
        no_grad(|| reshape(t, &[self.rows as i64, self.n as i64]))
    }

    /// A parameter seen as `[n]`, in x's dtype (a half-precision input's
    /// float32 parameters are rounded to it, as ATen's mixed-type kernel reads them).
    fn flat(&self, t: &Tensor, dtype: DType) -> Result<Tensor> {
        no_grad(|| reshape(&t.to_dtype(dtype)?, &[self.n as i64]))
    }
}

pub fn layer_norm(
    x: &Tensor,
    normalized: &[usize],
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let geo = Geometry::new(x, normalized)?;
    check_mixed(x, w.into_iter().chain(b))?;
    // The backend takes float parameters on x's device, of its normalised
    // shape; anything else goes through tensor ops, which refuse as PyTorch.
    let fits =
        |p: &Tensor| p.dtype().is_float() && p.device() == x.device() && p.shape() == normalized;
    if !x.dtype().is_float() || !w.into_iter().chain(b).all(fits) {
        return composite(x, &geo, w, b, eps);
    }
    let x2 = geo.rows(x)?;
    let (w2, b2) = (
        w.map(|t| geo.flat(t, x.dtype())).transpose()?,
        b.map(|t| geo.flat(t, x.dtype())).transpose()?,
    );
    let (y, mean, rstd) = {
        let (wr, br) = (w2.as_ref().map(|t| t.read()), b2.as_ref().map(|t| t.read()));
        let wl = wr.as_deref().zip(w2.as_ref().map(|t| t.layout()));
        let bl = br.as_deref().zip(b2.as_ref().map(|t| t.layout()));
        x2.read().layer_norm(x2.layout(), wl, bl, eps)?
    };
    let stats_shape = [mean.len()];
    let y = Tensor::from_contiguous(y, x.shape());
    let (mean, rstd) = (
        Tensor::from_contiguous(mean, &stats_shape),
        Tensor::from_contiguous(rstd, &stats_shape),
    );
    let ins = inputs(x, w, b);
    let (sx, sw) = (Saved::new(x), w.map(Saved::new));
    let has_b = b.is_some();
    Ok(record(
        y,
        "NativeLayerNormBackward0",
        &ins,
        true,
        move || {
            rule(move |g| {
                let x = sx.get()?;
                let w = sw.as_ref().map(Saved::get).transpose()?;
                if backward_recorded(g, &x, w.as_ref()) {
                    let (xhat, rstd) = standardised(&x, &geo, eps)?;
                    let out = grads(g, &xhat, &rstd, w.as_ref(), &geo, has_b)?;
                    return Ok(named_twice(out, "NativeLayerNormBackwardBackward0"));
                }
                let (g2, x2) = (geo.rows(&g.to_dtype(x.dtype())?)?, geo.rows(&x)?);
                let w2 = w.as_ref().map(|t| geo.flat(t, x.dtype())).transpose()?;
                let (dx, dw, db) = {
                    let wr = w2.as_ref().map(|t| t.read());
                    let wl = wr.as_deref().zip(w2.as_ref().map(|t| t.layout()));
                    let (x2s, ms, rs) = (x2.read(), mean.read(), rstd.read());
                    g2.read().layer_norm_backward(
                        g2.layout(),
                        (&x2s, x2.layout()),
                        (&ms, &rs),
                        wl,
                    )?
                };
                let param = |s| Tensor::from_contiguous(s, &geo.normalized);
                let mut out = vec![Some(Tensor::from_contiguous(dx, x.shape()))];
                if w.is_some() {
                    out.push(Some(param(dw)));
                }
                if has_b {
                    out.push(Some(param(db)));
                }
                Ok(out)
            })
        },
    ))
}

/// x̂ = (x - mean) / sqrt(var + eps) and 1 / sqrt(var + eps), over the
/// normalised dims, in tensor ops (with history where x has one).
fn standardised(x: &Tensor, geo: &Geometry, eps: f64) -> Result<(Tensor, Tensor)> {
    let (mean, var) = mean_var(x, &geo.dims)?;
    let rstd = un(UnaryOp::Rsqrt, &add(&var, &num(eps))?)?;
    Ok((mul(&sub(x, &mean)?, &rstd)?, rstd))
}

/// The gradients of x (and of w and b, when given) in tensor ops:
/// dx = (g·w - mean(g·w) - x̂·mean(g·w·x̂)) / σ over the normalised dims,
/// dw = Σ g·x̂ and db = Σ g over the leading dims.
fn grads(
    g: &Tensor,
    xhat: &Tensor,
    rstd: &Tensor,
    w: Option<&Tensor>,
    geo: &Geometry,
    has_b: bool,
) -> Result<Vec<Option<Tensor>>> {
    let dims = &geo.dims;
    let gw = match w {
        Some(w) => mul(g, &reshape(w, &geo.shape)?)?,
        None => g.clone(),
    };
    let c1 = reduce(&gw, ReduceOp::Mean, Some(dims), true)?;
    let c2 = reduce(&mul(&gw, xhat)?, ReduceOp::Mean, Some(dims), true)?;
    let dx = mul(&sub(&sub(&gw, &c1)?, &mul(xhat, &c2)?)?, rstd)?;
    let over_batch = |t: &Tensor| -> Result<Tensor> {
        let batch: Vec<i64> = (0..geo.lead as i64).collect();
        let summed = if batch.is_empty() {
            t.clone()
        } else {
            reduce(t, ReduceOp::Sum, Some(&batch), false)?
        };
        reshape(&summed, &geo.shape)
    };
    let mut out = vec![Some(dx)];
    if w.is_some() {
        out.push(Some(over_batch(&mul(g, xhat)?)?));
    }
    if has_b {
        out.push(Some(over_batch(g)?));
    }
    Ok(out)
}

/// Parameters of another dtype or device, or a complex input: x̂ and 1/σ keep
/// their own history and the rule is written in them, so it differentiates
/// twice as it stands.
fn composite(
    x: &Tensor,
    geo: &Geometry,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    eps: f64,
) -> Result<Tensor> {
    let (xhat, rstd) = standardised(x, geo, eps)?;
    // Without weight and bias the affine step hands x̂ back: the result must
    // be a tensor of its own (the node goes on it, x̂ keeps its history).
    let y = no_grad(|| affine(&xhat, w, b, &geo.shape))?;
    let y = if y.same_tensor(&xhat) {
        xhat.detached()
    } else {
        y
    };
    let ins = inputs(x, w, b);
    let (sx, sr) = (Saved::new(&xhat), Saved::new(&rstd));
    let sw = w.map(Saved::new);
    let (has_b, geo) = (b.is_some(), geo.clone());
    Ok(record(
        y,
        "NativeLayerNormBackward0",
        &ins,
        true,
        move || {
            rule(move |g| {
                let w = sw.as_ref().map(Saved::get).transpose()?;
                grads(g, &sx.get()?, &sr.get()?, w.as_ref(), &geo, has_b)
            })
        },
    ))
}
