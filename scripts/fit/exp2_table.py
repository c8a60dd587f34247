"""The constants of backend/cpu/exp_f64.rs: 2^(j/128) for j = 0..127 as
double-doubles (hi + lo, hi the nearest float64, lo the nearest float64 to the
rest), and ln(2)/128 split as hi + lo with hi's last 18 bits zero (so that
k * hi is exact for |k| < 2^18). In 60-digit decimal arithmetic.

python3 scripts/fit/exp2_table.py"""
import struct
from decimal import Decimal, getcontext

getcontext().prec = 60
LN2 = Decimal(2).ln()


def f64(d):
    return float(d)


def chop(x, bits):
    (u,) = struct.unpack("<Q", struct.pack("<d", x))
    return struct.unpack("<d", struct.pack("<Q", u & ~((1 << bits) - 1)))[0]


print("const TABLE: [(f64, f64); 128] = [")
for j in range(128):
    v = Decimal(2) ** (Decimal(j) / 128)
    hi = f64(v)
    lo = f64(v - Decimal(hi))
    print(f"    ({hi!r}, {lo!r}),")
print("];")
step = LN2 / 128
hi = chop(f64(step), 18)
print(f"const LN2_N_HI: f64 = {hi!r};")
print(f"const LN2_N_LO: f64 = {f64(step - Decimal(hi))!r};")
print(f"const INV_LN2_N: f64 = {f64(128 / LN2)!r};")
