//! Rules for element-wise ops: arithmetic, unary math, clamp, where, casts.

use super::{add, as_float, div, mul, neg, num, rule, scale, sub};
use crate::autograd::{Saved, record};
use crate::backend::cpu::binary::BinaryOp;
use crate::backend::cpu::unary::UnaryOp;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::ops::elementwise::{binary, map_float, unary, where_};

/// d/dx of a unary op as a function of x, and PyTorch's node name. None: the op is
/// not differentiable (its result does not require grad).
/// A derivative as a function of the input.
type Derivative = fn(f64) -> f64;

fn unary_derivative(op: UnaryOp) -> Option<(&'static str, Derivative)> {
    use UnaryOp::*;
    use std::f64::consts::{LN_2, LN_10, PI};
    Some(match op {
        Neg => ("NegBackward0", |_| -1.0),
        Abs => ("AbsBackward0", |x| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        }),
        Sign => ("SignBackward0", |_| 0.0),
        Floor => ("FloorBackward0", |_| 0.0),
        Ceil => ("CeilBackward0", |_| 0.0),
        Round => ("RoundBackward0", |_| 0.0),
        Trunc => ("TruncBackward0", |_| 0.0),
        Frac => ("FracBackward0", |_| 1.0),
        Square => ("PowBackward0", |x| 2.0 * x),
        Relu => ("ReluBackward0", |x| if x > 0.0 { 1.0 } else { 0.0 }),
        Exp => ("ExpBackward0", f64::exp),
        Exp2 => ("Exp2Backward0", |x| x.exp2() * LN_2),
        Expm1 => ("Expm1Backward0", f64::exp),
        Log => ("LogBackward0", |x| 1.0 / x),
        Log2 => ("Log2Backward0", |x| 1.0 / (x * LN_2)),
        Log10 => ("Log10Backward0", |x| 1.0 / (x * LN_10)),
        Log1p => ("Log1PBackward0", |x| 1.0 / (1.0 + x)),
        Sqrt => ("SqrtBackward0", |x| 0.5 / x.sqrt()),
        Rsqrt => ("RsqrtBackward0", |x| -0.5 * x.powf(-1.5)),
        Sin => ("SinBackward0", f64::cos),
        Cos => ("CosBackward0", |x| -x.sin()),
        Tan => ("TanBackward0", |x| 1.0 + x.tan() * x.tan()),
        Asin => ("AsinBackward0", |x| 1.0 / (1.0 - x * x).sqrt()),
        Acos => ("AcosBackward0", |x| -1.0 / (1.0 - x * x).sqrt()),
        Atan => ("AtanBackward0", |x| 1.0 / (1.0 + x * x)),
        Sinh => ("SinhBackward0", f64::cosh),
        Cosh => ("CoshBackward0", f64::sinh),
        Tanh => ("TanhBackward0", |x| 1.0 - x.tanh() * x.tanh()),
        Sigmoid => ("SigmoidBackward0", |x| {
            let s = 1.0 / (1.0 + (-x).exp());
            s * (1.0 - s)
        }),
        Reciprocal => ("ReciprocalBackward0", |x| -1.0 / (x * x)),
        Erf => ("ErfBackward0", |x| 2.0 / PI.sqrt() * (-x * x).exp()),
        BitNot => return None,
    })
}

pub fn record_unary(op: UnaryOp, x: &Tensor, out: Tensor) -> Tensor {
    let Some((name, d)) = unary_derivative(op) else {
        return out;
    };
    let saved = Saved::new(x);
    record(out, name, &[x], true, move || {
        rule(move |g| {
            let x = saved.get()?;
            Ok(vec![Some(mul(g, &map_float(&x, d).to_dtype(g.dtype()))?)])
        })
    })
}

/// A float function of x with a known derivative (round(decimals=...), leaky_relu,
/// gelu...): one node named `name`.
pub fn record_map(
    name: &'static str,
    x: &Tensor,
    out: Tensor,
    d: impl Fn(f64) -> f64 + Send + Sync + Copy + 'static,
) -> Tensor {
    let saved = Saved::new(x);
    record(out, name, &[x], true, move || {
        rule(move |g| {
            let x = saved.get()?;
            Ok(vec![Some(mul(g, &map_float(&x, d).to_dtype(g.dtype()))?)])
        })
    })
}

fn binary_name(op: BinaryOp, a: &Tensor, b: &Tensor) -> Option<&'static str> {
    use BinaryOp::*;
    Some(match op {
        Add => "AddBackward0",
        Sub if a.is_wrapped_number() => "RsubBackward1",
        Sub => "SubBackward0",
        Mul => "MulBackward0",
        Div if a.is_wrapped_number() => "MulBackward0",
        Div => "DivBackward0",
        Pow if b.is_wrapped_number() => "PowBackward0",
        Pow if a.is_wrapped_number() => "PowBackward2",
        Pow => "PowBackward1",
        Maximum => "MaximumBackward0",
        Minimum => "MinimumBackward0",
        Atan2 => "Atan2Backward0",
        Rem => "RemainderBackward0",
        _ => return None,
    })
}

