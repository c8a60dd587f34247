# Picking, placing and masking elements (the scatter/index family).
import torch

x = torch.zeros(3, 4)
idx = torch.tensor([[0, 1, 2, 0]])
print(torch.scatter(x, 0, idx, torch.ones(2, 5)))
print(torch.scatter(x, 0, idx.int(), 1.0))
print(x.scatter(0, idx, 2.0, reduce='add'))
print(x.scatter(1, torch.tensor([[2], [0]]), value=7.))
print(torch.scatter_add(torch.zeros(3), 0, torch.tensor([0, 1, 0]), torch.tensor([1., 2., 3.])))
print(x.index_add(0, torch.tensor([0, 2]), torch.ones(2, 4), alpha=2))
print(x.index_fill(1, torch.tensor([0, 2]), -1))
print(x.index_copy(0, torch.tensor([2, 0]), torch.arange(8.).reshape(2, 4)))
print(torch.masked_select(torch.arange(4).reshape(2, 2), torch.tensor([True, False])))
a = torch.tensor([[10, 30, 20], [60, 40, 50]])
print(torch.take_along_dim(a, torch.tensor([[0], [1]]), dim=1))
print(torch.take_along_dim(a, torch.tensor([2, 0])))
print(torch.take_along_dim(a, a.argsort(dim=1), dim=1))
print(torch.take(a, torch.tensor([0, 2, 5])))
print(torch.argwhere(torch.tensor([[1, 0], [0, 3]])))
print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3])))
print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2]), invert=True))
print(torch.diagonal(torch.arange(9).reshape(3, 3), 1), torch.arange(9).reshape(3, 3).diagonal(-1))
print(torch.diagonal(torch.arange(24).reshape(2, 3, 4), 0, 1, 2))
print(torch.diag_embed(torch.tensor([[1, 2], [3, 4]])))
print(torch.diag_embed(torch.tensor([1., 2.]), offset=1))
print(torch.diag(torch.tensor([1, 2]), -1), torch.diag(torch.arange(6).reshape(2, 3)))
print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1))
print(torch.tril_indices(4, 3, -1))
print(torch.arange(9.).reshape(3, 3).trace(), torch.trace(torch.arange(6).reshape(2, 3)))
print(torch.roll(torch.arange(6).reshape(2, 3), 1), torch.roll(torch.arange(6).reshape(2, 3), (1, -1), (0, 1)))
t = torch.zeros(2, 3)
t.scatter_(1, torch.tensor([[0, 2], [1, 1]]), 5.)
t.index_fill_(0, torch.tensor([1]), 3)
t.index_add_(1, torch.tensor([1]), torch.ones(2, 1))
t.masked_fill_(t > 4, -1)
t.tril_()
print(t)
w = torch.arange(6.).reshape(2, 3).requires_grad_()
print(w.gather(1, torch.tensor([[0, 0], [2, 1]])).grad_fn.name(), w.index_select(0, torch.tensor([1])).grad_fn.name())
print(torch.zeros(2, 3).scatter(0, torch.tensor([[1, 0, 1]]), w).grad_fn.name(), w.masked_select(w > 2).grad_fn.name())
print(w.diagonal().grad_fn.name(), torch.diag_embed(w).grad_fn.name(), w.index_add(0, torch.tensor([0]), w[:1]).grad_fn.name())
(w.gather(1, torch.tensor([[0, 0], [2, 1]])) * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(w.grad)
w.grad = None
torch.zeros(3, 3).scatter_add(1, torch.tensor([[0, 0, 1], [2, 2, 2]]), w).sum().backward()
print(w.grad)
for call in [
    lambda: torch.gather(x, 0, torch.tensor([[0.]])),
    lambda: torch.index_select(x, 0, torch.tensor([[0]])),
    lambda: torch.scatter(x, 0, idx, torch.ones(2, 5).double()),
    lambda: x.masked_fill(torch.tensor([1, 0, 0, 1]), 1.),
]:
    try:
        call()
    except (TypeError, RuntimeError, IndexError) as e:
        print(e)

# tril_indices/triu_indices over every offset, square, wide, tall and empty grids.
for r, c in [(3, 3), (4, 3), (3, 5), (0, 3), (3, 0), (1, 1), (6, 4)]:
    for k in [-7, -2, -1, 0, 1, 2, 9]:
        print(r, c, k, torch.triu_indices(r, c, k).tolist(), torch.tril_indices(r, c, k).tolist())
print(torch.triu_indices(3, 3, dtype=torch.int32), torch.tril_indices(4, 4).shape, torch.triu_indices(300, 300).sum(1))
