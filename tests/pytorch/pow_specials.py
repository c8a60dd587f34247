# float32 pow and hypot: C's special cases (zeros, infinities, NaN, negative
# bases to integral and fractional powers) and printed values.
import torch

s = torch.tensor([0., -0., 1., -1., float('inf'), -float('inf'), float('nan'), 2., -2., 0.5, -3., 2.5])
print((s.reshape(-1, 1) ** s).tolist())
print(torch.hypot(s.reshape(-1, 1), s).tolist())
print(torch.pow(s, 3.5).tolist(), torch.pow(-2.0, s).tolist())
x = torch.linspace(-4, 4, 17)
print(x ** torch.arange(17.) / 1e3)
print(torch.tensor([2., 4., 10., 0.25]) ** torch.tensor([10., 0.5, -3., -1.5]))
# Whole runs of 32 (ATen's vector loop; its scalar tail raises to the
# Python number in double precision, which tsh does not, so none here).
print(torch.arange(1., 65.) ** 1.7, torch.arange(1., 65.) ** -2.5)
print(torch.hypot(torch.tensor([3., 5., 1e30, 1e-30]), torch.tensor([4., 12., 1e30, 1e-30])))
print(torch.tensor([1e20]) ** 3.5, torch.tensor([1e-20]) ** 3.5, torch.tensor([0.999]) ** 1e6)
