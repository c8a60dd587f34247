# Integer floor division, remainder and fmod (float64 division where every
# operand of a block is nonzero and under 2^31, the int64 division where one
# is not), and the integer predicates (tested as float64s).
import torch
x = torch.arange(-3000, 3001) * 7919 % 100003 - 50001
y = torch.arange(-3000, 3001) % 97 - 48
y = torch.where(y == 0, torch.full_like(y, 5), y)
for dt in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64]:
    a, b = x.to(dt), y.to(dt)
    if dt == torch.uint8:
        b = (y.abs() + 1).to(dt)
    print(dt, (a // b).sum().item(), (a % b).sum().item(), torch.fmod(a, b).sum().item())
    print((a // b)[:6], (a % b)[-6:], torch.fmod(a, b)[::1000])
    print((a // 7)[:5], (a % -3)[:5] if dt != torch.uint8 else (a % 3)[:5], torch.remainder(a, 10)[-4:])
    print(a.logical_not().sum().item(), torch.isnan(a).any().item(), torch.isfinite(a).all().item(), torch.isinf(a).any().item())
# Operands at and past 2^31 (int64's own division for their block), and the
# edge of int32.
big = torch.tensor([2**31 - 1, 2**31, -2**31, -2**31 - 1, 2**40 + 3, -2**62, 7, -7] * 300)
d = torch.tensor([2, -3, 7, -1, 2**33, 3, -2**31, 2**31] * 300)
print((big // d)[:8], (big % d)[:8], torch.fmod(big, d)[:8], (big // d).sum().item())
i32 = torch.tensor([-2**31, 2**31 - 1, -2**31, 5] * 600, dtype=torch.int32)
m1 = torch.tensor([-1, -1, 1, -2] * 600, dtype=torch.int32)
print((i32 // m1)[:4], (i32 % m1)[:4], torch.fmod(i32, m1)[:4])
# Views and broadcasts.
v = x.view(1, -1)[:, 1:].view(2, 3000)[:, ::3]
w = y[1:].view(2, 3000)[:, ::3]
print((v // w)[:, -3:], (v % w.t()[:1].t()).sum().item(), (v.t() // 4).sum().item())
bm = (x % 3 == 0)
print(bm.logical_not().sum().item(), (~bm).sum().item(), torch.isnan(bm).sum().item())
print(torch.logical_not(torch.empty(0, dtype=torch.int32)), torch.empty(0, dtype=torch.int16) // 3)
