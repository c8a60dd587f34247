# More layers and training tools: Conv1d, adaptive pooling, Upsample and
# F.interpolate, channel dropout, the robust and KL losses, gradient clipping,
# ParameterList and LazyLinear, with PyTorch's seeded weights and reprs.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
conv = nn.Conv1d(2, 3, 3, stride=2, padding=1)
print(conv, nn.Conv1d(4, 4, 3, bias=False))
x = torch.randn(2, 2, 7)
print(conv(x))
print(F.conv1d(x, torch.ones(1, 2, 2)).shape, conv(x[0]).shape)

img = torch.arange(2 * 5 * 6, dtype=torch.float32).reshape(1, 2, 5, 6)
print(nn.AdaptiveAvgPool2d((2, 3))(img))
print(nn.AdaptiveAvgPool2d(1)(img).shape, F.adaptive_avg_pool2d(img, (3, 4)))
print(nn.AdaptiveMaxPool2d((2, 2))(img))
print(nn.AdaptiveAvgPool1d(3)(torch.arange(7.).reshape(1, 1, 7)))
print(nn.AdaptiveAvgPool2d((5, 7)), nn.AdaptiveAvgPool1d(4))

small = torch.tensor([[[[1., 2.], [3., 4.]]]])
print(nn.Upsample(scale_factor=2, mode="nearest")(small))
print(F.interpolate(small, size=(3, 3), mode="bilinear", align_corners=False))
print(F.interpolate(small, scale_factor=2, mode="bilinear", align_corners=True))
print(F.interpolate(torch.tensor([[[1., 2., 4.]]]), size=5, mode="linear"))
print(nn.Upsample(scale_factor=2, mode="nearest"), nn.Upsample(size=(4, 4), mode="bilinear"))

d = nn.Dropout2d(p=0.5)
print(d, nn.Dropout1d(0.2))
out = d(torch.ones(2, 4, 3, 3))
print(out.shape, out.unique().tolist())
d.eval()
print(torch.equal(d(torch.ones(2, 4, 3, 3)), torch.ones(2, 4, 3, 3)))
torch.manual_seed(1)  # dropout's draws are its own

pred = torch.tensor([0.5, 2.0, -1.0, 3.5], requires_grad=True)
target = torch.tensor([0.0, 0.0, 0.0, 0.0])
for loss in [nn.SmoothL1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0), nn.SmoothL1Loss(reduction="sum")]:
    print(loss, loss(pred, target))
print(F.huber_loss(pred, target, reduction="none"))
logp = F.log_softmax(torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]), dim=1)
q = torch.tensor([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
print(nn.KLDivLoss(reduction="batchmean")(logp, q), F.kl_div(logp, q, reduction="sum"))
print(F.kl_div(logp, q.log(), reduction="batchmean", log_target=True))

model = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 1))
loss = model(torch.randn(5, 3)).pow(2).sum() * 100
loss.backward()
total = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
print(total)
print(torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()])))
nn.utils.clip_grad_value_(model.parameters(), 0.01)
print(model[0].bias.grad)

pl = nn.ParameterList([nn.Parameter(torch.randn(3, 3, device="cpu")), nn.Parameter(torch.randn(3, device="cpu"))])
print(pl)
print(len(pl), [tuple(p.shape) for p in pl], len(list(pl.parameters())))

lazy = nn.LazyLinear(2)
print(lazy)
y = lazy(torch.randn(4, 5))
print(lazy, y)
