"""The polynomial of fastmath_derived::ASIN_R: asin(s) = s + s z R(z) with z = s^2
on z <= 1/4 (fdlibm's reduction leaves z there), R of degree 12 fitted (weighted
least squares at Chebyshev nodes, in 60-digit arithmetic) to the relative error of
asin. Prints the worst relative error of the f64-rounded coefficients on a fine
grid and the coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/asin_f64.py"""
import mpmath as mp

import lsq

mp.mp.dps = 60
H = mp.mpf(1) / 4
DEGREE = 12


def target(z):
    if z == 0:
        return mp.mpf(1) / 6
    s = mp.sqrt(z)
    return (mp.asin(s) - s) / (s * z)


def fit(deg, nodes=300):
    # R's error, as a relative error of asin.
    weight = lambda z: mp.sqrt(z) * z / mp.asin(mp.sqrt(z))
    return lsq.fit(lsq.chebyshev_nodes(0, H, nodes), deg, target, weight)


def worst(cs, points=3000):
    err = 0
    for k in range(1, points + 1):
        z = H * k / points
        p = lsq.horner(cs, z)
        s = mp.sqrt(z)
        err = max(err, abs((s + s * z * p) / mp.asin(s) - 1))
    return err


def main():
    cs = fit(DEGREE)
    lsq.report(f"degree {DEGREE}", cs, worst(cs))


if __name__ == "__main__":
    main()