/// Gradients of `a op b` in the broadcast shape; the engine sums them back down.
pub fn record_binary(op: BinaryOp, a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
    let Some(name) = binary_name(op, a, b) else {
        return out;
    };
    let (sa, sb, so) = (Saved::new(a), Saved::new(b), Saved::output(&out));
    let (need_a, need_b) = (a.requires_grad(), b.requires_grad());
    let saves = !matches!(op, BinaryOp::Add | BinaryOp::Sub);
    record(out.clone(), name, &[a, b], saves, move || {
        rule(move |g| {
            use BinaryOp::*;
            let (ga, gb) = match op {
                Add => (Some(g.clone()), Some(g.clone())),
                Sub => (Some(g.clone()), Some(neg(g)?)),
                Mul => (
                    need_a.then(|| mul(g, &sb.get()?)).transpose()?,
                    need_b.then(|| mul(g, &sa.get()?)).transpose()?,
                ),
                Div => {
                    let b = sb.get()?;
                    let ga = div(g, &b)?;
                    let gb = if need_b {
                        Some(neg(&mul(&ga, &div(&sa.get()?, &b)?)?)?)
                    } else {
                        None
                    };
                    (Some(ga), gb)
                }
                Pow => pow_grads(g, &sa.get()?, &sb.get()?, &so.get()?, need_a, need_b)?,
                Maximum | Minimum => {
                    let (a, b) = (sa.get()?, sb.get()?);
                    let winner = if op == Maximum { Gt } else { Lt };
                    let wins = as_float(&binary(winner, &a, &b)?, g);
                    let ties = scale(&as_float(&binary(Eq, &a, &b)?, g), 0.5)?;
                    let share_a = add(&wins, &ties)?;
                    let ga = mul(g, &share_a)?;
                    let gb = sub(g, &ga)?;
                    (Some(ga), Some(gb))
                }
                Atan2 => {
                    let (a, b) = (sa.get()?, sb.get()?);
                    let r2 = add(&mul(&a, &a)?, &mul(&b, &b)?)?;
                    (
                        Some(mul(g, &div(&b, &r2)?)?),
                        Some(neg(&mul(g, &div(&a, &r2)?)?)?),
                    )
                }
                Rem => {
                    let q = binary(FloorDiv, &sa.get()?, &sb.get()?)?;
                    (Some(g.clone()), Some(neg(&mul(g, &q)?)?))
                }
                _ => (None, None),
            };
            Ok(vec![ga, gb])
        })
    })
}

/// d(a**b)/da = b a^(b-1); d/db = a^b ln a (taken as 0 where a = 0 and b >= 0, as PyTorch).
fn pow_grads(
    g: &Tensor,
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    need_a: bool,
    need_b: bool,
) -> Result<(Option<Tensor>, Option<Tensor>)> {
    let ga = if need_a {
        let bm1 = sub(b, &num(1.0))?;
        let d = mul(b, &binary(BinaryOp::Pow, a, &bm1)?)?;
        // b = 0 gives 0 * a^-1, which is nan at a = 0; PyTorch masks it to 0.
        let zero_exp = binary(BinaryOp::Eq, b, &num(0.0))?;
        let d = where_(&zero_exp, &num(0.0), &d)?;
        Some(mul(g, &d)?)
    } else {
        None
    };
    let gb = if need_b {
        let ln = unary(UnaryOp::Log, a)?;
        let d = mul(out, &ln)?;
        let mask = binary(
            BinaryOp::LogicalAnd,
            &binary(BinaryOp::Eq, a, &num(0.0))?,
            &binary(BinaryOp::Ge, b, &num(0.0))?,
        )?;
        let d = where_(&mask, &num(0.0), &d)?;
        Some(mul(g, &d)?)
    } else {
        None
    };
    Ok((ga, gb))
}

/// clamp: the gradient passes where the input was inside the bounds (inclusive).
pub fn record_clamp(x: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>, out: Tensor) -> Tensor {
    let name = match (min, max) {
        (Some(lo), Some(hi)) if lo.is_wrapped_number() && hi.is_wrapped_number() => {
            "ClampBackward1"
        }
        (Some(lo), None) if lo.is_wrapped_number() => "ClampBackward1",
        (None, Some(hi)) if hi.is_wrapped_number() => "ClampBackward1",
        _ => "ClampBackward0",
    };
    let sx = Saved::new(x);
    let (slo, shi) = (min.map(Saved::new), max.map(Saved::new));
    let mut inputs = vec![x];
    inputs.extend(min);
    inputs.extend(max);
    let has_min = min.is_some();
    record(out, name, &inputs, true, move || {
        rule(move |g| {
            let x = sx.get()?;
            let mut pass = Tensor::scalar_i64(1, crate::tensor::DType::Bool);
            let mut grads = vec![];
            let mut bound_grads = vec![];
            for (s, cmp) in [(&slo, BinaryOp::Ge), (&shi, BinaryOp::Le)] {
                if let Some(s) = s {
                    let bound = s.get()?;
                    let inside = binary(cmp, &x, &bound)?;
                    // The bound gets the gradient where it was the value chosen.
                    let flip = if cmp == BinaryOp::Ge {
                        BinaryOp::Lt
                    } else {
                        BinaryOp::Gt
                    };
                    bound_grads.push(Some(mul(g, &as_float(&binary(flip, &x, &bound)?, g))?));
                    pass = binary(BinaryOp::LogicalAnd, &pass, &inside)?;
                }
            }
            grads.push(Some(mul(g, &as_float(&pass, g))?));
            grads.extend(bound_grads);
            let _ = has_min;
            Ok(grads)
        })
    })
}

pub fn record_where(cond: &Tensor, a: &Tensor, b: &Tensor, out: Tensor) -> Tensor {
    let c = cond.to_dtype(crate::tensor::DType::Bool);
    record(out, "WhereBackward0", &[cond, a, b], false, move || {
        rule(move |g| {
            let zero = num(0.0);
            Ok(vec![
                None,
                Some(where_(&c, g, &zero)?),
                Some(where_(&c, &zero, g)?),
            ])
        })
    })
}

/// A dtype conversion or copy: the gradient passes through (the engine casts it).
pub fn record_identity(name: &'static str, x: &Tensor, out: Tensor) -> Tensor {
    record(out, name, &[x], false, || {
        rule(|g| Ok(vec![Some(g.clone())]))
    })
}
