//! Unary element-wise ops, one row each: the user-facing name, PyTorch's grad_fn
//! name, which dtypes the op takes and what it returns, the scalar function for
//! each kind of element the kernels compute in (f32, f64, i64), the derivative
//! written in tensor ops, and the help line. Everything else (the enum, the
//! kernels' dispatch, the builtins, `:help`, the backward rule) comes from here.

use super::fastmath::{erf_f32, exp_f32, expm1_f32, ln_f32, log1p_f32, tanh_f32};
use super::fastmath_derived::{
    acos_f32, acosh_f32, asin_f32, asinh_f32, atan_f32, atanh_f32, exp2_f32, log2_f32, log10_f32,
};
use super::fastmath_erf::{erfc_f32, erfinv_f32};
use super::math::{libm, sign_f32, sign_f64, sinc_f32, sinc_f64};
use super::special as sp;
use crate::error::Result;
use crate::tensor::Tensor;
use crate::tensor::ops::arith::{add, cmp, div, mul, neg, num, scale, sub, un, where_};

/// What an op accepts and returns, as PyTorch decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DtypeRule {
    /// Integers and floats keep their dtype; bool is refused (abs, neg, floor).
    KeepNoBool,
    /// Every dtype keeps its dtype (sign: bool stays bool).
    KeepAll,
    /// Bool becomes int64, the rest keep (square = pow 2).
    BoolToLong,
    /// Integers and bool become the default float dtype (exp, sin, sqrt).
    FloatPromote,
    /// Floats only; integers and bool are refused (frac).
    FloatOnly,
    /// Bool and integers only (bitwise_not).
    Integral,
}

/// The scalar function of an op for each kind of element the kernels compute in.
/// (f16 and bf16 compute in f32, narrower integers and bool in i64.)
pub trait UnaryFn: 'static {
    fn f32(x: f32) -> f32;
    fn f64(x: f64) -> f64;
    fn i64(x: i64) -> i64;
}

/// Something that runs an op given its function type: how the backends turn the
/// enum into monomorphised kernels.
pub trait UnaryVisitor {
    type Out;
    fn visit<F: UnaryFn>(self) -> Self::Out;
}

/// d/dx of the op, times the incoming gradient, from the input x and output y.
pub type Derivative = fn(x: &Tensor, y: &Tensor, g: &Tensor) -> Result<Tensor>;

/// What the backward rule keeps from the forward pass (as PyTorch's does, so
/// that an in-place change of the other one is allowed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Saves {
    Input,
    Output,
    Neither,
}

pub struct UnaryRow {
    pub op: UnaryOp,
    pub name: &'static str,
    pub grad_fn: &'static str,
    pub rule: DtypeRule,
    pub saves: Saves,
    pub derivative: Option<Derivative>,
    pub help: &'static str,
    pub example: &'static str,
}

macro_rules! unary_ops {
    ($(
        $Var:ident $name:literal $grad:literal $rule:ident $saves:ident,
        f32 |$a:ident| $f32:expr, f64 |$b:ident| $f64:expr, i64 |$c:ident| $int:expr,
        d $deriv:expr, $help:literal, $example:literal;
    )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum UnaryOp { $($Var),* }

        /// One type per op, carrying its scalar functions.
        pub mod f {
            $(pub struct $Var;)*
        }

        $(impl UnaryFn for f::$Var {
            #[inline(always)]
            fn f32($a: f32) -> f32 { $f32 }
            #[inline(always)]
            fn f64($b: f64) -> f64 { $f64 }
            #[inline(always)]
            #[allow(unused_variables)]
            fn i64($c: i64) -> i64 { $int }
        })*

        impl UnaryOp {
            pub fn visit<V: UnaryVisitor>(self, v: V) -> V::Out {
                match self { $(UnaryOp::$Var => v.visit::<f::$Var>(),)* }
            }
        }

        pub const UNARY_ROWS: &[UnaryRow] = &[$(UnaryRow {
            op: UnaryOp::$Var,
            name: $name,
            grad_fn: $grad,
            rule: DtypeRule::$rule,
            saves: Saves::$saves,
            derivative: $deriv,
            help: $help,
            example: $example,
        },)*];
    };
}

/// √(2/π), the tanh approximation's scale.
pub const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

