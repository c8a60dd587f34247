import torch
x = torch.tensor([1.0, 2.0], requires_grad=True)
print(x.grad_dtype)
x.grad_dtype = torch.float16
(x * 2).sum().backward()
print(x.grad, x.grad_dtype)
y = torch.tensor([1.0, 2.0], requires_grad=True)
y.grad_dtype = None
y.grad = torch.ones(2, dtype=torch.float64)
print(y.grad, y.grad_dtype)
(y * 3).sum().backward()
print(y.grad)
z = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    z.grad = torch.ones(2, dtype=torch.float64)
except RuntimeError as e:
    print("RuntimeError")
try:
    (z * 2).grad_dtype = None
except RuntimeError as e:
    print(e)
print((z * 2).grad_dtype)
