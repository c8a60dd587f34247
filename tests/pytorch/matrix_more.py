# Matrices, grids and number theory: block_diag, diagflat, vander, cov,
# corrcoef, trapezoid rules, unravel_index, broadcast_tensors/shapes,
# fliplr/flipud, swapdims, chain_matmul, inner, gcd/lcm, fmax/fmin, ldexp,
# frexp, msort, positive.
import torch

A = torch.tensor([[0, 1], [1, 0]])
B = torch.tensor([[3, 4, 5], [6, 7, 8]])
print(torch.block_diag(A, B, torch.tensor(7), torch.tensor([1.5, 2.5])))
print(torch.diagflat(torch.tensor([[1, 2], [3, 4]])), torch.diagflat(torch.tensor([1., 2.]), 1))
x = torch.tensor([1, 2, 3, 5])
print(torch.vander(x), torch.vander(x, N=3, increasing=True), torch.vander(x.double(), 2))
obs = torch.tensor([[0., 1., 2.], [2., 1., 0.5], [1., 3., 2.]])
print(torch.cov(obs), torch.cov(obs, correction=0), torch.corrcoef(obs))
fw = torch.tensor([1, 2, 3])
aw = torch.tensor([0.5, 0.2, 0.3])
print(torch.cov(obs, fweights=fw, aweights=aw), torch.cov(torch.tensor([1., 2., 4.])))
y = torch.tensor([[1., 5., 10.], [2., 3., 4.]])
print(torch.trapezoid(y), torch.trapezoid(y, dx=2.0, dim=0), torch.trapezoid(y, torch.tensor([1., 3., 6.])))
print(torch.cumulative_trapezoid(y), torch.trapz(torch.tensor([1., 2.]), torch.tensor([0., 4.])))
print(torch.unravel_index(torch.tensor([4, 1, -1]), (2, 3)), torch.unravel_index(torch.tensor(7), (2, 2, 2)))
a, b = torch.broadcast_tensors(torch.tensor([1, 2, 3]), torch.tensor([[0], [1]]))
print(a, b.shape, torch.broadcast_shapes((1, 3), (2, 1), (3,)))
g = torch.arange(6).reshape(2, 3)
print(torch.fliplr(g), torch.flipud(g), g.fliplr(), torch.swapdims(g, 0, 1))
print(torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 4), torch.arange(4.).reshape(4, 1)))
print(torch.inner(torch.ones(2, 3), torch.arange(12.).reshape(2, 2, 3)).shape, torch.inner(torch.tensor([1., 2.]), torch.tensor([3., 4.])))
print(torch.gcd(torch.tensor([5, 10, 15, 0, -12]), torch.tensor([3, 4, 5, 7, 18])), torch.lcm(torch.tensor([5, 10, 15, 0]), torch.tensor([3, 4, 5, 2])))
n = float("nan")
print(torch.fmax(torch.tensor([9.7, n, 3.1, n]), torch.tensor([-2.2, 0.5, n, n])), torch.fmin(torch.tensor([1., n]), torch.tensor([n, 2.])))
print(torch.ldexp(torch.tensor([1., 3.]), torch.tensor([3, -1])), torch.ldexp(torch.tensor([1]), torch.tensor([2])))
m, e = torch.frexp(torch.tensor([0., 1., 8., -0.75, 1e-3, 6.5]))
print(m, e, torch.frexp(torch.arange(9.)), torch.frexp(torch.tensor([1e308, -5e-324], dtype=torch.float64)))
print(torch.msort(torch.tensor([[3, 1], [2, 4], [1, 0]])), torch.positive(torch.tensor([-1.5, 2.])))
