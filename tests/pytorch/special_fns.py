# torch.special's functions: lgamma/digamma/polygamma/zeta, erfinv, the Bessel
# I0/I1 (plain and scaled), the normal distribution's ndtr/ndtri/log_ndtr,
# entr, xlog1py, multigammaln; values in float32 and float64, and gradients.
import torch

x = torch.tensor([0.25, 0.5, 1.0, 2.5, 7.0, 12.0, 40.0])
d = x.double()
for f in [torch.lgamma, torch.digamma, torch.special.gammaln, torch.special.psi, torch.i0, torch.special.i0e,
          torch.special.i1, torch.special.i1e]:
    print(f(x), f(-x), f(d)[:3])
print(torch.special.digamma(torch.tensor([-1.5, -0.5, 0.0, -2.0])))
print(torch.special.polygamma(1, x), torch.polygamma(2, x), torch.special.polygamma(3, d[:3]))
print(torch.special.zeta(torch.tensor([2., 4., 3.5]), torch.tensor([1., 1., 2.5])))
p = torch.tensor([-1.0, -0.999, -0.5, 0.0, 0.3, 0.7, 0.9, 0.99999, 1.0, 1.5])
print(torch.erfinv(p), torch.special.erfinv(p.double()))
z = torch.linspace(-6, 6, 7)
print(torch.special.ndtr(z), torch.special.log_ndtr(z), torch.special.log_ndtr(z * 3))
print(torch.special.ndtri(torch.tensor([0., 0.025, 0.25, 0.5, 0.75, 0.975, 1.])))
print(torch.special.entr(torch.tensor([-1., 0., 0.5, 1., 2.])), torch.special.xlog1py(torch.tensor([0., 2., 3.]), torch.tensor([-1., 1., float("nan")])))
print(torch.special.multigammaln(torch.tensor([2.5, 3., 4.]), 3), torch.mvlgamma(torch.tensor([1.5]), 1))
print(torch.lgamma(torch.tensor([1, 5])), x.lgamma().dtype, torch.special.i0(torch.tensor([700.])))

g = torch.tensor([0.3, 1.7, 4.0], dtype=torch.float64, requires_grad=True)
for f in [torch.lgamma, torch.digamma, torch.i0, torch.special.i0e, torch.special.i1, torch.special.i1e]:
    (y,) = torch.autograd.grad(f(g).sum(), g)
    print(f(g), y)
e = torch.tensor([-0.6, 0.1, 0.8], requires_grad=True)
torch.erfinv(e).sum().backward()
print(e.grad)