/// silu'(x) = σ(x) (1 + x (1 - σ(x))).
fn silu_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    let s = un(UnaryOp::Sigmoid, x)?;
    let inner = add(&num(1.0), &mul(x, &sub(&num(1.0), &s)?)?)?;
    mul(g, &mul(&s, &inner)?)
}

/// logsigmoid'(x) = σ(-x), as ATen's log_sigmoid_backward computes it from
/// z = exp(-|x|): (1 - z/(1+z)) g below zero, z/(1+z) g from zero up.
/// One node, whose own gradients are PyTorch's (derivatives.yaml): this
/// again for g, and gg g (σ(x) - 1) σ(x) for x (differentiating the formula
/// through |x| would give 0 at x = 0, where PyTorch's is -1/4).
fn logsigmoid_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    let out = crate::autograd::no_grad(|| {
        let z = un(UnaryOp::Exp, &neg(&un(UnaryOp::Abs, x)?)?)?;
        let r = div(&z, &add(&num(1.0), &z)?)?;
        let below = cmp(crate::tensor::op::BinaryOp::Lt, x, &num(0.0))?;
        mul(&where_(&below, &sub(&num(1.0), &r)?, &r)?, g)
    })?;
    let (g0, x0) = (g.clone(), x.clone());
    Ok(crate::autograd::record(
        out,
        "LogSigmoidBackwardBackward0",
        &[g, x],
        false,
        move || {
            crate::autograd::rules::rule(move |gg| {
                let for_g = logsigmoid_grad(&x0, &x0, gg)?;
                let s = un(UnaryOp::Sigmoid, &x0)?;
                let for_x = mul(&mul(&mul(gg, &g0)?, &sub(&s, &num(1.0))?)?, &s)?;
                Ok(vec![Some(for_g), Some(for_x)])
            })
        },
    ))
}

/// gelu'(x) = Φ(x) + x φ(x).
fn gelu_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    let cdf = scale(
        &add(
            &un(UnaryOp::Erf, &scale(x, std::f64::consts::FRAC_1_SQRT_2)?)?,
            &num(1.0),
        )?,
        0.5,
    )?;
    let pdf = scale(
        &un(UnaryOp::Exp, &scale(&mul(x, x)?, -0.5)?)?,
        0.398_942_280_401_432_7,
    )?;
    mul(g, &add(&cdf, &mul(x, &pdf)?)?)
}

/// The tanh approximation's derivative: with u = √(2/π) (x + 0.044715 x³) and
/// t = tanh(u), ½ (1 + t) + ½ x (1 - t²) u'.
fn gelu_tanh_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    let x2 = mul(x, x)?;
    let u = scale(&add(x, &scale(&mul(x, &x2)?, 0.044715)?)?, SQRT_2_OVER_PI)?;
    let t = un(UnaryOp::Tanh, &u)?;
    let du = scale(
        &add(&num(1.0), &scale(&x2, 3.0 * 0.044715)?)?,
        SQRT_2_OVER_PI,
    )?;
    let left = scale(&add(&num(1.0), &t)?, 0.5)?;
    let right = mul(&scale(x, 0.5)?, &mul(&sub(&num(1.0), &mul(&t, &t)?)?, &du)?)?;
    mul(g, &add(&left, &right)?)
}

/// The derivative of a step function: zero wherever it is defined.
fn zero(_: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::arith::zeros_like(g)
}

