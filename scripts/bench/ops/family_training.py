"""The training-loop family, one line per op (`OP <name> <median ms>`): optimizer
steps (SGD, SGD with momentum, Adam, AdamW, RMSprop) over an MLP's parameters,
in-place arithmetic (add_, mul_, +=, addcmul_, lerp_), zero_grad and clip_grad_norm_.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
import torch.nn as nn
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
model = nn.Sequential(nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
for p in model.parameters():
    p.grad = torch.randn_like(p)
for name, opt in [("sgd_step", torch.optim.SGD(model.parameters(), lr=1e-3)),
                  ("sgd_momentum_step", torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)),
                  ("adam_step", torch.optim.Adam(model.parameters(), lr=1e-6)),
                  ("adamw_step", torch.optim.AdamW(model.parameters(), lr=1e-6)),
                  ("rmsprop_step", torch.optim.RMSprop(model.parameters(), lr=1e-6))]:
    bench(name, opt.step)
def zero_and_fill():
    model.zero_grad()
    for p in model.parameters():
        p.grad = torch.ones_like(p)
bench("zero_grad_refill", zero_and_fill)
bench("clip_grad_norm", lambda: nn.utils.clip_grad_norm_(model.parameters(), 1e9))
a = torch.randn(1000, 1000)
b = torch.randn(1000, 1000)
def iadd():
    global a
    a += b
bench("add_", lambda: a.add_(b))
bench("add_alpha_", lambda: a.add_(b, alpha=0.5))
bench("iadd", iadd)
bench("mul_scalar_", lambda: a.mul_(1.0))
bench("mul_", lambda: a.mul_(b.sign()))
bench("addcmul_", lambda: a.addcmul_(b, b, value=0.0))
bench("lerp", lambda: a.lerp(b, 0.0))
bench("add_row_", lambda: a.add_(b[0]))
bench("copy_", lambda: a.copy_(b))
bench("zero_", lambda: a.zero_())
bench("fill_", lambda: a.fill_(1.0))
