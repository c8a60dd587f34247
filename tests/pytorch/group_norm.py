# F.group_norm's one-pass statistics and fused backward against PyTorch: 4-d, 3-d, 2-d
# and 5-d inputs, with and without the affine, float64 and float32; x, weight and
# bias gradients; a double backward (create_graph); nn.GroupNorm.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
for shape, groups, affine, dt in [((2, 6, 4, 5), 3, True, torch.float64), ((3, 4, 7), 2, False, torch.float64),
                                  ((2, 4), 2, True, torch.float64), ((2, 8, 3, 3), 1, True, torch.float32),
                                  ((1, 6, 2, 2, 2), 6, True, torch.float64)]:
    x = (torch.randn(*shape, dtype=dt) * 3 + 5).requires_grad_()
    w = torch.randn(shape[1], dtype=dt, requires_grad=True) if affine else None
    b = torch.randn(shape[1], dtype=dt, requires_grad=True) if affine else None
    y = F.group_norm(x, groups, w, b, 1e-5)
    print(y.grad_fn.name(), y.detach().abs().sum().cpu(), y.detach().flatten()[:4].cpu())
    (y * y.detach().flatten().flip(0).reshape(y.shape)).sum().backward()
    print(x.grad.flatten()[:5].cpu())
    if affine:
        print(w.grad.cpu(), b.grad.cpu())
x = torch.randn(2, 4, 3, dtype=torch.float64, requires_grad=True)
w = torch.randn(4, dtype=torch.float64, requires_grad=True)
y = F.group_norm(x, 2, w, None)
(gx,) = torch.autograd.grad((y ** 3).sum(), x, create_graph=True)
print(gx.grad_fn.name())
(gx * gx).sum().backward()
print(w.grad.cpu(), x.grad[0].cpu())
m = torch.nn.GroupNorm(2, 4)
print(m(torch.arange(16.).reshape(1, 4, 2, 2)))
