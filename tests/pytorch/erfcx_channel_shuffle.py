# torch.special.erfcx over its three ranges (its gradient is ATen's formula),
# and F.native_channel_shuffle.
import torch
x = torch.tensor([-26.5, -5., -1., 0., 0.5, 1., 3., 10., 25.9, 26., 26.1, 50., 1e3, 1e8, float('inf'), float('-inf'), float('nan')], dtype=torch.float64)
print(torch.special.erfcx(x).cpu())
print(torch.special.erfcx(torch.tensor([0, -1., 10.])).cpu(), torch.special.erfcx(torch.tensor([2])).cpu())
y = torch.tensor([-2., 0.5, 30.], requires_grad=True)
torch.special.erfcx(y).sum().backward()
print(y.grad.cpu())
t = torch.arange(16.).reshape(1, 4, 2, 2)
print(torch.nn.functional.native_channel_shuffle(t, 2).cpu())
print(torch.native_channel_shuffle(torch.arange(6).reshape(1, 6, 1), 3).cpu())
