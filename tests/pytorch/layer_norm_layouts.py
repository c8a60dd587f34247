# F.layer_norm and nn.LayerNorm through the one-pass kernels: contiguous,
# transposed and broadcast inputs and gradients, with and without the affine
# parameters, every float dtype, empty inputs, the second derivative and the
# mixed-dtype error. Values are rounded so the CPU and CUDA print alike.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def r(t, k=4):
    # + 0.0: a rounded -0.0 prints as 0.0 (its sign is noise)
    return [round(v, k) + 0.0 for v in t.flatten().tolist()]


x = torch.randn(3, 4, 5, requires_grad=True)
w = torch.randn(4, 5, requires_grad=True)
b = torch.randn(4, 5, requires_grad=True)
y = F.layer_norm(x, (4, 5), w, b)
print(y.grad_fn.name(), y.shape, r(y[1, 2]))
(y * torch.arange(60.0).reshape(3, 4, 5)).sum().backward()
print(r(x.grad[2, 1]), r(w.grad[0]), r(b.grad[3]))

# A transposed input, no parameters, float64; its gradient is a broadcast one.
xt = torch.randn(6, 5, dtype=torch.float64).t().requires_grad_()
z = F.layer_norm(xt, (6,))
print(r(z[0]), z.sum(1).abs().max().item() < 1e-12)
z.sum().backward()
print(xt.grad.abs().max().item() < 1e-12)

# Only a weight, on a slice with a step.
xs = torch.randn(4, 16)[:, ::2].requires_grad_()
ws = torch.randn(8, requires_grad=True)
out = F.layer_norm(xs, (8,), ws, eps=1e-3)
(out ** 2).sum().backward()
print(r(out[3], 3), r(xs.grad[0], 3), r(ws.grad, 3))

# Half types keep their dtype.
for dt in [torch.float16, torch.bfloat16]:
    h = torch.randn(2, 8).to(dt)
    hn = F.layer_norm(h, (8,), torch.ones(8, dtype=dt), torch.zeros(8, dtype=dt))
    print(hn.dtype, r(hn[0].float(), 2))

# The module, and the gradient of a sum, which cancels to zero.
ln = nn.LayerNorm(10)
a = torch.randn(3, 10, requires_grad=True)
ln(a).sum().backward()
print(a.grad.abs().max().item() < 1e-6, r(ln.weight.grad, 3), r(ln.bias.grad))

# The second derivative.
xg = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
wg = torch.randn(3, dtype=torch.float64, requires_grad=True)
yg = F.layer_norm(xg, (3,), wg)
gx, gw = torch.autograd.grad((yg ** 3).sum(), (xg, wg), create_graph=True)
print(gx.grad_fn.name(), r(gx), r(gw))
(gx.sum() + (gw ** 2).sum()).backward()
print(r(xg.grad), r(wg.grad))

# Empty inputs.
print(F.layer_norm(torch.randn(0, 4), (4,)).shape)
e = torch.randn(3, 0, requires_grad=True)
F.layer_norm(e, (0,)).sum().backward()
print(e.grad.shape)

# Parameters of another dtype are refused, as in PyTorch.
try:
    F.layer_norm(torch.randn(2, 3), (3,), torch.ones(3, dtype=torch.float64))
except RuntimeError as ex:
    print("RuntimeError", "mixed dtype" in str(ex))
