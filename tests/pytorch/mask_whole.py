# x[mask] with a mask of x's shape (one flat gather), masked_select, nonzero of
# 1-d, 2-d and 3-d masks, the gradient through x[mask], and empty cases.
import torch
torch.manual_seed(0)
x = torch.randn(4, 5, requires_grad=True)
m = x > 0.3
y = x[m]
print(y, y.grad_fn.name())
(y * torch.arange(float(y.numel()))).sum().backward()
print(x.grad)
t = torch.randn(3, 4, 5)
print(t[t > 1], t.transpose(0, 2)[t.transpose(0, 2) > 1], torch.nonzero(t.flatten() > 1).flatten())
print(torch.masked_select(t, t > 1.2), t[torch.zeros(3, 4, 5, dtype=torch.bool)], torch.nonzero(t > 1.5))
print(torch.arange(6).reshape(2, 3)[torch.tensor([[True, False, True], [False, True, True]])])
e = torch.zeros(0, 3); print(e[e > 0], torch.nonzero(torch.ones(2, 2, 2) > 0))
