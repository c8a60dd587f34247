//! `torch.mkldnn_rnn_layer`: one LSTM layer over a whole sequence as one op
//! and one backward node (MkldnnRnnLayerBackward0), as PyTorch's nn.LSTM runs
//! a float32 layer on the CPU. The steps are the fused cell's
//! (nn/recurrent.rs) and the products nn.LSTM took step by step, so the
//! forward has their digits.
//!
//! What the node buys is the backward. Step by step, each step's node made
//! the hidden weight's gradient as a product of depth B (the batch) and
//! added it into the weight's gradient: fifty small products and fifty sums
//! over a sequence of fifty. Here the steps run backward for the gates'
//! gradients only, and each weight's gradient is one product over every
//! step, as oneDNN's layer computes it.

use std::sync::Arc;

use crate::autograd::rules::rule;
use crate::autograd::{Saved, is_enabled, needs_grad, no_grad, record};
use crate::error::{Result, dtype_err, shape_err, value_err};
use crate::nn::functional::linear;
use crate::nn::recurrent::{CellInputs, cell_kernel, cell_kernel_backward, fused_lstm_cell};
use crate::tensor::op::ReduceOp;
use crate::tensor::ops::arith::add;
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::join::stack;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{reshape, select, t2d};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

const NAME: &str = "MkldnnRnnLayerBackward0";

/// A layer's operands: the sequence `[T, B, I]`, the weights `[4H, I]` and
/// `[4H, H]`, the optional biases `[4H]`, the first state `[B, H]` twice, and
/// the direction (`reverse` runs from the last step to the first).
#[derive(Clone, Copy)]
pub struct LayerInputs<'a> {
    pub input: &'a Tensor,
    pub w_ih: &'a Tensor,
    pub w_hh: &'a Tensor,
    pub b_ih: Option<&'a Tensor>,
    pub b_hh: Option<&'a Tensor>,
    pub hx: &'a Tensor,
    pub cx: &'a Tensor,
    pub reverse: bool,
}

/// The layer's sizes: steps, batch, input features, hidden features.
#[derive(Clone, Copy)]
struct Dims {
    t: usize,
    b: usize,
    i: usize,
    h: usize,
}

impl LayerInputs<'_> {
    fn check(&self) -> Result<Dims> {
        let misfit = |what: &str, t: &Tensor, want: &[usize]| {
            shape_err(format!(
                "mkldnn_rnn_layer: {what} must have shape {}, got {}",
                fmt_shape(want),
                fmt_shape(t.shape())
            ))
        };
        if self.input.ndim() != 3 {
            return Err(shape_err(format!(
                "mkldnn_rnn_layer: input must be 3-D [steps, batch, features], got {}",
                fmt_shape(self.input.shape())
            )));
        }
        let (t, b, i) = (
            self.input.shape()[0],
            self.input.shape()[1],
            self.input.shape()[2],
        );
        if self.hx.ndim() != 2 || self.hx.shape()[0] != b {
            return Err(shape_err(format!(
                "mkldnn_rnn_layer: hx must be 2-D [batch, hidden] with the input's batch {b}, got {}",
                fmt_shape(self.hx.shape())
            )));
        }
        let h = self.hx.shape()[1];
        let fits = [
            ("cx", Some(self.cx), vec![b, h]),
            ("weight0", Some(self.w_ih), vec![4 * h, i]),
            ("weight1", Some(self.w_hh), vec![4 * h, h]),
            ("weight2", self.b_ih, vec![4 * h]),
            ("weight3", self.b_hh, vec![4 * h]),
        ];
        for (what, t, want) in &fits {
            if let Some(t) = t.filter(|t| t.shape() != want.as_slice()) {
                return Err(misfit(what, t, want));
            }
        }
        let all = self.all();
        let dtype = self.input.dtype();
        if !matches!(dtype, DType::F32 | DType::F64) || all.iter().any(|t| t.dtype() != dtype) {
            return Err(dtype_err(
                "mkldnn_rnn_layer: expected every tensor to be float32, or every one float64",
            ));
        }
        if all.iter().any(|t| t.device() != self.input.device()) {
            return Err(crate::error::device_err(
                "mkldnn_rnn_layer: expected every tensor on one device",
            ));
        }
        Ok(Dims { t, b, i, h })
    }

    fn all(&self) -> Vec<&Tensor> {
        [self.input, self.w_ih, self.w_hh, self.hx, self.cx]
            .into_iter()
            .chain(self.b_ih)
            .chain(self.b_hh)
            .collect()
    }

    /// The input's part of every step's gates, both biases in: as nn.LSTM
    /// added them, one product for the whole sequence.
    fn input_gates(&self) -> Result<Tensor> {
        let gates = linear(self.input, self.w_ih, self.b_ih)?;
        match self.b_hh {
            Some(b) => add(&gates, b),
            None => Ok(gates),
        }
    }
}

