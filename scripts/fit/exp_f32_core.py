"""The polynomial of fastmath::exp_f32's core: e^x = 2^(n/16) e^r with
|r| <= ln(2)/32, e^r = 1 + r + r^2 p(r), p of degree DEGREE fitted (weighted
least squares at 200 Chebyshev nodes, in 50-digit arithmetic) to the relative
error of e^r. A float32 result needs ~2^-45, far past its half ulp (2^-24), to
round as the exact value does but for one input in millions. Prints the worst
relative error of the f64-rounded coefficients on a fine grid and the
coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/exp_f32_core.py"""
import mpmath as mp

import lsq

mp.mp.dps = 50
H = mp.log(2) / 32
DEGREE = 2


def target(r):
    return mp.mpf(1) / 2 if r == 0 else (mp.exp(r) - 1 - r) / r**2


def fit(deg, nodes=200):
    return lsq.fit(lsq.chebyshev_nodes(-H, H, nodes), deg, target, lambda x: x**2 / mp.exp(x))


def worst(cs, points=4000):
    err = 0
    for k in range(points + 1):
        x = -H + 2 * H * k / points
        p = lsq.horner(cs, x)
        err = max(err, abs((1 + x + x * x * p) / mp.exp(x) - 1))
    return err


cs = fit(DEGREE)
print("worst relative error", mp.nstr(worst(cs), 3), "=", mp.nstr(mp.log(worst(cs), 2), 4), "in log2")
for c in reversed(cs):
    print(repr(c))
