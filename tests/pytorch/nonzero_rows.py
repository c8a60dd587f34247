# nonzero row by row along the last dim: 1-d to 4-d masks, transposed and
# sliced (strided) inputs, empty dims, all and none set, NaN counted as
# non-zero, integer and bool inputs, and boolean-mask indexing built on it.
import torch

x = torch.arange(24.0).reshape(2, 3, 4) % 5 - 2
print(x.nonzero())
print((x > 0).nonzero().shape, (x > 0).nonzero()[-3:])
print(x.transpose(0, 2).nonzero()[:5])
print(x[:, ::2, 1:].nonzero())
print(torch.zeros(3, 4).nonzero(), torch.ones(2, 2).nonzero())
print(torch.zeros(0, 3).nonzero().shape, torch.zeros(2, 0, 3).nonzero().shape)
print(torch.tensor([[0.0, float("nan")], [float("-inf"), 0.0]]).nonzero())
print(torch.tensor([0, 3, 0, -1]).nonzero(), torch.tensor([True, False, True]).nonzero())
print(torch.arange(16).reshape(2, 2, 2, 2).remainder(3).nonzero()[:6])
print(torch.nonzero(x, as_tuple=True))
print(x[x > 0], x[x.abs() > 1].shape, x.t()[x.t() < 0] if x.dim() == 2 else x[0].t()[x[0].t() < 0])
