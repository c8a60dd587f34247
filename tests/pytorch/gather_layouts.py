# torch.gather through its one-pass kernel: every dim, strided and transposed
# inputs and indices, negative indices, empty results, gradients and the
# second derivative. Sums are rounded so the CPU and CUDA print alike.
import torch

torch.manual_seed(0)
x = torch.randn(4, 5, 6)
for d in range(3):
    shape = [3, 4, 5]
    idx = torch.randint(0, x.shape[d], shape)
    print(d, round(x.gather(d, idx).sum().item(), 3), x.gather(d, idx)[1, 2].tolist())
t = x.transpose(0, 2)
i = torch.randint(0, 4, (6, 5, 2))
print(t.gather(2, i).shape, round(t.gather(2, i).sum().item(), 3))
print(x[:, ::2].gather(1, torch.randint(0, 3, (4, 3, 6))).shape)
it = torch.randint(0, 5, (6, 3)).t()
print(x[0].gather(1, it.contiguous()).tolist() == x[0].gather(1, it).tolist())
print(x.gather(1, torch.zeros(4, 0, 6, dtype=torch.long)).shape)
print(torch.tensor([[1, 2], [3, 4]]).gather(1, torch.tensor([[0, 0], [1, 0]])))
for bad in [[[6]], [[0, -1]]]:
    try:
        x[0].gather(1, torch.tensor(bad))
    except Exception as e:
        print("error raised")
w = torch.randn(3, 4, requires_grad=True)
k = torch.tensor([[0, 0, 3], [1, 2, 1], [3, 3, 3]])
y = w.gather(1, k)
print(y.grad_fn.name())
(g,) = torch.autograd.grad((y ** 2).sum(), w, create_graph=True)
print([round(v, 4) for v in g.sum(0).tolist()])
(h,) = torch.autograd.grad(g.sum(), w)
print(h.tolist())
