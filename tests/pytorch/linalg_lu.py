# torch.linalg's LU family (LAPACK's pivots, 1-based int32), lu_unpack,
# lu_solve in its four forms, the deprecated torch.lu_solve, inv_ex and
# cholesky_ex with their info, and gradients through lu_factor and lu.
import torch
A = torch.tensor([[1., 2., 0.], [3., 4., 1.], [0., 5., 6.]], dtype=torch.float64)
LU, piv = torch.linalg.lu_factor(A)
print(LU.cpu(), piv.cpu())
r = torch.linalg.lu_factor_ex(torch.zeros(2, 2))
print(type(r).__name__, r.LU.cpu(), r.pivots.cpu(), r.info.cpu())
for M in [torch.tensor([[1., 2.], [3., 4.], [5., 7.]]), torch.tensor([[1., 2., 3.], [4., 5., 7.]])]:
    P, L, U = torch.linalg.lu(M)
    print(P.cpu(), L.cpu(), U.cpu(), torch.allclose(P @ L @ U, M))
torch.manual_seed(0)
Ab = torch.randn(2, 3, 3)
LUb, pivb = torch.linalg.lu_factor(Ab)
P, L, U = torch.lu_unpack(LUb, pivb)
print(pivb.cpu(), torch.allclose(P @ L @ U, Ab), P.shape, L.shape, U.shape)
B = torch.tensor([[1., 2.], [0., 1.], [3., -1.]], dtype=torch.float64)
for left in [True, False]:
    for adjoint in [True, False]:
        Bb = B if left else B.T
        X = torch.linalg.lu_solve(LU, piv, Bb, left=left, adjoint=adjoint)
        Aa = A.T if adjoint else A
        print(left, adjoint, torch.allclose(Aa @ X if left else X @ Aa, Bb), X.cpu())
print(torch.allclose(torch.linalg.lu_solve(LU, piv, B), torch.linalg.solve(A, B)))
r = torch.linalg.inv_ex(torch.tensor([[1., 2.], [2., 4.]]))
print(r.inverse.cpu(), r.info.cpu())
r = torch.linalg.inv_ex(torch.tensor([[[1., 2.], [3., 4.]], [[2., 0.], [0., 2.]]]))
print(r.inverse.cpu(), r.info.cpu())
r = torch.linalg.cholesky_ex(torch.tensor([[1., 2.], [2., 1.]]))
print(r.L.cpu(), r.info.cpu())
r = torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., 3.]]), upper=True)
print(r.L.cpu(), r.info.cpu())
x = torch.tensor([[2., 1.], [1., 3.]], requires_grad=True)
LU2, piv2 = torch.linalg.lu_factor(x)
(LU2 * torch.tensor([[1., 2.], [3., 4.]])).sum().backward()
print(x.grad.cpu())
x.grad = None
P, L, U = torch.linalg.lu(x)
(L.sum() + (U ** 2).sum()).backward()
print(x.grad.cpu())
b = torch.tensor([[1.], [2.]], requires_grad=True)
torch.linalg.lu_solve(*torch.linalg.lu_factor(torch.tensor([[1., 2.], [3., 4.]])), b).sum().backward()
print(b.grad.cpu())
for f in [lambda: torch.linalg.lu_factor(torch.zeros(2, 2)),
          lambda: torch.linalg.lu_factor(A, pivot=False),
          lambda: torch.linalg.inv_ex(torch.zeros(2, 2), check_errors=True),
          lambda: torch.linalg.cholesky_ex(-torch.eye(2), check_errors=True)]:
    try:
        f()
    except Exception as e:
        print(e)
