# Max pooling over rows wide enough for the vector loop (16 columns and more):
# NaNs, ties and -inf in the middle of a row, strides 1 and 2, max_pool1d, float64
# and integers; adaptive pooling as plain pooling where the output divides the input
# (values, indices, grad_fn names, gradients to one element among ties) and cell by
# cell where it does not.
import torch
import torch.nn.functional as F

nan, inf = float('nan'), float('inf')
row = torch.tensor([(i * 7) % 11 - 5. for i in range(40)])
row[5], row[6], row[20], row[33] = nan, 9., -inf, nan
row[12] = row[13] = row[14] = 6.
x = torch.stack([row, row.flip(0), row.roll(3)]).reshape(1, 3, 1, 40)
for k, s, p in [(3, 1, 1), (3, 2, 1), (5, 2, 2), (2, 2, 0), (4, 3, 0)]:
    v, i = F.max_pool2d(x, (1, k), (1, s), (0, p), return_indices=True)
    print(k, s, p, v[0, :, 0], i[0, :, 0])
plane = torch.arange(3 * 34 * 34).reshape(1, 3, 34, 34) % 13 - 6
print(F.max_pool2d(plane.double(), 3, 2, 1)[0, 1, :3, :8])
print(F.max_pool2d(plane, 3, 1, 1)[0, 2, 5, :20])
v, i = F.max_pool1d(x.reshape(3, 1, 40), 3, 2, 1, return_indices=True)
print(v[:, 0, :12], i[:, 0, :12])
torch.manual_seed(0)
big = torch.randn(2, 4, 20, 36, requires_grad=True)
y = F.max_pool2d(big, 3, 2, 1)
y.pow(2).sum().backward()
# Two places: a GPU adds in its own order.
print(f"{y.sum().item():.2f} {big.grad.sum().item():.2f} {big.grad.abs().sum().item():.2f}")

img = (torch.arange(2 * 3 * 8 * 8).reshape(2, 3, 8, 8) % 11 - 5).float().requires_grad_()
for size in [4, (None, 2), (8, 8), 1, (2, 8), 3, (2, 5), (16, 16)]:
    a = F.adaptive_avg_pool2d(img, size)
    m, mi = F.adaptive_max_pool2d(img, size, return_indices=True)
    print(size, tuple(a.shape), a.grad_fn.name(), m.grad_fn.name(), mi.dtype)
    print(a[1, 2], m[0, 1], mi[1, 1])
    (a.sum() + m.pow(2).sum()).backward()
    print(img.grad[0, 0])
    img.grad = None
z = torch.zeros(1, 2, 4, 4, requires_grad=True)
F.adaptive_max_pool2d(z, 1).sum().backward()
print(z.grad[0, 0])
z.grad = None
F.adaptive_max_pool2d(z, (2, 3)).sum().backward()
print(z.grad[0, 1])
seq = (torch.arange(2 * 5 * 12).reshape(2, 5, 12) % 7 - 3).float()
print(F.adaptive_avg_pool1d(seq, 4)[0], F.adaptive_avg_pool1d(seq, 5)[1])
print(F.adaptive_max_pool1d(seq, 5, return_indices=True)[1][1], F.adaptive_max_pool1d(seq, 3)[0])
print(F.adaptive_avg_pool1d(seq, 4).grad_fn, F.adaptive_avg_pool1d(seq, 1).shape)
print(torch.nn.AdaptiveAvgPool2d((2, 2))(img)[0, 0], torch.nn.AdaptiveMaxPool2d(3)(img)[1, 1])
# Many small planes, split among threads in runs: TextCNN's max over the whole
# sequence, pairs along it, and a global 2-d max (one output a plane, scanned
# output by output).
seqs = torch.randn(8, 50, 100)
for k, s in [(100, None), (2, None), (3, 2)]:
    v, i = F.max_pool1d(seqs, k, s, return_indices=True)
    print(tuple(v.shape), f"{v.sum().item():.2f}", i.sum().item(), i[3, 7, :5])
