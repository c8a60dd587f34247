# scatter and scatter_add through the backend: both dims, strided source and
# destination, 3-d, integer and bfloat16 sums of repeated positions, the
# gradients of scatter, scatter_add and gather, out-of-range indices, empty.
import torch
torch.manual_seed(0)
x = (torch.arange(float(4 * 5)).reshape(4, 5) * 0.37).sin().requires_grad_(False)
idx = torch.tensor([[0, 1, 2, 0, 0], [2, 0, 0, 1, 2], [1, 1, 1, 1, 1]])
print(torch.zeros(3, 5).scatter_add(0, idx, x))
print(torch.zeros(3, 5).scatter(0, idx[:, :1].expand(3, 5).contiguous() * 0 + torch.arange(3)[:, None], x[:3]))
i2 = torch.tensor([[0, 1, 0, 3], [2, 2, 2, 2]])
print(torch.ones(2, 4).scatter_add(1, i2, x[:2, :4]))
print(torch.ones(2, 4).scatter(1, i2, 7.5))
print(torch.ones(2, 4).scatter_(1, i2, x[:2, :4], reduce='add'))
# strided src and dst
y = (torch.arange(float(5 * 4)).reshape(5, 4) * 0.37).sin().requires_grad_(False).t()
d = torch.zeros(6, 8)[:, ::2]
print(d.scatter_add(1, torch.tensor([[3, 3, 0], [1, 2, 1]]), y))
# 3-d, dim 1
s3 = torch.arange(16.).reshape(2, 2, 4)
print(torch.zeros(5, dtype=torch.int64).scatter_add(0, torch.tensor([1, 1, 4]), torch.tensor([5, 6, 7])))
print(torch.zeros(5, dtype=torch.bfloat16).scatter_add(0, torch.tensor([1, 1, 4]), torch.tensor([5.1, 6.3, 7.7], dtype=torch.bfloat16)))
# gradients
a = (torch.arange(float(3 * 5)).reshape(3, 5) * 0.37).sin().requires_grad_(True)
b = (torch.arange(float(3 * 5)).reshape(3, 5) * 0.37).sin().requires_grad_(True)
out = a.scatter_add(1, idx, b)
(out * torch.arange(15.).reshape(3, 5)).sum().backward()
print(a.grad, b.grad)
a.grad = None; b.grad = None
out = a.scatter(1, idx, b)
(out * torch.arange(15.).reshape(3, 5)).sum().backward()
print(a.grad, b.grad)
g = (torch.arange(float(3 * 5)).reshape(3, 5) * 0.37).sin().requires_grad_(True)
g.gather(1, idx).pow(2).sum().backward()
print(g.grad)
for bad in [lambda: torch.zeros(3, 5).scatter_add(1, idx + 5, x[:3]), lambda: torch.zeros(3, 5).scatter_add(1, idx - 1, x[:3])]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0])
e = torch.zeros(3, 0).scatter_add(1, torch.zeros(3, 0, dtype=torch.int64), torch.zeros(3, 0))
print(e.shape)
# A long scatter along the last dim (rows run in parallel), with repeats.
w = torch.arange(600 * 300).reshape(600, 300) % 7
big = torch.zeros(600, 300).scatter_add_(1, (w * 13) % 300, torch.ones(600, 300) * 0.5)
print(big.sum(), big.sum(1)[:5], big.amax())
