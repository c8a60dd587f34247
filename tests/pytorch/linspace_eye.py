# linspace from both ends in every dtype, across blocks and threads; eye's
# diagonal on square, wide, tall and empty matrices, in every kind of dtype.
import torch

for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32]:
    for n in [0, 1, 2, 3, 7, 100, 5001, 300001]:
        a = torch.linspace(-3.3, 7.9, n, dtype=dt)
        h = n // 2
        print(dt, n, a[:3].tolist(), a[max(h - 2, 0):h + 2].tolist(), a[-3:].tolist(), a[::60000].tolist())
print(torch.linspace(0, 1, 5), torch.linspace(10, -1, 4), torch.linspace(2, 2, 3))
print(torch.linspace(0, 1, steps=4, dtype=torch.float64), torch.linspace(-5, 5, 11, dtype=torch.int64))
for n, m in [(0, 0), (1, 1), (3, 3), (2, 5), (5, 2), (0, 3), (3, 0)]:
    print(n, m, torch.eye(n, m).tolist())
print(torch.eye(3, dtype=torch.int64), torch.eye(2, dtype=torch.bool), torch.eye(2, dtype=torch.complex64))
print(torch.eye(2, dtype=torch.float16), torch.eye(2, 3, dtype=torch.uint8))
e = torch.eye(3, requires_grad=True)
print(e, e.is_leaf, e.is_contiguous(), e.stride())
print(torch.eye(1000).sum(), torch.eye(1000, 700).diagonal().sum(), torch.eye(700, 1000)[699, 699])
