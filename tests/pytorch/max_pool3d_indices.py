# F.max_pool3d / nn.MaxPool3d with return_indices (the first maximum in (d, h, w)
# order, as PyTorch scans), MaxUnpool3d with them, and the gradient.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 5, 6, 7)
for args in [dict(kernel_size=2), dict(kernel_size=3, stride=2, padding=1), dict(kernel_size=(2, 3, 2), stride=(1, 2, 3), dilation=(2, 1, 1)), dict(kernel_size=2, ceil_mode=True)]:
    y, i = F.max_pool3d(x, return_indices=True, **args)
    y2 = F.max_pool3d(x, **args)
    print(y.shape, torch.equal(y, y2), i.flatten()[:12].tolist(), i.sum().item())
z = torch.tensor([[[[[1., 1.], [1., 1.]], [[1., 1.], [1., 1.]]]]])
print(F.max_pool3d(z, 2, return_indices=True)[1].cpu())
print(F.max_pool3d(x[0], 2, return_indices=True)[1].shape)
v = torch.randn(2, 2, 4, 6, 4)
pool = torch.nn.MaxPool3d(2, stride=2, return_indices=True)
unpool = torch.nn.MaxUnpool3d(2, stride=2)
o, i = pool(v)
u = unpool(o, i)
print(u.shape, torch.equal(u != 0, (v == F.max_pool3d(v, 2).repeat_interleave(2, 2).repeat_interleave(2, 3).repeat_interleave(2, 4))))
g = torch.randn(1, 1, 3, 3, 3, requires_grad=True)
F.max_pool3d(g, 2, stride=1, return_indices=True)[0].sum().backward()
print(g.grad.cpu())
