//! `torch._thnn_fused_lstm_cell`: one step of an LSTM cell as one op and one
//! backward node, as ATen's fused cell: the gates (the input's and the hidden
//! state's parts, plus their biases) give i, f, g, o; cy = σ(f)·cx +
//! σ(i)·tanh(g), hy = σ(o)·tanh(cy). nn.LSTM runs its steps through it: eleven
//! element-wise ops and their backward nodes per step before.
//!
//! float32 and float64 run the backends' fused passes (the composite's
//! arithmetic and digits); other float dtypes, and a backward under
//! create_graph, run the same formulas in tensor ops.

use crate::autograd::rules::rule;
use crate::autograd::{Saved, is_enabled, needs_grad, no_grad, record};
use crate::error::{Result, dtype_err, shape_err};
use crate::tensor::op::{ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, mul, num, sub, un};
use crate::tensor::ops::join::cat;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{narrow, select};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

/// The cell's operands: the gates' two parts `[B, 4H]`, the cell state
/// `[B, H]` and the optional biases `[4H]`.
pub struct CellInputs<'a> {
    pub input_gates: &'a Tensor,
    pub hidden_gates: &'a Tensor,
    pub cx: &'a Tensor,
    pub input_bias: Option<&'a Tensor>,
    pub hidden_bias: Option<&'a Tensor>,
}

impl CellInputs<'_> {
    fn all(&self) -> Vec<&Tensor> {
        [self.input_gates, self.hidden_gates, self.cx]
            .into_iter()
            .chain(self.input_bias)
            .chain(self.hidden_bias)
            .collect()
    }

    /// B and H, once every operand's shape, dtype and device agree.
    fn check(&self) -> Result<(usize, usize)> {
        let cx = self.cx;
        if cx.ndim() != 2 {
            return Err(shape_err(format!(
                "_thnn_fused_lstm_cell: cx must be 2-D [batch, hidden], got {}",
                fmt_shape(cx.shape())
            )));
        }
        let (b, h) = (cx.shape()[0], cx.shape()[1]);
        let gates = [b, 4 * h];
        for (name, t) in [
            ("input_gates", self.input_gates),
            ("hidden_gates", self.hidden_gates),
        ] {
            if t.shape() != gates {
                return Err(shape_err(format!(
                    "_thnn_fused_lstm_cell: {name} must have shape {} (4 gates for cx's {}), got {}",
                    fmt_shape(&gates),
                    fmt_shape(cx.shape()),
                    fmt_shape(t.shape())
                )));
            }
        }
        for (name, t) in [
            ("input_bias", self.input_bias),
            ("hidden_bias", self.hidden_bias),
        ] {
            if let Some(t) = t.filter(|t| t.shape() != [4 * h]) {
                return Err(shape_err(format!(
                    "_thnn_fused_lstm_cell: {name} must have shape {}, got {}",
                    fmt_shape(&[4 * h]),
                    fmt_shape(t.shape())
                )));
            }
        }
        let all = self.all();
        if !cx.dtype().is_float() || all.iter().any(|t| t.dtype() != cx.dtype()) {
            return Err(dtype_err(
                "_thnn_fused_lstm_cell: expected every tensor to have one floating dtype",
            ));
        }
        if all.iter().any(|t| t.device() != cx.device()) {
            return Err(crate::error::device_err(
                "_thnn_fused_lstm_cell: expected every tensor on one device",
            ));
        }
        Ok((b, h))
    }

    /// input_gates + hidden_gates (+ input_bias) (+ hidden_bias), in ATen's order.
    fn gates(&self) -> Result<Tensor> {
        let mut s = add(self.input_gates, self.hidden_gates)?;
        for b in [self.input_bias, self.hidden_bias].into_iter().flatten() {
            s = add(&s, b)?;
        }
        Ok(s)
    }
}

/// (hy, cy, workspace): hy and cy `[B, H]`, the activated gates `[B, 4H]`
/// (σ(i), σ(f), tanh(g), σ(o); no gradient flows through them).
pub fn fused_lstm_cell(x: &CellInputs) -> Result<(Tensor, Tensor, Tensor)> {
    x.check()?;
    if !matches!(x.cx.dtype(), DType::F32 | DType::F64) {
        return composite(x);
    }
    let gates = no_grad(|| x.gates())?;
    let (out, work) = cell_kernel(&gates, x.cx)?;
    let inputs = x.all();
    if !needs_grad(&inputs) {
        // A step under no_grad (inference) saves nothing.
        return Ok((select(&out, 0, 0)?, select(&out, 0, 1)?, work));
    }
    let saved: Vec<Saved> = inputs.iter().map(|t| Saved::new(t)).collect();
    let (s_out, s_work) = (Saved::output(&out), Saved::new(&work));
    let (has_ib, has_hb) = (x.input_bias.is_some(), x.hidden_bias.is_some());
    let out = record(
        out,
        "ThnnFusedLstmCellBackward0",
        &x.all(),
        true,
        move || {
            rule(move |d| {
                let t: Vec<Tensor> = saved.iter().map(Saved::get).collect::<Result<_>>()?;
                let mut rest = t[3..].iter();
                let (ib, hb) = (has_ib.then(|| rest.next()), has_hb.then(|| rest.next()));
                let x = CellInputs {
                    input_gates: &t[0],
                    hidden_gates: &t[1],
                    cx: &t[2],
                    input_bias: ib.flatten(),
                    hidden_bias: hb.flatten(),
                };
                if is_enabled() {
                    return composite_grads(d, &x);
                }
                let (out, work) = (s_out.get()?, s_work.get()?);
                let d = d.to_dtype(out.dtype())?;
                let (dgates, dcx) = cell_kernel_backward(&d, x.cx, &out, &work)?;
                cell_grads(dgates, dcx, &x)
            })
        },
    );
    Ok((select(&out, 0, 0)?, select(&out, 0, 1)?, work))
}

