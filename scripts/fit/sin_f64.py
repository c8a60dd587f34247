"""The polynomial of fastmath::sin_poly: sin r = r + r^3 p(r^2) on |r| <= H (just
over pi/2: sin_f32 and cos_f32 reduce by pi, and the quotient's rounding may
leave r a hair beyond pi/2), p fitted (weighted least squares at Chebyshev
nodes, in 50-digit arithmetic) to the relative error of sin r. Prints the worst
relative error of the f64-rounded coefficients on a fine grid and the
coefficients, highest first.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/sin_f64.py"""
import mpmath as mp

mp.mp.dps = 50
H = mp.mpf("1.5708")
DEGREE = 7


def target(r):
    return -mp.mpf(1) / 6 if r == 0 else (mp.sin(r) - r) / r**3


def fit(deg, nodes=200):
    # Nodes in r over (0, H]; the polynomial is in r^2.
    xs = [H * mp.cos(mp.pi * (k + 0.5) / (2 * nodes)) for k in range(nodes)]
    a = mp.matrix(nodes, deg + 1)
    b = mp.matrix(nodes, 1)
    for i, x in enumerate(xs):
        w = x**3 / mp.sin(x)  # p's error, as a relative error of sin r
        for j in range(deg + 1):
            a[i, j] = w * x ** (2 * j)
        b[i] = w * target(x)
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(deg + 1)]


def worst(cs, points=4000):
    err = 0
    for k in range(1, points + 1):
        x = H * k / points
        p = 0
        for c in reversed(cs):
            p = p * x * x + c
        err = max(err, abs((x + x**3 * mp.mpf(p)) / mp.sin(x) - 1))
    return err


def main():
    cs = fit(DEGREE)
    print(f"degree {DEGREE} in r^2: worst relative error {float(worst(cs)):.3e}")
    print(", ".join(repr(c) for c in reversed(cs)))


if __name__ == "__main__":
    main()
