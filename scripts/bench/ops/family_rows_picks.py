"""Softmax rows, float32 products and norms over dims, and index picks, one line per
op (`OP <name> <median ms>`), at the sizes of run.py's rows (2048x2048, 4096x1024,
1e6 of 4e6).
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
import torch.nn.functional as F
torch.set_num_threads(2)
def bench(name, step, budget=0.2):
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
import torch.nn.functional as F
torch.manual_seed(0)
s = torch.randn(2048, 2048)
a = torch.randn(4096, 1024)
x = torch.randn(1000, 1000)
big = torch.randn(4 * 10**6)
idx = torch.randint(0, 4 * 10**6, (10**6,))
idx2 = torch.randint(0, 1024, (4096, 256))
tgt = torch.randint(0, 2048, (2048,))
bench("softmax_2048sq", lambda: s.softmax(dim=-1))
bench("log_softmax_2048sq", lambda: s.log_softmax(dim=-1))
bench("cross_entropy_2048sq", lambda: F.cross_entropy(s, tgt))
bench("floor_div_1000sq", lambda: x // 0.7)
bench("prod0_4096x1024", lambda: a.prod(dim=0))
bench("prod1_4096x1024", lambda: a.prod(dim=1))
bench("norm0_4096x1024", lambda: a.norm(dim=0))
bench("norm1_4096x1024", lambda: a.norm(dim=1))
bench("norm_p1_dim1", lambda: a.norm(p=1, dim=1))
bench("norm_all", lambda: a.norm())
bench("amax0_4096x1024", lambda: a.amax(dim=0))
bench("var0_4096x1024", lambda: a.var(dim=0))
bench("index_1e6_of_4e6", lambda: big[idx])
bench("take_1e6", lambda: torch.take(big, idx))
bench("index_select_1e6", lambda: big.index_select(0, idx))
bench("gather_dim1", lambda: a.gather(1, idx2))
