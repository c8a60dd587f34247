# Narrow integer element-wise ops (computed through int64 a piece at a time)
# over many pieces with tails: wrapping arithmetic, division, shifts,
# comparisons, bitwise ops, unary ops, bool, and views.
import torch
base = torch.arange(-1300, 1303)
for dt in [torch.int8, torch.uint8, torch.int16, torch.int32, torch.bool]:
    a = base.to(dt)
    b = (base * 7 % 23 + 1).to(dt)
    if dt == torch.bool:
        print(dt, (a & b).sum().item(), (a | ~b).sum().item(), (a ^ b)[:6], (a == b).sum().item(), (a + b)[:4])
        continue
    print(dt, (a + b)[-5:], (a * b)[::400], (a - b).sum().item(), (a // b)[:7], (a % b)[100:106])
    print((a << 3)[:5], (a >> 2)[-4:], (a & b).sum().item(), (a | b)[:5], (a ^ b)[-3:], (~a)[:4])
    print((a < b).sum().item(), (a >= 3).sum().item(), torch.maximum(a, b)[:5], torch.minimum(a, b)[-5:], a.abs()[:4], (-a)[-4:])
    v = a.view(-1)[1:].view(2, 1301)[:, ::5]
    print((v + 1)[:, -3:], (v * v).sum().item(), torch.clamp(a, 2, 9)[::300], a.sign()[::500])
