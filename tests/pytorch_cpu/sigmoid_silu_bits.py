# float32 sigmoid and silu round as PyTorch's CPU kernels do: whole runs of 32
# elements through SLEEF's exp (1 ulp), the rest through the scalar formula.
# Every printed digit agrees, and so does the count of results that differ
# from the correctly rounded value.
import torch
import torch.nn.functional as F

x = torch.arange(-200000, 200000) * 4e-4
for name, f, ref in [
    ("sigmoid", torch.sigmoid, lambda t: 1 / (1 + (-t).exp())),
    ("silu", F.silu, lambda t: t / (1 + (-t).exp())),
]:
    y = f(x)
    exact = ref(x.double()).float()
    differ = torch.nonzero(y != exact).flatten()
    print(name, differ.numel(), differ[:6].tolist(), y[differ[:6]].tolist())
    for n in [5, 31, 32, 33, 70]:
        z = x[150000:150000 + n] * 0.37
        print(n, f(z).tolist()[-3:])
    print(f(x[::7][:100]).sum().item(), f(x.reshape(800, 500).t()).flatten()[:3].tolist())
torch.manual_seed(0)
r = torch.randn(1000) * 5
print(torch.sigmoid(r)[:4].tolist(), F.silu(r)[-4:].tolist())
print(torch.sigmoid(r.half())[:4].tolist(), F.silu(r.bfloat16())[-4:].tolist())
