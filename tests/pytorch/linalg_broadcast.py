# linalg.solve's rule for B: a vector when 1-d or A's batch-and-row shape, else a
# matrix, broadcast over A's batch (and its gradients summed back).
import torch
torch.manual_seed(0)
A = torch.randn(2, 3, 3, dtype=torch.float64, requires_grad=True)
b = torch.randn(3, 1, dtype=torch.float64, requires_grad=True)
x = torch.linalg.solve(A, b)
print(x.shape, torch.allclose(A @ x, b))
x.sum().backward()
print(A.grad.shape, b.grad)
c = torch.randn(3, dtype=torch.float64, requires_grad=True)
y = torch.linalg.solve(A, c)
print(y.shape)
y.pow(2).sum().backward()
print(c.grad)
print(torch.linalg.solve(A[0], torch.randn(3, 2, dtype=torch.float64)).shape, torch.linalg.solve(A, torch.randn(2, 3, dtype=torch.float64)).shape)
