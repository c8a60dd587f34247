"""MLP 784→128→10 training step with Adam, batch 64: forward, cross_entropy, backward, Adam

Runs unchanged under python3 and tsh; prints `BENCH <name> <median ms>`."""
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(2)


def bench(name, step, budget=1.0, batches=7, warmup=3):
    # Warm up, then time `batches` batches of about budget/batches seconds each and
    # print the median time of one call. The clock is read every `chunk` calls (about
    # 2 ms of work), so a call that turns slow midway cannot stretch a batch far.
    for _ in range(warmup):
        step()
    t0 = time.perf_counter()
    step()
    one = max(time.perf_counter() - t0, 1e-7)
    chunk = max(1, min(10000, int(0.002 / one)))
    start = time.perf_counter()
    times = []
    while len(times) < batches:
        n = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(chunk):
                step()
            n += chunk
            elapsed = time.perf_counter() - t0
            if elapsed >= budget / batches:
                break
        times.append(elapsed / n)
        if len(times) >= 3 and time.perf_counter() - start > 2 * budget:
            break
    times.sort()
    print(f"BENCH {name} {times[len(times) // 2] * 1e3:.6f}")


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
x = torch.randn(64, 784)
y = torch.randint(0, 10, (64,))


def step():
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()


bench("mlp_adam_step", step)
