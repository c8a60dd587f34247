# float32 products and 1- and 2-norms over dims round as ATen's kernels do:
# a contiguous group through reduction128 (prod) or the last-dim kernel
# (2-norm) at eight lanes, groups side by side element by element. Every
# printed digit of .tolist() agrees.
import torch

torch.manual_seed(0)
for shape in [(7, 5), (7, 20), (5, 40), (3, 64), (4, 100), (3, 333), (2, 1000), (60, 40), (300, 7)]:
    x = torch.rand(*shape) + 0.5
    y = torch.randn(*shape)
    for d in [0, 1]:
        print(shape, d, x.prod(d)[:6].tolist(), y.norm(dim=d)[:6].tolist(), y.norm(p=1, dim=d)[:6].tolist())
    print(torch.linalg.vector_norm(y, dim=1)[:4].tolist(), torch.linalg.vector_norm(y, ord=1, dim=0)[:4].tolist())
    print(x.prod(1, keepdim=True)[:3].flatten().tolist(), x.t().contiguous().prod(0)[:4].tolist())
for n in [1, 7, 8, 9, 31, 32, 33, 100, 1000, 20000]:
    z = torch.rand(n) * 0.02 + 0.99
    w = torch.randn(n)
    print(n, z.prod().item(), w.norm().item(), w.norm(p=1).item(), torch.linalg.norm(w).item())
big = torch.randn(100000)
print(big.norm().item(), big.view(100, 1000).norm(dim=1)[:3].tolist(), big.view(1000, 100).norm(dim=0)[:3].tolist())
a = torch.randn(4, 6, 5)
print(a.norm(dim=(1, 2)).tolist(), a.norm(dim=(0, 1)).tolist(), (a.abs() + 0.5).prod(2)[0].tolist())
print(torch.ones(0, 3).prod(0), torch.ones(3, 0).norm(dim=1), torch.tensor([[0.0, -0.0]]).norm(dim=1))
print(torch.tensor([[float("inf"), 1.0], [float("nan"), 2.0]]).norm(dim=1), torch.tensor([[1e30, 1e30]]).prod(1))
# Every tail of the 2-norm's last-dim kernel (four squared as a vector, the
# rest by fused multiply-adds).
for n in range(1, 42):
    print(n, torch.randn(3, n).norm(dim=1).tolist(), (torch.rand(2, n) + 0.5).prod(1).tolist())
