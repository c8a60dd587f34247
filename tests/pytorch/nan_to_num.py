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
