"""The weighted least-squares fit the fastmath polynomials share: coefficients c_j
of sum c_j * basis(x)^j minimising the weighted error against a target at the
given nodes, in mpmath's working precision, rounded to f64 (lowest power first)."""
import mpmath as mp


def chebyshev_nodes(lo, hi, n):
    """n Chebyshev nodes of the first kind on [lo, hi]."""
    mid, half = (lo + hi) / 2, (hi - lo) / 2
    return [mid + half * mp.cos(mp.pi * (k + 0.5) / n) for k in range(n)]


def fit(xs, degree, target, weight, basis=lambda x: x):
    a = mp.matrix(len(xs), degree + 1)
    b = mp.matrix(len(xs), 1)
    for i, x in enumerate(xs):
        w, t = weight(x), basis(x)
        for j in range(degree + 1):
            a[i, j] = w * t**j
        b[i] = w * target(x)
    c = mp.lu_solve(a.T * a, a.T * b)
    return [float(c[j]) for j in range(degree + 1)]


def horner(cs, t):
    """sum cs[j] * t^j, in mpmath (cs lowest power first)."""
    p = mp.mpf(0)
    for c in reversed(cs):
        p = p * t + c
    return p


def report(label, cs, err):
    """The fit's worst relative error and its coefficients, highest first."""
    print(f"{label}: worst relative error {float(err):.3e}")
    print(", ".join(repr(c) for c in reversed(cs)))
