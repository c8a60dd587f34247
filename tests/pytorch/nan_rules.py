# NaN in median/quantile (a slice with a NaN gives NaN), nanmedian, nonzero of a
# 0-d tensor, round with negative decimals, normal(mean=t) with std 1.
import torch
a = torch.tensor([[2, 3, 1], [float('nan'), 1, float('nan')]])
print(a.median(0), a.median(1), a.median(), torch.quantile(torch.tensor([1., float('nan')]), 0.5))
print(torch.tensor([[1., float('nan'), float('nan')]]).median(1), a.nanmedian(0), a.nanmedian())
print(torch.nonzero(torch.tensor(5)), torch.nonzero(torch.tensor(5), as_tuple=True))
print(torch.round(torch.tensor([1200.1234567]), decimals=-3), torch.round(torch.tensor([0.1234567]), decimals=3))
torch.manual_seed(0)
print(torch.normal(mean=torch.arange(1., 6.)))
print(torch.quantile(torch.tensor([[1., 2.], [float('nan'), 3.]]), 0.5, dim=1, keepdim=True), torch.tensor([1,3,2]).median())
