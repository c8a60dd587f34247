"""PyTorch's times for the rows of benches/engine.rs (same statements, same
repeats, median after a warm-up), with as many threads as tsh uses (all cores)."""
import re
import time

import torch
import torch.nn.functional as F
from torch import optim

SRC = open(__file__.replace("scripts/bench_engine.py", "benches/engine.rs")).read()
ROWS = re.findall(r'\(\s*"([^"]+)",\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)",\s*(\d+),?\s*\)', SRC, re.S)


def tsh_to_python(code):
    code = code.replace("true", "True").replace("false", "False")
    code = re.sub(r"\b(randn|zeros|randint|manual_seed)\(", r"torch.\1(", code)
    code = code.replace("SGD(", "optim.SGD(")
    return code


def main():
    for name, setup, step, reps in ROWS:
        env = {"torch": torch, "F": F, "optim": optim}
        exec(tsh_to_python(setup), env)
        stmt = tsh_to_python(step)
        exec(stmt, env)
        times = []
        for _ in range(int(reps)):
            t = time.perf_counter()
            exec(stmt, env)
            times.append(time.perf_counter() - t)
        times.sort()
        print(f"{name}: {times[len(times) // 2] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
