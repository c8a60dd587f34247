# F.conv_transpose3d (stride, padding, output_padding, groups, dilation, an
# unbatched input) and nn.ConvTranspose3d with output_size, in float64 so the
# sums round alike; the gradients of input and weight.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 4, 3, 2, 3, dtype=torch.float64)
w = torch.randn(4, 3, 2, 3, 2, dtype=torch.float64)
b = torch.randn(3, dtype=torch.float64)
print(F.conv_transpose3d(x, w).cpu().sum(), F.conv_transpose3d(x, w).shape)
y = F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(1, 0, 1), output_padding=(1, 0, 0))
print(y.shape, y[1, 2, :2].cpu())
wg = torch.randn(4, 1, 2, 2, 2, dtype=torch.float64)
y = F.conv_transpose3d(x, wg, None, stride=1, padding=0, groups=2, dilation=(1, 2, 1))
print(y.shape, y[0, 1, 1].cpu())
print(F.conv_transpose3d(x[0], w, padding=(0, 1, 1)).shape)
m = torch.nn.ConvTranspose3d(4, 6, (3, 2, 2), stride=2, padding=(0, 1, 1), dtype=torch.float64)
print(m, m.weight.shape, m(x).shape, m(x, output_size=(8, 3, 4)).shape)
xi = x.clone().requires_grad_()
wi = w.clone().requires_grad_()
F.conv_transpose3d(xi, wi, stride=2, padding=1).pow(2).sum().backward()
print(xi.grad[0, 1].cpu(), wi.grad[2, 1].cpu())
