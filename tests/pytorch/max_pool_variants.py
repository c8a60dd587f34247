# max_pool2d in one pass: values, indices, gradients (overlapping windows add
# up), double backward (sums printed to 2 places: a GPU adds in its own order), the last NaN of a window winning, integer inputs.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(2, 3, 7, 9, requires_grad=True)
for (k, s, p, d, cm) in [(2, 2, 0, 1, False), (3, 2, 1, 1, False), (3, 1, 1, 2, False),
                         (3, 2, 1, 1, True), ((2, 3), (1, 2), (1, 0), 1, True)]:
    y, i = F.max_pool2d(x, k, s, p, d, ceil_mode=cm, return_indices=True)
    print(tuple(y.shape), f"{y.sum().item():.2f}", i.sum().item(), i.dtype)
    g = torch.randn_like(y).requires_grad_()
    gx, = torch.autograd.grad(y, x, g, create_graph=True)
    print(f"{gx.sum().item():.2f} {gx.pow(2).sum().item():.2f}", gx.grad_fn.name())
    gg, = torch.autograd.grad(gx.pow(2).sum(), g)
    print(f"{gg.sum().item():.2f}")
z = torch.tensor([[[[1., float('nan'), 3, float('nan')]]]])
print(F.max_pool2d(z, (1, 4), return_indices=True))
print(F.max_pool2d(torch.arange(16).reshape(1, 4, 4), 2))
nan = float('nan')
print(F.max_pool2d(torch.tensor([[[[1., nan, 5., 5.], [nan, 0., 5., 5.]]]]), 2, return_indices=True))
print(F.max_pool2d(torch.tensor([[[[-float('inf')] * 4] * 2]]), 2, return_indices=True))
t = torch.randn(1, 2, 6, 6).transpose(2, 3)
print(torch.equal(F.max_pool2d(t, 3, 2, 1), F.max_pool2d(t.contiguous(), 3, 2, 1)))
print(F.max_pool2d(torch.zeros(0, 2, 4, 4), 2).shape)
