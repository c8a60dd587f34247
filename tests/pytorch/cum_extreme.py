# cummax/cummin in one backend pass: ties (the later position), NaN taking
# over and later NaNs taking its place, -0 against 0, every dtype, views
# (transposed, strided, broadcast), many lines and slabs, 0-d, and gradients.
import torch
nan, inf = float('nan'), float('inf')
x = torch.tensor([1.0, 3.0, 3.0, -0.0, 0.0, nan, 5.0, nan, inf, -inf])
print(x.cummax(0), x.cummin(0))
print(torch.tensor([0.0, -0.0, 0.0]).cummax(0).indices, torch.tensor([2, 2, 1, 2]).cummin(0).indices)
for dt in [torch.float16, torch.bfloat16, torch.float64, torch.int8, torch.uint8, torch.int32, torch.int64]:
    v = torch.tensor([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3], [5, 8, 9, 7, 9]], dtype=dt)
    print(v.cummax(1), v.cummin(0))
print(torch.tensor([False, True, False, True]).cummax(0), torch.tensor([True, False, True]).cummin(0))
g = torch.Generator().manual_seed(0)
a = torch.randint(0, 7, (64, 40, 30), generator=g).float()
a[5, 3, 2] = nan
for v in [a, a.transpose(0, 2), a[:, ::3, 1:], a[0, 0].expand(50, 30)]:
    for d in range(v.dim()):
        vals, idx = v.cummax(d)
        lo, lidx = v.cummin(d)
        # The values are what the positions point at (NaN at NaN).
        same = torch.equal(vals.nan_to_num(-1.0), v.gather(d, idx).nan_to_num(-1.0))
        print(d, same, vals.nansum().item(), idx.sum().item(), lo.nansum().item(), lidx.sum().item())
print(torch.tensor(2.5).cummax(0), torch.empty(0, 3).cummin(1), torch.empty(4, 0).cummax(0).indices.shape)
w = torch.tensor([[1.0, 3.0, 2.0, 3.0], [0.0, -1.0, 4.0, 4.0]], requires_grad=True)
w.cummax(1).values.sum().backward()
print(w.grad, w.cummin(0).values.grad_fn.name())
s = torch.tensor(1.5, requires_grad=True)
s.cummax(0).values.backward()
print(s.grad)
