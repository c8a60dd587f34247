# F.batch_norm and nn.BatchNorm1d/2d through the per-channel kernels: training
# and evaluation, with and without the affine parameters, contiguous,
# permuted and broadcast inputs and gradients, float64 and float16, running
# statistics, the second derivative and the mixed-dtype errors. Values are
# rounded so the CPU and CUDA print alike.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def r(t, k=4):
    # + 0.0: a rounded -0.0 prints as 0.0 (its sign is noise)
    return [round(v, k) + 0.0 for v in t.flatten().tolist()]


bn = nn.BatchNorm2d(3)
x = torch.randn(4, 3, 5, 5, requires_grad=True)
y = bn(x)
print(y.grad_fn.name(), r(y[1, :, 2, :2]))
(y * torch.arange(300.0).reshape(4, 3, 5, 5)).sum().backward()
print(r(x.grad[2, :, 1, :2], 3), r(bn.weight.grad, 1), r(bn.bias.grad))
print(r(bn.running_mean), r(bn.running_var), bn.num_batches_tracked.item())

# The gradient of a sum cancels to (almost) nothing.
x.grad = None
bn(x).sum().backward()
print(x.grad.abs().max().item() < 1e-6)

# Evaluation uses the running statistics.
bn.eval()
x.grad = None
z = bn(x)
(z ** 2).sum().backward()
print(r(z[0, 1, 0]), r(x.grad[0, 1, 0], 3), r(bn.weight.grad, 2))

# float64 without affine parameters.
b1 = nn.BatchNorm1d(4, affine=False).double()
v = torch.randn(6, 4, dtype=torch.float64, requires_grad=True)
o = b1(v)
(o ** 3).sum().backward()
print(r(o[2]), r(v.grad[3]), r(b1.running_var))

# A permuted (non-contiguous) 3-d input.
b3 = nn.BatchNorm1d(2)
t = torch.randn(3, 2, 7).permute(2, 1, 0).requires_grad_()
o3 = b3(t)
o3.exp().sum().backward()
print(t.is_contiguous(), r(o3[0]), r(t.grad[1], 3))

# The second derivative.
xg = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
wg = torch.randn(2, dtype=torch.float64, requires_grad=True)
yg = F.batch_norm(xg, None, None, wg, None, training=True)
gx, gw = torch.autograd.grad((yg ** 3).sum(), (xg, wg), create_graph=True)
print(gx.grad_fn.name(), r(gx, 3), r(gw, 3))
(gx.sum() + (gw ** 2).sum()).backward()
print(r(xg.grad, 3), r(wg.grad, 3))

# Half precision with float32 statistics keeps its dtype.
h = torch.randn(3, 2, 4).half()
hn = F.batch_norm(h, torch.zeros(2), torch.ones(2), training=False)
print(hn.dtype, r(hn[0].float(), 2))

# Parameters of another dtype are refused, as in PyTorch.
for xd, pd in [(torch.float32, torch.float64), (torch.float64, torch.float32)]:
    try:
        F.batch_norm(torch.randn(5, 3, dtype=xd), torch.zeros(3, dtype=pd), torch.ones(3, dtype=pd))
    except RuntimeError as ex:
        print("RuntimeError", str(ex))

# Statistics and parameters that are views into a larger buffer.
xs = torch.randn(4, 3, 2)
big = torch.arange(10.0)
print(r(F.batch_norm(xs, big[2:5], big[5:8] + 0, big[1:4], big[6:9], training=False)[0]))
print(r(F.batch_norm(xs, None, None, big[1:7:2], big[3:6], training=True)[1]))