unary_ops! {
    Neg "neg" "NegBackward0" KeepNoBool Neither,
        f32 |x| -x, f64 |x| -x, i64 |x| x.wrapping_neg(),
        d Some(|_, _, g| neg(g)), "Negation, element-wise.", "neg(tensor([0.25, 0.5, 1.]))";
    Abs "abs" "AbsBackward0" KeepNoBool Input,
        f32 |x| x.abs(), f64 |x| x.abs(), i64 |x| x.wrapping_abs(),
        d Some(|x, _, g| mul(g, &un(UnaryOp::Sign, x)?)), "Absolute value, element-wise.", "abs(tensor([-1, 2]))";
    Sign "sign" "SignBackward0" KeepAll Neither,
        f32 |x| sign_f32(x), f64 |x| sign_f64(x), i64 |x| x.signum(),
        d Some(zero), "-1, 0 or 1 by the sign of each element.", "sign(tensor([-2., 0., 3.]))";
    Floor "floor" "FloorBackward0" KeepNoBool Neither,
        f32 |x| x.floor(), f64 |x| x.floor(), i64 |x| x,
        d Some(zero), "Largest integer <= x, element-wise.", "floor(tensor([1.5, -1.5]))";
    Ceil "ceil" "CeilBackward0" KeepNoBool Neither,
        f32 |x| x.ceil(), f64 |x| x.ceil(), i64 |x| x,
        d Some(zero), "Smallest integer >= x, element-wise.", "ceil(tensor([1.5, -1.5]))";
    Round "round" "RoundBackward0" KeepNoBool Neither,
        f32 |x| x.round_ties_even(), f64 |x| x.round_ties_even(), i64 |x| x,
        d Some(zero), "Nearest integer, halves to even (as PyTorch).", "round(tensor([0.5, 1.5, 2.5]))";
    Trunc "trunc" "TruncBackward0" KeepNoBool Neither,
        f32 |x| x.trunc(), f64 |x| x.trunc(), i64 |x| x,
        d Some(zero), "x without its fractional part.", "trunc(tensor([-1.7, 1.7]))";
    Frac "frac" "FracBackward0" FloatOnly Neither,
        f32 |x| x - x.trunc(), f64 |x| x - x.trunc(), i64 |x| x,
        d Some(|_, _, g| Ok(g.clone())), "The fractional part, x - trunc(x).", "frac(tensor([1.25, -1.75]))";
    Square "square" "PowBackward0" BoolToLong Input,
        f32 |x| x * x, f64 |x| x * x, i64 |x| x.wrapping_mul(x),
        d Some(|x, _, g| mul(g, &scale(x, 2.0)?)), "x * x, element-wise.", "square(tensor([1, -2, 3]))";
    Relu "relu" "ReluBackward0" KeepNoBool Output,
        f32 |x| if x > 0.0 || x.is_nan() { x } else { 0.0 },
        f64 |x| if x > 0.0 || x.is_nan() { x } else { 0.0 },
        i64 |x| x.max(0),
        d Some(|_, y, g| where_(&cmp(crate::tensor::op::BinaryOp::Gt, y, &num(0.0))?, g, &num(0.0))),
        "max(x, 0), element-wise.", "relu(tensor([-1., 0., 2.]))";
    BitwiseNot "bitwise_not" "" Integral Neither,
        f32 |x| x, f64 |x| x, i64 |x| !x,
        d None, "Bitwise NOT of integers; logical NOT of bools (also `~t`).", "bitwise_not(tensor([0, 5]))";
    Exp "exp" "ExpBackward0" FloatPromote Output,
        f32 |x| exp_f32(x), f64 |x| x.exp(), i64 |x| x,
        d Some(|_, y, g| mul(g, y)), "e raised to each element.", "exp(tensor([0., 1.]))";
    Exp2 "exp2" "Exp2Backward0" FloatPromote Output,
        f32 |x| exp2_f32(x), f64 |x| x.exp2(), i64 |x| x,
        d Some(|_, y, g| mul(g, &scale(y, std::f64::consts::LN_2)?)), "2 raised to each element.", "exp2(tensor([0., 3.]))";
    Expm1 "expm1" "Expm1Backward0" FloatPromote Output,
        f32 |x| expm1_f32(x), f64 |x| x.exp_m1(), i64 |x| x,
        d Some(|_, y, g| mul(g, &add(y, &num(1.0))?)), "exp(x) - 1, accurate near 0.", "expm1(tensor([1e-10, 1.]))";
    Log "log" "LogBackward0" FloatPromote Input,
        f32 |x| ln_f32(x), f64 |x| x.ln(), i64 |x| x,
        d Some(|x, _, g| div(g, x)), "Natural logarithm.", "log(tensor([1., 2.718281828]))";
    Log2 "log2" "Log2Backward0" FloatPromote Input,
        f32 |x| log2_f32(x), f64 |x| x.log2(), i64 |x| x,
        d Some(|x, _, g| div(g, &scale(x, std::f64::consts::LN_2)?)), "Base-2 logarithm.", "log2(tensor([1., 8.]))";
    Log10 "log10" "Log10Backward0" FloatPromote Input,
        f32 |x| log10_f32(x), f64 |x| x.log10(), i64 |x| x,
        d Some(|x, _, g| div(g, &scale(x, std::f64::consts::LN_10)?)), "Base-10 logarithm.", "log10(tensor([1., 100.]))";
    Log1p "log1p" "Log1PBackward0" FloatPromote Input,
        f32 |x| log1p_f32(x), f64 |x| x.ln_1p(), i64 |x| x,
        d Some(|x, _, g| div(g, &add(x, &num(1.0))?)), "log(1 + x), accurate near 0.", "log1p(tensor([1e-10, 1.]))";
    Sqrt "sqrt" "SqrtBackward0" FloatPromote Output,
        f32 |x| x.sqrt(), f64 |x| x.sqrt(), i64 |x| x,
        d Some(|_, y, g| div(g, &scale(y, 2.0)?)), "Square root.", "sqrt(tensor([4., 9.]))";
    Rsqrt "rsqrt" "RsqrtBackward0" FloatPromote Output,
        f32 |x| 1.0 / x.sqrt(), f64 |x| 1.0 / x.sqrt(), i64 |x| x,
        d Some(|_, y, g| mul(g, &scale(&mul(y, &mul(y, y)?)?, -0.5)?)), "1 / sqrt(x).", "rsqrt(tensor([4., 0.25]))";
    Sin "sin" "SinBackward0" FloatPromote Input,
        f32 |x| x.sin(), f64 |x| x.sin(), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::Cos, x)?)), "Sine (radians).", "sin(tensor([0., 1.5708]))";
    Cos "cos" "CosBackward0" FloatPromote Input,
        f32 |x| x.cos(), f64 |x| x.cos(), i64 |x| x,
        d Some(|x, _, g| mul(g, &neg(&un(UnaryOp::Sin, x)?)?)), "Cosine (radians).", "cos(tensor([0., 3.1416]))";
    Tan "tan" "TanBackward0" FloatPromote Output,
        f32 |x| x.tan(), f64 |x| x.tan(), i64 |x| x,
        d Some(|_, y, g| mul(g, &add(&mul(y, y)?, &num(1.0))?)), "Tangent (radians).", "tan(tensor([0., 0.7854]))";
    Asin "asin" "AsinBackward0" FloatPromote Input,
        f32 |x| asin_f32(x), f64 |x| x.asin(), i64 |x| x,
        d Some(|x, _, g| div(g, &un(UnaryOp::Sqrt, &sub(&num(1.0), &mul(x, x)?)?)?)), "Arc sine.", "asin(tensor([0., 1.]))";
    Acos "acos" "AcosBackward0" FloatPromote Input,
        f32 |x| acos_f32(x), f64 |x| x.acos(), i64 |x| x,
        d Some(|x, _, g| neg(&div(g, &un(UnaryOp::Sqrt, &sub(&num(1.0), &mul(x, x)?)?)?)?)), "Arc cosine.", "acos(tensor([1., 0.]))";
    Atan "atan" "AtanBackward0" FloatPromote Input,
        f32 |x| atan_f32(x), f64 |x| x.atan(), i64 |x| x,
        d Some(|x, _, g| div(g, &add(&mul(x, x)?, &num(1.0))?)), "Arc tangent.", "atan(tensor([0., 1.]))";
    Sinh "sinh" "SinhBackward0" FloatPromote Input,
        f32 |x| x.sinh(), f64 |x| x.sinh(), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::Cosh, x)?)), "Hyperbolic sine.", "sinh(tensor([0., 1.]))";
    Cosh "cosh" "CoshBackward0" FloatPromote Input,
        f32 |x| x.cosh(), f64 |x| x.cosh(), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::Sinh, x)?)), "Hyperbolic cosine.", "cosh(tensor([0., 1.]))";
    Tanh "tanh" "TanhBackward0" FloatPromote Output,
        f32 |x| tanh_f32(x), f64 |x| x.tanh(), i64 |x| x,
        d Some(|_, y, g| mul(g, &sub(&num(1.0), &mul(y, y)?)?)), "Hyperbolic tangent.", "tanh(tensor([-1., 0., 1.]))";
    // float32 sigmoid and silu: the CPU kernels run whole runs of 32 through
    // SLEEF's exp as ATen does (backend/cpu/kernels.rs vector_kernel) and the
    // rest through these, with the C library's expf (0.502 ulp, not always
    // correctly rounded), as ATen's scalar loop calls std::exp.
    Sigmoid "sigmoid" "SigmoidBackward0" FloatPromote Output,
        f32 |x| 1.0 / (1.0 + (-x).exp()), f64 |x| 1.0 / (1.0 + (-x).exp()), i64 |x| x,
        d Some(|_, y, g| mul(g, &mul(y, &sub(&num(1.0), y)?)?)), "1 / (1 + exp(-x)).", "sigmoid(tensor([-1., 0., 1.]))";
    // F.silu and F.gelu: one pass each (composites of five element-wise ops
    // before). No torch.silu or torch.gelu exists, so their builtins are the
    // nn.functional ones (interp/builtins/ops.rs BY_HAND); the f32 formulas are
    // the operations ATen performs, in its order, for its digits.
    Silu "silu" "SiluBackward0" FloatOnly Input,
        f32 |x| x / (1.0 + (-x).exp()), f64 |x| x / (1.0 + (-x).exp()), i64 |x| x,
        d Some(silu_grad), "x * sigmoid(x), as x / (1 + exp(-x)).", "F.silu(tensor([-1., 0., 1.]))";
    Gelu "gelu" "GeluBackward0" FloatOnly Input,
        f32 |x| x * 0.5 * (erf_f32(x * std::f32::consts::FRAC_1_SQRT_2) + 1.0),
        f64 |x| x * 0.5 * (libm::erf(x * std::f64::consts::FRAC_1_SQRT_2) + 1.0), i64 |x| x,
        d Some(gelu_grad), "x Φ(x) (F.gelu).", "F.gelu(tensor([-1., 0., 1.]))";
    GeluTanh "gelu" "GeluBackward0" FloatOnly Input,
        f32 |x| x * 0.5 * (tanh_f32((x + x * (x * x) * 0.044715) * SQRT_2_OVER_PI as f32) + 1.0),
        f64 |x| x * 0.5 * (((x + x * (x * x) * 0.044715) * SQRT_2_OVER_PI).tanh() + 1.0), i64 |x| x,
        d Some(gelu_tanh_grad), "x Φ(x) by its tanh approximation (F.gelu(x, approximate='tanh')).",
        "F.gelu(tensor([-1., 0., 1.]), approximate='tanh')";
    // F.logsigmoid: one pass, ATen's min(x, 0) - log1p(exp(-|x|)) with its
    // roundings (exp, then log1p, then the difference); five passes before.
    LogSigmoid "logsigmoid" "LogSigmoidBackward0" FloatOnly Input,
        f32 |x| x.min(0.0) - log1p_f32(exp_f32(-x.abs())),
        f64 |x| x.min(0.0) - (-x.abs()).exp().ln_1p(), i64 |x| x,
        d Some(logsigmoid_grad), "log(sigmoid(x)), without overflow (F.logsigmoid).", "F.logsigmoid(tensor([-1., 0., 1.]))";
    // F.hardsigmoid and F.hardswish: one pass each, ATen's operations in its
    // order (min(max(x + 3, 0), 6) / 6); like F.gelu, no torch.* builtin.
    Hardsigmoid "hardsigmoid" "HardsigmoidBackward0" FloatOnly Input,
        f32 |x| hard_ramp(x) / 6.0, f64 |x| hard_ramp(x) / 6.0, i64 |x| x,
        d Some(hardsigmoid_grad), "min(max(x + 3, 0), 6) / 6 (F.hardsigmoid).", "F.hardsigmoid(tensor([-4., 0., 1.]))";
    Hardswish "hardswish" "HardswishBackward0" FloatOnly Input,
        f32 |x| x * hard_ramp(x) / 6.0, f64 |x| x * hard_ramp(x) / 6.0, i64 |x| x,
        d Some(hardswish_grad), "x min(max(x + 3, 0), 6) / 6 (F.hardswish).", "F.hardswish(tensor([-4., 0., 1.]))";
    Reciprocal "reciprocal" "ReciprocalBackward0" FloatPromote Output,
        f32 |x| 1.0 / x, f64 |x| 1.0 / x, i64 |x| x,
        d Some(|_, y, g| mul(g, &neg(&mul(y, y)?)?)), "1 / x, element-wise.", "reciprocal(tensor([2., 4.]))";
    Erf "erf" "ErfBackward0" FloatPromote Input,
        f32 |x| erf_f32(x), f64 |x| libm::erf(x), i64 |x| x,
        d Some(|x, _, g| mul(g, &scale(&un(UnaryOp::Exp, &neg(&mul(x, x)?)?)?, std::f64::consts::FRAC_2_SQRT_PI)?)),
        "The Gauss error function.", "erf(tensor([0., 1.]))";
    Erfc "erfc" "ErfcBackward0" FloatPromote Input,
        f32 |x| erfc_f32(x), f64 |x| libm::erfc(x), i64 |x| x,
        d Some(|x, _, g| mul(g, &scale(&un(UnaryOp::Exp, &neg(&mul(x, x)?)?)?, -std::f64::consts::FRAC_2_SQRT_PI)?)),
        "1 - erf(x), accurate where erf is near 1.", "erfc(tensor([0., 3.]))";
    Asinh "asinh" "AsinhBackward0" FloatPromote Input,
        f32 |x| asinh_f32(x), f64 |x| x.asinh(), i64 |x| x,
        d Some(|x, _, g| div(g, &un(UnaryOp::Sqrt, &add(&mul(x, x)?, &num(1.0))?)?)), "Inverse hyperbolic sine.", "asinh(tensor([0., 1.]))";
    Acosh "acosh" "AcoshBackward0" FloatPromote Input,
        f32 |x| acosh_f32(x), f64 |x| x.acosh(), i64 |x| x,
        d Some(|x, _, g| div(g, &un(UnaryOp::Sqrt, &sub(&mul(x, x)?, &num(1.0))?)?)), "Inverse hyperbolic cosine (x >= 1).", "acosh(tensor([1., 2.]))";
    Atanh "atanh" "AtanhBackward0" FloatPromote Input,
        f32 |x| atanh_f32(x), f64 |x| x.atanh(), i64 |x| x,
        d Some(|x, _, g| div(g, &sub(&num(1.0), &mul(x, x)?)?)), "Inverse hyperbolic tangent (-1 < x < 1).", "atanh(tensor([0., 0.5]))";
    Deg2Rad "deg2rad" "Deg2RadBackward0" FloatPromote Neither,
        f32 |x| x * (std::f64::consts::PI / 180.0) as f32, f64 |x| x * (std::f64::consts::PI / 180.0), i64 |x| x,
        d Some(|_, _, g| scale(g, std::f64::consts::PI / 180.0)), "Degrees to radians.", "deg2rad(tensor([180., 90.]))";
    Rad2Deg "rad2deg" "Rad2DegBackward0" FloatPromote Neither,
        f32 |x| x * (180.0 / std::f64::consts::PI) as f32, f64 |x| x * (180.0 / std::f64::consts::PI), i64 |x| x,
        d Some(|_, _, g| scale(g, 180.0 / std::f64::consts::PI)), "Radians to degrees.", "rad2deg(tensor([3.1416]))";
    Logit "logit" "LogitBackward0" FloatPromote Input,
        f32 |x| (x / (1.0 - x)).ln(), f64 |x| (x / (1.0 - x)).ln(), i64 |x| x,
        d Some(logit_grad), "log(p / (1 - p)), the inverse of sigmoid.", "logit(tensor([0.5, 0.9]))";
    Sinc "sinc" "SincBackward0" FloatPromote Input,
        f32 |x| sinc_f32(x), f64 |x| sinc_f64(x), i64 |x| x,
        d Some(sinc_grad), "sin(pi x) / (pi x), and 1 at 0.", "sinc(tensor([0., 0.5, 1.]))";
    Lgamma "lgamma" "LgammaBackward0" FloatPromote Input,
        f32 |x| libm::lgamma(x as f64) as f32, f64 |x| libm::lgamma(x), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::Digamma, x)?)),
        "log |Γ(x)|, the log of the gamma function's magnitude.", "lgamma(tensor([0.5, 1., 10.]))";
    Digamma "digamma" "DigammaBackward0" FloatPromote Input,
        f32 |x| sp::digamma(x as f64) as f32, f64 |x| sp::digamma(x), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::Trigamma, x)?)),
        "ψ(x), the derivative of lgamma.", "digamma(tensor([1., 0.5]))";
    Trigamma "trigamma" "PolygammaBackward0" FloatPromote Input,
        f32 |x| sp::trigamma(x as f64) as f32, f64 |x| sp::trigamma(x), i64 |x| x,
        d None, "ψ'(x) = polygamma(1, x).", "torch.special.polygamma(1, tensor([1., 0.5]))";
    Erfinv "erfinv" "ErfinvBackward0" FloatPromote Output,
        f32 |x| erfinv_f32(x), f64 |x| sp::erfinv(x), i64 |x| x,
        d Some(|_, y, g| mul(g, &scale(&un(UnaryOp::Exp, &mul(y, y)?)?, std::f64::consts::PI.sqrt() / 2.0)?)),
        "The inverse of erf, on (-1, 1).", "erfinv(tensor([0., 0.5, -1.]))";
    I0 "i0" "I0Backward0" FloatPromote Input,
        f32 |x| sp::bessel_i(0, x as f64, false) as f32, f64 |x| sp::bessel_i(0, x, false), i64 |x| x,
        d Some(|x, _, g| mul(g, &un(UnaryOp::I1, x)?)),
        "The modified Bessel function of the first kind, order 0.", "i0(tensor([0., 1., 2.]))";
    I0e "i0e" "SpecialI0EBackward0" FloatPromote Input,
        f32 |x| sp::bessel_i(0, x as f64, true) as f32, f64 |x| sp::bessel_i(0, x, true), i64 |x| x,
        d Some(i0e_grad), "i0(x) * exp(-|x|), without overflow.", "torch.special.i0e(tensor([0., 1., 100.]))";
    I1 "i1" "SpecialI1Backward0" FloatPromote Input,
        f32 |x| sp::bessel_i(1, x as f64, false) as f32, f64 |x| sp::bessel_i(1, x, false), i64 |x| x,
        d Some(i1_grad), "The modified Bessel function of the first kind, order 1.", "torch.special.i1(tensor([0., 1., 2.]))";
    I1e "i1e" "SpecialI1EBackward0" FloatPromote Input,
        f32 |x| sp::bessel_i(1, x as f64, true) as f32, f64 |x| sp::bessel_i(1, x, true), i64 |x| x,
        d Some(i1e_grad), "i1(x) * exp(-|x|), without overflow.", "torch.special.i1e(tensor([0., 1., 100.]))";
}

