# float16 and bfloat16 made from float64 values and int64 values, as c10
# makes them: through float32 (two roundings). Values whose float32 lies just
# past a half-way point tell this from rounding the double directly.
import torch

torch.manual_seed(0)
x = torch.randn(100000, dtype=torch.float64) * 3
for dt in (torch.float16, torch.bfloat16):
    y = x.to(dt)
    print(dt, y.double().sum().item(), y[:4].tolist())
    print(torch.tensor([1e-8, 65519.9, 70000.0, -3.3e38, 2**24 + 1.0, 1 / 3], dtype=torch.float64).to(dt).tolist())
    print(torch.tensor([2**60 + 2**36 + 1, -(2**40) - 3, 16777217, 2049], dtype=torch.int64).to(dt).tolist())
    v = 1.457031488418579
    print(torch.full((2,), v, dtype=dt), torch.tensor([v, -v], dtype=dt), torch.zeros(1, dtype=dt).fill_(v))
    print(torch.arange(0, 3, 0.3, dtype=dt).tolist(), torch.linspace(0, 1, 7, dtype=dt).tolist())
