# torch.quantile of one or two q by selection (every interpolation, NaN
# slices, keepdim, whole tensor, 0-d), more q and nanquantile by a sort.
import torch
x = (torch.arange(60.) * 7919 % 61 / 7).reshape(3, 4, 5)
x[1, 2, 3] = float('nan')
for interp in ["linear", "lower", "higher", "midpoint", "nearest"]:
    for q in [0.0, 0.3, 0.5, 0.75, 1.0]:
        print(interp, q, torch.quantile(x, q, dim=2, interpolation=interp), torch.quantile(x, q, dim=0, keepdim=True, interpolation=interp).shape)
    print(torch.quantile(x[0], torch.tensor([0.25, 0.8]), dim=1, interpolation=interp), torch.quantile(x[2], torch.tensor([0.1, 0.5, 0.9]), interpolation=interp))
    print(torch.quantile(x[0], 0.4, interpolation=interp), torch.quantile(x[0], 0.4, keepdim=True, interpolation=interp).shape)
print(torch.nanquantile(x, 0.5, dim=2), torch.quantile(x.double(), 0.37, dim=1))
y = torch.tensor([[1., 5., 2., 8.], [3., 4., 9., 0.]], requires_grad=True)
r = torch.quantile(y, 0.4, dim=1)
r.sum().backward()
print(r.detach(), y.grad)
print(torch.quantile(torch.tensor(3.), 0.5), torch.quantile(torch.tensor([2.]), torch.tensor([0.2, 0.7])))
