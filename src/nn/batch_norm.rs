//! F.batch_norm: per channel (dim 1) over the batch and every other dim; in
//! training the batch's statistics are used and the running ones updated in
//! place (the variance unbiased), in evaluation the running ones. The forward
//! and the first backward are backend passes over an `[N, C, S]` view (as
//! ATen's CPU kernels: statistics and α, β in double, y = x·α + β in x's
//! dtype); a backward under create_graph runs the same formula in tensor ops.

use crate::autograd::rules::rule;
use crate::autograd::{Saved, no_grad, record};
use crate::error::{Result, value_err};
use crate::tensor::op::{ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, div, mul, neg, num, sub, un};
use crate::tensor::ops::index::write_all;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::reshape;
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

use super::normalization::{backward_recorded, check_mixed, inputs, mean_var, named_twice};

/// What every path shares: the per-channel shape `[1, C, 1, ...]`, the
/// reduced dims, how many values each channel has, and the `[N, C, S]` view.
#[derive(Clone)]
struct Geometry {
    cs: Vec<i64>,
    dims: Vec<i64>,
    per_channel: usize,
    planes: [i64; 3],
}

impl Geometry {
    fn new(x: &Tensor) -> Geometry {
        let mut cs = vec![1i64; x.ndim()];
        cs[1] = x.shape()[1] as i64;
        let (n, c) = (x.shape()[0], x.shape()[1]);
        let s: usize = x.shape()[2..].iter().product();
        Geometry {
            cs,
            dims: (0..x.ndim() as i64).filter(|&d| d != 1).collect(),
            per_channel: n * s,
            planes: [n as i64, c as i64, s as i64],
        }
    }

    fn planes(&self, t: &Tensor) -> Result<Tensor> {
        no_grad(|| reshape(t, &self.planes))
    }

    /// A per-channel tensor as float64 `[C]` filling its own buffer from
    /// the start (the backend reads such operands without a layout).
    fn channel64(&self, t: &Tensor) -> Result<Tensor> {
        let t = no_grad(|| reshape(t, &[self.planes[1]])?.to_dtype(DType::F64))?;
        if t.is_contiguous() && t.offset() == 0 && t.numel() == t.storage_len() {
            return Ok(t);
        }
        t.deep_clone()
    }
}

fn wide(t: &Tensor) -> Result<Tensor> {
    t.to_dtype(DType::F64)
}

