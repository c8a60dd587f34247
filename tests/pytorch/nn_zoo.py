# The rest of torch.nn a course meets: activations, padding layers, shuffles,
# distances, margin and likelihood losses, 1-d/3-d and Lp pooling, unpooling,
# 3-d and transposed convolutions, instance/RMS/local-response norms; their
# values, reprs and PyTorch's seeded weights.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
x = torch.linspace(-4, 4, 9)
for m in [nn.Hardtanh(), nn.ReLU6(), nn.Hardsigmoid(), nn.Hardswish(), nn.Hardshrink(), nn.Softshrink(1.0),
          nn.Tanhshrink(), nn.Softsign(), nn.SELU(), nn.CELU(0.5), nn.Mish(), nn.Threshold(0.5, -1.0),
          nn.PReLU(), nn.RReLU(0.1, 0.3).eval()]:
    print(m, m(x))
print(nn.Softmin(dim=0)(x[:4]), nn.GLU()(torch.arange(8.).reshape(2, 4)))
print(nn.Softmax2d()(torch.arange(8.).reshape(2, 2, 2)))
print(nn.Hardtanh(-2, 2, inplace=True), nn.ReLU6(inplace=True), nn.PReLU(3), nn.Identity(54, unused=1))
print(F.relu6(x), F.hardtanh(x, -0.5, 0.5), torch.selu(x[:3]), torch.celu(x[:3]))
print(nn.PReLU(2)(torch.tensor([[-1., -2.], [3., -4.]])))

img = torch.arange(12.).reshape(1, 1, 3, 4)
for m in [nn.ConstantPad2d((1, 0, 2, 1), 3.5), nn.ZeroPad2d(1), nn.ReflectionPad2d(1), nn.ReplicationPad2d((1, 2, 0, 1)),
          nn.CircularPad1d(2), nn.ZeroPad1d((1, 2)), nn.ConstantPad1d(2, -1.0), nn.ReflectionPad1d((2, 1))]:
    print(m, m(img if "2d" in type(m).__name__ else img[0]))

ps = nn.PixelShuffle(2)
inp = torch.arange(32.).reshape(1, 8, 2, 2)
print(ps, ps(inp), nn.PixelUnshuffle(2)(ps(inp)).equal(inp))
print(nn.ChannelShuffle(2)(torch.arange(8.).reshape(1, 4, 2)))

a = torch.randn(3, 5)
b = torch.randn(3, 5)
print(nn.PairwiseDistance()(a, b), nn.PairwiseDistance(p=1.0, keepdim=True)(a, b))
print(nn.CosineSimilarity(dim=1)(a, b), F.pairwise_distance(a, b, 3.0))
bil = nn.Bilinear(5, 5, 2)
print(bil, bil(a, b))

y = torch.tensor([1, -1, 1])
print(nn.CosineEmbeddingLoss(margin=0.1)(a, b, y), F.cosine_embedding_loss(a, b, y, reduction="none"))
print(nn.HingeEmbeddingLoss()(a, torch.ones(3, 5)), F.hinge_embedding_loss(a, -torch.ones(3, 5), reduction="sum"))
print(nn.MarginRankingLoss(0.5)(a[:, 0], b[:, 0], y.float()), F.soft_margin_loss(a, torch.sign(b)))
t = (torch.rand(3, 5) > 0.5).float()
print(nn.MultiLabelSoftMarginLoss()(a, t), F.multilabel_soft_margin_loss(a, t, weight=torch.arange(5.), reduction="none"))
print(nn.TripletMarginLoss(margin=1.0, p=2)(a, b, a.flip(0)), F.triplet_margin_loss(a, b, -b, swap=True))
print(nn.PoissonNLLLoss()(a, b.abs()), F.poisson_nll_loss(a.abs(), b.abs() * 3, log_input=False, full=True))
print(nn.GaussianNLLLoss()(a, b, torch.ones(3, 1)), F.gaussian_nll_loss(a, b, a.abs() + 0.5, full=True, reduction="sum"))
cls = torch.tensor([3, 0, 4])
print(nn.MultiMarginLoss()(a, cls), F.multi_margin_loss(a, cls, p=2, margin=0.5, weight=torch.arange(1., 6.)))
print(nn.MultiLabelMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]])))
print(nn.TripletMarginLoss(), nn.GaussianNLLLoss(), nn.MultiMarginLoss(p=2))

