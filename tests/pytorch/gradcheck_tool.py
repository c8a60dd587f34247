# torch.autograd.gradcheck and gradgradcheck, the teaching tools: True for a
# correct backward, PyTorch's mismatch report for a wrong one.
import torch
from torch.autograd import gradcheck


class BadSquare(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * x  # should be 2 * x


torch.manual_seed(0)
x = torch.randn(3, 2, dtype=torch.double, requires_grad=True)
w = torch.randn(4, 2, dtype=torch.double, requires_grad=True)
print(gradcheck(torch.nn.functional.linear, (x, w), eps=1e-6, atol=1e-4))
print(gradcheck(lambda a: a.sin(), x))
print(torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), (x,)))
print(gradcheck(BadSquare.apply, (x,), raise_exception=False))
try:
    gradcheck(BadSquare.apply, (torch.tensor([1.0, 2.0], dtype=torch.double, requires_grad=True),))
except RuntimeError as e:
    print(str(e).split("\n")[0])
