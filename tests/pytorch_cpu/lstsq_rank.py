# linalg.lstsq: the solution and each matrix's rank, on full-rank, rank-deficient,
# batched, empty and differentiable inputs (one SVD where no gradient is wanted).
import torch
torch.manual_seed(0)
A = torch.randn(6, 3)
B = torch.randn(6, 2)
r = torch.linalg.lstsq(A, B)
print(r.solution, r.rank)
Ad = torch.tensor([[1., 2.], [2., 4.], [3., 6.]])
print(torch.linalg.lstsq(Ad, torch.tensor([[1.], [2.], [3.]])).rank)
Ab = torch.randn(2, 5, 3)
print(torch.linalg.lstsq(Ab, torch.randn(2, 5, 1)).solution.shape, torch.linalg.lstsq(Ab, torch.randn(2, 5, 1)).rank)
Ar = A.clone().requires_grad_(True)
sol = torch.linalg.lstsq(Ar, B).solution
sol.sum().backward()
print(Ar.grad.shape, torch.linalg.lstsq(Ar, B).rank)
print(torch.linalg.lstsq(torch.zeros(3, 0), torch.zeros(3, 1)).rank)
