# Integer and bool reductions read the tensor in place (contiguous groups,
# strided ones, empty ones), and arange written in its dtype block by block.
import torch

x = torch.tensor([[0, 3, 0, -2], [0, 0, 0, 7], [5, -1, 5, 0]])
for t in (x, x.T, x[:, ::2], x[::2]):
    print(t.any(), t.all(), t.any(1), t.all(0), t.argmax(1), t.argmin(0), t.amax(1), t.amin(0))
    print(t.prod(), t.prod(1), t.sum(0), t.count_nonzero(0), t.count_nonzero(), t.max(), t.min())
b = x > 0
print(b.any(0), b.all(1), b.sum(), b.T.any(1), (x == 0).all(), torch.zeros(0, 3, dtype=torch.long).any(0))
print(torch.zeros(0, dtype=torch.bool).all(), torch.zeros(0, dtype=torch.bool).any(), torch.tensor([3, 7, 7, 1]).argmax())
big = torch.arange(300000) % 1000 == 999
print(big.any(), big.all(), big.sum(), big.reshape(300, 1000).any(1).sum(), big.reshape(300, 1000).T.any(1).sum())
print(torch.arange(5), torch.arange(0, 1, 0.1), torch.arange(10, 0, -3, dtype=torch.int32), torch.arange(0, 2, 0.25, dtype=torch.float16))
a = torch.arange(200000, dtype=torch.float32) * 0.5
print(a[-3:], torch.arange(-5, 300000, 7)[-2:], torch.arange(1.0, 1e6, 3.3)[-2:], torch.arange(0, -3e5, -1.5, dtype=torch.float64)[-2:])
print(torch.arange(2**40, 2**40 + 5), torch.arange(250, dtype=torch.uint8)[-3:], torch.arange(0, 1e6, 0.5, dtype=torch.bfloat16)[-2:])
