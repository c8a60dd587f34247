# Rearranging elements: movedim, tile, rot90, unflatten, repeat_interleave,
# meshgrid, diff, kron, cross, cdist.
import torch

x = torch.arange(6.).reshape(2, 3)
print(torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape, torch.moveaxis(torch.zeros(2, 3, 4), [0, 1], [2, 0]).shape)
print(torch.movedim(x, 1, 0))
print(x.tile(2), torch.tile(torch.tensor([1, 2]), (2, 2)), x.tile((2, 1, 1)).shape)
print(torch.rot90(x), torch.rot90(x, 2), torch.rot90(x, -1, [0, 1]), torch.rot90(x, 3, [1, 0]))
print(torch.arange(6).unflatten(0, (2, 3)), x.unflatten(1, (3, -1)).shape, torch.zeros(2, 12).unflatten(-1, (2, 2, 3)).shape)
print(torch.repeat_interleave(x, 2), torch.repeat_interleave(x, 2, dim=0))
print(x.repeat_interleave(torch.tensor([1, 2]), dim=0), torch.repeat_interleave(torch.tensor([2, 1])))
print(torch.tensor([1, 2, 3]).repeat_interleave(torch.tensor([3, 0, 1])))
gx, gy = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing='ij')
print(gx, gy)
gx, gy = torch.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing='xy')
print(gx, gy)
print(torch.meshgrid([torch.tensor([1., 2.]), torch.tensor([3., 4.])], indexing='ij')[1])
print(torch.diff(torch.tensor([1, 3, 2]), prepend=torch.tensor([0]), append=torch.tensor([5, 5])))
print(torch.diff(torch.tensor([True, False, False])), torch.diff(x, n=2, dim=1), torch.diff(x, dim=0))
print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 1], [1, 1]])), torch.kron(torch.eye(2), x))
print(torch.cross(torch.tensor([[1., 0, 0]]), torch.tensor([[0., 1, 0]]), dim=1))
print(torch.linalg.cross(torch.tensor([[1., 2., 3.]]), torch.tensor([[4., 5., 6.], [0., 0., 1.]])))
print(torch.cdist(torch.tensor([[0., 0], [1, 1]]), torch.tensor([[1., 0]]), p=1), torch.cdist(torch.tensor([[0., 0], [1, 1]]), torch.tensor([[1., 0], [3., 4.]])))
print(torch.cdist(torch.arange(12.).reshape(2, 3, 2), torch.ones(2, 1, 2)))
w = x.clone().requires_grad_()
v = torch.arange(3.).requires_grad_()
print(torch.movedim(w, 0, 1).grad_fn.name(), w.tile(2).grad_fn.name(), torch.rot90(w).grad_fn.name(), w.unflatten(1, (3, 1)).grad_fn.name())
print(w.repeat_interleave(torch.tensor([1, 2]), dim=0).grad_fn.name(), torch.kron(w, w).grad_fn.name(), torch.diff(w).grad_fn.name())
print(torch.cross(v.reshape(1, 3), v.reshape(1, 3), dim=1).grad_fn.name(), torch.cdist(w, w).grad_fn.name())
torch.cdist(w, w + 1).sum().backward()
print(w.grad)
for call in [
    lambda: torch.rot90(x, 1, [0]),
    lambda: x.unflatten(1, (4, 2)),
    lambda: torch.cdist(x, torch.ones(2, 2)),
    lambda: torch.linalg.cross(x, x),
    lambda: torch.linalg.cross(torch.ones(3), torch.ones(1, 3)),
]:
    try:
        call()
    except (TypeError, RuntimeError, ValueError) as e:
        print(e)
