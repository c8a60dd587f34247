# F.unfold / F.fold (nn.Unfold, nn.Fold): sliding blocks as columns and
# back, with their gradients, on batched and unbatched inputs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.arange(32.0).reshape(1, 2, 4, 4)
print(F.unfold(x, kernel_size=2, stride=2))
print(F.unfold(x, kernel_size=(2, 3), padding=1, stride=(2, 1)).shape)
print(F.unfold(x, 3, dilation=2, padding=2).shape)
print(F.unfold(x[0], 2).shape)
cols = F.unfold(x, kernel_size=2)
print(F.fold(cols, output_size=(4, 4), kernel_size=2))
print(F.fold(cols[0], output_size=4, kernel_size=2).shape)
# fold(unfold(x)) counts each pixel once per block that covers it.
ones = torch.ones(1, 1, 5, 5)
print(F.fold(F.unfold(ones, 3, padding=1), (5, 5), 3, padding=1))

x = torch.randn(2, 3, 5, 6, requires_grad=True)
y = F.unfold(x, kernel_size=(2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1))
print(y.shape, y.grad_fn.name())
w = torch.randn(y.shape)
(y * w).sum().backward()
print(x.grad.sum().item() == w.sum().item() or abs(x.grad.sum().item() - w.sum().item()) < 1e-4)
print(torch.allclose(x.grad, F.fold(w, (5, 6), kernel_size=(2, 3), dilation=(1, 2), padding=(1, 0), stride=(2, 1)), atol=1e-6))

c = torch.randn(2, 12, 9, requires_grad=True)
z = F.fold(c, output_size=(4, 4), kernel_size=2)
print(z.shape, z.grad_fn.name())
v = torch.randn(z.shape)
(z * v).sum().backward()
print(torch.allclose(c.grad, F.unfold(v, 2), atol=1e-6))

u = nn.Unfold(kernel_size=(2, 2), stride=2)
f = nn.Fold(output_size=(4, 4), kernel_size=2, stride=2)
print(u)
print(f)
img = torch.arange(16.0).reshape(1, 1, 4, 4)
print(torch.equal(f(u(img)), img))

# Convolution as unfold + matmul, as PyTorch's documentation writes it.
inp = torch.randn(1, 3, 10, 12)
wt = torch.randn(2, 3, 4, 5)
out = (F.unfold(inp, (4, 5)).transpose(1, 2) @ wt.view(wt.size(0), -1).t()).transpose(1, 2)
print(torch.allclose(out.view(1, 2, 7, 8), F.conv2d(inp, wt), atol=1e-4))

for bad in [lambda: F.unfold(torch.ones(4, 4), 2),
            lambda: F.fold(torch.ones(1, 5, 9), 4, 2),
            lambda: F.fold(torch.ones(1, 4, 8), 4, 2),
            lambda: F.fold(torch.ones(4, 1, 4, 9), 4, 2)]:
    try:
        bad()
        print("no error")
    except (RuntimeError, IndexError) as e:
        print(type(e).__name__)
