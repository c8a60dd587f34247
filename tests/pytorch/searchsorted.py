# searchsorted and bucketize as ATen's binary search: left and right sides, NaN
# values and boundaries, every length around powers of two, batched rows, sorter.
import torch
nan = float('nan')
seq = torch.tensor([1, 3, 5, 7, 9])
for v in [torch.tensor([3, 6, 9]), torch.tensor([0, 1, 10, 9, 2]), torch.tensor(5), torch.tensor([[1, 2], [9, 11]]), torch.tensor([], dtype=torch.int64)]:
    print(torch.searchsorted(seq, v), torch.searchsorted(seq, v, right=True), torch.searchsorted(seq, v, side="right"), torch.bucketize(v, seq), torch.bucketize(v, seq, right=True))
f = torch.tensor([0.5, 1.0, 1.0, 1.0, 2.5, nan])
vals = torch.tensor([1.0, nan, -5., 3., 2.5, 0.5])
print(torch.searchsorted(f, vals), torch.searchsorted(f, vals, right=True), torch.searchsorted(f, vals, out_int32=True).dtype)
for n in [0, 1, 2, 3, 4, 7, 8, 9, 16, 17, 100]:
    s = torch.arange(n) * 2
    q = torch.arange(-1, 2 * n + 2)
    print(n, torch.searchsorted(s, q).tolist(), torch.searchsorted(s, q, right=True).tolist())
m = torch.tensor([[1., 3, 5, 7, 9], [2, 4, 6, 8, 10]])
print(torch.searchsorted(m, torch.tensor([[3., 6, 9], [3, 6, 9]])), torch.searchsorted(m, torch.tensor([[3., 6, 9], [3, 6, 9]]), right=True))
print(torch.searchsorted(torch.tensor([3, 1, 2]), torch.tensor([2]), sorter=torch.tensor([1, 2, 0])))
print(torch.searchsorted(torch.tensor([1., 2, 3]), torch.tensor([1, 2, 4])), torch.searchsorted(torch.tensor([1, 2, 3]), torch.tensor([1.5, 2.5])))
print(torch.histc(torch.tensor([1., 2, 1, 4, 4, 4]), bins=4, min=0, max=4))
big = torch.sort(torch.randn(100000))[0]
q = torch.randn(1000)
print((torch.searchsorted(big, q) == (big.unsqueeze(0) < q.unsqueeze(1)).sum(1)).all())