/// d i0e = i1e(x) - sign(x) i0e(x).
/// (Rules that save the input see no output: it is recomputed.)
fn i0e_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    let y = un(UnaryOp::I0e, x)?;
    let d = sub(&un(UnaryOp::I1e, x)?, &mul(&un(UnaryOp::Sign, x)?, &y)?)?;
    mul(g, &d)
}

/// d i1 = i0(x) - i1(x) / x, and 1/2 at 0.
fn i1_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::Eq;
    let d = sub(&un(UnaryOp::I0, x)?, &div(&un(UnaryOp::I1, x)?, x)?)?;
    mul(g, &where_(&cmp(Eq, x, &num(0.0))?, &num(0.5), &d)?)
}

/// d i1e = i0e(x) - i1e(x) (sign(x) + 1/x), and 1/2 at 0.
fn i1e_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::Eq;
    let k = add(&un(UnaryOp::Sign, x)?, &un(UnaryOp::Reciprocal, x)?)?;
    let d = sub(&un(UnaryOp::I0e, x)?, &mul(&un(UnaryOp::I1e, x)?, &k)?)?;
    mul(g, &where_(&cmp(Eq, x, &num(0.0))?, &num(0.5), &d)?)
}

/// min(max(x + 3, 0), 6) as std::min and std::max have it: NaN stays NaN.
#[inline(always)]
fn hard_ramp<T: Copy + PartialOrd + std::ops::Add<Output = T> + From<f32>>(x: T) -> T {
    let (zero, six) = (T::from(0.0), T::from(6.0));
    let y = x + T::from(3.0);
    let y = if y < zero { zero } else { y };
    if six < y { six } else { y }
}

