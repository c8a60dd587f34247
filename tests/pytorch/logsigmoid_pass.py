# F.logsigmoid as one element-wise pass (ATen's min(x, 0) - log1p(exp(-|x|))):
# large inputs of both signs, zeros, NaN and infinities, every float dtype,
# a strided view, its module, gradients (σ(-x)) and second derivatives.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.randn(12) * 6
x[:7] = torch.tensor([0.0, -0.0, float("nan"), float("inf"), float("-inf"), -100.0, 30.0])
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    print(F.logsigmoid(x.to(dt)))
print(F.logsigmoid(torch.randn(3, 4).t()[1:]), torch.nn.LogSigmoid()(torch.tensor([-2.0, 3.0])))
w = torch.tensor([-30.0, -2.0, -0.0, 0.0, 0.5, 40.0], requires_grad=True)
y = F.logsigmoid(w)
print(y, y.grad_fn.name())
g, = torch.autograd.grad(y.sum(), w, create_graph=True)
print(g)
g2, = torch.autograd.grad(g.sum(), w)
print(g2)
print(torch.autograd.gradcheck(F.logsigmoid, (torch.randn(6, dtype=torch.float64, requires_grad=True),)))
print(torch.autograd.gradgradcheck(F.logsigmoid, (torch.randn(6, dtype=torch.float64, requires_grad=True),)))
try:
    F.logsigmoid(torch.tensor([1, 2]))
except Exception as e:
    print(type(e).__name__)
