# torch.optim's param_groups and lr_scheduler, as a training loop uses them.
import torch
import torch.nn as nn
from torch.optim.lr_scheduler import StepLR, MultiStepLR, ExponentialLR, LambdaLR, LinearLR, CosineAnnealingLR, OneCycleLR, ReduceLROnPlateau

w = [torch.ones(1, requires_grad=True)]
for O in [torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW]:
    o = O(w, lr=0.1)
    print(list(o.param_groups[0].keys()))
    print(o)
o = torch.optim.SGD([{'params': w}, {'params': [torch.ones(1, requires_grad=True)], 'lr': 0.5}], lr=0.1, momentum=0.9)
print(o)
print(o.param_groups[1]['lr'], type(o.param_groups[0]['params']).__name__)
o.add_param_group({'params': [torch.zeros(2, requires_grad=True)], 'weight_decay': 0.1})
print(len(o.param_groups), o.param_groups[2]['lr'], o.param_groups[2]['weight_decay'])


def lrs(make, steps=8, **kw):
    opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1, momentum=0.9)
    sched = make(opt, **kw)
    out = []
    for _ in range(steps):
        opt.step()
        sched.step()
        out.append(sched.get_last_lr()[0])
    return out


print(lrs(StepLR, step_size=3, gamma=0.5))
print(lrs(MultiStepLR, milestones=[2, 5, 5], gamma=0.1))
print(lrs(ExponentialLR, gamma=0.9))
print(lrs(LambdaLR, lr_lambda=lambda epoch: 0.95 ** epoch))
print(lrs(LinearLR, start_factor=0.25, total_iters=4))
print(lrs(CosineAnnealingLR, T_max=4, eta_min=0.001))
print(lrs(OneCycleLR, steps=10, max_lr=1.0, total_steps=10))
opt = torch.optim.Adam([torch.ones(1, requires_grad=True)], lr=0.01)
sched = OneCycleLR(opt, max_lr=0.1, epochs=2, steps_per_epoch=3, anneal_strategy='linear')
for _ in range(5):
    opt.step()
    sched.step()
print(sched.get_last_lr(), opt.param_groups[0]['betas'])
opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1.0)
plateau = ReduceLROnPlateau(opt, patience=1, factor=0.5)
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7]:
    plateau.step(loss)
    print(opt.param_groups[0]['lr'], end=' ')
print()
torch.manual_seed(0)
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
sched = StepLR(opt, step_size=2, gamma=0.1)
x, y = torch.randn(8, 3), torch.randn(8, 1)
for epoch in range(4):
    opt.zero_grad()
    loss = ((model(x) - y) ** 2).mean()
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.4f}", sched.get_last_lr())
