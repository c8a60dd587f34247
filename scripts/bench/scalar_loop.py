"""a pure-Python scalar loop (no tensors): the interpreter's own speed

Runs unchanged under python3 and tsh; prints `BENCH <name> <median ms>`."""
import time

import torch

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


def step():
    s = 0
    for i in range(10**6):
        s += i * 2
    return s


bench("scalar_loop", step, batches=5, warmup=1)