/// g / 6 strictly inside (-3, 3), else 0: ATen's hardsigmoid_backward (g
/// times the float 1/6).
fn hardsigmoid_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::{Gt, LogicalAnd, Lt};
    let inside = crate::tensor::ops::arith::bin(
        LogicalAnd,
        &cmp(Gt, x, &num(-3.0))?,
        &cmp(Lt, x, &num(3.0))?,
    )?;
    where_(&inside, &scale(g, 1.0 / 6.0)?, &num(0.0))
}

/// 0 up to -3, g (x / 3 + 1/2) strictly inside (-3, 3), g from 3 (and for
/// NaN): ATen's hardswish_backward, ends included as it includes them.
fn hardswish_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::{Le, Lt};
    let slope = mul(g, &add(&div(x, &num(3.0))?, &num(0.5))?)?;
    let upper = where_(&cmp(Lt, x, &num(3.0))?, &slope, g)?;
    where_(&cmp(Le, x, &num(-3.0))?, &num(0.0), &upper)
}

/// d logit(x) = 1 / (x (1 - x)), NaN outside [0, 1] (as PyTorch).
fn logit_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::{Gt, LogicalOr, Lt};
    let d = div(g, &mul(x, &sub(&num(1.0), x)?)?)?;
    let outside = crate::tensor::ops::arith::bin(
        LogicalOr,
        &cmp(Lt, x, &num(0.0))?,
        &cmp(Gt, x, &num(1.0))?,
    )?;
    where_(&outside, &num(f64::NAN), &d)
}

