# Running sums and products along the last dim, four lines interleaved (and
# the lines left over), and along a leading dim a row at a time: every
# layout, NaN and infinities, ints, empty tensors, cummax/cummin on top.
import torch

torch.manual_seed(0)
for t in [torch.randn(7, 13), torch.randn(9, 4, 5), torch.randn(3, 1000), torch.randn(1000, 3).t(),
          torch.randint(-5, 5, (6, 7)), torch.randn(5)[::2], torch.zeros(0, 4),
          torch.tensor([[1.0, float("nan"), 2.0, 0.5, float("inf")]] * 5)]:
    for d in range(t.dim()):
        for f in [torch.cumsum, torch.cumprod]:
            r = f(t, d)
            print(r if r.numel() < 100 else (r[..., -1], r.flatten()[-6:]))
        v, i = t.cummax(d)
        print(v if v.numel() < 100 else v.flatten()[-6:], t.cummin(d).indices if t.numel() < 100 else t.cummin(d).indices.flatten()[-6:])
print(torch.randn(4, 250).cumsum(1)[:, 240:], torch.ones(5, 3, dtype=torch.float64).cumsum(-1))
