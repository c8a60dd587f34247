# Gradients that meet: many views of one tensor (a loop over x[t], chunks,
# unbind, slices), the same view used twice, hooks and retain_grad on the
# tensor the views share, and second derivatives through them.
import torch

torch.manual_seed(0)
x = torch.randn(5, 3, requires_grad=True)
y = x * 2
y.retain_grad()
seen = []
y.register_hook(lambda g: seen.append(g.clone()))
total = 0
for t in range(5):
    total = total + (y[t] ** 2).sum()
a, b, c = y.chunk(3, 1)
total = total + (a * b).sum() + c.sum() + y[1:3].sum() + y[0, 0] + y[0, 0]
u = y.unbind(1)
total = total + (u[0] * u[2]).sum()
total.backward()
print(x.grad)
print(y.grad)
print(seen[0])
# A leaf's own views accumulate into .grad.
w = torch.randn(4, 2, requires_grad=True)
(w[0] * 3 + w[1:].sum(0) + w[:, 1].sum()).sum().backward()
print(w.grad)
(w[2] * w[3]).sum().backward()
print(w.grad)
# Second derivatives through selects (create_graph builds the graph instead).
z = torch.randn(3, requires_grad=True)
s = z * z
f = sum((s[i] * s[i]) for i in range(3))
(g,) = torch.autograd.grad(f, z, create_graph=True)
print(g)
(h,) = torch.autograd.grad(g.sum(), z)
print(h)
# autograd.grad with a non-leaf input whose views are summed.
q = torch.randn(2, 3, requires_grad=True)
r = q.exp()
print(torch.autograd.grad(r[0].sum() + r[1].prod() + r[:, 2].sum(), [q, r]))
# Two backward passes through a retained graph accumulate.
m = torch.randn(3, 2, requires_grad=True)
n = m.tanh()
loss = sum(n[i].sum() * (i + 1) for i in range(3))
loss.backward(retain_graph=True)
loss.backward()
print(m.grad)
# An LSTM over a batch-first sequence: gradients of every parameter.
lstm = torch.nn.LSTM(4, 3, batch_first=True)
out, (hn, cn) = lstm(torch.randn(2, 5, 4))
(out.sum() + hn.sum() * 2).backward()
for name, p in lstm.named_parameters():
    print(name, p.grad)
gru = torch.nn.GRU(3, 2, num_layers=2, bidirectional=True)
o, hn = gru(torch.randn(4, 2, 3))
o.pow(2).sum().backward()
print(gru.weight_ih_l1_reverse.grad, gru.bias_hh_l0.grad)
