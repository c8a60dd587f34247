# softmax and log_softmax along a dim other than the last, on every device:
# blocks of positions walked down the dim, slabs written in place by their
# tasks. Checks that hold on every device and processor (tests/pytorch_cpu/
# softmax_dims.py has the CPU's bits).
import torch
torch.manual_seed(0)
for shape, dim in [((300, 10), 0), ((300, 70), 0), ((8, 33, 5), 1), ((64, 128, 256), 1), ((4, 50, 70), 1), ((2, 3, 4, 5), 2)]:
    a = torch.randn(*shape) * 3
    for log in [False, True]:
        y = torch.log_softmax(a, dim) if log else a.softmax(dim)
        ref = torch.log_softmax(a.double(), dim) if log else a.double().softmax(dim)
        p = y.exp() if log else y
        print(shape, dim, log, y.dtype, tuple(y.shape), (y.double() - ref).abs().max().item() < 1e-5,
              torch.allclose(p.sum(dim), torch.ones(()), atol=1e-5), y.is_contiguous())
t = torch.randn(3, 4, 5)
print(torch.allclose(t.softmax(1), t.transpose(1, 2).contiguous().transpose(1, 2).softmax(1)))
print(torch.allclose(t.permute(2, 0, 1).softmax(0), t.softmax(2).permute(2, 0, 1)))
w = torch.randn(5, 3, requires_grad=True)
s = w.softmax(0)
(s * torch.arange(15.).reshape(5, 3)).sum().backward()
print(s.grad_fn.name(), torch.allclose(w.grad.sum(0), torch.zeros(3), atol=1e-5))
