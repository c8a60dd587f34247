# add_ and sub_ with alpha write in one pass where they can (a contiguous
# float tensor, nothing recorded): the same digits as the out-of-place
# a + alpha * b, and every other case (a view, a broadcast operand, an
# operand sharing the tensor's memory, other dtypes) still right.
import torch

torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    a = torch.randn(300, 400, dtype=dtype)
    b = torch.randn(300, 400, dtype=dtype)
    want = torch.add(a, b, alpha=0.37)
    got = a.clone().add_(b, alpha=0.37)
    print(dtype, torch.equal(got, want), torch.equal(a.clone().sub_(b, alpha=1.5), torch.sub(a, b, alpha=1.5)))
    row = torch.randn(400, dtype=dtype)
    print(torch.equal(a.clone().add_(row, alpha=-2.0), torch.add(a, row, alpha=-2.0)))
    t = a.clone()
    t.add_(t, alpha=0.5)
    print(torch.equal(t, torch.add(a, a, alpha=0.5)))
    v = a.clone()
    v[:, ::2].add_(b[:, ::2], alpha=3.0)
    print(torch.equal(v[:, ::2], torch.add(a[:, ::2], b[:, ::2], alpha=3.0)), torch.equal(v[:, 1::2], a[:, 1::2]))

x = torch.arange(6.).reshape(2, 3)
x.add_(torch.ones(3), alpha=2)
print(x)
x.sub_(torch.tensor([[1.], [2.]]), alpha=0.5)
print(x)
i = torch.arange(6).reshape(2, 3)
i.add_(torch.ones(2, 3, dtype=torch.long), alpha=3)
print(i)
h = torch.ones(2, 3, dtype=torch.float16)
h.add_(torch.ones(2, 3, dtype=torch.float16), alpha=0.1)
print(h)
w = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w.add_(torch.tensor([1., 2., 3.]), alpha=-0.5)
print(w, w.requires_grad)
try:
    w.add_(torch.ones(3), alpha=2)
except RuntimeError as e:
    print("RuntimeError")
