# Adadelta, Adamax and NAdam: PyTorch's update rules, reprs and classes.
import torch
import torch.nn as nn

for name, make in [
    ("Adadelta", lambda p: torch.optim.Adadelta(p)),
    ("Adadelta", lambda p: torch.optim.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.1)),
    ("Adamax", lambda p: torch.optim.Adamax(p, lr=0.05)),
    ("Adamax", lambda p: torch.optim.Adamax(p, lr=0.05, weight_decay=0.01)),
    ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.05)),
    ("NAdam", lambda p: torch.optim.NAdam(p, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
]:
    torch.manual_seed(0)
    model = nn.Linear(3, 1)
    opt = make(model.parameters())
    x = torch.randn(8, 3)
    y = x.sum(1, keepdim=True)
    for step in range(20):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    print(name, round(loss.item(), 5), model.weight.data, type(opt).__name__)
print(torch.optim.NAdam([torch.zeros(1, requires_grad=True)]))
print(torch.optim.Adadelta([torch.zeros(1, requires_grad=True)]))
