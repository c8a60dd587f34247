# Floor division from the exact remainder (Python's float //, ATen's
# div_floor_floating): 1.0 // 0.1 is 9, since 0.1 is a little more than a
# tenth. Tensors of both float dtypes, zeros of both signs, infinities, a
# zero divisor; Python's numbers; the ZeroDivisionError messages; bool's &.
import torch

print(1.0 // 0.1, -1.0 // 0.1, 7.5 // -2, -0.0 // 3, 0.0 // -3, 5 // 2.0, 1e300 // 1e-300)
for dt in [torch.float32, torch.float64]:
    a = torch.tensor([1.0, -1.0, 7.5, -7.5, 0.0, -0.0, 5.0, 0.3, float("inf"), 1.0], dtype=dt)
    b = torch.tensor([0.1, 0.1, -2.0, 2.0, -3.0, 3.0, 0.0, 0.1, 2.0, float("inf")], dtype=dt)
    print(a // b, torch.floor_divide(a, b), a // 0.1, torch.div(a, b, rounding_mode="floor"))
    print(torch.arange(12, dtype=dt).reshape(3, 4).t() // torch.tensor([0.3, 0.7, -0.2], dtype=dt))
print(torch.tensor([7, -7]) // 2)
for e in ["1 // 0", "1 % 0", "1.0 // 0", "1 / 0", "True & False", "True | False", "True ^ True", "True & 3"]:
    try:
        print(e, eval(e))
    except ZeroDivisionError as x:
        print(e, x)
# float32 remainders without the library call below quotients of 2^28, and
# with it above: both sides of the edge, huge and tiny operands, signs.
a = torch.tensor([3e38, 1e30, -7e20, 16777217.0, 268435455.0, 268435457.0, -2.5e-38, 1e-45, 5.0, -5.0])
b = torch.tensor([1e-38, 3.0, 0.7, 0.3, 1.0, 1.0, 1e-39, 3e-45, -0.3, float("inf")])
print((a // b).tolist(), (a % b).tolist(), torch.fmod(a, b).tolist())
print(torch.fmod(torch.tensor([-4.0, 4.0, -0.0]), 2.0).tolist(), (torch.tensor([-4.0, 4.0]) % -2.0).tolist())
