# nan_to_num in every float dtype: defaults (a clamp to the largest finite values),
# given replacements, its gradient, integers, and complex parts one by one.
import torch
inf, nan = float('inf'), float('nan')
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    x = torch.tensor([nan, inf, -inf, 1.5, -2.0, 0.0, 3e38 if dt != torch.float16 else 6e4], dtype=dt)
    print(x.nan_to_num(), x.nan_to_num(nan=1.0), x.nan_to_num(posinf=9.0), x.nan_to_num(neginf=-9.0), torch.nan_to_num(x, 0.5, 2.0, -2.0))
x = torch.tensor([nan, inf, -inf, 1.5], requires_grad=True)
y = x.nan_to_num()
y.sum().backward()
print(y.grad_fn.name(), x.grad)
print(torch.tensor([1, 2]).nan_to_num(), torch.tensor([complex(nan, inf)]).nan_to_num())
# Views and sizes: a transposed and a broadcast input, every other element,
# many blocks (specials spread through them), and empty ones.
base = torch.tensor([nan, inf, -inf, 1.5, -0.0, 2.5])
big = base.repeat(1000).reshape(100, 60)
for v in [big.t(), big[:, ::2], base[:4].expand(3, 4), big[:0], torch.empty(0, 5).t()]:
    r = v.nan_to_num(nan=0.25, posinf=8.0)
    print(list(r.shape), r.sum().item(), (r == 8.0).sum().item(), r.isnan().any().item())
for dt in [torch.float16, torch.bfloat16, torch.float64]:
    r = big.to(dt).t().nan_to_num()
    print(r.dtype, r.float().abs().max().item(), r[:, 1].tolist()[:3])
