# scatter_reduce and scatter's reduce='multiply', mode, Tensor.unfold,
# fill_diagonal_, narrow_copy, typename, torch.Size, logit's eps.
import torch

src = torch.tensor([1., 2., 3., 4., 5., 6.])
index = torch.tensor([0, 1, 0, 1, 2, 1])
x = torch.tensor([1., 2., 3., 4.])
for r in ["sum", "prod", "mean", "amax", "amin"]:
    print(r, x.scatter_reduce(0, index, src, reduce=r), x.scatter_reduce(0, index, src, reduce=r, include_self=False))
print(torch.arange(4).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([5, 6, 7]), "mean"))
m = torch.zeros(2, 3)
m.scatter_reduce_(1, torch.tensor([[0, 0], [2, 1]]), torch.tensor([[1., 2.], [3., 4.]]), "amax", include_self=False)
print(m, torch.full((2, 4), 2.).scatter_(1, torch.tensor([[2], [3]]), 1.23, reduce="multiply"))
b = torch.tensor([[0, 0, 0, 2, 0, 0, 2], [0, 3, 0, 0, 2, 0, 1], [2, 2, 2, 0, 0, 0, 3], [2, 2, 3, 0, 1, 1, 0], [1, 1, 0, 0, 2, 0, 2]])
print(torch.mode(b, 0), b.mode(), torch.mode(b.float(), 1, keepdim=True).values.shape, torch.mode(torch.tensor(3.)))
t = torch.arange(1., 8)
print(t.unfold(0, 2, 1), t.unfold(0, 2, 2), torch.arange(12).reshape(3, 4).unfold(1, 2, 2).shape)
print(torch.zeros(3, 3).fill_diagonal_(5), torch.zeros(7, 3).fill_diagonal_(5, wrap=True), torch.zeros(2, 2, 2).fill_diagonal_(1))
print(torch.narrow_copy(torch.arange(9).reshape(3, 3), 1, 1, 2))
print(torch.typename(torch.ones(2).cpu()), torch.typename(torch.arange(2).cpu()), torch.typename(2.5), torch.typename([1]), torch.Size([2, 5, 5]), torch.Size())
print(torch.logit(torch.tensor([0., 0.3, 1.]), eps=1e-6), torch.special.logit(torch.tensor([0.2, 0.5]), eps=0.3))
