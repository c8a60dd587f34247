"""Per-op overhead: one small statement per line (`OP <name> <median ms>`), on 2x2
and 32x32 float32 tensors, where the time is the interpreter's and the op's
bookkeeping, not the arithmetic. run.py's small_ops row is the first one.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
import torch.nn.functional as F
torch.set_num_threads(2)


def bench(name, step, budget=0.2):
    for _ in range(3):
        step()
    t0 = time.perf_counter()
    step()
    one = max(time.perf_counter() - t0, 1e-7)
    chunk = max(1, min(10000, int(0.002 / one)))
    times = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(chunk):
                step()
            n += chunk
            el = time.perf_counter() - t0
            if el >= budget / 5:
                break
        times.append(el / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.6f}")


torch.manual_seed(0)
a = torch.randn(2, 2)
b = torch.randn(2, 2)
m = torch.randn(32, 32)
n = torch.randn(32, 32)
v = torch.randn(32)
w = torch.randn(2, 2, requires_grad=True)
bench("mul_add_sum_2x2", lambda: (a * b + a).sum())
bench("add_2x2", lambda: a + b)
bench("mul_scalar_2x2", lambda: a * 2.0)
bench("sum_2x2", lambda: a.sum())
bench("relu_2x2", lambda: a.relu())
bench("exp_2x2", lambda: torch.exp(a))
bench("matmul_2x2", lambda: a @ b)
bench("index_2x2", lambda: a[0])
bench("transpose_2x2", lambda: a.T)
bench("view_2x2", lambda: a.view(4))
bench("add_row_32x32", lambda: m + v)
bench("matmul_32x32", lambda: m @ n)
bench("mean_dim_32x32", lambda: m.mean(dim=0))
bench("softmax_32x32", lambda: F.softmax(m, dim=-1))
bench("cat_2x2", lambda: torch.cat([a, b]))
bench("grad_mul_sum_2x2", lambda: (w * a).sum())
logits = torch.randn(64, 10)
target = torch.randint(0, 10, (64,))
h = torch.randn(64, 128)
wl = torch.randn(10, 128)
bl = torch.randn(10)
ln_w = torch.ones(128)
ln_b = torch.zeros(128)
bench("cross_entropy_64x10", lambda: F.cross_entropy(logits, target))
bench("log_softmax_64x10", lambda: F.log_softmax(logits, dim=1))
bench("argmax_64x10", lambda: logits.argmax(dim=1))
bench("max_dim_64x10", lambda: logits.max(dim=1))
bench("linear_64x128_10", lambda: F.linear(h, wl, bl))
bench("layer_norm_64x128", lambda: F.layer_norm(h, (128,), ln_w, ln_b))
bench("sigmoid_32x32", lambda: torch.sigmoid(m))
bench("tanh_32x32", lambda: torch.tanh(m))
bench("gelu_32x32", lambda: F.gelu(m))
bench("var_dim_32x32", lambda: m.var(dim=1))
bench("mse_loss_32x32", lambda: F.mse_loss(m, n))
bench("where_32x32", lambda: torch.where(m > 0, m, n))
bench("clone_32x32", lambda: m.clone())
bench("zeros_32x32", lambda: torch.zeros(32, 32))
bench("randn_32x32", lambda: torch.randn(32, 32))
bench("sum_dim1_32x32", lambda: m.sum(dim=1))
bench("cumsum_32x32", lambda: m.cumsum(dim=1))
bench("sort_32x32", lambda: m.sort(dim=1))
