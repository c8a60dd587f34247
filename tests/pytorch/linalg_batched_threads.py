# Batches of matrices large enough to be split between threads a matrix at
# a time: solve, det, slogdet, inv, lu_factor and cholesky against what
# PyTorch prints (and the blocked factorisations past one panel).
import torch

torch.manual_seed(0)
A = torch.randn(8, 64, 64) / 32 + torch.eye(64)
B = torch.randn(8, 64, 3)
X = torch.linalg.solve(A, B)
print(X[:, :2, 0])
print(torch.linalg.det(A))
print(torch.linalg.slogdet(A))
print(torch.linalg.inv(A)[:, 0, :4])
LU, piv = torch.linalg.lu_factor(A)
print(LU[:, 60:, 62], piv[:, :6])
S = A @ A.mT
L = torch.linalg.cholesky(S)
print(L.diagonal(dim1=-2, dim2=-1)[:, 58:], L[:, 63, 40], L.stride())
print(torch.linalg.cholesky(S, upper=True)[:, 40, 63])
print((A @ X - B).abs().max() < 1e-4)
