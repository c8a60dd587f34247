# torch.cartesian_prod and torch.combinations: rows in itertools' order,
# gradients through the gather, PyTorch's errors.
import torch
a = torch.tensor([1, 2, 3])
b = torch.tensor([4, 5])
print(torch.cartesian_prod(a, b).cpu())
print(torch.cartesian_prod(a).cpu())
print(torch.cartesian_prod(a, b, torch.tensor([7, 8])).cpu())
print(torch.cartesian_prod(a, torch.tensor([], dtype=torch.int64)).shape)
print(torch.combinations(a).cpu())
print(torch.combinations(a, r=3).cpu(), torch.combinations(a, r=1).cpu())
print(torch.combinations(a, with_replacement=True).cpu())
print(torch.combinations(a, r=0).cpu(), torch.combinations(a, r=4).shape)
x = torch.tensor([1., 2., 3.], requires_grad=True)
torch.combinations(x, 2, True).prod(1).sum().backward()
print(x.grad.cpu())
y = torch.tensor([1., 2.], requires_grad=True)
torch.cartesian_prod(y, y).pow(2).sum().backward()
print(y.grad.cpu())
for f in [lambda: torch.combinations(torch.ones(2, 2)),
          lambda: torch.combinations(a, r=-1),
          lambda: torch.cartesian_prod(torch.ones(2, 2)),
          lambda: torch.cartesian_prod(a, torch.ones(2))]:
    try:
        f()
    except Exception as e:
        print(e)
