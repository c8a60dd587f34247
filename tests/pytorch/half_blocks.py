# float16 and bfloat16 element-wise ops and reductions over many blocks (a
# block widened to float32 and narrowed back at a time), with tails, views,
# specials and subnormals; softmax of a half dtype through float32.
import torch
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    a = (torch.arange(-5003, 5000) % 97 - 48).to(dt) / 4
    b = (torch.arange(0, 10003) % 13 + 1).to(dt)
    s = a * b + a
    print(dt, s[:5], s[-3:], s.float().sum().item(), (a / b).float().sum().item())
    print(torch.relu(a)[-4:], (a > 0).sum().item(), a.abs().max().item(), a.exp()[::2000])
    print(a.sum().item(), a.view(7, 1429).sum(1)[:4], a.view(7, 1429).t().sum(0), a.view(7, 1429).mean(0)[:3])
    v = a.view(7, 1429)[:, ::3]
    print((v + 1)[:, :2], v.sum().item(), v.t().contiguous().view(-1)[:5])
    sp = torch.tensor([float('nan'), float('inf'), -float('inf'), -0.0, 6e-8, 1e-40, 65504.0, 3.4e38], dtype=torch.float32).to(dt)
    print(sp, sp + 0, sp * 2, sp.sum(), sp[:3].isnan(), torch.tensor([-0.0], dtype=dt).sum())
    x = (torch.randn(33, 1003) * 4).to(dt)
    r = torch.softmax(x, -1)
    print(r[5, :4], r.float().sum(-1)[:3], torch.log_softmax(x.t(), 0)[:3, 0])
