//! torch.special's composites over the element-wise special functions:
//! Hurwitz zeta and polygamma (Euler–Maclaurin), the normal distribution's
//! ndtr/ndtri/log_ndtr, entr, xlog1py, multigammaln. Written in tensor ops, so
//! they run on every device and differentiate by their parts.

use crate::autograd::relabel;
use crate::error::{Result, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::op::{BinaryOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, mul, neg, num, scale, sub, un, where_};
use crate::tensor::promote::to_float;
use std::f64::consts::{LN_2, PI, SQRT_2};

/// Integers and bools become the default float dtype, as torch.special's ops do.
fn floating(x: &Tensor) -> Result<Tensor> {
    x.to_dtype(to_float(x.dtype()))
}

fn pow(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    bin(BinaryOp::Pow, a, b)
}

/// ζ(s, q) = Σₖ (q + k)^-s (s > 1, q > 0): ten terms, then the Euler–Maclaurin
/// tail with six Bernoulli terms (good to ~1e-16, as Cephes' zeta).
pub fn zeta(s: &Tensor, q: &Tensor) -> Result<Tensor> {
    const M: usize = 10;
    // B₂ⱼ / (2j)!
    const B: [f64; 6] = [
        1.0 / 12.0,
        -1.0 / 720.0,
        1.0 / 30240.0,
        -1.0 / 1209600.0,
        1.0 / 47900160.0,
        -691.0 / 1307674368000.0,
    ];
    let (s, q) = (floating(s)?, floating(q)?);
    let neg_s = neg(&s)?;
    let mut sum = pow(&q, &neg_s)?;
    for k in 1..M {
        sum = add(&sum, &pow(&add(&q, &num(k as f64))?, &neg_s)?)?;
    }
    let z = add(&q, &num(M as f64))?;
    let one_minus_s = sub(&num(1.0), &s)?;
    sum = add(&sum, &div(&pow(&z, &one_minus_s)?, &neg(&one_minus_s)?)?)?;
    let z_neg_s = pow(&z, &neg_s)?;
    sum = add(&sum, &scale(&z_neg_s, 0.5)?)?;
    let z2 = mul(&z, &z)?;
    let mut rising = s.clone();
    let mut zpow = div(&z_neg_s, &z)?;
    for (j, b) in B.iter().enumerate() {
        sum = add(&sum, &scale(&mul(&rising, &zpow)?, *b)?)?;
        let a = (2 * j + 1) as f64;
        rising = mul(&rising, &mul(&add(&s, &num(a))?, &add(&s, &num(a + 1.0))?)?)?;
        zpow = div(&zpow, &z2)?;
    }
    Ok(relabel(sum, "SpecialZetaBackward0"))
}

/// ψ⁽ⁿ⁾(x): digamma, trigamma, and (-1)ⁿ⁺¹ n! ζ(n + 1, x) beyond.
pub fn polygamma(n: i64, x: &Tensor) -> Result<Tensor> {
    let x = floating(x)?;
    match n {
        n if n < 0 => Err(value_err("polygamma(n, x) does not support negative n.")),
        0 => un(UnaryOp::Digamma, &x),
        1 => un(UnaryOp::Trigamma, &x),
        n => {
            // n! as ATen computes it, exp(lgamma(n + 1)) in the input's own
            // precision (in float32 it is not exactly n!).
            let fact = if x.dtype() == crate::tensor::DType::F64 {
                crate::tensor::op::math::libm::lgamma(n as f64 + 1.0).exp()
            } else {
                crate::tensor::op::math::libm::lgammaf(n as f32 + 1.0).exp() as f64
            };
            let sign = if n % 2 == 1 { 1.0 } else { -1.0 };
            let z = zeta(&num(n as f64 + 1.0).to_dtype(x.dtype())?, &x)?;
            Ok(relabel(scale(&z, sign * fact)?, "PolygammaBackward0"))
        }
    }
}

/// Φ(x), the standard normal CDF, as ATen writes it: (1 + erf(x/√2)) / 2.
pub fn ndtr(x: &Tensor) -> Result<Tensor> {
    let x = floating(x)?;
    scale(
        &add(&un(UnaryOp::Erf, &scale(&x, 1.0 / SQRT_2)?)?, &num(1.0))?,
        0.5,
    )
}

/// Φ⁻¹(p) = √2 erfinv(2p - 1).
pub fn ndtri(p: &Tensor) -> Result<Tensor> {
    let p = floating(p)?;
    scale(
        &un(UnaryOp::Erfinv, &sub(&scale(&p, 2.0)?, &num(1.0))?)?,
        SQRT_2,
    )
}

/// log Φ(x) in f64, from the tail that does not round away: log1p(-erfc(x/√2)/2)
/// above 0; below, log(erfc(t)/2) with t = -x/√2, or its asymptotic form
/// -t² - ln(t√π) + ln(1 - 1/2t² + 3/4t⁴) - ln 2 where erfc underflows.
pub fn log_ndtr(x: &Tensor) -> Result<Tensor> {
    let x = floating(x)?;
    let dtype = x.dtype();
    let x = x.to_dtype(crate::tensor::dtype::DType::F64)?;
    let t = scale(&x, -1.0 / SQRT_2)?;
    let erfc_t = un(UnaryOp::Erfc, &t)?;
    let low = sub(&un(UnaryOp::Log, &erfc_t)?, &num(LN_2))?;
    let it2 = un(UnaryOp::Reciprocal, &mul(&t, &t)?)?;
    let series = add(&scale(&it2, -0.5)?, &scale(&mul(&it2, &it2)?, 0.75)?)?;
    let far = sub(
        &sub(&un(UnaryOp::Log1p, &series)?, &mul(&t, &t)?)?,
        &add(&un(UnaryOp::Log, &scale(&t, PI.sqrt())?)?, &num(LN_2))?,
    )?;
    let low = where_(&cmp(BinaryOp::Gt, &t, &num(20.0))?, &far, &low)?;
    let upper_tail = scale(&un(UnaryOp::Erfc, &neg(&t)?)?, -0.5)?;
    let high = un(UnaryOp::Log1p, &upper_tail)?;
    where_(&cmp(BinaryOp::Lt, &x, &num(0.0))?, &low, &high)?.to_dtype(dtype)
}

/// -x ln x: 0 at 0, -inf below.
pub fn entr(x: &Tensor) -> Result<Tensor> {
    let x = floating(x)?;
    let v = neg(&mul(&x, &un(UnaryOp::Log, &x)?)?)?;
    let v = where_(&cmp(BinaryOp::Eq, &x, &num(0.0))?, &num(0.0), &v)?;
    where_(
        &cmp(BinaryOp::Lt, &x, &num(0.0))?,
        &num(f64::NEG_INFINITY),
        &v,
    )
}

/// x·log1p(y), and 0 where x is 0 (unless y is NaN).
pub fn xlog1py(x: &Tensor, y: &Tensor) -> Result<Tensor> {
    let (x, y) = (floating(x)?, floating(y)?);
    let v = mul(&x, &un(UnaryOp::Log1p, &y)?)?;
    let zero = bin(
        BinaryOp::LogicalAnd,
        &cmp(BinaryOp::Eq, &x, &num(0.0))?,
        &cmp(BinaryOp::Eq, &y, &y)?,
    )?;
    where_(&zero, &num(0.0), &v)
}

/// log Γ_p(a) = p(p-1)/4 ln π + Σⱼ lgamma(a - j/2), j < p.
pub fn multigammaln(a: &Tensor, p: i64) -> Result<Tensor> {
    use crate::tensor::op::ReduceOp;
    use crate::tensor::ops::reduce::reduce;
    if p < 1 {
        return Err(value_err("p has to be greater than or equal to 1"));
    }
    let a = floating(a)?;
    let half_p = (p - 1) as f64 / 2.0;
    // PyTorch's check (a NaN fails it too).
    let above = reduce(
        &cmp(BinaryOp::Gt, &a, &num(half_p))?,
        ReduceOp::All,
        None,
        false,
    )?;
    if !crate::tensor::ops::scalar::item_bool(&above)? {
        return Err(value_err("All elements must be greater than (p-1)/2"));
    }
    // As PyTorch: lgamma of a - (p-1)/2, ..., a - 1/2, a along a new last dim,
    // summed (one op, so a huge p is a memory error rather than a long loop).
    let steps = crate::tensor::ops::creation::arange_on(p as usize, a.device())?;
    let offsets = sub(&scale(&steps.to_dtype(a.dtype())?, 0.5)?, &num(half_p))?;
    let args = add(&crate::tensor::ops::view::unsqueeze(&a, -1)?, &offsets)?;
    let sum = reduce(
        &un(UnaryOp::Lgamma, &args)?,
        ReduceOp::Sum,
        Some(&[-1]),
        false,
    )?;
    add(&sum, &num(p as f64 * (p - 1) as f64 / 4.0 * PI.ln()))
}

/// erfcx(x) = exp(x²) erfc(x), in f64 and rounded once: the product directly
/// below 26, where erfc is still a normal double; above, Faddeeva's continued
/// fraction, and beyond 5e7 1/(x√π). Each piece sees its inputs clamped to
/// its own range. (ATen evaluates float32 in float32, so its last digit may
/// differ.) The gradient is ATen's formula 2x·erfcx(x) - 2/√π.
pub fn erfcx(x: &Tensor) -> Result<Tensor> {
    use crate::autograd::{no_grad, record, rules::rule};
    use crate::tensor::dtype::DType;
    use crate::tensor::ops::elementwise::clamp;
    let x = floating(x)?;
    let dtype = x.dtype();
    let ispi = 1.0 / PI.sqrt();
    let out = no_grad(|| -> Result<Tensor> {
        let (near, far) = (num(26.0), num(5e7));
        let x = x.to_dtype(DType::F64)?;
        let xa = clamp(&x, None, Some(&near))?;
        let direct = mul(
            &un(UnaryOp::Exp, &mul(&xa, &xa)?)?,
            &un(UnaryOp::Erfc, &xa)?,
        )?;
        let xb = clamp(&x, Some(&near), Some(&far))?;
        let x2 = mul(&xb, &xb)?;
        let cf = div(
            &scale(&add(&mul(&x2, &add(&x2, &num(4.5))?)?, &num(2.0))?, ispi)?,
            &mul(&xb, &add(&mul(&x2, &add(&x2, &num(5.0))?)?, &num(3.75))?)?,
        )?;
        let xc = clamp(&x, Some(&far), None)?;
        let tail = div(&num(ispi), &xc)?;
        let big = where_(&cmp(BinaryOp::Gt, &x, &far)?, &tail, &cf)?;
        where_(&cmp(BinaryOp::Lt, &x, &near)?, &direct, &big)?.to_dtype(dtype)
    })?;
    let (xs, ys) = (x.detached(), out.detached());
    Ok(record(
        out,
        "SpecialErfcxBackward0",
        &[&x],
        true,
        move || {
            rule(move |g| {
                let d = sub(&scale(&mul(&xs, &ys)?, 2.0)?, &num(2.0 * ispi))?;
                Ok(vec![Some(mul(g, &d)?)])
            })
        },
    ))
}

/// torch.igamma / torch.special.gammainc (P) and igammac / gammaincc (Q),
/// over a and x broadcast together, computed on the host in f64. The
/// gradient with respect to x is ∓x^(a-1) e^-x / Γ(a); PyTorch has none
/// with respect to a, nor does tsh.
pub fn igamma(a: &Tensor, x: &Tensor, upper: bool) -> Result<Tensor> {
    use crate::autograd::{record, rules::rule};
    use crate::tensor::ops::view::expand;
    crate::tensor::ops::elementwise::check_same_device(a, x, "igamma")?;
    let dtype = to_float(crate::tensor::promote::result_type(&[
        a.operand(),
        x.operand(),
    ]));
    let shape = crate::tensor::shape::broadcast_shapes(a.shape(), x.shape())?;
    let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let (av, xv) = (
        expand(&a.detached(), &sizes)?.to_host_f64()?,
        expand(&x.detached(), &sizes)?.to_host_f64()?,
    );
    let f = if upper {
        crate::tensor::op::igamma::igammac
    } else {
        crate::tensor::op::igamma::igamma
    };
    let out: Vec<f64> = av.iter().zip(&xv).map(|(&a, &x)| f(a, x)).collect();
    let out = Tensor::from_vec(out, &shape)
        .to_dtype(dtype)?
        .to_device(x.device())?;
    let (a_needs, ad, xd) = (a.requires_grad(), a.to_dtype(dtype)?, x.to_dtype(dtype)?);
    let x_shape = x.shape().to_vec();
    let name = if upper {
        "IgammacBackward0"
    } else {
        "IgammaBackward0"
    };
    Ok(record(out, name, &[a, x], true, move || {
        rule(move |g| {
            if a_needs {
                return Err(value_err(format!(
                    "the derivative for '{}' with respect to its first input is not implemented.",
                    if upper { "igammac" } else { "igamma" }
                )));
            }
            // d/dx P = exp((a - 1) ln x - x - lgamma(a)).
            let log = sub(
                &sub(&mul(&sub(&ad, &num(1.0))?, &un(UnaryOp::Log, &xd)?)?, &xd)?,
                &un(UnaryOp::Lgamma, &ad)?,
            )?;
            let d = un(UnaryOp::Exp, &log)?;
            let d = if upper { neg(&d)? } else { d };
            Ok(vec![
                None,
                Some(crate::autograd::rules::sum_to(&mul(g, &d)?, &x_shape)?),
            ])
        })
    }))
}
