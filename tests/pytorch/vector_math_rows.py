# float32 functions computed without per-element library calls (in f64 and
# rounded once, or erf in f32 within an ulp): values over their ranges with
# IEEE's special values, on contiguous, transposed and broadcast operands.
import torch

x = torch.linspace(-6, 6, 25)
u = torch.linspace(-1, 1, 9)
p = torch.tensor([0.0, 1e-30, 0.001, 0.5, 1.0, 1.5, 8.0, 1000.0, 3e38])
special = torch.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan")])
for name in ["atan", "asinh", "erf", "tan", "exp2"]:
    f = getattr(torch, name)
    print(name, f(x), f(special), sep="\n")
for name in ["asin", "acos", "atanh"]:
    f = getattr(torch, name)
    print(name, f(u), f(torch.tensor([1.5, -1.5, 1e-8, -1e-5])), f(special), sep="\n")
for name in ["log2", "log10", "acosh"]:
    f = getattr(torch, name)
    print(name, f(p), f(p + 1), f(special), sep="\n")
y = torch.tensor([3.0, -3.0, 0.5, -0.0, 0.0, float("inf")])
print(torch.atan2(x[:6, None], y), torch.atan2(special[:, None], special), sep="\n")
print(torch.fmod(x[:, None], y).t(), torch.remainder(x, 0.7), x % -2.5, sep="\n")
print(torch.fmod(torch.tensor([1e30, -7.5, 5.0]), torch.tensor([1e-30, 2.0, -0.0])))