/// The backend's fused cell on the gates' sum `[B, 4H]` and cx `[B, H]`:
/// (`[2, B, H]` hy then cy, the activated gates `[B, 4H]`).
pub(crate) fn cell_kernel(gates: &Tensor, cx: &Tensor) -> Result<(Tensor, Tensor)> {
    let (b, h) = (cx.shape()[0], cx.shape()[1]);
    let (out, work) = {
        let (g, c) = (gates.read(), cx.read());
        g.lstm_cell(gates.layout(), (&c, cx.layout()))?
    };
    Ok((
        Tensor::from_contiguous(out, &[2, b, h]),
        Tensor::from_contiguous(work, &[b, 4 * h]),
    ))
}

/// cell_kernel's gradient from `d` `[2, B, H]` (hy's, then cy's), given its
/// cx and what it returned: (the gates' gradient `[B, 4H]`, cx's `[B, H]`).
pub(crate) fn cell_kernel_backward(
    d: &Tensor,
    cx: &Tensor,
    out: &Tensor,
    work: &Tensor,
) -> Result<(Tensor, Tensor)> {
    let (b, h) = (cx.shape()[0], cx.shape()[1]);
    let (dg, dc) = {
        let (ds, cs, os, ws) = (d.read(), cx.read(), out.read(), work.read());
        ds.lstm_cell_backward(d.layout(), (&cs, cx.layout()), &os, &ws)?
    };
    Ok((
        Tensor::from_contiguous(dg, &[b, 4 * h]),
        Tensor::from_contiguous(dc, &[b, h]),
    ))
}

/// One gradient per input: the gates' gradient for both parts of the gates
/// and, summed over the batch, for each bias given.
fn cell_grads(dgates: Tensor, dcx: Tensor, x: &CellInputs) -> Result<Vec<Option<Tensor>>> {
    let biases = x.input_bias.iter().chain(&x.hidden_bias).count();
    let mut grads = vec![Some(dgates.clone()), Some(dgates.clone()), Some(dcx)];
    if biases > 0 {
        let db = reduce(&dgates, ReduceOp::Sum, Some(&[0]), false)?;
        grads.extend(std::iter::repeat_n(Some(db), biases));
    }
    Ok(grads)
}

/// σ(i), σ(f), tanh(g), σ(o) of the gates, in tensor ops.
fn activations(gates: &Tensor) -> Result<[Tensor; 4]> {
    let h = gates.shape()[1] as i64 / 4;
    let part = |k: i64| narrow(gates, 1, k * h, h);
    Ok([
        un(UnaryOp::Sigmoid, &part(0)?)?,
        un(UnaryOp::Sigmoid, &part(1)?)?,
        un(UnaryOp::Tanh, &part(2)?)?,
        un(UnaryOp::Sigmoid, &part(3)?)?,
    ])
}

/// The cell in tensor ops (its own graph): float16 and bfloat16.
fn composite(x: &CellInputs) -> Result<(Tensor, Tensor, Tensor)> {
    let [i, f, g, o] = activations(&x.gates()?)?;
    let cy = add(&mul(&f, x.cx)?, &mul(&i, &g)?)?;
    let hy = mul(&o, &un(UnaryOp::Tanh, &cy)?)?;
    let work = no_grad(|| cat(&[i, f, g, o], 1))?;
    Ok((hy, cy, work))
}

/// The backward's formulas in tensor ops, for a backward under create_graph:
/// recorded, so the gradients have gradients of their own.
fn composite_grads(d: &Tensor, x: &CellInputs) -> Result<Vec<Option<Tensor>>> {
    let [i, f, g, o] = activations(&x.gates()?)?;
    let cy = add(&mul(&f, x.cx)?, &mul(&i, &g)?)?;
    let tc = un(UnaryOp::Tanh, &cy)?;
    let (dh, dc) = (select(d, 0, 0)?, select(d, 0, 1)?);
    let one = num(1.0);
    let sigmoid_slope = |y: &Tensor| mul(y, &sub(&one, y)?);
    let d_o = mul(&dh, &tc)?;
    let dcy = add(&mul(&mul(&dh, &o)?, &sub(&one, &mul(&tc, &tc)?)?)?, &dc)?;
    let dgates = cat(
        &[
            mul(&mul(&dcy, &g)?, &sigmoid_slope(&i)?)?,
            mul(&mul(&dcy, x.cx)?, &sigmoid_slope(&f)?)?,
            mul(&mul(&dcy, &i)?, &sub(&one, &mul(&g, &g)?)?)?,
            mul(&d_o, &sigmoid_slope(&o)?)?,
        ],
        1,
    )?;
    let dcx = mul(&dcy, &f)?;
    cell_grads(dgates, dcx, x)
}
