# torch.autograd.grad and gradients of gradients.
import torch

x = torch.tensor(2., requires_grad=True)
y = x ** 3
(g,) = torch.autograd.grad(y, x, create_graph=True)
print(g)
(g2,) = torch.autograd.grad(g, x)
print(g2)
w = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor(0.5, requires_grad=True)
loss = ((w * 2 + b) ** 2).sum()
gw, gb = torch.autograd.grad(loss, [w, b])
print(gw, gb, w.grad)
h = w * 3
out = (h ** 2).sum()
print(torch.autograd.grad(out, h))
print(torch.autograd.grad(w * 2, w, grad_outputs=torch.ones(3)))
u = torch.tensor(1., requires_grad=True)
print(torch.autograd.grad((w ** 2).sum(), [w, u], allow_unused=True))
print(torch.autograd.grad((w ** 2).sum(), [w, u], materialize_grads=True))
try:
    torch.autograd.grad((w ** 2).sum(), [w, u])
except RuntimeError as e:
    print(e)
z = torch.tensor([0.5, -1.0], requires_grad=True)
t = torch.tanh(z).sum()
t.backward(create_graph=True)
print(z.grad.detach())
print(z.grad.grad_fn is not None)
z.grad.sum().backward()
print(z.grad.detach())
s = torch.tensor(1.5, requires_grad=True)
f = torch.sin(s) * torch.exp(s)
(d1,) = torch.autograd.grad(f, s, create_graph=True)
(d2,) = torch.autograd.grad(d1, s, create_graph=True)
(d3,) = torch.autograd.grad(d2, s)
print(d1, d2, d3)
