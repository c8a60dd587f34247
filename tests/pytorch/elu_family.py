# F.elu as one element-wise pass (and celu with alpha 1, selu on top of it):
# zeros of both signs, NaN, infinities, float16/bfloat16, alpha, in place,
# modules, first and second derivatives with PyTorch's node names.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(12) * 4
x[:6] = torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), -100.0])
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    t = x.to(dt)
    # Half inputs take alpha (and leaky_relu's slope) in float32, unrounded.
    print(F.elu(t), F.elu(t, 0.3), F.celu(t), F.leaky_relu(t, 0.3), F.softplus(t))
    if dt in [torch.float32, torch.float64]:
        print(F.celu(t, 2.5), F.selu(t))
print(torch.selu(x), torch.celu(x, 0.7), torch.relu(x) - F.elu(x).clamp(max=0))
w = torch.randn(5, requires_grad=True)
y = F.elu(w, 0.5)
print(y, y.grad_fn.name())
g, = torch.autograd.grad(y.sum(), w, create_graph=True)
print(g, g.grad_fn.name())
g2, = torch.autograd.grad(g.sum(), w)
print(g2)
print(torch.autograd.gradcheck(lambda t: F.elu(t, 0.7), (torch.randn(6, dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradgradcheck(lambda t: F.elu(t, 0.7), (torch.randn(6, dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradcheck(lambda t: F.celu(t, 1.7), (torch.randn(6, dtype=torch.float64, requires_grad=True),)))
z = torch.tensor([-1.0, 2.0])
F.elu(z, inplace=True)
print(z)
print(torch.nn.ELU(0.5)(torch.tensor([-2.0, 3.0])), torch.nn.CELU(2.0)(torch.tensor([-2.0, 3.0])), torch.nn.SELU()(torch.tensor([-2.0, 3.0])))
print(F.elu(torch.randn(3, 4).t()[1:], 2.0))
try:
    F.elu(torch.tensor([1, -2]))
except Exception as e:
    print(type(e).__name__)
# Second derivatives where exp(x) overflows (x > 88 in float32).
w = torch.tensor([-3.0, 0.5, 100.0, 1000.0], requires_grad=True)
g, = torch.autograd.grad(F.elu(w, 2.0).sum(), w, create_graph=True)
print(g, torch.autograd.grad(g.sum(), w)[0])
