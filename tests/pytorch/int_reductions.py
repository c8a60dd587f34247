# Integer max, min and sum: whole tensors (long ones split between threads),
# rows, columns (over a leading dim), strided views, every integer dtype, and
# int64 sums that wrap around.
import torch

torch.manual_seed(0)
big = torch.randint(-1000, 1000, (300007,))
for dt in [torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]:
    x = big.to(dt) if dt != torch.uint8 else (big % 200).to(dt)
    m = x[:300000].view(600, 500)
    print(dt, x.max().item(), x.min().item(), x.sum().item(), x[::3].max().item(), x[1::7].sum().item())
    print(m.amax(0)[:5].tolist(), m.amin(0)[-5:].tolist(), m.sum(0)[:5].tolist(), m.amax(1)[:5].tolist(), m.sum(1)[-5:].tolist())
    print(m.T.amax(0)[:3].tolist(), m[:, ::2].amin(1)[:3].tolist(), m.max(dim=0).values[:3].tolist(), m.min(dim=1).values[:3].tolist())
    print(m[:7, :9].amax(0).tolist(), m[:7, :9].sum(1).tolist(), m.view(60, 10, 500).amax((0, 2)).tolist())
w = torch.tensor([2**62, 2**62, 2**62, 5] * 1000)
print(w.sum().item(), w.view(1000, 4).sum(0).tolist(), w.view(4, 1000).sum(1).tolist())
print(torch.tensor([3, -7, 2]).max(), torch.tensor([[1, 5], [7, 2]]).amax(0), torch.tensor([True, False]).sum(), torch.tensor([], dtype=torch.int64).sum())
print(torch.bincount(torch.tensor([0, 1, 1, 3, 2, 1])), torch.bincount(big % 5 + 5)[:12].tolist())
