# The optimizers' update rules, step by step against PyTorch's.
import torch

configs = [
    (torch.optim.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)),
    (torch.optim.Adam, dict(lr=0.05, amsgrad=True)),
    (torch.optim.AdamW, dict(lr=0.05)),
    (torch.optim.RMSprop, dict(lr=0.01)),
    (torch.optim.RMSprop, dict(lr=0.01, momentum=0.5, centered=True, weight_decay=0.1)),
    (torch.optim.Adagrad, dict(lr=0.1)),
    (torch.optim.Adagrad, dict(lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1, weight_decay=0.01)),
]
for make, kw in configs:
    torch.manual_seed(0)
    w = torch.randn(3, requires_grad=True)
    opt = make([w], **kw)
    for _ in range(5):
        opt.zero_grad()
        loss = ((w - torch.tensor([1., -2., 0.5])) ** 2).sum() + w.abs().sum()
        loss.backward()
        opt.step()
    print(type(opt).__name__, w)
print(torch.optim.RMSprop([w]))
print(torch.optim.Adagrad([w], lr=0.5))
