# softmax and log_softmax along the last dim keep PyTorch's bits whether a row's
# exponentials are all normal floats (the short form of SLEEF's exp) or some
# fall below (x - max under -86.5: the full form), and with infinities and NaN.
import torch

torch.manual_seed(0)
for scale in [1.0, 20.0, 40.0, 100.0]:
    for n in [5, 16, 33, 64, 100, 130, 2048]:
        z = torch.randn(3, n) * scale
        p = z.softmax(-1)
        print(scale, n, p.sum(1).tolist(), p[:, :4].tolist(), z.log_softmax(-1)[:, -3:].tolist())
# Rows right at the edge of the short form's range.
for gap in [86.0, 86.5, 86.6, 87.0, 87.4, 88.0, 103.0, 104.5]:
    z = torch.zeros(2, 70)
    z[0, 7] = -gap
    z[1, 69] = gap
    print(gap, z.softmax(-1)[0, 6:9].tolist(), z.softmax(-1)[1, -2:].tolist(), z.log_softmax(-1)[0, 7].item())
inf, nan = float("inf"), float("nan")
z = torch.randn(4, 40)
z[0, 3] = inf
z[1, 5] = -inf
z[2, 9] = nan
z[3, :] = -inf
print(z.softmax(-1)[:, :10].tolist())
print(z.log_softmax(-1)[:, :10].tolist())
