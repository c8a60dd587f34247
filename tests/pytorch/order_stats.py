# kthvalue and median by selection along a dim: values, indices (no ties,
# where PyTorch's pick among equals is its own), NaN lines, keepdim, 0-d,
# gradients and their nodes, k out of range, every dtype's path.
import torch
a = torch.tensor([[3., 1., 2., 1.5], [float('nan'), 0., -1., 5.], [2.5, 2.2, 2.1, 2.]])
for k in [1, 2, 3]:
    print(k, torch.kthvalue(a, k, 1), a.kthvalue(k, 0, keepdim=True))
print(torch.median(a, 1), a.median(0), a.median(), a.t().median(dim=-1, keepdim=True))
print(torch.kthvalue(torch.tensor(5.), 1), torch.tensor(5.).median(0))
print(torch.arange(24).reshape(2, 3, 4).flip(2).kthvalue(2, 2), torch.arange(24).reshape(2, 3, 4).median(1))
x = torch.tensor([[4., 1., 3.], [0., 9., 2.]], requires_grad=True)
v, i = x.kthvalue(2, 1)
print(v, i, v.grad_fn.name())
v.sum().backward(); print(x.grad)
x.grad = None
m, j = x.median(0); m.sum().backward(); print(m, j, x.grad, m.grad_fn.name())
for bad in [0, 4]:
    try:
        x.kthvalue(bad, 1)
    except IndexError as e:
        print("IndexError", e)
    except RuntimeError as e:
        print("RuntimeError", e)
big = torch.arange(1000 * 999 % 1013 * 1.).reshape(-1) if False else (torch.arange(300000) * 7919 % 1013).reshape(300, 1000).float()
print(big.kthvalue(10, 1)[0][:5], big.median(1)[0][:5], big.kthvalue(300, 0)[0][:5], big.half().median(1)[0][:3], big.double().kthvalue(999, 1)[0][:3])
print(torch.quantile(big, 0.5, dim=1)[:4], torch.nanmedian(a, 1))
print(torch.arange(10, 0, -1).kthvalue(3), torch.tensor([5, -2, 9], dtype=torch.int8).median(0), torch.tensor([[1e300, -1e300, 0.]], dtype=torch.float64).kthvalue(2, 1))
print(torch.zeros(3, 0).kthvalue(1, 0), torch.arange(12.).reshape(3, 4)[:, ::2].median(1), torch.arange(12.).reshape(3, 4).t().kthvalue(3, 1))
