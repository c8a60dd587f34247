import torch
s = {5, 3, 100, 17, 8, 1, 2, 33, 64, 9, 10, 11, -1, -5}
print(s)
print(set(range(20, 0, -1)), {x % 7 for x in range(30)}, set(), {True, 2})
t = {1, 2}
t.update([3, 40], {7})
t.discard(9); t.remove(40)
print(t, t.pop(), t, t.union({100}), {1,2} < {1,2,3}, {1,2} == {2,1}, t.issubset({3, 40, 7, 8}))
print(sorted({"b", "a"}), len({"x", "y", "x"}))
s = {1, 2, 3}
s.add(4)
print(s, len(s), 2 in s, sorted(s))
t = set([3, 1, 3])
print(t, t | {5}, t & {1}, t - {1})
try:
    raise ValueError("bad value")
except ValueError as e:
    print(type(e).__name__, e, e.args, repr(e))
try:
    torch.ones(2) + torch.ones(3)
except RuntimeError as e:
    print("caught", type(e).__name__)
class A:
    pass
a = A()
print(a.__class__.__name__, type(a).__name__)
print({k: v for k, v in zip("ab", [1, 2])}, sorted(frozenset([2, 1])))
x = torch.ones(2)
print(x.__class__.__name__)