/// The steps in the order the layer runs them.
fn order(t: usize, reverse: bool) -> Vec<usize> {
    if reverse {
        (0..t).rev().collect()
    } else {
        (0..t).collect()
    }
}

/// (output `[T, B, H]`, hy, cy, the activated gates `[T, B, 4H]`).
pub fn lstm_layer(x: &LayerInputs) -> Result<Vec<Tensor>> {
    let d = x.check()?;
    if d.t == 0 {
        let empty = |n: usize| zeros_on(&[0, d.b, n], x.input.dtype(), x.input.device());
        return Ok(vec![
            empty(d.h)?,
            x.hx.clone(),
            x.cx.clone(),
            empty(4 * d.h)?,
        ]);
    }
    let steps = no_grad(|| Steps::run(x, d))?;
    let ys: Vec<Tensor> = steps.hidden(0..d.t)?;
    let out = no_grad(|| stack(&ys, 0))?;
    let work = no_grad(|| stack(&steps.works, 0))?;
    let last = *order(d.t, x.reverse).last().unwrap_or(&0);
    let cy = no_grad(|| select(&steps.outs[last], 0, 1)?.deep_clone())?;
    // Seven inputs, as PyTorch's node has (a missing bias is an edge to
    // nothing): the stand-ins for missing biases never take a gradient.
    let none = zeros_on(&[0], x.input.dtype(), x.input.device())?;
    let inputs: Vec<&Tensor> = vec![
        x.input,
        x.w_ih,
        x.w_hh,
        x.b_ih.unwrap_or(&none),
        x.b_hh.unwrap_or(&none),
        x.hx,
        x.cx,
    ];
    if !needs_grad(&inputs) {
        let hy = select(&out, 0, last as i64)?;
        return Ok(vec![out, hy, cy, work]);
    }
    let node = Arc::new(Backward {
        saved: inputs.iter().map(|t| Saved::new(t)).collect(),
        biases: (x.b_ih.is_some(), x.b_hh.is_some()),
        reverse: x.reverse,
        dims: d,
        steps,
    });
    let of_out = node.clone();
    let out = record(out, NAME, &inputs, true, move || {
        rule(move |g| of_out.grads(Some(g), None))
    });
    // cy's gradient runs the steps backward again, from cy alone (the
    // gradients add up: the layer is linear in its output gradients). Only a
    // loss that reads the last cell state takes this path.
    let cy = record(cy, NAME, &inputs, true, move || {
        rule(move |g| node.grads(None, Some(g)))
    });
    let hy = select(&out, 0, last as i64)?;
    Ok(vec![out, hy, cy, work])
}

/// What the forward keeps for the backward, per step in time order: the
/// cell's `[2, B, H]` output (hy, cy) and its activated gates `[B, 4H]`.
struct Steps {
    outs: Vec<Tensor>,
    works: Vec<Tensor>,
}

impl Steps {
    fn run(x: &LayerInputs, d: Dims) -> Result<Steps> {
        let gates = x.input_gates()?;
        let wt = t2d(x.w_hh)?;
        let (mut h, mut c) = (x.hx.clone(), x.cx.clone());
        let mut outs = vec![None; d.t];
        let mut works = vec![None; d.t];
        for t in order(d.t, x.reverse) {
            // The fused cell's sum: the input's gates plus the hidden part.
            let s = add(&select(&gates, 0, t as i64)?, &matmul(&h, &wt)?)?;
            let (out, work) = cell_kernel(&s, &c)?;
            h = select(&out, 0, 0)?;
            c = select(&out, 0, 1)?;
            outs[t] = Some(out);
            works[t] = Some(work);
        }
        let done = |v: Vec<Option<Tensor>>| -> Result<Vec<Tensor>> {
            v.into_iter()
                .map(|t| t.ok_or_else(|| value_err("internal: an LSTM step did not run")))
                .collect()
        };
        Ok(Steps {
            outs: done(outs)?,
            works: done(works)?,
        })
    }

    /// hy of the given steps.
    fn hidden(&self, steps: std::ops::Range<usize>) -> Result<Vec<Tensor>> {
        self.outs[steps].iter().map(|o| select(o, 0, 0)).collect()
    }
}

struct Backward {
    /// input, w_ih, w_hh, b_ih, b_hh, hx, cx (a missing bias's stand-in too).
    saved: Vec<Saved>,
    biases: (bool, bool),
    reverse: bool,
    dims: Dims,
    steps: Steps,
}

