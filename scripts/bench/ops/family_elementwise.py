"""The element-wise family beyond sweep.py, one line per op (`OP <name> <median ms>`):
float32 functions over 1000x1000 (inverse trigonometric and hyperbolic, logs and
powers of two, erf and its kin), activations and binary functions.
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
torch.manual_seed(0)
x = torch.randn(1000, 1000)
u = torch.rand(1000, 1000) * 1.8 - 0.9
p = torch.rand(1000, 1000) + 1.1
for nm in ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "log2", "log10", "exp2", "erfc", "erfinv", "digamma", "lgamma", "sigmoid", "logit", "sinc", "trunc", "frac", "square", "erf", "expm1", "log1p"]:
    f = getattr(torch, nm)
    src = p if nm in ["acosh", "log2", "log10"] else (u if nm in ["asin", "acos", "atanh", "erfinv"] else x)
    bench(nm, lambda f=f, src=src: f(src))
bench("softplus", lambda: F.softplus(x))
bench("elu", lambda: F.elu(x))
bench("selu", lambda: F.selu(x))
bench("celu", lambda: F.celu(x))
bench("mish", lambda: F.mish(x))
bench("hardswish", lambda: F.hardswish(x))
bench("hardsigmoid", lambda: F.hardsigmoid(x))
bench("logsigmoid", lambda: F.logsigmoid(x))
bench("softsign", lambda: F.softsign(x))
bench("tanhshrink", lambda: F.tanhshrink(x))
bench("gelu_tanh", lambda: F.gelu(x, approximate="tanh"))
bench("powf", lambda: p ** 1.7)
bench("pow_t", lambda: p ** x)
bench("atan2", lambda: torch.atan2(x, p))
bench("hypot", lambda: torch.hypot(x, p))
bench("addcmul", lambda: torch.addcmul(x, x, x, value=0.5))
bench("addcdiv", lambda: torch.addcdiv(x, x, p, value=0.5))
bench("xlogy", lambda: torch.xlogy(p, p))
bench("rem", lambda: torch.remainder(x, 0.7))
bench("fmod", lambda: torch.fmod(x, 0.7))
bench("floor_div", lambda: x // 0.7)
