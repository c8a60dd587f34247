# Reductions of groups side by side (over the leading dim of a row-major
# matrix, or over dims 0 and 2 of a 3-d tensor): prod, norms, var/std and
# logsumexp folded row by row; argmax/argmin and max(dim) found value first,
# then position (the first of equal values, -0 equal to 0; a NaN wins);
# NaN, infinities and empty groups.
import torch

torch.manual_seed(0)
a = torch.randn(37, 19)
b = torch.randn(6, 5, 7)
for t in [a, a.double(), a.t(), a[::2, 1:]]:
    print(t.prod(0), t.norm(dim=0), t.norm(p=1, dim=0), t.norm(p=float("inf"), dim=0))
    print(t.var(0), t.std(0, correction=0), t.logsumexp(0), t.norm(p=3, dim=0))
    print(t.argmax(0), t.argmin(0), t.max(0), t.min(1))
print(b.var((0, 2)), b.logsumexp((0, 2)), b.norm(dim=(0, 2)), b.argmax(0))
s = torch.tensor([[1.0, float("nan"), 5.0, float("inf")],
                  [2.0, 3.0, float("-inf"), float("inf")],
                  [-1.0, 4.0, 0.0, 1.0]])
print(s.prod(0), s.norm(dim=0), s.norm(p=1, dim=0), s.norm(p=float("inf"), dim=0))
print(s.norm(p=float("-inf"), dim=0), s.var(0), s.logsumexp(0), s.logsumexp(1))
print(s.argmax(0), s.argmin(0), s.argmax(1), s.argmin(1), s.max(1), s.min(0))
z = torch.tensor([[0.0, -0.0, 3.0], [-0.0, 0.0, 3.0], [0.0, 0.0, -1.0]])
print(z.argmax(1), z.argmin(1), z.argmax(0), z.argmax(), z.max(0), torch.tensor([2, 9, 9, 1]).argmax())
e = torch.zeros(0, 3)
print(e.prod(0), e.norm(dim=0), e.logsumexp(0), e.var(0))
