# Every digit of PyTorch's CPU generator through the bulk paths: uniforms and
# normals longer than one Mersenne Twister state (624 words), in each float
# dtype, and uniform_ ranges whose top value rounds up to `to` in the dtype
# (PyTorch gives `from` there, keeping [from, to) half open).
import torch

for seed in (0, 1, 123):
    torch.manual_seed(seed)
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        a = torch.randn(1000, 37, dtype=dt)
        b = torch.rand(1999, dtype=dt)
        c = torch.randn(7, dtype=dt)
        e = torch.empty(3001, dtype=dt).normal_(1, 2)
        print(dt, a.double().sum().item(), a[-1, -3:].tolist(), b.double().sum().item())
        print(c.tolist(), e.double().sum().item(), e[-2:].tolist())
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        d = torch.empty(5000, dtype=dt).uniform_(-2, 3)
        f = torch.empty(777, dtype=dt).uniform_(0.5, 100)
        print(dt, d.double().sum().item(), d.max().item(), f.double().sum().item(), f.max().item())
    print(torch.randint(0, 10, (20,)).tolist(), torch.randint(-5, 2**40, (3,)).tolist())
    print(torch.randperm(12).tolist(), torch.rand(2).tolist())
