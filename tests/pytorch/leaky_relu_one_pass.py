# F.leaky_relu as one element-wise op: every float dtype, views, NaN and inf,
# the module, its gradient and its recorded backward (double backward).
import torch
import torch.nn.functional as F
x = torch.tensor([[-2.5, -0.0, 0.0, 1.5], [float('nan'), float('-inf'), 3.0, -1e-3]])
print(F.leaky_relu(x), F.leaky_relu(x, 0.2))
print(F.leaky_relu(x.double(), -0.5), F.leaky_relu(x.half(), 0.25), F.leaky_relu(x.bfloat16(), 0.25))
print(torch.nn.LeakyReLU(0.1)(x[:, 1:3]), F.leaky_relu(x.t()))
w = torch.tensor([-1.5, 0.5, 2.0, -3.0, 0.0], requires_grad=True)
y = F.leaky_relu(w, 0.25)
print(y, y.grad_fn.name())
(y * torch.arange(5.)).sum().backward()
print(w.grad)
w.grad = None
g, = torch.autograd.grad(F.leaky_relu(w, 0.25).pow(2).sum(), w, create_graph=True)
print(g, g.grad_fn.name())
g.sum().backward()
print(w.grad)
try:
    F.leaky_relu(torch.tensor([1, -2]))
except Exception as e:
    print("refused")
z = torch.randn(3, 4)
print(torch.equal(F.leaky_relu(z, 0.05), torch.where(z > 0, z, z * 0.05)))
m = torch.nn.LeakyReLU(0.2, inplace=True)
v = torch.tensor([-1.0, 2.0])
m(v)
print(v)
