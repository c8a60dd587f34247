"""The polynomial of fastmath::sin_poly: sin r = r + r^3 p(r^2) on |r| <= H (just
over pi/2: sin_f32 and cos_f32 reduce by pi, and the quotient's rounding may
leave r a hair beyond pi/2), p fitted (weighted least squares at Chebyshev
nodes, in 50-digit arithmetic) to the relative error of sin r. Prints the worst
relative error of the f64-rounded coefficients on a fine grid and the
coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/sin_f64.py"""
import mpmath as mp

import lsq

mp.mp.dps = 50
H = mp.mpf("1.5708")
DEGREE = 7


def target(r):
    return -mp.mpf(1) / 6 if r == 0 else (mp.sin(r) - r) / r**3


def fit(deg, nodes=200):
    # Nodes in r over [-H, H] (the polynomial is in r^2); p's error, as a
    # relative error of sin r.
    xs = [x for x in lsq.chebyshev_nodes(-H, H, 2 * nodes) if x > 0]
    return lsq.fit(xs, deg, target, lambda x: x**3 / mp.sin(x), basis=lambda x: x * x)


def worst(cs, points=4000):
    err = 0
    for k in range(1, points + 1):
        x = H * k / points
        p = lsq.horner(cs, x * x)
        err = max(err, abs((x + x**3 * p) / mp.sin(x) - 1))
    return err


def main():
    cs = fit(DEGREE)
    lsq.report(f"degree {DEGREE} in r^2", cs, worst(cs))


if __name__ == "__main__":
    main()
