# Floor division of floats as Python's // and ATen's div_floor_floating: from
# the exact remainder (1.0 // 0.1 is 9), the sign of a zero quotient kept,
# division by zero as IEEE's a / b, and quotients beyond 2^26 (where the
# vectorised remainder hands the block to C's fmod).
import torch

torch.manual_seed(0)
x = torch.randn(1000) * 10
y = torch.randn(1000)
print((x // y)[:8], (x // y)[-8:])
a = torch.tensor([1.0, -1.0, 7.0, -7.0, 0.0, -0.0, 5.0, float("inf"), float("nan"), 1.0, -3.5, 1e30, 3.0, -5.0])
b = torch.tensor([0.1, 0.1, 2.0, 2.0, 3.0, 3.0, 0.0, 2.0, 1.0, -0.0, -1.5, 1e-10, float("inf"), float("inf")])
print(a // b)
print(torch.floor_divide(a, b), torch.floor_divide(a.double(), b.double()))
z = torch.arange(-20.0, 20.0).reshape(4, 10)
print(z // 3.0)
print(z.t() // -0.3)
print(z[:, ::3] // torch.tensor([0.7, -0.7, 2.5, -4.0]))
