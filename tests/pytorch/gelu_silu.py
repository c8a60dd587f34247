# F.silu and F.gelu (exact and tanh) as single element-wise ops: values in
# every float dtype, on strided input, their gradients and second derivatives,
# grad_fn names, and the integer-input error. Rounded so both devices agree.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def r(t, k=4):
    return [round(v, k) + 0.0 for v in t.flatten().tolist()]


x = torch.randn(6, 4) * 3
fs = [("silu", F.silu), ("gelu", F.gelu), ("gelu_tanh", lambda t: F.gelu(t, approximate="tanh"))]
for name, f in fs:
    print(name, r(f(x)[0]), r(f(x.t())[1]), r(f(x[:, ::2])[2]))
    print(name, r(f(x.double())[3]), f(x.half()).dtype, r(f(x.half())[4].float(), 2))
    xg = x.double().clone().requires_grad_()
    y = f(xg)
    (g,) = torch.autograd.grad(y.sum(), xg, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), xg)
    print(y.grad_fn.name(), r(g[5]), r(gg[5]))
print(nn.GELU()(torch.tensor([-1.0, 0.0, 1.0])), nn.SiLU()(torch.tensor([-1.0, 0.0, 1.0])))
print(nn.GELU(approximate="tanh")(torch.tensor([0.5, 2.0])))
for f in [F.silu, F.gelu]:
    try:
        f(torch.tensor([1, 2]))
    except RuntimeError:
        print("RuntimeError")
