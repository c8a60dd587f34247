# float32 sums, means and softmaxes round as PyTorch's CPU kernels do: every
# printed digit of .item() and .tolist() agrees. (Sizes stay below 32768
# elements, where PyTorch sums on one thread whatever the machine.)
import torch

torch.manual_seed(0)
x = torch.randn(3, 5)
print(x.sum().item(), x.sum(1).tolist(), x.sum(0).tolist(), x.mean().item(), x.mean(1).tolist())
for n in [7, 16, 17, 31, 64, 100, 257, 1000, 4097, 32767]:
    y = torch.randn(n)
    print(n, y.sum().item(), y.mean().item(), y[::3].sum().item(), (y * 100).sum().item())
for shape in [(4, 1000), (1000, 4), (64, 70), (70, 64), (3, 4, 5), (33, 17, 9), (8, 100, 30), (150, 150)]:
    a = torch.randn(*shape)
    for d in range(a.dim()):
        print(shape, d, a.sum(d).flatten()[:5].tolist(), a.mean(d).flatten()[-3:].tolist())
    print(a.sum().item(), a.t().sum(0)[:4].tolist() if a.dim() == 2 else a.sum((0, 2))[:4].tolist())
    if a.dim() == 3:
        print(a.sum((0, 1))[:4].tolist(), a.sum((1, 2))[:4].tolist(), a.permute(2, 0, 1).sum(1)[0, :4].tolist())
b = torch.randn(10, 10, dtype=torch.float64)
print(b.sum().item(), b.sum(0)[:3].tolist(), b.mean(1)[:3].tolist())
e = torch.randn(5).expand(4, 5)
print(e.sum(0).tolist(), e.sum(1).tolist())
print(torch.tensor([-0.0, -0.0]).sum(), torch.zeros(0, 3).sum(0), torch.zeros(0, 3).mean(0))

for n in [3, 5, 8, 10, 16, 17, 33, 100, 1000]:
    z = torch.randn(4, n) * 3
    p = z.softmax(1)
    print(n, p.sum(1).tolist(), p[:, :3].tolist(), z.log_softmax(1)[:, -3:].tolist())
for shape, d in [((3, 5), 0), ((3, 20), 0), ((4, 33, 7), 1), ((300, 200), 0)]:
    z = torch.randn(*shape) * 2
    print(shape, d, z.log_softmax(d).flatten()[:6].tolist(), z.log_softmax(d).flatten()[-6:].tolist())
logits = torch.randn(8, 10)
target = torch.randn(8, 10).softmax(dim=1)
print(torch.nn.functional.cross_entropy(logits, target).item())
print(torch.nn.functional.cross_entropy(logits, torch.arange(8)).item())

# nll_loss adds its losses in its own order (eight levels).
import torch.nn.functional as F
torch.manual_seed(3)
for n in [1, 5, 15, 16, 17, 33, 64, 100, 257, 1000]:
    x = torch.randn(n, 7)
    t = torch.randint(0, 7, (n,))
    w = torch.rand(7)
    print(n, F.cross_entropy(x, t).item(), F.nll_loss(x.log_softmax(1), t, reduction='sum').item(),
          F.cross_entropy(x, t, weight=w).item(), F.cross_entropy(x, t, ignore_index=3).item(),
          F.cross_entropy(x, t, label_smoothing=0.1).item())
