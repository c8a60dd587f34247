# select_scatter, slice_scatter and masked_scatter: copies of the input with
# src written into one of its views, differentiable in both.
import torch

a = torch.zeros(2, 3)
print(torch.select_scatter(a, torch.ones(3), 0, 0), torch.select_scatter(a, torch.tensor([5., 6.]), 1, -1))
b = torch.zeros(8, 8)
print(torch.slice_scatter(b, torch.ones(2, 8), start=6), torch.slice_scatter(b, torch.ones(8, 2), dim=1, start=2, end=6, step=2))
print(a.slice_scatter(torch.ones(1, 3), start=-1))
x = torch.tensor([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]])
mask = torch.tensor([[0, 0, 0, 1, 1], [1, 1, 0, 1, 1]], dtype=torch.bool)
src = torch.tensor([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]])
print(x.masked_scatter(mask, src), x.masked_scatter_(torch.tensor([True, False, False, True, False]), src), x)
s = torch.randn(3, requires_grad=True)
base = torch.randn(2, 3, requires_grad=True)
torch.select_scatter(base, s, 0, 1).pow(2).sum().backward()
print(s.grad.shape, base.grad[1])
