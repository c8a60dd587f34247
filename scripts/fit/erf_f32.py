"""The coefficients of erf_f32 (src/tensor/op/fastmath.rs): least-squares fits at
Chebyshev nodes, printed as float32, then the f32 evaluation (with FMAs, as the
kernel runs it) checked in ulps against the correctly rounded erf.

    python3 scripts/fit/erf_f32.py        # needs NumPy
"""
import math

import numpy as np
from numpy.polynomial import chebyshev as C
from numpy.polynomial import polynomial as P

f32 = np.float32
SPLIT = 0.921875  # below: erf(z) = z P(z^2); above: 1 - exp(-z^2 + G(z))
ZMAX = 3.92  # erf rounds to 1 beyond
N = 2000
u = np.cos(np.pi * (np.arange(N) + 0.5) / N)


def monomial(cheb, a, b):
    """Chebyshev coefficients in u = a t + b, as monomial ones in t."""
    out = np.zeros(len(cheb))
    for i, c in enumerate(C.cheb2poly(cheb)):
        out[: i + 1] += c * P.polypow([b, a], i)
    return out


# Near: erf(z) / z as a polynomial in t = z^2 on [0, SPLIT^2].
t = (u + 1) / 2 * SPLIT**2
z = np.sqrt(t)
near = monomial(C.chebfit(u, [math.erf(v) / v for v in z], 6), 2 / SPLIT**2, -1.0)
# Far: G(z) = ln erfc(z) + z^2 on [SPLIT, ZMAX] in v = z - MID.
mid, half = (SPLIT + ZMAX) / 2, (ZMAX - SPLIT) / 2
zf = mid + half * u
far = monomial(C.chebfit(u, [math.log(math.erfc(v)) + v * v for v in zf], 8), 1 / half, 0.0)

NEAR = [f32(c) for c in near]
C0_LO = f32(near[0] - float(f32(near[0])))
FAR = [f32(c) for c in far]
MID = f32(mid)
print("C0", repr(NEAR[0]), "C0_LO", repr(C0_LO), "MID", repr(MID))
print("NEAR (highest first)", [repr(c) for c in reversed(NEAR[1:])])
print("FAR (highest first)", [repr(c) for c in reversed(FAR)])


def fma(a, b, c):
    return f32(np.float64(a) * np.float64(b) + np.float64(c))


def horner(cs, x):
    r = cs[-1]
    for c in reversed(cs[:-1]):
        r = fma(r, x, c)
    return r


def exp_reduced(d):
    """SLEEF's reduction: d = q ln 2 + s, e^s = 1 + p."""
    q = f32(np.rint(d * f32(1.4426950408889634)))
    s = fma(q, -f32(0.693145751953125), d)
    s = fma(q, -f32(1.428606765330187045e-06), s)
    p = f32(0.000198527617612853646278381)
    for c in [0.00139304355252534151077271, 0.00833336077630519866943359,
              0.0416664853692054748535156, 0.166666671633720397949219, 0.5]:
        p = fma(p, s, f32(c))
    return q, fma(f32(s * s), p, s)


def erf32(x):
    z = f32(abs(x))
    if z >= ZMAX:
        r = f32(1.0)
    elif z < SPLIT:
        tt = f32(z * z)
        w = fma(horner(NEAR[1:], tt), tt, C0_LO)
        r = fma(z, NEAR[0], f32(z * w))
    else:
        hi = f32(z * z)
        lo = fma(z, z, -hi)
        g = horner(FAR, f32(z - MID))
        q, p = exp_reduced(f32(f32(g - lo) - hi))
        scale = f32(2.0 ** int(q))
        r = fma(-scale, p, f32(1.0) - scale) if q >= -24 else f32(1.0) - f32(scale * f32(1.0 + p))
    return math.copysign(float(r), x)


rng = np.random.default_rng(0)
xs = rng.uniform(0, 4.2, 60000).astype(f32)
ulps = [abs(int(np.array(f32(erf32(x))).view(np.int32)) - int(np.array(f32(math.erf(float(x)))).view(np.int32)))
        for x in xs]
print(f"max {max(ulps)} ulp; {sum(d != 0 for d in ulps)} of {len(xs)} differ from the correctly rounded erf")
