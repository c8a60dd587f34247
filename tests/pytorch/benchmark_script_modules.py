# What benchmark and training scripts use around their work: os, os.path,
# the time module's clocks, timeit with globals=, @property, and
# torch.utils.benchmark's Timer and Measurement (deterministic parts only).
import os
import os.path
import time
import timeit

import torch
import torch.utils.benchmark as benchmark
from torch.utils.benchmark import Measurement, Timer


class Box:
    def __init__(self, side):
        self._side = side

    @property
    def area(self):
        return self._side * self._side

    @property
    def side(self):
        return self._side

    @side.setter
    def side(self, value):
        self._side = max(0, value)


b = Box(3)
print(b.area, b.side)
b.side = 5
print(b.area, b.side)
b.side = -2
print(b.area)
try:
    b.area = 1
except AttributeError as e:
    print("AttributeError:", e)

print(os.path.join("runs", "exp1", "model.pt"), os.path.join("a/", "b"), os.path.join("a", "/abs", "c"))
print(os.path.basename("runs/exp1/model.pt"), os.path.dirname("runs/exp1/model.pt"), os.path.dirname("/model.pt"))
print(os.path.splitext("runs/model.tar.gz"), os.path.splitext(".bashrc"), os.path.splitext("noext"))
print(os.path.exists("/"), os.path.isdir("/"), os.path.isfile("/"), os.path.exists("/no/such/path"))
print(os.path.abspath("/tmp/../tmp/./x"))
print(os.sep, os.name, os.getenv("TSH_TEST_UNSET_VARIABLE"), os.getenv("TSH_TEST_UNSET_VARIABLE", "fallback"))
os.environ["TSH_TEST_SET_VARIABLE"] = "4"
print(os.environ["TSH_TEST_SET_VARIABLE"], os.environ.get("TSH_TEST_UNSET_VARIABLE", "none"))
print(os.cpu_count() >= 1, os.getpid() > 0, len(os.getcwd()) > 0)

print(type(time.perf_counter_ns()).__name__, type(time.time_ns()).__name__, type(time.monotonic_ns()).__name__)
print(time.process_time() >= 0, time.process_time_ns() >= 0)

x = torch.arange(6.0).reshape(2, 3)
print(timeit.timeit("y = x * 2", setup="k = 3", number=5, globals={"x": x}) >= 0)
print(len(timeit.repeat("x.sum()", number=2, repeat=3, globals={"x": x})))

t = Timer("x @ x.T", globals={"x": x}, label="matmul", sub_label="2x3", description="small")
m = t.timeit(10)
print(type(m).__name__, m.number_per_run, len(m.raw_times), len(m.times), m.mean > 0, m.median > 0)
print(m.title, "|", m.task_spec.summarize().replace("\n", "/"))
lines = repr(m).split("\n")
print(lines[0].startswith("<torch.utils.benchmark.utils.common.Measurement object at 0x"))
print(lines[1:3], lines[-1])
m = benchmark.Timer("y = x + 1\ny.sum()", globals={"x": x}).blocked_autorange(min_run_time=0.02)
print(m.number_per_run >= 1, len(m.times) >= 1, m.iqr >= 0)
print(repr(m).split("\n")[1:4])

spec = m.task_spec
fixed = Measurement(100, [1e-3, 2e-3, 1.5e-3, 1.1e-3, 5e-3], spec)
print(repr(fixed).split("\n")[1:])
print(fixed.median, fixed.mean, fixed.iqr, fixed.significant_figures, fixed.has_warnings)
print(fixed.meets_confidence(0.1), fixed.times)
even = Measurement(1, [2.5e-6, 2.6e-6, 2.55e-6, 2.52e-6], Timer("pass").blocked_autorange(min_run_time=0.001).task_spec)
print(repr(even).split("\n")[1:])
print(even.significant_figures, even.has_warnings)
one = Measurement(3, [0.75], spec)
print(repr(one).split("\n")[1:])