/// d sinc(x) = (cos(pi x) pi x - sin(pi x)) / (pi x²), and 0 at 0.
fn sinc_grad(x: &Tensor, _: &Tensor, g: &Tensor) -> Result<Tensor> {
    use crate::tensor::op::BinaryOp::Eq;
    let px = scale(x, std::f64::consts::PI)?;
    let top = sub(&mul(&un(UnaryOp::Cos, &px)?, &px)?, &un(UnaryOp::Sin, &px)?)?;
    let d = div(&top, &mul(&px, x)?)?;
    let d = where_(&cmp(Eq, x, &num(0.0))?, &num(0.0), &d)?;
    mul(g, &d)
}

/// Other names PyTorch gives the same ops.
pub const UNARY_ALIASES: &[(&str, UnaryOp)] = &[
    ("negative", UnaryOp::Neg),
    ("absolute", UnaryOp::Abs),
    ("fix", UnaryOp::Trunc),
    ("arcsin", UnaryOp::Asin),
    ("arccos", UnaryOp::Acos),
    ("arctan", UnaryOp::Atan),
    ("arcsinh", UnaryOp::Asinh),
    ("arccosh", UnaryOp::Acosh),
    ("arctanh", UnaryOp::Atanh),
];

impl UnaryOp {
    pub fn row(self) -> &'static UnaryRow {
        // The rows are declared in the enum's order.
        &UNARY_ROWS[self as usize]
    }
    pub fn name(self) -> &'static str {
        self.row().name
    }
    pub fn from_name(name: &str) -> Option<UnaryOp> {
        UNARY_ROWS
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.op)
            .or_else(|| {
                UNARY_ALIASES
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, op)| *op)
            })
    }
}

/// Element-wise tests that answer in bool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PredicateOp {
    IsNan,
    IsInf,
    IsPosInf,
    IsNegInf,
    IsFinite,
    LogicalNot,
}

impl PredicateOp {
    #[inline(always)]
    pub fn f64(self, x: f64) -> bool {
        match self {
            PredicateOp::IsNan => x.is_nan(),
            PredicateOp::IsInf => x.is_infinite(),
            PredicateOp::IsPosInf => x == f64::INFINITY,
            PredicateOp::IsNegInf => x == f64::NEG_INFINITY,
            PredicateOp::IsFinite => x.is_finite(),
            PredicateOp::LogicalNot => x == 0.0,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            PredicateOp::IsNan => "isnan",
            PredicateOp::IsInf => "isinf",
            PredicateOp::IsPosInf => "isposinf",
            PredicateOp::IsNegInf => "isneginf",
            PredicateOp::IsFinite => "isfinite",
            PredicateOp::LogicalNot => "logical_not",
        }
    }
}
