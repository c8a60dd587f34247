# torch.linalg.solve by one LU per matrix: vectors and matrices on the right,
# batch dims broadcast either way, gradients, and PyTorch's errors.
import torch

torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.float64)
B = torch.randn(3, 2, dtype=torch.float64)
b = torch.randn(3, dtype=torch.float64)
print(torch.linalg.solve(A, B), torch.linalg.solve(A, b))
Ab = torch.randn(2, 3, 3, dtype=torch.float64)
print(torch.linalg.solve(Ab, B))
print(torch.linalg.solve(Ab, torch.randn(2, 3, dtype=torch.float64)))
print(torch.linalg.solve(A, torch.randn(4, 1, 3, 2, dtype=torch.float64)).shape)
A.requires_grad_()
B.requires_grad_()
x = torch.linalg.solve(A, B)
x.sum().backward()
print(A.grad, B.grad)
bads = [(torch.zeros(2, 2), torch.ones(2)), (torch.eye(3), torch.ones(2, 2))]
bads += [(torch.tensor(0.0), torch.eye(3)), (torch.eye(3), torch.tensor(1.0)), (torch.ones(3), torch.ones(3))]
for bad in bads:
    try:
        print(torch.linalg.solve(*bad))
    except RuntimeError as e:
        print("RuntimeError", e)
    except ValueError as e:
        print("error", e)
x32 = torch.linalg.solve(4 * torch.eye(4) + torch.ones(4, 4), torch.arange(4.0))
print(x32.dtype, x32)
