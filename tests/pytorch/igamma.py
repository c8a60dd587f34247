# torch.igamma/igammac, torch.special.gammainc/gammaincc: edge cases, broadcasting,
# the gradient in x, igamma_ in place.
import torch
a = torch.tensor([[4.0], [0.5], [30.], [2.5]], dtype=torch.float64)
x = torch.tensor([0., 0.1, 3.0, 4.0, 5.0, 29., 100., float('inf')], dtype=torch.float64)
print(torch.special.gammainc(a, x).cpu())
print(torch.special.gammaincc(a, x).cpu())
print(torch.igamma(torch.tensor([4.0]), torch.tensor([3.0, 4.0, 5.0])).cpu(), torch.igammac(torch.tensor([4.0]), torch.tensor([3.0, 4.0, 5.0])).cpu())
print(torch.igamma(torch.tensor([-1., 0., 0., 2.]), torch.tensor([1., 1., 0., -1.])).cpu())
xx = torch.tensor([0.5, 2., 7.], requires_grad=True)
torch.special.gammaincc(torch.tensor(2.5), xx).sum().backward()
print(xx.grad.cpu())
t = torch.tensor([1., 2.])
t.igamma_(torch.tensor([1., 1.]))
print(t.cpu())
