# The LU family in float32 as MKL computes it: lu_factor, det and slogdet of
# small matrices to the last bit (tolist prints every digit), the strides
# LAPACK's column-major results have, and products down strided groups.
import torch

torch.manual_seed(0)
for n in [1, 2, 3, 4, 5, 8, 16]:
    a = torch.randn(n, n)
    print(n, torch.linalg.lu_factor(a)[0].tolist())
    print(n, torch.linalg.det(a).item(), torch.linalg.det(a.T).item())
    print(n, torch.linalg.slogdet(a)[1].item())
for shape in [(3, 5), (5, 3), (16, 4), (4, 16)]:
    print(shape, torch.linalg.lu_factor(torch.randn(*shape))[0].tolist())
a = torch.randn(2, 2)
print(torch.linalg.inv(a).tolist())
a = torch.randn(16, 16)
print(torch.linalg.inv(a).tolist())
print(torch.linalg.det(torch.tensor([[1., 2], [3, 4]])))
b = torch.tensor([[2., 1, 1], [1, 3, 2], [1, 0, 0]])
print(torch.linalg.det(b), torch.linalg.slogdet(b))
print(torch.linalg.inv(b))
print(torch.linalg.lu_factor_ex(torch.tensor([[0., 1], [0, 2]])))
c = torch.randn(3, 3)
print(torch.linalg.inv(c).stride(), torch.linalg.lu_factor(c)[0].stride())
print(torch.linalg.solve(c, torch.randn(3, 2)).stride(), torch.linalg.inv(torch.randn(2, 3, 3)).stride())
x = torch.rand(2000) * 0.2 + 0.9
print(x[::2].prod().item(), x.view(20, 100)[:, ::3].prod(-1).tolist())
print(x.view(20, 100)[:, ::3].norm(dim=-1).tolist())
c = torch.randn(3, 3); S = c @ c.T + torch.eye(3)
print(torch.linalg.cholesky(S).stride(), torch.linalg.cholesky(S, upper=True).stride())
