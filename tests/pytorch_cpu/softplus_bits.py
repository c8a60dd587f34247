# F.softplus with beta = 1 is one element-wise op: whole runs of 32 through
# SLEEF's exp and log1p, as ATen's vector loop, the rest through the C
# library's (the bits are PyTorch's); other beta and thresholds; its backward
# and double backward (PyTorch's formulas, SoftplusBackwardBackward0; printed
# to 4 digits: the backward's exp is correctly rounded throughout, where
# ATen's kernel runs SLEEF's on runs of 32).
import torch
import torch.nn.functional as F

torch.manual_seed(1)
x = torch.cat([torch.randn(70) * 8, torch.rand(40) * 1e-6, -torch.rand(40) * 40])
x[3], x[4], x[5], x[6] = 20.0, 20.5, float("inf"), float("-inf")
print(F.softplus(x).tolist())
print(F.softplus(x, threshold=3).tolist()[:40])
print(F.softplus(x[:20], beta=2).tolist())
print(torch.nn.Softplus()(x[:33]).tolist()[-3:])
xr = x[:40].clone().requires_grad_(True)
y = F.softplus(xr)
print(y.grad_fn.name())
(g,) = torch.autograd.grad(y.sum(), xr, create_graph=True)
print(g.grad_fn.name(), g)
(h,) = torch.autograd.grad(g.sum(), xr)
print(h)
print(F.softplus(torch.tensor([-1.0, 0.0, 30.0])))
