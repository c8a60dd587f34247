# torch.autograd.Function (ctx.save_for_backward, needs_input_grad, non-tensor
# arguments), register_hook and its handle, torch.autograd.functional, and
# staticmethod/classmethod, chained assignment and `x, = items` that such code uses.
import torch
from torch.autograd import Function

class MyReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        input, = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input

x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
y = MyReLU.apply(x)
print(y)
print(type(y.grad_fn).__name__)
y.sum().backward()
print(x.grad)

class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None

a = torch.ones(3, requires_grad=True)
b = MulConstant.apply(a, 5.0)
(b * b).sum().backward()
print(a.grad)

class Exp(Function):
    @staticmethod
    def forward(ctx, i):
        result = i.exp()
        ctx.save_for_backward(result)
        return result
    @staticmethod
    def backward(ctx, grad_output):
        result, = ctx.saved_tensors
        return grad_output * result
z = torch.tensor([0.0, 1.0], requires_grad=True)
Exp.apply(z).sum().backward()
print(z.grad)

class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias
torch.manual_seed(0)
inp = torch.randn(4, 3, requires_grad=True)
w = torch.randn(2, 3, requires_grad=True)
bb = torch.randn(2, requires_grad=True)
out = LinearFunction.apply(inp, w, bb)
out.sum().backward()
print(w.grad, bb.grad, inp.grad, sep="\n")

# hooks
v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = v.register_hook(lambda grad: grad * 2)
(v * v).sum().backward()
print(v.grad)
h.remove()
v.grad = None
(v * v).sum().backward()
print(v.grad)
q = torch.tensor([1.0, 2.0], requires_grad=True)
r = q * 3
r.register_hook(lambda g: print("hook saw", g))
r.sum().backward()
print(q.grad)

from torch.autograd.functional import jacobian, hessian
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.tensor([[0.5, 1.0], [0.2, 0.3]])
print(jacobian(exp_reducer, inputs))
def pow_reducer(x):
    return x.pow(3).sum()
print(hessian(pow_reducer, torch.tensor([[1.0, 2.0], [0.5, 3.0]])))
def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
print(jacobian(exp_adder, (torch.tensor([0.1, 0.2]), torch.tensor([1.0, 2.0]))))
print(torch.autograd.functional.vjp(exp_reducer, inputs, torch.ones(2)))
def adder(x, y):
    return 2 * x + 3 * y
print(torch.autograd.functional.jvp(adder, (torch.ones(2), torch.ones(2)), (torch.ones(2), torch.ones(2))))
print(hessian(lambda x, y: (x * y).sum(), (torch.tensor([1., 2.]), torch.tensor([3., 4.]))))

class Counter:
    count = 0
    @classmethod
    def make(cls):
        cls.count += 1
        return cls()
    @staticmethod
    def add(a, b):
        return a + b
print(Counter.add(2, 3), Counter().add(1, 1), type(Counter.make()).__name__)
