# Joining and splitting, and PyTorch's argument errors for them.
import torch

x = torch.arange(10.).reshape(2, 5)
print(torch.tensor_split(torch.arange(7), 3))
print(torch.tensor_split(torch.arange(7), [1, 5, 3, 9]))
print(torch.tensor_split(torch.arange(7), torch.tensor([1, 5])))
print(torch.tensor_split(x, 2, dim=1))
print(torch.hsplit(x, [1, 3]))
print(torch.vsplit(torch.arange(8).reshape(4, 2), 2))
print(torch.dsplit(torch.arange(8).reshape(1, 2, 4), [3]))
print(torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])]))
print(torch.dstack((torch.ones(2, 2), torch.zeros(2, 2))).shape)
print(torch.column_stack([torch.tensor(1), torch.tensor([2])]))
print(torch.column_stack((torch.arange(3), torch.arange(6).reshape(3, 2))))
print(torch.row_stack([torch.tensor([1, 2]), torch.tensor([3, 4])]))
print(torch.atleast_1d(torch.tensor(1.)), torch.atleast_2d(torch.tensor([1, 2])).shape)
print(torch.atleast_3d(torch.tensor([1, 2])).shape, torch.atleast_3d(torch.ones(2, 3)).shape)
print(torch.atleast_1d(torch.tensor(1.), torch.tensor(2.)))
print(torch.atleast_2d([torch.tensor(1.), torch.tensor([2., 3.])]))
print(x.chunk(2, dim=1))
print(x.split([2, 3], 1))
print(x.tensor_split(3, dim=1)[2])
y = x.clone().requires_grad_()
print(torch.split(y, [2, 3], 1)[0].grad_fn.name(), torch.chunk(y, 2, 1)[0].grad_fn.name())
print(torch.tensor_split(y, 2, dim=1)[0].grad_fn.name(), torch.dstack([y, y]).grad_fn.name())
for call in [
    lambda: torch.chunk(x),
    lambda: torch.chunk(x, 2, 1, 5),
    lambda: x.chunk(2, 1, 5),
    lambda: torch.chunk(x, 2, dim=1, chunks=3),
    lambda: torch.cat(x),
    lambda: torch.chunk(x, 'a'),
    lambda: torch.chunk(x, 2, bogus=1),
    lambda: torch.unbind(x, 0, 1),
    lambda: torch.hsplit(x, 2),
    lambda: torch.vsplit(torch.arange(5), 2),
]:
    try:
        call()
    except (TypeError, RuntimeError) as e:
        print(e)
