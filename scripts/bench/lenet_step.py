"""LeNet-5 training step on MNIST-sized input, batch 64: conv 1→6 5×5 pad 2, relu, pool, conv 6→16 5×5, relu, pool, three linears, cross_entropy, backward, SGD with momentum

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
model = nn.Sequential(
    nn.Conv2d(1, 6, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
    nn.Linear(16 * 5 * 5, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
x = torch.randn(64, 1, 28, 28)
y = torch.randint(0, 10, (64,))


def step():
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()


bench("lenet_step", step)
