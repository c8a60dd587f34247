# The modules benchmark scripts import around their loops: timeit (a callable
# or a statement with globals=globals()), statistics over the times, and gc
# switched off while timing. The times themselves vary; what they are is checked.
import gc
import random
import statistics
import timeit

import torch

a = torch.ones(64, 64)
gc.collect()
gc.disable()
print(gc.isenabled())
t = timeit.timeit(lambda: a @ a, number=20)
print(type(t).__name__, t >= 0)
times = timeit.repeat("b = a + a", repeat=3, number=5, globals=globals())
print(len(times), all(x >= 0 for x in times))
gc.enable()
print(gc.isenabled())
t0 = timeit.default_timer()
print(timeit.default_timer() >= t0)

random.seed(1)
for n in (2, 3, 5, 10, 100):
    for scale in (1.0, 1e-3, 1e6):
        d = [random.random() * scale + 10 * scale for _ in range(n)]
        print(statistics.mean(d), statistics.fmean(d), statistics.median(d))
        print(statistics.stdev(d), statistics.pstdev(d), statistics.variance(d))
print(statistics.mean([0.1, 0.2, 0.3]), statistics.mean([1, 2, 3]), statistics.mean([1, 2, 4]))
print(statistics.median([3, 1, 4, 1]), statistics.median([3, 1, 2]), statistics.median((5,)))
print(statistics.stdev([1.0, 2.0, 4.0]), statistics.variance([1, 2, 4]), statistics.pstdev([7]))
