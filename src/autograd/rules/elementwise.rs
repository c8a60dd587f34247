//! Rules for element-wise ops: the derivatives come from the op rows
//! (tensor::op); clamp, where, lerp and copies are here.

use super::rule;
use crate::autograd::{Saved, needs_grad, record};
use crate::tensor::Tensor;
use crate::tensor::op::unary::Saves;
use crate::tensor::op::{BinaryOp, UnaryOp};
use crate::tensor::ops::arith::{cmp, mul, num, sub, where_};

/// A unary op: `x0` is what the user passed, `x` the same in the compute dtype.
/// The rule keeps only what the derivative reads (the input or the output).
pub fn record_unary(op: UnaryOp, x0: &Tensor, x: &Tensor, out: Tensor) -> Tensor {
    let row = op.row();
    let Some(d) = row.derivative else {
        return out;
    };
    // Nothing saved (a tensor clone each, a view for the output) where
    // nothing will be recorded: most ops outside training.
    if !needs_grad(&[x0]) {
        return out;
    }
    let sx = (row.saves == Saves::Input).then(|| Saved::new(x));
    let so = (row.saves == Saves::Output).then(|| Saved::output(&out));
    record(
        out,
        row.grad_fn,
        &[x0],
        row.saves != Saves::Neither,
        move || {
            rule(move |g| {
                let x = match &sx {
                    Some(s) => s.get()?,
                    None => g.clone(),
                };
                let y = match &so {
                    Some(s) => s.get()?,
                    None => g.clone(),
                };
                Ok(vec![Some(d(&x, &y, g)?)])
            })
        },
    )
}

/// Gradients of `a op b` in the broadcast shape; the engine sums them back down.
pub fn record_binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
    let Some(d) = op.row().derivative else {
        return out;
    };
    // Nothing saved (a tensor clone each, a view for the output) where
    // nothing will be recorded: most ops outside training.
    if !needs_grad(&[a, b]) {
        return out;
    }
    let name = op.grad_fn(a.is_wrapped_number(), b.is_wrapped_number());
    let so = op.derivative_reads_output().then(|| Saved::output(&out));
    // add and sub keep nothing; the others keep both operands.
    let saves = !matches!(op, BinaryOp::Add | BinaryOp::Sub);
    let (sa, sb) = (saves.then(|| Saved::new(a)), saves.then(|| Saved::new(b)));
    let need = [a.requires_grad(), b.requires_grad()];
    record(out, name, &[a, b], saves, move || {
        rule(move |g| {
            let get = |s: &Option<Saved>| match s {
                Some(s) => s.get(),
                None => Ok(g.clone()),
            };
            let [ga, gb] = d(&get(&sa)?, &get(&sb)?, &get(&so)?, g, need)?;
            Ok(vec![ga, gb])
        })
    })
}

/// clamp, as PyTorch 2.15 differentiates it: the gradient passes where the
/// input was strictly inside the bounds. At a Python-number bound it stops; at
/// a tensor bound it is shared half and half with that bound, which also gets
/// all of it where the input was beyond it.
pub fn record_clamp(x: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>, out: Tensor) -> Tensor {
    let number = |b: Option<&Tensor>| b.is_none_or(|t| t.is_wrapped_number());
    let name = if number(min) && number(max) {
        "ClampBackward1"
    } else {
        "ClampBackward0"
    };
    let sx = Saved::new(x);
    let bound = |b: Option<&Tensor>| b.map(|t| (Saved::new(t), t.is_wrapped_number()));
    let (slo, shi) = (bound(min), bound(max));
    let mut inputs = vec![x];
    inputs.extend(min);
    inputs.extend(max);
    record(out, name, &inputs, true, move || {
        rule(move |g| {
            let x = sx.get()?;
            let zero = num(0.0);
            let half = mul(g, &num(0.5))?;
            let mut pass = g.clone();
            let mut bound_grads = vec![];
            for (s, inside, beyond) in [
                (&slo, BinaryOp::Gt, BinaryOp::Lt),
                (&shi, BinaryOp::Lt, BinaryOp::Gt),
            ] {
                let Some((s, is_number)) = s else { continue };
                let b = s.get()?;
                let at = cmp(BinaryOp::Eq, &x, &b)?;
                let at_share = if *is_number { &zero } else { &half };
                // where, not a product: a NaN gradient stays out where it is not passed.
                let elsewhere = where_(
                    &at,
                    &mul(&pass, &num(if *is_number { 0.0 } else { 0.5 }))?,
                    &zero,
                )?;
                pass = where_(&cmp(inside, &x, &b)?, &pass, &elsewhere)?;
                let taken = where_(&at, at_share, &zero)?;
                bound_grads.push(Some(where_(&cmp(beyond, &x, &b)?, g, &taken)?));
            }
            let mut grads = vec![Some(pass)];
            grads.extend(bound_grads);
            Ok(grads)
        })
    })
}

pub fn record_where(cond: &Tensor, a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
    let c = Saved::new(cond);
    record(out, "WhereBackward0", &[cond, a, b], false, move || {
        rule(move |g| {
            let c = c.get()?;
            let zero = num(0.0);
            Ok(vec![
                None,
                Some(where_(&c, g, &zero)?),
                Some(where_(&c, &zero, g)?),
            ])
        })
    })
}

/// lerp(start, end, w) = start + w (end - start).
pub fn record_lerp(start: &Tensor, end: &Tensor, w: &Tensor, out: Tensor) -> Tensor {
    let (ss, se, sw) = (Saved::new(start), Saved::new(end), Saved::new(w));
    let name = if w.is_wrapped_number() {
        "LerpBackward0"
    } else {
        "LerpBackward1"
    };
    record(out, name, &[start, end, w], true, move || {
        rule(move |g| {
            let w = sw.get()?;
            let to_end = mul(g, &w)?;
            let to_start = sub(g, &to_end)?;
            let to_w = mul(g, &sub(&se.get()?, &ss.get()?)?)?;
            Ok(vec![Some(to_start), Some(to_end), Some(to_w)])
        })
    })
}

/// `a + b * c`: the gradient passes to a, times c to b and times b to c.
/// Each factor is kept only where the other needs it (add with alpha keeps
/// no tensor, as PyTorch's AddBackward0 keeps none).
pub fn record_fused_multiply_add(
    name: &'static str,
    a: &Tensor,
    b: &Tensor,
    c: &Tensor,
    out: Tensor,
) -> Tensor {
    let sb = c.requires_grad().then(|| Saved::new(b));
    let sc = b.requires_grad().then(|| Saved::new(c));
    let saves = sb.is_some() || sc.is_some();
    record(out, name, &[a, b, c], saves, move || {
        rule(move |g| {
            let times = |s: &Option<Saved>| -> crate::error::Result<Option<Tensor>> {
                s.as_ref().map(|s| mul(g, &s.get()?)).transpose()
            };
            Ok(vec![Some(g.clone()), times(&sc)?, times(&sb)?])
        })
    })
}

/// A dtype conversion or copy: the gradient passes through (the engine casts it).
pub fn record_identity(name: &'static str, x: &Tensor, out: Tensor) -> Tensor {
    record(out, name, &[x], false, || {
        rule(|g| Ok(vec![Some(g.clone())]))
    })
}
