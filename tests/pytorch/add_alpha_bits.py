# add and sub with alpha, and addcmul, round once, as ATen's fused multiply-add does
# (x + alpha * y in two roundings differs in about 2% of float32 elements),
# and so do the optimizers whose updates are add_ with alpha.
import torch

torch.manual_seed(0)
a = torch.randn(64)
b = torch.randn(64)
print(torch.add(a, b, alpha=-0.0123).tolist())
print(torch.sub(a, b, alpha=0.377).tolist())
print(a.double().add(b.double(), alpha=1e-3).tolist()[:8])
x = a.clone()
x.add_(b, alpha=2.5e-3)
print(x.tolist())
x.sub_(b[:1], alpha=3.1)
print(x.tolist()[:8])
print(torch.add(a.reshape(8, 8), b[:8], alpha=0.7)[2:4].tolist())
print(torch.add(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6]), alpha=3))
print(torch.add(torch.tensor([1.5, 2.5], dtype=torch.float16), torch.tensor([0.1, 0.2], dtype=torch.float16), alpha=0.3))

# addcmul rounds (value * t1) * t2 + input once; addcdiv divides last, so
# input + (value * t1) / t2 rounds at each step.
t1 = torch.randn(64)
t2 = torch.randn(64).abs() + 0.5
print(torch.addcmul(a, t1, t2, value=0.37).tolist())
print(torch.addcdiv(a, t1, t2, value=-0.1).tolist())
x = a.clone()
x.addcmul_(t1, t1, value=1e-3)
print(x.tolist()[:8])
# The same three tensors (one pass), a transposed one (op by op), float64,
# one tensor in every place, and an empty one.
m = a.reshape(8, 8)
print(torch.addcdiv(m, t1.reshape(8, 8), t2.reshape(8, 8).t(), value=2.5)[3].tolist())
print(torch.addcmul(m.double(), m.double(), t2.reshape(8, 8).double(), value=0.3)[5].tolist())
print(torch.addcmul(a, a, a, value=-1.5).tolist()[:8], torch.addcdiv(a, a, t2).tolist()[:8])
print(torch.addcmul(torch.ones(0, 3), torch.ones(0, 3), torch.ones(0, 3)).shape)

w = torch.randn(5, requires_grad=True)
v = torch.randn(5, requires_grad=True)
y = torch.sub(w, v, alpha=0.25)
print(y.grad_fn.name(), torch.add(w, v, alpha=2).grad_fn.name())
(y * torch.arange(5.0)).sum().backward()
print(w.grad.tolist(), v.grad.tolist())

# Optimizer steps on given gradients (a backward's own bits would differ
# with the matrix-product library).
params = [torch.randn(40), torch.randn(8, 5)]
grads = [[torch.randn_like(q) for q in params] for _ in range(3)]
for make in [lambda ps: torch.optim.SGD(ps, lr=0.05),
             lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, dampening=0.1, weight_decay=1e-3),
             lambda ps: torch.optim.SGD(ps, lr=0.05, momentum=0.9, nesterov=True),
             lambda ps: torch.optim.Adadelta(ps, lr=0.5),
             lambda ps: torch.optim.Adamax(ps, lr=1e-2)]:
    ps = [q.clone().requires_grad_() for q in params]
    opt = make(ps)
    for step in grads:
        for q, g in zip(ps, step):
            q.grad = g.clone()
        opt.step()
    print(ps[0].detach().tolist()[:12], ps[1][0].detach().tolist())