impl Backward {
    /// One gradient per input from the output's gradient, or from cy's.
    fn grads(&self, d_out: Option<&Tensor>, d_cy: Option<&Tensor>) -> Result<Vec<Option<Tensor>>> {
        let t: Vec<Tensor> = self.saved.iter().map(Saved::get).collect::<Result<_>>()?;
        if is_enabled() {
            return self.replayed(&t, d_out, d_cy);
        }
        let Dims { t: steps, b, i, h } = self.dims;
        let (dtype, device) = (t[0].dtype(), t[0].device());
        let d_out = d_out.map(|d| d.to_dtype(dtype)).transpose()?;
        let mut dh = zeros_on(&[b, h], dtype, device)?;
        let mut dc = match d_cy {
            Some(d) => d.to_dtype(dtype)?,
            None => zeros_on(&[b, h], dtype, device)?,
        };
        let order = order(steps, self.reverse);
        let mut dgates = vec![None; steps];
        for (k, &s) in order.iter().enumerate().rev() {
            let dh_s = match &d_out {
                Some(d) => add(&dh, &select(d, 0, s as i64)?)?,
                None => dh,
            };
            let dd = stack(&[dh_s, dc], 0)?;
            let c_prev = match k {
                0 => t[6].clone(),
                _ => select(&self.steps.outs[order[k - 1]], 0, 1)?,
            };
            let (dg, dcx) =
                cell_kernel_backward(&dd, &c_prev, &self.steps.outs[s], &self.steps.works[s])?;
            dc = dcx;
            dh = matmul(&dg, &t[2])?;
            dgates[s] = Some(dg);
        }
        let dgates: Vec<Tensor> = dgates.into_iter().flatten().collect();
        let dg = reshape(&stack(&dgates, 0)?, &[(steps * b) as i64, (4 * h) as i64])?;
        let dgt = t2d(&dg)?;
        let rows = |x: &Tensor, n: usize| reshape(x, &[(steps * b) as i64, n as i64]);
        let wanted = |k: usize| t[k].requires_grad();
        let d_input = match wanted(0) {
            true => Some(reshape(
                &matmul(&dg, &t[1])?,
                &[steps as i64, b as i64, i as i64],
            )?),
            false => None,
        };
        let d_w_ih = wanted(1)
            .then(|| matmul(&dgt, &rows(&t[0], i)?))
            .transpose()?;
        let d_w_hh = match wanted(2) {
            true => Some(matmul(&dgt, &rows(&self.previous_hidden(&t[5])?, h)?)?),
            false => None,
        };
        let db = (self.biases.0 || self.biases.1)
            .then(|| reduce(&dg, ReduceOp::Sum, Some(&[0]), false))
            .transpose()?;
        Ok(vec![
            d_input,
            d_w_ih,
            d_w_hh,
            db.clone().filter(|_| self.biases.0),
            db.filter(|_| self.biases.1),
            Some(dh),
            Some(dc),
        ])
    }

    /// `[T, B, H]`: the hidden state each step read (hx for the first step
    /// the layer runs, the step before it for the others), in time order.
    fn previous_hidden(&self, hx: &Tensor) -> Result<Tensor> {
        let t = self.dims.t;
        let mut hs = Vec::with_capacity(t);
        if self.reverse {
            hs.extend(self.steps.hidden(1..t)?);
            hs.push(hx.clone());
        } else {
            hs.push(hx.clone());
            hs.extend(self.steps.hidden(0..t - 1)?);
        }
        stack(&hs, 0)
    }

    /// Under create_graph: the layer run again step by step as recorded ops
    /// (the fused cell's node and the products) and differentiated with a
    /// graph, so the gradients have gradients of their own.
    fn replayed(
        &self,
        t: &[Tensor],
        d_out: Option<&Tensor>,
        d_cy: Option<&Tensor>,
    ) -> Result<Vec<Option<Tensor>>> {
        let x = LayerInputs {
            input: &t[0],
            w_ih: &t[1],
            w_hh: &t[2],
            b_ih: self.biases.0.then_some(&t[3]),
            b_hh: self.biases.1.then_some(&t[4]),
            hx: &t[5],
            cx: &t[6],
            reverse: self.reverse,
        };
        let (out, cy) = step_by_step(&x, self.dims)?;
        let (root, d) = match (d_out, d_cy) {
            (Some(d), _) => (out, d),
            (None, Some(d)) => (cy, d),
            (None, None) => return Ok(vec![None; t.len()]),
        };
        crate::autograd::engine::grad(&[root], &[Some(d.clone())], t, true, true)
    }
}

/// The layer as nn.LSTM ran it before this op: the fused cell step by step,
/// each recorded. (output, cy).
fn step_by_step(x: &LayerInputs, d: Dims) -> Result<(Tensor, Tensor)> {
    let gates = x.input_gates()?;
    let (mut h, mut c) = (x.hx.clone(), x.cx.clone());
    let mut ys = vec![None; d.t];
    for t in order(d.t, x.reverse) {
        let hidden = linear(&h, x.w_hh, None)?;
        let (hy, cy, _) = fused_lstm_cell(&CellInputs {
            input_gates: &select(&gates, 0, t as i64)?,
            hidden_gates: &hidden,
            cx: &c,
            input_bias: None,
            hidden_bias: None,
        })?;
        ys[t] = Some(hy.clone());
        (h, c) = (hy, cy);
    }
    let ys: Vec<Tensor> = ys.into_iter().flatten().collect();
    Ok((stack(&ys, 0)?, c))
}
