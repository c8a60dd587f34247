# im2col (F.unfold, and conv2d through it) over rows of every length: short
# rows copied 64 bytes at a time (what runs past a row is written again
# later), long rows, padding, strides, dilation, float32 and float64. Each
# is checked against the windows cut out of the padded input by slicing, and
# conv2d against those windows times the weight; F.fold (im2col's adjoint,
# conv2d's input gradient) against the rows added back by slicing.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


def windows(x, k, stride, pad, dil):
    n, c, h, w = x.shape
    oh = (h + 2 * pad - dil * (k - 1) - 1) // stride + 1
    ow = (w + 2 * pad - dil * (k - 1) - 1) // stride + 1
    xp = F.pad(x, (pad, pad, pad, pad))
    taps = []
    for ky in range(k):
        for kx in range(k):
            y0, x0 = ky * dil, kx * dil
            taps.append(xp[:, :, y0:y0 + stride * (oh - 1) + 1:stride, x0:x0 + stride * (ow - 1) + 1:stride].reshape(n, c, oh * ow))
    return torch.stack(taps, dim=2).reshape(n, c * k * k, oh * ow)


def summed_back(cols, shape, k, stride, pad, dil):
    # F.fold by slicing: each tap's row added into the padded image.
    n, c, h, w = shape
    oh = (h + 2 * pad - dil * (k - 1) - 1) // stride + 1
    ow = (w + 2 * pad - dil * (k - 1) - 1) // stride + 1
    xp = torch.zeros(n, c, h + 2 * pad, w + 2 * pad, dtype=cols.dtype)
    rows = cols.reshape(n, c, k * k, oh, ow)
    for ky in range(k):
        for kx in range(k):
            y0, x0 = ky * dil, kx * dil
            xp[:, :, y0:y0 + stride * (oh - 1) + 1:stride, x0:x0 + stride * (ow - 1) + 1:stride] += rows[:, :, ky * k + kx]
    return xp[:, :, pad:pad + h, pad:pad + w]


for dtype in [torch.float32, torch.float64]:
    for (h, w, k, stride, pad, dil) in [
        (14, 14, 5, 1, 0, 1),
        (6, 5, 3, 1, 1, 1),
        (4, 23, 2, 1, 0, 1),
        (9, 40, 3, 1, 2, 1),
        (7, 9, 3, 2, 1, 1),
        (8, 8, 3, 1, 2, 2),
        (5, 3, 3, 1, 1, 1),
        (3, 3, 3, 1, 0, 1),
    ]:
        x = torch.randn(2, 3, h, w, dtype=dtype)
        cols = F.unfold(x, k, dilation=dil, padding=pad, stride=stride)
        wt = torch.randn(4, 3, k, k, dtype=dtype)
        y = F.conv2d(x, wt, stride=stride, padding=pad, dilation=dil)
        # conv2d as windows times the weight; and recorded for autograd (an
        # image at a time without, the whole batch's windows with): one result.
        ref = (wt.reshape(4, -1) @ windows(x, k, stride, pad, dil)).reshape(y.shape)
        recorded = F.conv2d(x, wt.clone().requires_grad_(), stride=stride, padding=pad, dilation=dil)
        print(tuple(cols.shape), tuple(y.shape), torch.equal(cols, windows(x, k, stride, pad, dil)),
              torch.allclose(y, ref, rtol=1e-5, atol=1e-5), torch.equal(y, recorded.detach()),
              cols[1, -1, -3:].tolist())
        folded = F.fold(cols, (h, w), k, dilation=dil, padding=pad, stride=stride)
        print(torch.allclose(folded, summed_back(cols, x.shape, k, stride, pad, dil), rtol=1e-6, atol=1e-6))
