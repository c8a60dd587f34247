//! torch.special's functions that are not element-wise rows of their own
//! (the math is tensor/ops/special.rs).

use super::Builtin;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::ops::special as s;

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "polygamma(int n, Tensor input) -> Tensor",
        "The n-th derivative of digamma.",
        "polygamma(1, tensor([1., 0.5]))",
        |n: i64, input: Tensor| s::polygamma(n, &input)
    ),
    op!(
        Both,
        "mvlgamma(Tensor input, int p) -> Tensor",
        "The log of the multivariate gamma function of dimension p.",
        "mvlgamma(tensor([2.5, 3.]), 2)",
        |input: Tensor, p: i64| s::multigammaln(&input, p)
    ),
    op!(
        Module,
        "special.zeta(Tensor input, Tensor other) -> Tensor",
        "The Hurwitz zeta function: the sum over k of (other + k)^-input.",
        "torch.special.zeta(tensor([2., 4.]), tensor(1.))",
        |input: Tensor, other: Tensor| s::zeta(&input, &other)
    ),
    op!(
        Module,
        "special.ndtr(Tensor input) -> Tensor",
        "The standard normal distribution's CDF.",
        "torch.special.ndtr(tensor([-1., 0., 1.]))",
        |input: Tensor| s::ndtr(&input)
    ),
    op!(
        Module,
        "special.ndtri(Tensor input) -> Tensor",
        "The inverse of ndtr: the standard normal quantile of p.",
        "torch.special.ndtri(tensor([0.25, 0.5, 0.975]))",
        |input: Tensor| s::ndtri(&input)
    ),
    op!(
        Module,
        "special.log_ndtr(Tensor input) -> Tensor",
        "log of the standard normal CDF, accurate in both tails.",
        "torch.special.log_ndtr(tensor([-3., 0., 3.]))",
        |input: Tensor| s::log_ndtr(&input)
    ),
    op!(
        Module,
        "special.entr(Tensor input) -> Tensor",
        "-x ln x, element-wise (0 at 0, -inf below 0).",
        "torch.special.entr(tensor([0., 0.5, 1.]))",
        |input: Tensor| s::entr(&input)
    ),
    op!(
        Module,
        "special.xlog1py(Tensor input, Tensor other) -> Tensor",
        "input * log1p(other), and 0 where input is 0.",
        "torch.special.xlog1py(tensor([0., 2.]), tensor([-1., 1.]))",
        |input: Tensor, other: Tensor| s::xlog1py(&input, &other)
    ),
    op!(
        Module,
        "special.erfcx(Tensor input) -> Tensor",
        "The scaled complementary error function exp(x²) erfc(x), without overflow for large x.",
        "torch.special.erfcx(tensor([0., -1., 10.]))",
        |input: Tensor| s::erfcx(&input)
    ),
    op!(
        Both inplace,
        "igamma(Tensor input, Tensor other) -> Tensor",
        "The regularized lower incomplete gamma function P(input, other).",
        "igamma(tensor([4.]), tensor([3., 4., 5.]))",
        |input: Tensor, other: Tensor| s::igamma(&input, &other, false)
    ),
    op!(
        Both inplace,
        "igammac(Tensor input, Tensor other) -> Tensor",
        "The regularized upper incomplete gamma function Q(input, other) = 1 - P.",
        "igammac(tensor([4.]), tensor([3., 4., 5.]))",
        |input: Tensor, other: Tensor| s::igamma(&input, &other, true)
    ),
    op!(
        Module,
        "special.gammainc(Tensor input, Tensor other) -> Tensor",
        "The regularized lower incomplete gamma function (torch.igamma).",
        "torch.special.gammainc(tensor([4.]), tensor([3., 4., 5.]))",
        |input: Tensor, other: Tensor| s::igamma(&input, &other, false)
    ),
    op!(
        Module,
        "special.gammaincc(Tensor input, Tensor other) -> Tensor",
        "The regularized upper incomplete gamma function (torch.igammac).",
        "torch.special.gammaincc(tensor([4.]), tensor([3., 4., 5.]))",
        |input: Tensor, other: Tensor| s::igamma(&input, &other, true)
    ),
];
