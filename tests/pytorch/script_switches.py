# The switches benchmark and training scripts flip first, and Python's exec
# and eval: each accepted, read back as PyTorch reads it back.
import torch
import torch.nn as nn

print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("high")
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision("highest")
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True)
print(torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False, warn_only=True)
torch.autograd.set_detect_anomaly(False)
print(torch.backends.cpu.get_cpu_capability() in ("AVX512", "AVX2", "DEFAULT"))

torch.manual_seed(0)
model = nn.Linear(3, 2)
fast = torch.compile(model)
x = torch.randn(4, 3)
print(torch.equal(fast(x), model(x)))
print(torch.equal(torch.compile(model, mode="max-autotune", fullgraph=True)(x), model(x)))


@torch.compile
def f(t):
    return t * 2 + 1


@torch.compile(mode="reduce-overhead")
def g(t):
    return t.sum()


print(f(torch.tensor([1.0, 2.0])), g(torch.tensor([1.0, 2.0])))
print(torch.equal(torch.jit.script(model)(x), model(x)))
print(torch.equal(torch.jit.trace(model, x)(x), model(x)))

exec("y = 6 * 7")
print(y)
scope = {"k": 3}
exec("z = k * 2\nw = z + 1", scope)
print(scope["z"], scope["w"])
print(eval("2 ** 10"), eval("k + 1", {"k": 41}), eval(" x.shape "))
try:
    eval("q = 1")
except SyntaxError:
    print("SyntaxError")
