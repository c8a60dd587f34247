# torch.linalg.solve in float32 (computed in float32, as LAPACK's sgesv):
# column-major results as PyTorch's, left=False, dtype mismatches, empty
# matrices, and singular inputs raised as torch.linalg.LinAlgError.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3)
B = torch.randn(3, 2)
X = torch.linalg.solve(A, B)
print(X, X.stride(), X.is_contiguous())
print(torch.linalg.solve(A, torch.randn(3)).stride())
print(torch.linalg.solve(torch.randn(4, 3, 3), torch.randn(4, 3, 2)).stride())
print(torch.linalg.solve(torch.randn(4, 3, 3), torch.randn(3, 2)).stride())
print(torch.linalg.solve(torch.randn(2, 1, 3, 3), torch.randn(5, 3, 2)).shape)
A = torch.randn(4, 4, requires_grad=True)
b = torch.randn(4, requires_grad=True)
x = torch.linalg.solve(A, b)
x.sum().backward()
print(x, A.grad, b.grad)
print(torch.linalg.solve(torch.randn(3, 3), torch.randn(2, 3), left=False))
print(torch.linalg.solve(torch.zeros(0, 0), torch.zeros(0, 2)).shape)
print(torch.linalg.solve(torch.zeros(2, 0, 0), torch.zeros(2, 0)).shape)
# A large, well-conditioned system: the residual is float32 round-off.
a = torch.randn(300, 300) + 300 * torch.eye(300)
rhs = torch.randn(300, 2)
print(((a @ torch.linalg.solve(a, rhs) - rhs).abs().max() < 1e-5).item())
bads = [
    (torch.randn(3, 3, dtype=torch.float64), torch.ones(3)),
    (torch.randn(4, 4), torch.ones(4)),
    (torch.tensor([[2.0]]), torch.tensor([4.0])),
]
for i, (p, q) in enumerate(bads):
    try:
        torch.linalg.solve(p, q, left=i == 0)
    except RuntimeError as e:
        print(e)
for f in [
    lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)),
    lambda: torch.linalg.inv(torch.zeros(2, 2)),
    lambda: torch.linalg.cholesky(-torch.eye(2)),
]:
    try:
        f()
    except torch.linalg.LinAlgError as e:
        print(type(e).__name__, e)
spd = torch.tensor([[4.0, 2.0, 0.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
for m in [spd, torch.stack([torch.eye(3), spd - 0.5 * torch.eye(3)])]:
    try:
        torch.linalg.cholesky(m)
    except RuntimeError as e:
        print(e)