# Pairs over an odd width (the last column left out) and a strided view, with
# the gradient; 2×2 windows over an odd height.
odd = x.reshape(3, 1, 40)[..., 1:].detach().requires_grad_()
v, i = F.max_pool1d(odd, 2, return_indices=True)
v.sum().backward()
print(v[:, 0, :10], i[:, 0, -6:], odd.grad[:, 0, :12])
print(F.max_pool2d(plane.float()[:, :, :33, 1:], 2, return_indices=True)[1][0, 1, -1, :8])
maps = torch.randn(4, 16, 24, 24)
v, i = F.max_pool2d(maps, 24, return_indices=True)
print(tuple(v.shape), f"{v.sum().item():.2f}", i.sum().item(), i[2, :6, 0, 0])
print(torch.equal(F.adaptive_max_pool2d(maps, 1), v), torch.equal(F.adaptive_max_pool2d(maps, 6), F.max_pool2d(maps, 4)))
# Unbatched, an empty batch, None in the size, an integer input (an error).
u = (torch.arange(3 * 6 * 6).reshape(3, 6, 6) % 5).float()
print(F.adaptive_avg_pool2d(u, 3), F.adaptive_max_pool2d(u, (2, 3), return_indices=True))
print(F.adaptive_avg_pool2d(u, (4, 5)).shape, F.adaptive_max_pool2d(u, (4, 5)).shape)
print(F.adaptive_avg_pool2d(torch.zeros(0, 2, 4, 4), 2).shape, F.avg_pool2d(torch.zeros(0, 2, 4, 4), 2).shape)
print(F.adaptive_max_pool2d(torch.zeros(0, 2, 4, 4), 2).shape)
print(F.adaptive_avg_pool2d(torch.arange(16).reshape(1, 4, 4).float(), (None, 2)))
try:
    F.adaptive_avg_pool2d(torch.arange(16).reshape(1, 4, 4), 2)
except Exception as e:
    print(type(e).__name__)
# Average pooling in ATen's order: each window's sum from 0, row by row, then
# divided (the adaptive pools by the height, then the width), so the bits are
# PyTorch's; padding counted or not, a divisor, ceil_mode, 3-d input, float64
# and half, and the gradients. Sums print rounded: a GPU adds in its own order.
torch.manual_seed(1)
a = (torch.randn(2, 3, 11, 37) * 100).requires_grad_()
for k, s, p, kw in [(5, 5, 0, {}), (5, 1, 2, {}), (6, 3, 1, {}), (3, 2, 1, {"count_include_pad": False}),
                    (4, 4, 2, {"divisor_override": 7}), (3, 2, 1, {"ceil_mode": True}),
                    (2, 2, 0, {}), ((1, 2), (1, 2), 0, {})]:
    y = F.avg_pool2d(a, k, s, p, **kw)
    (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
    print(k, s, p, kw, tuple(y.shape), f"{y.sum().item():.0f}", y[1, 2, -1, -6:].tolist())
    print(a.grad[1, 1, :3, :6], f"{a.grad.sum().item():.6g}")
    a.grad = None
for size in [(12, 9), 3, 5, (4, 37), (22, 40), (1, 1)]:
    y = torch._adaptive_avg_pool2d(a, size if isinstance(size, tuple) else (size, size))
    z = F.adaptive_avg_pool2d(a, size)
    (z * torch.arange(z.numel()).reshape(z.shape)).sum().backward()
    print(size, z.grad_fn.name(), y.grad_fn.name(), torch.equal(y, z), f"{z.sum().item():.0f}", z[0, 1, -1, -3:].tolist())
    print(a.grad[0, 2, :2, :8], f"{a.grad.sum().item():.6g}")
    a.grad = None
print(F.avg_pool2d(a.detach()[0].double(), 3, 2, 1)[2, :2, :4], F.avg_pool2d(a.detach().half(), 2)[1, 1, 0, :4])
print(F.adaptive_avg_pool2d(a.detach()[1].double(), (3, 4))[0], F.adaptive_avg_pool2d(a.detach().bfloat16(), 5)[0, 0, 0])
print(F.avg_pool2d(a.detach()[:, :, :, 1::3], 2).stride(), F.avg_pool1d(a.detach()[0], 4, 3)[0, :5])
print(torch.nn.AvgPool2d(3, 1, 1, count_include_pad=False)(a.detach())[0, 0, 0, :4], F.avg_pool2d(torch.zeros(0, 2, 4, 4), 2).shape)
for f in [lambda: F.avg_pool2d(torch.zeros(1, 1, 4, 0), 2, padding=1), lambda: F.adaptive_avg_pool2d(torch.zeros(1, 0, 3), 2)]:
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__)
