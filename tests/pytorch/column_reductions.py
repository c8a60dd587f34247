# Reductions over a leading dim (groups side by side in memory), which walk
# the rows a block of columns at a time with the next rows asked for ahead:
# extrema and their positions (NaN wins, ties keep the first, -0 and 0 tie),
# every dtype's path, products, variances, norms, logsumexp, wide and narrow
# blocks, strided inputs.
import torch
nan = float('nan')
x = torch.tensor([[1., nan, 3., -0.0, 2.], [5., 2., nan, 0.0, 2.], [5., 9., 1., 0.0, 7.]])
print(x.argmax(0), x.argmin(0), x.max(0), x.min(0), x.amax(0), x.amin(0))
for dt in [torch.float64, torch.float16, torch.bfloat16]:
    y = x.to(dt)
    print(dt, y.argmax(0), y.argmin(0), y.max(0).values, y.amin(0))
i = torch.tensor([[3, -1, 7], [3, 4, -9], [0, 4, 7]])
print(i.argmax(0), i.argmin(0), i.max(0), i.amax(0), i.amin(0), i.sum(0), i.to(torch.int8).max(0))
torch.manual_seed(0)
# 4096 rows of 1100 columns: several blocks of columns, a narrower last one,
# and a prefetch running ahead of every row but the last eight.
big = (torch.arange(4096 * 1100) * 7919 % 100003).reshape(4096, 1100).float()
big[17, 5] = nan
big[4000, 1099] = 1e9
big[0, 3] = 1e9
big[9, 3] = 1e9
for t in [big, big.double(), big.half(), big.long(), big[:, 3:].t().contiguous().t()]:
    m, j = t.max(0)
    print(t.dtype, t.amax(0)[:8], t.amin(0)[-4:], t.argmax(0)[:8], t.argmin(0)[-4:], m[1096:], j[1096:], t.min(0)[1].sum())
small = (torch.arange(40 * 9) * 37 % 101).reshape(40, 9).float() / 7
for t in [small, small.double()]:
    print(t.prod(0), t.var(0), t.std(0), t.norm(dim=0), t.norm(1, dim=0), t.logsumexp(0), t.mean(0))
w = (torch.arange(300 * 700) * 13 % 997).reshape(300, 700).float() / 500
print(w.prod(0)[:4], w.var(0)[:4], w.norm(dim=0)[-3:], w.logsumexp(0)[-3:], w.double().prod(0)[:3])
s = torch.arange(24.).reshape(2, 3, 4)
print(s.amax((0, 2)), s.argmax(1), s.prod(1), s.var(0), s.transpose(0, 2).amin(2), s[:, :, ::2].max(0))
print(torch.zeros(0, 3).sum(0), torch.zeros(5, 0).amax(0), torch.ones(1, 4).argmax(0))
