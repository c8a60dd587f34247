"""The table and polynomial of fastmath::ln_core.

x = 2^k z with z in [1 - 17/64, 1 + 15/32): the f64 bit pattern minus OFF, a
pattern 2^47 below 1.0's and eight table steps further down, gives k (its top
bits), the table row i (the next four) and z (the rest over 1.0's exponent).
Row i covers the 2^48 bit patterns of z starting at OFF + i·2^48; its c is the
middle of that z range (row 8, centred on 1.0, has c = 1 exactly so that
ln x near 1 keeps its digits), INV_C = 1/c rounded to f64 and LOG_C = -ln(INV_C)
correctly rounded. Then ln x = k ln 2 + LOG_C + ln(1 + r) with
r = z·INV_C - 1 (one FMA), and ln(1 + r) = r + r² p(r), p fitted (weighted
least squares at Chebyshev nodes, in 50-digit arithmetic) to the relative error
of ln(1 + r) over every row's range of r.

Needs mpmath (it comes with PyTorch's sympy): python3 scripts/fit/ln_f64.py"""
import struct

import mpmath as mp

import lsq

mp.mp.dps = 50
DEGREE = 7


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


ONE = 0x3FF0000000000000
OFF = ONE - (1 << 47) - 8 * (1 << 48)


def rows():
    out = []
    for i in range(16):
        lo = mp.mpf(f64(OFF + i * (1 << 48)))
        hi = mp.mpf(f64(OFF + (i + 1) * (1 << 48)))
        c = mp.mpf(1) if i == 8 else (lo + hi) / 2
        inv_c = float(1 / c)
        log_c = float(-mp.log(mp.mpf(inv_c)))
        out.append((lo, hi, inv_c, log_c))
    return out


def r_range(table):
    rs = [z * mp.mpf(inv_c) - 1 for lo, hi, inv_c, _ in table for z in (lo, hi)]
    return min(rs), max(rs)


def target(r):
    return -mp.mpf(1) / 2 if r == 0 else (mp.log1p(r) - r) / r**2


def fit(lo, hi, deg, nodes=200):
    # p's error, as a relative error of ln(1 + r).
    weight = lambda x: x**2 / abs(mp.log1p(x)) if x != 0 else abs(x)
    return lsq.fit(lsq.chebyshev_nodes(lo, hi, nodes), deg, target, weight)


def worst(cs, lo, hi, points=4000):
    err = 0
    for k in range(points + 1):
        x = lo + (hi - lo) * k / points
        if x == 0:
            continue
        p = lsq.horner(cs, x)
        err = max(err, abs((x + x * x * p) / mp.log1p(x) - 1))
    return err


def main():
    table = rows()
    lo, hi = r_range(table)
    cs = fit(lo, hi, DEGREE)
    print(f"OFF = {OFF:#x}; r in [{float(lo):.6f}, {float(hi):.6f}]")
    print(f"degree {DEGREE}: worst relative error {float(worst(cs, lo, hi)):.3e}")
    print("INV_C:", ", ".join(repr(t[2]) for t in table))
    print("LOG_C:", ", ".join(repr(t[3]) for t in table))
    print("P (highest first):", ", ".join(repr(c) for c in reversed(cs)))


if __name__ == "__main__":
    main()
