# `fn` is an ordinary name in Python (tsh's own `fn f() {}` still defines a
# function), and benchmark preambles set the thread count.
import torch

def bench(name, fn, n=3):
    return [fn(name) for _ in range(n)]

print(bench(2, lambda v: v * 10))
fn = abs
print(fn(-4), [fn(v) for v in (-1, 2)])
torch.set_num_threads(torch.get_num_threads())
print(torch.get_num_threads() >= 1, torch.get_num_interop_threads() >= 1)
try:
    torch.set_num_threads(0)
except RuntimeError as e:
    print("RuntimeError")
except ValueError as e:
    print("ValueError")
