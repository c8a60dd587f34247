# clamp to numbers (clamp(min=0), both bounds, an upper below a lower, NaN and
# -0) in every float dtype, on views and across many blocks; tensor bounds
# beside them for contrast.
import torch
inf, nan = float('inf'), float('nan')
x = torch.tensor([nan, inf, -inf, 1.5, -0.0, 0.0, -2.5, 0.75])
for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
    v = x.to(dt)
    print(v.clamp(min=0), v.clamp(max=1), v.clamp(-1, 1), v.clamp(2, 1))
    print(v.clamp(min=nan), v.clamp(max=nan), v.clamp(min=-0.0), v.clamp(max=0.0))
print(torch.clamp(x, min=torch.tensor(0.0)), x.clamp(torch.zeros(8), torch.full((8,), 1.0)))
print(torch.tensor([1, -3, 7]).clamp(min=0), torch.tensor([1, -3, 7]).clamp(-1, 2.5))
big = torch.arange(-30000.0, 30000.0).reshape(200, 300) / 1000
big[3, 7] = nan
for v in [big, big.t(), big[:, ::3], big[0].expand(4, 300)]:
    r = v.clamp(-1.5, 2.0)
    print(list(r.shape), r.nansum().item(), r.isnan().sum().item(), r.min().item(), r.max().item())
print(big[:0].clamp(min=0).shape, big.t()[:0].clamp(-1, 1).shape)
print(big.clamp_(min=0.5).nansum().item(), big.min().item())
