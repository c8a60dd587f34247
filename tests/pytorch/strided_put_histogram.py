# empty_strided / empty_permuted / new_empty_strided (shapes and strides only:
# PyTorch leaves the values uninitialised), dim_order, put/put_, index_reduce,
# histogram and histogramdd. (index_reduce, which PyTorch warns is in beta,
# is checked in tests/transcripts/index_reduce.tsh.)
import torch
a = torch.empty_strided((2, 3), (1, 2))
print(a.stride(), a.size(), a.dtype)
print(torch.empty_strided((2, 3), (1, 2), dtype=torch.float64).dtype)
print(torch.empty_permuted((2, 3, 5, 7), (0, 1, 2, 3)).stride())
p = torch.empty_permuted((2, 3, 5, 7), (0, 2, 3, 1))
print(p.stride(), p.dim_order(), p.is_contiguous())
print(torch.ones(2, dtype=torch.int32).new_empty_strided((2, 2), (1, 2)).dtype)
print(torch.zeros(2, 3).t().dim_order(), torch.zeros(2, 3, 4).permute(2, 0, 1).dim_order())
src = torch.tensor([[4, 3, 5], [6, 7, 8]])
print(src.put_(torch.tensor([1, 3]), torch.tensor([9, 10])).cpu())
print(src.cpu())
print(torch.put(src, torch.tensor([-1, 0, 0]), torch.tensor([1, 2, 3]), accumulate=True).cpu())
print(src.t().put(torch.tensor([[1], [2]]), torch.tensor([[0], [0]])).cpu())
w = torch.tensor([1., 2., 3.], requires_grad=True)
s = torch.tensor([10., 20.], requires_grad=True)
(torch.put(w, torch.tensor([0, 2]), s) * torch.tensor([1., 2., 3.])).sum().backward()
print(w.grad.cpu(), s.grad.cpu())
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), weight=torch.tensor([1., 2., 4.])))
print(torch.histogram(torch.tensor([1., 2, 1]), bins=4, range=(0., 3.), density=True))
print(torch.histogram(torch.tensor([1., 1.]), bins=2))
print(torch.histogram(torch.tensor([[1., 2.], [5., -1.]]), bins=torch.tensor([0., 1.5, 2., 5.])))
print(torch.histogram(torch.tensor([1., 2., 5.], dtype=torch.float64), bins=3))
print(torch.histogramdd(torch.tensor([[0., 1.], [1., 0.], [2., 0.], [2., 2.]]), bins=[3, 3], weight=torch.tensor([1., 2., 4., 8.])))
print(torch.histogramdd(torch.tensor([[0., 0.], [1., 1.], [2., 2.]]), bins=[2, 2], range=[0., 1., 0., 1.], density=True))
print(torch.histogramdd(torch.tensor([[0., 1.], [1., 0.]]), bins=[torch.tensor([0., 0.5, 1.]), torch.tensor([0., 2.])]))
print(torch.histogramdd(torch.tensor([[0., 1., 2.], [1., 0., 2.]]), bins=2).hist.shape)
for f in [lambda: torch.put(src, torch.tensor([6]), torch.tensor([1])),
          lambda: torch.empty_permuted((2, 3), (0, 0)),
          lambda: torch.take_along_dim(torch.tensor(3), torch.tensor(1), 0)]:
    try:
        f()
    except Exception as e:
        print(e)
