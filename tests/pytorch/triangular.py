# Triangular and Cholesky solves: linalg.solve_triangular (left/right, upper/
# lower, unit diagonal), torch.triangular_solve, cholesky_solve,
# cholesky_inverse, with their gradients.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64).triu() + 3 * torch.eye(3, dtype=torch.float64)
B = torch.randn(3, 2, dtype=torch.float64)
X = torch.linalg.solve_triangular(A, B, upper=True)
print(X, torch.allclose(A @ X, B))
print(torch.linalg.solve_triangular(A.mT, B, upper=False))
print(torch.linalg.solve_triangular(A, B.mT, upper=True, left=False))
print(torch.linalg.solve_triangular(A + torch.randn(3, 3, dtype=torch.float64).tril(-1), B, upper=True, unitriangular=True))
print(torch.triangular_solve(B, A), torch.triangular_solve(B, A, transpose=True).solution)
M = torch.randn(3, 3, dtype=torch.float64)
S = M @ M.mT + torch.eye(3, dtype=torch.float64)
L = torch.linalg.cholesky(S)
print(torch.cholesky_solve(B, L), torch.linalg.solve(S, B))
print(torch.cholesky_inverse(L), torch.cholesky_inverse(L.mT, upper=True))
Ag = A.clone().requires_grad_()
Bg = B.clone().requires_grad_()
torch.linalg.solve_triangular(Ag, Bg, upper=True).sum().backward()
print(Ag.grad, Bg.grad)
