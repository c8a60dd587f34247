# torch.exp2 on float32: whole runs of 32 elements go through SLEEF's exp2f
# (1 ulp, not always correctly rounded) and the rest through the C library's
# exp2f, as ATen's vectorized loop does, so the bits are PyTorch's on long
# tensors and short ones; with the edges of the range (overflow, subnormals,
# 2^-150 rounding to even) on both paths.
import torch

torch.manual_seed(0)
x = (torch.randn(100) * 10).float()
for n in [1, 7, 31, 32, 33, 64, 100]:
    print(n, torch.exp2(x[:n]).tolist()[-6:])
edges = torch.tensor([128.0, 127.99, -149.0, -149.5, -150.0, -151.0, 0.0, -0.0,
                      0.5, float("inf"), float("-inf"), float("nan"), 1e-8, -126.0, 3.0, -3.0])
print(torch.exp2(edges).tolist())
print(torch.exp2(edges.repeat(3)).tolist()[:32])
print(torch.exp2(x.reshape(10, 10).t())[3].tolist())
print(torch.exp2(torch.arange(-5, 5)))
