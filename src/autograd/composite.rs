//! Ops that PyTorch differentiates as one node but tsh computes as a composition
//! of other ops (mse_loss, linear, conv2d...). The composition runs on detached
//! stand-ins for the inputs and records its own small graph; the result gets a
//! single node, with PyTorch's name, whose rule runs that inner graph backward.
//! So `:graph` and `grad_fn.next_functions` show PyTorch's graph, and no backward
//! formula has to be written twice.

use super::engine;
use super::rules::rule;
use super::{needs_grad, record};
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::ops::arith::add;

/// Compute `f(inputs)` and record it as one node named `name`.
pub fn composite(
    name: &'static str,
    inputs: &[&Tensor],
    f: impl FnOnce(&[Tensor]) -> Result<Tensor>,
) -> Result<Tensor> {
    if !needs_grad(inputs) {
        let plain: Vec<Tensor> = inputs.iter().map(|t| (*t).clone()).collect();
        return f(&plain);
    }
    let stand_ins: Vec<Tensor> = inputs
        .iter()
        .map(|t| {
            let s = t.detached();
            s.set_requires_grad(t.requires_grad());
            s
        })
        .collect();
    let inner = f(&stand_ins)?;
    // The composition handed an input back unchanged: that input is the result.
    if let Some(i) = stand_ins.iter().position(|s| s.same_tensor(&inner)) {
        return Ok(inputs[i].clone());
    }
    let Some(root) = inner.grad_fn() else {
        return Ok(inner);
    };
    let out = inner.detached();
    Ok(record(out, name, inputs, true, move || {
        rule(move |g| {
            let mut grads: Vec<Option<Tensor>> = vec![None; stand_ins.len()];
            engine::run(root.clone(), g.clone(), true, &mut |leaf, grad| {
                if let Some(i) = stand_ins.iter().position(|s| s.same_tensor(leaf)) {
                    grads[i] = Some(match grads[i].take() {
                        Some(prev) => add(&prev, &grad)?,
                        None => grad,
                    });
                }
                Ok(())
            })?;
            Ok(grads)
        })
    }))
}
