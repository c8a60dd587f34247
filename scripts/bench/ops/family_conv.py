"""The convolution family, one line per case (`OP <name> <median ms>`): conv2d over
channel counts, kernel sizes, strides and groups (LeNet's, ResNet's stem, a
depthwise one), forward alone and with backward, and the pooling and norm layers
around them.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
import torch.nn.functional as F
torch.set_num_threads(2)
def bench(name, step, budget=0.3):
    for _ in range(2):
        step()
    times = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            step()
            n += 1
            el = time.perf_counter() - t0
            if el >= budget / 5:
                break
        times.append(el / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.4f}")
torch.manual_seed(0)
def conv_case(name, n, c, h, o, k, stride=1, pad=0, groups=1, bw=False):
    x = torch.randn(n, c, h, h, requires_grad=bw)
    w = torch.randn(o, c // groups, k, k, requires_grad=bw)
    if bw:
        def step():
            y = F.conv2d(x, w, stride=stride, padding=pad, groups=groups)
            y.sum().backward()
        bench(name, step)
    else:
        bench(name, lambda: F.conv2d(x, w, stride=stride, padding=pad, groups=groups))
conv_case("c3_16_32", 64, 3, 32, 16, 3, pad=1)
conv_case("c16_32_32", 32, 16, 32, 32, 3, pad=1)
conv_case("c32_64_16", 32, 32, 16, 64, 3, pad=1)
conv_case("c64_64_8", 32, 64, 8, 64, 3, pad=1)
conv_case("c64_128_s2", 32, 64, 16, 128, 3, stride=2, pad=1)
conv_case("c1x1_64_128", 32, 64, 16, 128, 1)
conv_case("c5x5_1_6", 64, 1, 28, 6, 5)
conv_case("c5x5_6_16", 64, 6, 14, 16, 5)
conv_case("dw_32", 32, 32, 32, 32, 3, pad=1, groups=32)
conv_case("c7_3_64_s2", 8, 3, 64, 64, 7, stride=2, pad=3)
conv_case("bw_c3_16", 64, 3, 32, 16, 3, pad=1, bw=True)
conv_case("bw_c16_32", 32, 16, 32, 32, 3, pad=1, bw=True)
conv_case("bw_c64_64_8", 32, 64, 8, 64, 3, pad=1, bw=True)
conv_case("bw_c5_1_6", 64, 1, 28, 6, 5, bw=True)
x = torch.randn(32, 64, 16, 16)
bench("maxpool2", lambda: F.max_pool2d(x, 2))
bench("avgpool2", lambda: F.avg_pool2d(x, 2))
bn = torch.nn.BatchNorm2d(64)
bench("bn_fwd", lambda: bn(x))
xr = torch.randn(32, 64, 16, 16, requires_grad=True)
def mp_bw():
    F.max_pool2d(xr, 2).sum().backward()
bench("maxpool_bw", mp_bw)
def relu_bw():
    F.relu(xr).sum().backward()
bench("relu_bw", relu_bw)
stem = torch.randn(8, 64, 56, 56)
bench("maxpool_k3s2", lambda: F.max_pool2d(stem, 3, 2, 1))
seqs = torch.randn(64, 100, 48)
bench("maxpool1d_global", lambda: F.max_pool1d(seqs, seqs.size(2)))
bench("maxpool1d_k2", lambda: F.max_pool1d(seqs, 2))
bench("adapt_avg4", lambda: F.adaptive_avg_pool2d(x, 4))
bench("adapt_max1", lambda: F.adaptive_max_pool2d(x, 1))
bench("avgpool_k3s2", lambda: F.avg_pool2d(x, 3, 2, 1))
def ap_bw():
    F.avg_pool2d(xr, 2).sum().backward()
bench("avgpool_bw", ap_bw)
bench("adapt_avg5", lambda: F.adaptive_avg_pool2d(x, 5))