seq = torch.randn(2, 3, 9)
print(nn.MaxPool1d(3, stride=2)(seq), nn.AvgPool1d(3, stride=2, padding=1)(seq))
print(nn.MaxPool1d(3, stride=2), nn.AvgPool1d(3, 2))
out, idx = F.max_pool1d(seq, 2, return_indices=True)
print(idx, nn.MaxUnpool1d(2)(out, idx))
vol = torch.randn(1, 2, 4, 5, 6)
print(nn.MaxPool3d(2)(vol), nn.AvgPool3d((2, 3, 2), stride=1, padding=(1, 1, 0))(vol).shape)
print(F.avg_pool3d(vol, 2, count_include_pad=False, padding=1, ceil_mode=True))
print(nn.AdaptiveAvgPool3d((2, 1, 3))(vol), nn.AdaptiveMaxPool3d(1)(vol).flatten())
print(nn.LPPool1d(2, 3)(seq), nn.LPPool2d(1.5, (2, 3))(vol[0]), nn.LPPool2d(2, 2))
o2, i2 = F.max_pool2d(img, 2, return_indices=True)
print(nn.MaxUnpool2d(2)(o2, i2), F.max_unpool2d(o2, i2, 2, output_size=(3, 5)))

conv3 = nn.Conv3d(2, 3, (2, 3, 3), stride=(1, 2, 1), padding=1)
print(conv3, conv3(vol).shape, conv3(vol)[0, :, 0])
print(F.conv3d(vol, torch.ones(1, 2, 3, 1, 3), padding="same").shape, F.conv3d(vol, torch.ones(4, 1, 2, 1, 1), groups=2, dilation=(2, 1, 1))[0, :, 0, 0])
up = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
feat = torch.randn(1, 2, 3, 4)
print(up, up(feat))
print(up(feat, output_size=[6, 8]).shape, nn.ConvTranspose2d(4, 2, 2, stride=2, groups=2, bias=False, output_padding=1))
w = torch.randn(4, 1, 2, 3)
print(F.conv_transpose2d(torch.randn(1, 4, 2, 2), w, stride=(2, 1), padding=(0, 1), groups=2, dilation=(1, 2)))
up1 = nn.ConvTranspose1d(3, 2, 3, stride=3, output_padding=1)
print(up1, up1(seq[:, :, :4]))

print(nn.InstanceNorm1d(3)(seq), nn.InstanceNorm2d(2, affine=True), nn.InstanceNorm1d(3, bias=False), nn.InstanceNorm2d(1)(img))
inorm = nn.InstanceNorm1d(3, track_running_stats=True)
inorm(seq)
print(inorm.running_mean, inorm.running_var, inorm.eval()(seq)[0, 0])
print(nn.BatchNorm3d(2)(vol).shape, nn.BatchNorm3d(2))
rms = nn.RMSNorm([3, 9])
print(rms, rms(seq), F.rms_norm(a, (5,), eps=1e-3))
lrn = nn.LocalResponseNorm(3, alpha=0.5)
print(lrn, lrn(torch.arange(12.).reshape(1, 4, 3)))
print(nn.UpsamplingNearest2d(scale_factor=2)(img[:, :, :2, :2]), nn.UpsamplingBilinear2d(size=(3, 3))(img[:, :, :2, :2]))

# Gradients flow through the composites.
xg = torch.randn(1, 2, 3, 3, requires_grad=True)
up(xg).sum().backward()
print(xg.grad, up.weight.grad.shape)
vg = vol.clone().requires_grad_()
(conv3(vg) ** 2).mean().backward()
print(vg.grad.shape, round(vg.grad.abs().sum().item(), 3), conv3.bias.grad)