#[allow(clippy::too_many_arguments)]
pub fn batch_norm(
    x: &Tensor,
    running_mean: Option<&Tensor>,
    running_var: Option<&Tensor>,
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> Result<Tensor> {
    if x.ndim() < 2 {
        return Err(value_err(format!(
            "Expected 2D or higher input to batch_norm (got {}D input)",
            x.ndim()
        )));
    }
    check_mixed(x, [running_mean, running_var, w, b].into_iter().flatten())?;
    let geo = Geometry::new(x);
    if training && geo.per_channel <= 1 {
        return Err(value_err(format!(
            "Expected more than 1 value per channel when training, got input size {}",
            fmt_shape(x.shape())
                .replace('[', "torch.Size([")
                .replace(']', "])")
        )));
    }
    let running = match (training, running_mean, running_var) {
        (false, Some(m), Some(v)) => Some((m, v)),
        _ => None,
    };
    let channels = x.shape()[1];
    let fits =
        |p: &&Tensor| p.dtype().is_float() && p.device() == x.device() && p.numel() == channels;
    let params = [running_mean, running_var, w, b];
    if !x.dtype().is_float() || !params.iter().flatten().all(fits) {
        return composite(
            x,
            running,
            (running_mean, running_var),
            w,
            b,
            training,
            momentum,
            eps,
        );
    }
    let x3 = geo.planes(x)?;
    let given = running
        .map(|(m, v)| Ok::<_, crate::error::Error>((geo.channel64(m)?, geo.channel64(v)?)))
        .transpose()?;
    let (w64, b64) = (
        w.map(|t| geo.channel64(t)).transpose()?,
        b.map(|t| geo.channel64(t)).transpose()?,
    );
    let (y, mean, var) = {
        let st = given.as_ref().map(|(m, v)| (m.read(), v.read()));
        let (wr, br) = (
            w64.as_ref().map(|t| t.read()),
            b64.as_ref().map(|t| t.read()),
        );
        x3.read().batch_norm(
            x3.layout(),
            st.as_ref().map(|(m, v)| (&**m, &**v)),
            wr.as_deref(),
            br.as_deref(),
            eps,
        )?
    };
    let c = [channels];
    let (mean, var) = (
        Tensor::from_contiguous(mean, &c),
        Tensor::from_contiguous(var, &c),
    );
    if training {
        no_grad(|| update_running(&geo, running_mean, running_var, &mean, &var, momentum))?;
    }
    let y = Tensor::from_contiguous(y, x.shape());
    let ins = inputs(x, w, b);
    let (sx, sw) = (Saved::new(x), w.map(Saved::new));
    let (has_b, batch_stats, b_dtype) = (b.is_some(), running.is_none(), b.map(|b| b.dtype()));
    Ok(record(
        y,
        "NativeBatchNormBackward0",
        &ins,
        true,
        move || {
            rule(move |g| {
                let x = sx.get()?;
                let w = sw.as_ref().map(Saved::get).transpose()?;
                if backward_recorded(g, &x, w.as_ref()) {
                    // Differentiable: the statistics again, with their history.
                    let (m, is) = if batch_stats {
                        let (m, v) = mean_var(&wide(&x)?, &geo.dims)?;
                        (m, un(UnaryOp::Rsqrt, &add(&v, &num(eps))?)?)
                    } else {
                        let is = un(UnaryOp::Rsqrt, &add(&var, &num(eps))?)?;
                        (reshape(&mean, &geo.cs)?, reshape(&is, &geo.cs)?)
                    };
                    let out = grads(g, &x, (&m, &is), w.as_ref(), &geo, has_b, batch_stats)?;
                    return Ok(named_twice(out, "NativeBatchNormBackwardBackward0"));
                }
                let (g3, x3) = (geo.planes(&g.to_dtype(x.dtype())?)?, geo.planes(&x)?);
                let w64 = w.as_ref().map(|t| geo.channel64(t)).transpose()?;
                let (dx, db, dw) = {
                    let wr = w64.as_ref().map(|t| t.read());
                    let (xs, ms, vs) = (x3.read(), mean.read(), var.read());
                    g3.read().batch_norm_backward(
                        g3.layout(),
                        (&xs, x3.layout()),
                        (&ms, &vs),
                        wr.as_deref(),
                        (eps, batch_stats),
                    )?
                };
                let mut out = vec![Some(Tensor::from_contiguous(dx, x.shape()))];
                if let Some(w) = &w {
                    out.push(Some(Tensor::from_contiguous(dw, &c).to_dtype(w.dtype())?));
                }
                if let Some(b) = &b_dtype {
                    out.push(Some(Tensor::from_contiguous(db, &c).to_dtype(*b)?));
                }
                Ok(out)
            })
        },
    ))
}

/// The running statistics blended with the batch's, as
/// `running·(1 - momentum) + stat·momentum` in the running statistics' own
/// dtype (PyTorch's digits), the variance unbiased.
fn update_running(
    geo: &Geometry,
    running_mean: Option<&Tensor>,
    running_var: Option<&Tensor>,
    mean: &Tensor,
    var: &Tensor,
    momentum: f64,
) -> Result<()> {
    let blend = |run: &Tensor, stat: &Tensor| -> Result<()> {
        let shape: Vec<i64> = run.shape().iter().map(|&d| d as i64).collect();
        let stat = reshape(&stat.to_dtype(run.dtype())?, &shape)?;
        let new = add(
            &mul(run, &num(1.0 - momentum))?,
            &mul(&stat, &num(momentum))?,
        )?;
        write_all(run, &new)
    };
    if let Some(m) = running_mean {
        blend(m, mean)?;
    }
    if let Some(v) = running_var {
        let n = geo.per_channel as f64;
        blend(v, &mul(var, &num(n / (n - 1.0).max(1.0)))?)?;
    }
    Ok(())
}

/// The gradients in tensor ops, given the statistics as `[1, C, 1, ...]`
/// float64 tensors: dx (through the statistics too when they are the
/// batch's), dw = Σ g·(x - mean)·σ⁻¹ and db = Σ g.
fn grads(
    g: &Tensor,
    x: &Tensor,
    (mean, invstd): (&Tensor, &Tensor),
    w: Option<&Tensor>,
    geo: &Geometry,
    has_b: bool,
    batch_stats: bool,
) -> Result<Vec<Option<Tensor>>> {
    let dt = g.dtype();
    let scale = match w {
        Some(w) => mul(invstd, &wide(&reshape(w, &geo.cs)?)?)?,
        None => invstd.clone(),
    };
    let xm = sub(x, &mean.to_dtype(dt)?)?;
    let sum_dy = reduce(g, ReduceOp::Sum, Some(&geo.dims), true)?;
    let dot = reduce(&mul(&xm, g)?, ReduceOp::Sum, Some(&geo.dims), true)?;
    let dx = if batch_stats {
        let n = num(geo.per_channel as f64);
        let k = div(&mul(&wide(&dot)?, &mul(invstd, invstd)?)?, &n)?;
        let c = div(&wide(&sum_dy)?, &n)?;
        let inner = sub(&sub(g, &c.to_dtype(dt)?)?, &mul(&xm, &k.to_dtype(dt)?)?)?;
        mul(&inner, &scale.to_dtype(dt)?)?
    } else {
        mul(g, &scale.to_dtype(dt)?)?
    };
    let channels = [geo.planes[1]];
    let mut out = vec![Some(dx)];
    if let Some(w) = w {
        let dw = mul(&wide(&dot)?, invstd)?.to_dtype(w.dtype())?;
        out.push(Some(reshape(&dw, &channels)?));
    }
    if has_b {
        out.push(Some(reshape(&sum_dy, &channels)?));
    }
    Ok(out)
}

/// Parameters or statistics of another device, length or kind: the formula in
/// tensor ops throughout (they refuse or promote as PyTorch does). The
/// statistics keep their history, so the rule also differentiates twice.
#[allow(clippy::too_many_arguments)]
fn composite(
    x: &Tensor,
    running: Option<(&Tensor, &Tensor)>,
    (running_mean, running_var): (Option<&Tensor>, Option<&Tensor>),
    w: Option<&Tensor>,
    b: Option<&Tensor>,
    training: bool,
    momentum: f64,
    eps: f64,
) -> Result<Tensor> {
    let geo = Geometry::new(x);
    let (mean, var) = match running {
        Some((m, v)) => (wide(&reshape(m, &geo.cs)?)?, wide(&reshape(v, &geo.cs)?)?),
        None => mean_var(&wide(x)?, &geo.dims)?,
    };
    if training {
        let flat = |t: &Tensor| reshape(t, &[geo.planes[1]]);
        no_grad(|| {
            update_running(
                &geo,
                running_mean,
                running_var,
                &flat(&mean)?,
                &flat(&var)?,
                momentum,
            )
        })?;
    }
    let invstd = un(UnaryOp::Rsqrt, &add(&var, &num(eps))?)?;
    let dt = x.dtype();
    let w64 = w.map(|w| wide(&reshape(w, &geo.cs)?)).transpose()?;
    let y = no_grad(|| -> Result<Tensor> {
        let alpha = match &w64 {
            Some(w) => mul(&invstd, w)?,
            None => invstd.clone(),
        };
        let shift = mul(&mean, &alpha)?;
        let beta = match b {
            Some(b) => sub(&wide(&reshape(b, &geo.cs)?)?, &shift)?,
            None => neg(&shift)?,
        };
        add(&mul(x, &alpha.to_dtype(dt)?)?, &beta.to_dtype(dt)?)
    })?;
    let ins = inputs(x, w, b);
    let (sx, sm, si) = (Saved::new(x), Saved::new(&mean), Saved::new(&invstd));
    let sw = w.map(Saved::new);
    let (has_b, batch_stats) = (b.is_some(), running.is_none());
    Ok(record(
        y,
        "NativeBatchNormBackward0",
        &ins,
        true,
        move || {
            rule(move |g| {
                let w = sw.as_ref().map(Saved::get).transpose()?;
                let stats = (&sm.get()?, &si.get()?);
                grads(g, &sx.get()?, stats, w.as_ref(), &geo, has_b, batch_stats)
            })
        },
    ))
}
