"""The reduction family, one line per op (`OP <name> <median ms>`): sum, mean,
amax, max with indices, argmax, prod, std, var, norm, logsumexp and cumsum over
each dim of 1000x1000, 4096x1024 and 1024x4096 float32, and over everything.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
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
torch.manual_seed(0)
for (r, c) in [(1000, 1000), (4096, 1024), (1024, 4096)]:
    a = torch.randn(r, c)
    tag = f"{r}x{c}"
    for d in [0, 1]:
        bench(f"sum{d}_{tag}", lambda: a.sum(d))
        bench(f"mean{d}_{tag}", lambda: a.mean(d))
        bench(f"amax{d}_{tag}", lambda: a.amax(d))
        bench(f"max{d}_{tag}", lambda: a.max(d))
        bench(f"argmax{d}_{tag}", lambda: a.argmax(d))
        bench(f"prod{d}_{tag}", lambda: a.prod(d))
        bench(f"std{d}_{tag}", lambda: a.std(d))
        bench(f"var{d}_{tag}", lambda: a.var(d))
        bench(f"norm{d}_{tag}", lambda: a.norm(dim=d))
        bench(f"lse{d}_{tag}", lambda: a.logsumexp(d))
        bench(f"cumsum{d}_{tag}", lambda: a.cumsum(d))
    bench(f"sumall_{tag}", lambda: a.sum())
    bench(f"meanall_{tag}", lambda: a.mean())
    bench(f"maxall_{tag}", lambda: a.max())
