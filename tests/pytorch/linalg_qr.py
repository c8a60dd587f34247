# linalg.qr and linalg.lstsq on geqrf/orgqr (geqrf.rs): LAPACK's signs, a zero
# matrix's -0 in Q, column-major strides, blocked sizes, batches, wide and tall
# least squares, a vector right-hand side and a rank-deficient problem (the SVD's).
import torch
torch.manual_seed(0)
A = torch.tensor([[1., 2], [3, 4], [5, 6]])
print(torch.linalg.qr(A))
print(torch.linalg.qr(A, mode='complete'))
print(torch.linalg.qr(A.T))
print(torch.linalg.qr(A, mode='r'))
print(torch.linalg.qr(torch.zeros(2, 2)))
print(torch.linalg.qr(torch.tensor([[1., 2], [3, 4]], dtype=torch.float64)))
q, r = torch.linalg.qr(torch.randn(2, 4, 3))
print(q.stride(), r.stride(), q.shape, r.shape)
q, r = torch.linalg.qr(torch.randn(2, 4, 3), mode='complete')
print(q.stride(), r.stride(), q.shape, r.shape)
X = torch.randn(70, 50)
q, r = torch.linalg.qr(X)
print((q @ r - X).abs().max() < 1e-5, (q.T @ q - torch.eye(50)).abs().max() < 1e-5)
print(r.diagonal()[:5])
print(torch.linalg.qr(torch.empty(0, 3)))
print(torch.linalg.qr(torch.empty(3, 0)))
B = torch.tensor([[1.], [2], [2]])
print(torch.linalg.lstsq(A, B))
print(torch.linalg.lstsq(A, torch.tensor([1., 2, 2])))
print(torch.linalg.lstsq(A.T, torch.tensor([[1.], [2]])))
print(torch.linalg.lstsq(torch.tensor([[1., 2], [2, 4], [3, 6]]), B))
print(torch.linalg.lstsq(A.double(), B.double()).solution)
sol = torch.linalg.lstsq(torch.randn(3, 5, 3), torch.randn(3, 5, 2))
print(sol.solution.shape, sol.solution.stride(), sol.rank)
sol = torch.linalg.lstsq(torch.randn(3, 2, 4), torch.randn(3, 2, 2))
print(sol.solution.shape, sol.solution.stride(), sol.rank)
M = torch.randn(100, 40); Y = torch.randn(100, 3)
x = torch.linalg.lstsq(M, Y).solution
print(x.stride(), (M.T @ (M @ x - Y)).abs().max() < 1e-3)
print(torch.linalg.lstsq(torch.randn(4, 3), torch.randn(4, 0)).solution.shape)
# lstsq's rank under a given rcond; a rank-deficient and a float64 batch;
# a NaN reflector's Q column (org2r skips what meets zeros, geqrf does not);
# reflectors of tiny columns.
print(torch.linalg.lstsq(torch.randn(6, 4), torch.randn(6, 2), rcond=0.5).rank)
print(torch.linalg.lstsq(torch.ones(3, 2), torch.ones(3, 1)))
print(torch.linalg.lstsq(torch.randn(2, 6, 3, dtype=torch.float64), torch.randn(2, 6, 1, dtype=torch.float64)).solution)
print(torch.linalg.qr(torch.tensor([[float('inf'), 1.], [1., 2.]])))
print(torch.linalg.qr(torch.tensor([[1e-30, 0.], [1e-30, 1.]])))
