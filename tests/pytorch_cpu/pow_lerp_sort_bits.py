# Every digit of float32 results whose rounding depends on how they are computed:
# x ** k for the exponents PyTorch multiplies out (2, 3, -2) or takes roots for
# (-0.5, -1), lerp (fused multiply-adds in float32), and order-based ops.
import torch

torch.manual_seed(0)
x = torch.rand(40) * 10 + 0.1
for e in [2, 3, -2, -0.5, -1]:
    print(e, (x ** e).tolist()[:6], (x[:5] ** e).tolist())
s, t = torch.randn(40), torch.randn(40)
for w in [0.3, 0.7]:
    print(w, torch.lerp(s, t, w).tolist()[:6], torch.lerp(s[:5], t[:5], w).tolist())
print(torch.lerp(s, t, torch.rand(40)).tolist()[:6])
print(torch.lerp(s.double(), t.double(), 0.3).tolist()[:3])
y = torch.randn(6, 50)
y[1, 3] = float("nan")
y[2, :] = 0.0
y[2, 7] = -0.0
print(y.amax(1).tolist(), y.amin(0).tolist()[:5], y.max().item(), y[2:].min().item())
v, i = y.sort(dim=1, stable=True)
print(v[1, -3:].tolist(), i[:3, :6].tolist())
v, i = y.sort(dim=1, descending=True, stable=True)
print(v[1, :3].tolist(), i[:3, :6].tolist())
v, i = y.topk(4, 1)
print(v[0].tolist(), i[0].tolist(), i[3:].tolist())
v, i = y.topk(30, 1, largest=False)
print(i[0, :6].tolist(), i[4, -3:].tolist())
c = y.cumsum(1)
print(c[0, -3:].tolist(), y.cumprod(0)[-1, :4].tolist(), y.cummax(1)[1][1, :6].tolist())
print(y.t().cumsum(0)[-1].tolist())
