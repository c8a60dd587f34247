# F.conv_transpose2d as ATen computes it (columns, then col2im): stride, padding,
# output_padding (also past the stride, where the dilation allows it), groups,
# dilation, an unbatched input, an empty batch, nn.ConvTranspose2d with
# output_size and conv_transpose1d over it; float64 so the sums round alike; the
# gradients of input, weight and bias; PyTorch's errors.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
cases = [
    ((2, 4, 5, 5), (4, 3, 3, 3), dict(stride=2, padding=1, output_padding=1)),
    ((2, 4, 5, 6), (4, 3, 3, 2), dict(stride=(2, 3), padding=(1, 0), output_padding=(0, 2))),
    ((1, 4, 4, 4), (4, 2, 3, 3), dict(stride=1, padding=1, dilation=2, output_padding=1)),
    ((2, 6, 3, 3), (6, 2, 4, 4), dict(stride=2, padding=1, groups=3)),
    ((4, 3, 3), (4, 3, 2, 2), dict(stride=2)),
    ((1, 2, 3, 3), (2, 2, 3, 3), dict(stride=1, padding=2)),
    ((0, 2, 3, 3), (2, 2, 3, 3), dict(stride=1)),
]
for xs, ws, kw in cases:
    x = torch.randn(*xs, dtype=torch.float64, requires_grad=True)
    w = torch.randn(*ws, dtype=torch.float64, requires_grad=True)
    b = torch.randn(ws[1] * kw.get("groups", 1), dtype=torch.float64, requires_grad=True)
    y = F.conv_transpose2d(x, w, b, **kw)
    (y * y).sum().backward()
    print(y.shape, y.grad_fn.name(), y.detach().sum().cpu())
    print(x.grad.sum().cpu(), w.grad.sum().cpu(), b.grad.cpu())
x = torch.randn(1, 2, 3, 3, dtype=torch.float64)
w = torch.randn(2, 2, 2, 2, dtype=torch.float64)
print(F.conv_transpose2d(x, w, stride=2, padding=1)[0, 1].cpu())
print(torch.conv_transpose2d(x, w, None, 1, 0, 0, 2, 1)[0].cpu())
m = torch.nn.ConvTranspose2d(4, 2, 3, stride=2, padding=1, dtype=torch.float64)
print(m, m(torch.randn(1, 4, 5, 5, dtype=torch.float64), output_size=(10, 10)).shape)
print(F.conv_transpose1d(torch.randn(2, 4, 7, dtype=torch.float64), torch.randn(4, 3, 3, dtype=torch.float64), stride=2).shape)
for bad in [dict(stride=1, output_padding=1), dict(padding=5)]:
    try:
        F.conv_transpose2d(torch.randn(1, 2, 3, 3), torch.randn(2, 2, 3, 3), **bad)
    except RuntimeError as e:
        print(e)
try:
    F.conv_transpose2d(torch.randn(1, 3, 3, 3), torch.randn(2, 2, 3, 3))
except RuntimeError as e:
    print(e)
