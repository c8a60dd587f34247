"""One line per op: `OP <name> <median ms>`, for about 100 ops over 1000x1000 float32
(element-wise, reductions, sorting, matmul, conv and pooling, indexing, creation,
backward). Runs unchanged under tsh and python3; compare.py runs both and prints
the ratios, worst first."""
import time
import torch
import torch.nn.functional as F
torch.set_num_threads(2)

def bench(name, step, budget=0.25):
    for _ in range(2):
        step()
    t0 = time.perf_counter()
    step()
    one = max(time.perf_counter() - t0, 1e-7)
    chunk = max(1, min(10000, int(0.002 / one)))
    times = []
    while len(times) < 5:
        n = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(chunk):
                step()
            n += chunk
            elapsed = time.perf_counter() - t0
            if elapsed >= budget / 5:
                break
        times.append(elapsed / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.4f}")

torch.manual_seed(0)
x = torch.randn(1000, 1000)
y = torch.randn(1000, 1000)
p = torch.rand(1000, 1000) + 0.1
v = torch.randn(1000)
for nm in ["exp", "log", "sin", "cos", "tanh", "sigmoid", "relu", "sqrt", "abs", "neg", "erf", "log1p", "floor", "round", "reciprocal", "rsqrt", "expm1", "atan", "sign"]:
    f = getattr(torch, nm)
    src = p if nm in ["log", "sqrt", "log1p", "rsqrt"] else x
    bench(nm, lambda f=f, src=src: f(src))
bench("gelu", lambda: F.gelu(x))
bench("silu", lambda: F.silu(x))
bench("softplus", lambda: F.softplus(x))
bench("leaky_relu", lambda: F.leaky_relu(x))
bench("pow2", lambda: x ** 2)
bench("powf", lambda: p ** 1.7)
bench("clamp", lambda: x.clamp(-0.5, 0.5))
bench("mul", lambda: x * y)
bench("div", lambda: x / y)
bench("maximum", lambda: torch.maximum(x, y))
bench("gt", lambda: x > y)
bench("where", lambda: torch.where(x > 0, x, y))
bench("add_scalar", lambda: x + 1.5)
bench("add_row", lambda: x + v)
bench("add_col", lambda: x + v[:, None])
bench("add_", lambda: x.add_(0.0))
bench("addcmul", lambda: torch.addcmul(x, y, y, value=0.5))
bench("lerp", lambda: torch.lerp(x, y, 0.3))
bench("sum", lambda: x.sum())
bench("mean", lambda: x.mean())
bench("sum1", lambda: x.sum(1))
bench("sum0", lambda: x.sum(0))
bench("mean1", lambda: x.mean(1))
bench("max", lambda: x.max())
bench("amax1", lambda: x.amax(1))
bench("amax0", lambda: x.amax(0))
bench("max1", lambda: x.max(1))
bench("argmax1", lambda: x.argmax(1))
bench("min0", lambda: x.min(0))
bench("var1", lambda: x.var(1))
bench("std", lambda: x.std())
bench("norm", lambda: x.norm())
bench("prod1", lambda: p.prod(1))
bench("logsumexp1", lambda: x.logsumexp(1))
bench("cumsum1", lambda: x.cumsum(1))
bench("cumsum0", lambda: x.cumsum(0))
bench("any", lambda: (x > 3).any())
bench("sort1", lambda: x.sort(1))
bench("argsort1", lambda: x.argsort(1))
bench("topk10", lambda: x.topk(10, 1))
bench("sort_flat", lambda: x.flatten().sort())
bench("unique", lambda: (x * 10).round().unique())
a64 = x.double(); b64 = y.double()
bench("mm_f64_512", lambda: a64[:512, :512] @ b64[:512, :512])
h = x[:512, :512].half(); h2 = y[:512, :512].half()
bench("mm_f16_512", lambda: h @ h2)
B1 = torch.randn(32, 64, 64); B2 = torch.randn(32, 64, 64)
bench("bmm32x64", lambda: torch.bmm(B1, B2))
bench("matvec", lambda: x @ v)
bench("mm_128", lambda: x[:128, :128] @ y[:128, :128])
bench("linear", lambda: F.linear(torch.randn(64, 784), torch.randn(128, 784)))
bench("einsum", lambda: torch.einsum("bij,bjk->bik", B1, B2))
img = torch.randn(32, 16, 32, 32)
w = torch.randn(32, 16, 3, 3)
bench("conv16_32", lambda: F.conv2d(img, w, padding=1))
bench("conv1d", lambda: F.conv1d(torch.randn(32, 16, 256), torch.randn(32, 16, 5)))
bench("avg_pool2d", lambda: F.avg_pool2d(img, 2))
bench("adapt_avg", lambda: F.adaptive_avg_pool2d(img, 1))
bench("maxpool_k3s1", lambda: F.max_pool2d(img, 3, 1, 1))
bench("interp", lambda: F.interpolate(img, scale_factor=2, mode="nearest"))
bench("bilinear", lambda: F.interpolate(img, scale_factor=2, mode="bilinear", align_corners=False))
idx = torch.randint(0, 1000, (1000, 1000))
bench("gather1", lambda: x.gather(1, idx))
bench("scatter_add", lambda: torch.zeros(1000, 1000).scatter_add_(1, idx, x))
ii = torch.randint(0, 1000, (500,))
bench("index_select0", lambda: x.index_select(0, ii))
bench("masked_select", lambda: x[x > 0])
bench("nonzero", lambda: (x > 1).nonzero())
bench("cat", lambda: torch.cat([x, y], 0))
bench("stack", lambda: torch.stack([x, y]))
bench("contig_T", lambda: x.t().contiguous())
bench("cross_entropy", lambda: F.cross_entropy(x, ii.repeat(2)[:1000]))
bench("mse", lambda: F.mse_loss(x, y))
bench("log_softmax1", lambda: F.log_softmax(x, 1))
bench("dropout", lambda: F.dropout(x, 0.5, True))
bench("randn", lambda: torch.randn(1000, 1000))
bench("rand", lambda: torch.rand(1000, 1000))
bench("zeros", lambda: torch.zeros(1000, 1000))
bench("arange", lambda: torch.arange(1000000))
bench("to_f64", lambda: x.double())
bench("to_i64", lambda: x.long())
bench("to_bf16", lambda: x.bfloat16())
xg = x.clone().requires_grad_()
def bw():
    (xg * y).sum().backward()
bench("mul_backward", bw)
def bw2():
    xg.grad = None
    torch.tanh(xg @ y).sum().backward()
bench("mm_tanh_bw", bw2)
