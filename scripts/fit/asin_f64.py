"""The polynomial of fastmath_derived::ASIN_R: asin(s) = s + s z R(z) with z = s^2
on z <= 1/4 (fdlibm's reduction leaves z there), R of degree 12 fitted (weighted
least squares at Chebyshev nodes, in 60-digit arithmetic) to the relative error of
asin. Prints the worst relative error of the f64-rounded coefficients on a fine
grid and the coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/asin_f64.py"""
import mpmath as mp

mp.mp.dps = 60
H = mp.mpf(1) / 4
DEGREE = 12


def target(z):
    if z == 0:
        return mp.mpf(1) / 6
    s = mp.sqrt(z)
    return (mp.asin(s) - s) / (s * z)


def fit(deg, nodes=300):
    xs = [H / 2 + H / 2 * mp.cos(mp.pi * (k + 0.5) / nodes) for k in range(nodes)]
    a = mp.matrix(nodes, deg + 1)
    b = mp.matrix(nodes, 1)
    for i, z in enumerate(xs):
        s = mp.sqrt(z)
        w = s * z / mp.asin(s)  # R's error, as a relative error of asin
        for j in range(deg + 1):
            a[i, j] = w * z**j
        b[i] = w * target(z)
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(deg + 1)]


def worst(cs, points=3000):
    err = 0
    for k in range(1, points + 1):
        z = H * k / points
        p = 0
        for c in reversed(cs):
            p = p * z + c
        s = mp.sqrt(z)
        err = max(err, abs((s + s * z * mp.mpf(p)) / mp.asin(s) - 1))
    return err


def main():
    cs = fit(DEGREE)
    print(f"degree {DEGREE}: worst relative error {float(worst(cs)):.3e}")
    print(", ".join(repr(c) for c in reversed(cs)))


if __name__ == "__main__":
    main()
