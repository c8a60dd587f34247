import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
loss = nn.LinearCrossEntropyLoss(5, 10, out_features=(4, 3), bias=True)
print(loss)
x = torch.randn(2, 5, requires_grad=True)
t = torch.randint(0, 10, (2, 4, 3))
out = loss(x, t)
out.backward()
print(out, x.grad)
w = torch.randn(7, 5)
print(F.linear_cross_entropy(torch.randn(3, 5), w, torch.tensor([1, 2, 6]), reduction='none'))
print(F.linear_cross_entropy(torch.randn(5), w, torch.tensor(3)))
