import torch
import itertools
m = map(lambda v: v * 2, itertools.count())
print(next(m), next(m), list(itertools.islice(m, 3)))
print(list(map(lambda a, b: a + b, [1, 2, 3], [10, 20])), list(filter(None, [0, 1, 2, 0, 3])))
ev = filter(lambda x: x % 2 == 0, itertools.count(1))
print([next(ev) for _ in range(3)])
print(sum(map(len, ["ab", "c"])), sorted(map(abs, [-3, 1, -2])), tuple(map(str, range(3))))
for x in map(lambda s: s.upper(), "ab"):
    print(x)
print(dict(zip("ab", map(int, ["1", "2"]))))
