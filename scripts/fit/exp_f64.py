"""The polynomial of fastmath::exp_parts: e^r = 1 + r + r^2 p(r) on |r| <= ln(2)/2,
p of degree 9 fitted (weighted least squares at 200 Chebyshev nodes, in 50-digit
arithmetic) to the relative error of e^r. Prints the worst relative error of the
f64-rounded coefficients on a fine grid and the coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/exp_f64.py"""
import mpmath as mp

mp.mp.dps = 50
H = mp.log(2) / 2
DEGREE = 9


def target(r):
    return mp.mpf(1) / 2 if r == 0 else (mp.exp(r) - 1 - r) / r**2


def fit(deg, nodes=200):
    xs = [H * mp.cos(mp.pi * (k + 0.5) / nodes) for k in range(nodes)]
    a = mp.matrix(nodes, deg + 1)
    b = mp.matrix(nodes, 1)
    for i, x in enumerate(xs):
        w = x**2 / mp.exp(x)  # p's error, as a relative error of e^r
        for j in range(deg + 1):
            a[i, j] = w * x**j
        b[i] = w * target(x)
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(deg + 1)]


def worst(cs, points=4000):
    err = 0
    for k in range(points + 1):
        x = -H + 2 * H * k / points
        p = 0
        for c in reversed(cs):
            p = p * x + c
        err = max(err, abs((1 + x + x * x * mp.mpf(p)) / mp.exp(x) - 1))
    return err


cs = fit(DEGREE)
print("worst relative error", mp.nstr(worst(cs), 3))
for c in reversed(cs):
    print(repr(c))
