# F.hardsigmoid and F.hardswish are one element-wise op each (min(max(x + 3,
# 0), 6) / 6 in ATen's order), with PyTorch's grad_fn names and its backward
# (the ends -3 and 3 included as ATen includes them, NaN as its scalar loop);
# inplace=True for them and F.silu; their modules.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.cat([torch.arange(-12, 12) / 2.5, torch.tensor([-3.0, 3.0, -3.5, 0.0, -0.0, float("inf"), float("-inf"), 2.999, -2.999])])
for f in [F.hardsigmoid, F.hardswish]:
    print(f(x))
    xr = x.clone().requires_grad_(True)
    y = f(xr)
    print(y.grad_fn.name())
    (g,) = torch.autograd.grad(y.sum(), xr)
    print(g)
    print(f(x[:24].reshape(4, 6).t()))
print(nn.Hardswish()(x[:5]), nn.Hardsigmoid(inplace=True)(x[:5].clone()))
z = x[:6].clone()
F.hardswish(z, inplace=True)
print(z)
s = x[:6].clone()
F.silu(s, inplace=True)
print(s)
print(F.hardswish(x[:4].double()), F.hardsigmoid(torch.tensor([1.0, 2.0], dtype=torch.float16)))
print(hasattr(torch, "hardswish"), hasattr(torch, "softplus"))
