# Python as tutorials write it: lazy generators (infinite ones, yield from,
# generator expressions, prints interleaved with the consumer's) and super(Class, self).
import torch
def count(start=0):
    i = start
    while True:
        yield i
        i += 1

def gen():
    print("start")
    yield 1
    print("middle")
    yield 2
    print("end")

for x in gen():
    print("got", x)

g = count(5)
print(next(g), next(g), next(g))
for i in count():
    if i > 3:
        break
    print(i)

def nested(n):
    if n == 0:
        return
    yield n
    yield from nested(n - 1)
print(list(nested(5)))

def fib():
    a, b = 0, 1
    while True:
        yield a
        a, b = b, a + b
f = fib()
print([next(f) for _ in range(10)])

def batches(x, n):
    for i in range(0, len(x), n):
        yield x[i:i+n]
for b in batches(torch.arange(10), 4):
    print(b)
class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.fc = torch.nn.Linear(2, 3)
    def forward(self, x):
        return self.fc(x)
class Deeper(Net):
    def __init__(self):
        super(Deeper, self).__init__()
        self.out = torch.nn.Linear(3, 1)
    def forward(self, x):
        return self.out(super(Deeper, self).forward(x))
torch.manual_seed(0)
m = Deeper()
print(m)
print(m(torch.ones(1, 2)))
g = gen()
print(next(g))
print(sum(x for x in range(5)))
def squares(n):
    for i in range(n):
        yield i * i
print(sum(squares(4)), max(squares(5)), sorted(squares(3), reverse=True))
z = zip(squares(3), "abc")
print(list(z))
for i, s in enumerate(squares(3)):
    print(i, s)
def g2():
    x = 3
    yield x
    return 7
print(list(g2()))
it = squares(2)
print(next(it), next(it), next(it, "done"))
class Bag:
    def __init__(self, xs):
        self.xs = xs
    def __iter__(self):
        for x in self.xs:
            yield x * 10
b = Bag([1, 2, 3])
print(list(b))
for v in b:
    print(v)
def deep(n):
    return 0 if n == 0 else 1 + deep(n - 1)
def g():
    yield deep(150)
print(list(g()))
def bad():
    yield 1
    raise ValueError("boom")
try:
    for x in bad():
        print(x)
except ValueError as e:
    print("caught", e)
def inner():
    yield 1
    yield 2
def outer():
    a = inner()
    yield next(a) + 100
    yield next(a) + 100
print(list(outer()))
gens = [inner() for _ in range(1000)]
print(sum(next(x) for x in gens))
def forever():
    while True:
        yield 1
for i in range(3):
    f = forever()
    next(f)
del f
print("ok")
def pairs():
    for i in range(3):
        for j in range(2):
            yield (i, j)
print(list(pairs()))
t = (x * 2 for x in range(4))
print(next(t), list(t))
def count():
    i = 0
    while True:
        yield i
        i += 1
def rec(n):
    if n > 0:
        yield n
        yield from rec(n - 1)
print(sum(rec(150)))


# keyword-only parameters
def f(a, *, key=1):
    return a, key
def g(*args, k=2, **kw):
    return args, k, kw
def h(a, b=0, *rest, c, d=4):
    return a, b, rest, c, d
print(f(1), f(1, key=3), g(1, 2), g(1, k=5, z=6), h(1, 2, 3, c=9))
try:
    f(1, 2)
except TypeError as e:
    print("TypeError", e)

# str.splitlines
s = "a\nbb\n\nc"
print(s.splitlines(), s.splitlines(keepends=True), "x".splitlines(), "".splitlines())

# nonlocal writes to the enclosing function's variable (a counter closure),
# global to the module's; a loop's numbers updated in place keep Python's values.
def counter():
    count = 0
    def inc(by=1):
        nonlocal count
        count += by
        return count
    inc(); inc(5)
    def outer_reader():
        return count * 10
    return count, outer_reader()
print(counter())
def make_acc():
    total = 0.5
    def outer():
        def add(v):
            nonlocal total
            total = total + v
            return total
        return add
    a = outer()
    a(1); a(2)
    return total
print(make_acc())
hits = 1
def bump():
    global hits
    for i in range(4):
        hits += i
    return hits
print(bump(), hits)
def loop_sums():
    s, f = 0, 1.0
    for i in range(10):
        s += i * 2
        f *= 1.5
    flag = True
    flag += 1
    return s, f, i, flag
print(loop_sums())

# Indexing a sequence reads one item (a loop over xs[i] stays linear): lists,
# tuples, ranges (a huge one too), strings, negative indices and the IndexError.
xs = list(range(1000))
s = 0
for r in range(3):
    for i in range(len(xs)):
        s += xs[i] - xs[-1 - i]
print(s, xs[-1], (4, 5)[1], range(10, 20, 3)[2], range(10**12)[5], "héllo"[1], "abc"[-1])
for seq in ([1, 2, 3], (1, 2), range(2), "ab"):
    try:
        seq[len(seq)]
    except IndexError:
        print("IndexError", type(seq).__name__)

# Dict keys compare as == does: int and str keys in line, True and 1.0 find 1.
d = {1: 'a', 'k': 2, (1, 2): 3, 2.5: 'f'}
print(d[True], d[1.0], d['k'], d[(1, 2)], d[2.5], d.get(3, 'none'))
d[True] = 'b'
d['k'] += 1
del d[2.5]
print(d, len(d))
counts = {}
for i in range(1000):
    counts[i % 7] = counts.get(i % 7, 0) + 1
for w in "the cat the hat the end".split():
    counts[w] = counts.get(w, 0) + 1
print(counts)

# Dicts and sets are hash tables: thousands of keys stay fast, and equal values
# (1, 1.0, True, a complex with no imaginary part) are one key. Insertion
# order survives deletes and re-inserts; tuple keys hash by their items.
vocab = {}
for w in [str(i % 3000) for i in range(20000)]:
    if w not in vocab:
        vocab[w] = len(vocab)
print(len(vocab), vocab['2999'], '3000' in vocab, sum(vocab[str(i)] for i in range(0, 3000, 7)))
grid = {(i, j): i * j for i in range(60) for j in range(60)}
print(len(grid), grid[(7, 9)], grid[59, 59], (60, 0) in grid)
del grid[(0, 0)]
grid[(0, 0)] = -1
print(list(grid.items())[-1], list(grid)[0], grid.pop((1, 1)), len(grid))
keys = {1: 'int', 2.5: 'float', (1, 2): 'tuple', None: 'none', 'x': 'str'}
keys[1.0] = 'float one'
keys[complex(2.5, 0)] = 'complex'
print(keys, keys[True], keys.setdefault(3, 'new'), keys.popitem(), len(keys))
seen = set()
dups = 0
for i in range(20000):
    k = i * 7 % 5003
    if k in seen:
        dups += 1
    seen.add(k)
print(len(seen), dups, 5002 in seen, 5003 in seen)
a, b = set(range(0, 3000, 2)), set(range(0, 3000, 3))
print(len(a | b), len(a & b), len(a - b), len(a ^ b), sorted(a & b)[:5], a >= (a & b))
small = {3, 1.0, True, 2, (1, 2)}
small.discard(2)
small.add(2.0)
print(len(small), sorted(x for x in small if x != (1, 2)), 1 in small, (1, 2) in small, 2 in small)
print(2 in [1, 2], (1, 2) in [(1, 2)], 'b' in ('a', 'b'), 3 in (1, 2))

# In-place operators change the object itself (every name for it sees it), and
# a loop of them stays linear; slices read only the items they pick; `in` a
# range is arithmetic (a huge range is never listed); ASCII and other strings
# index by character.
xs = [1]
alias = xs
xs += (2, 3)
xs += [4]
xs *= 2
for i in range(20000):
    xs += [i]
print(alias[:10], len(alias), alias is xs)
s = {1, 2}
alias_s = s
s |= {3}
s -= {1}
s ^= {2, 9}
s &= {3, 9, 10}
print(sorted(alias_s))
try:
    xs += 5
except TypeError:
    print("TypeError")
big = list(range(10000))
print(sum(len(big[i:i + 10]) for i in range(0, 10000, 7)), big[-3:], big[::2500], big[9998:2:-4000], big[5:1])
print(range(10**12)[10**12 - 3:], range(10)[::3], range(20, 1, -2)[1:-2:2], range(5)[9:], 10**11 in range(0, 10**12, 2), 7 in range(0, 100, 2), 3.0 in range(5), -1 in range(5))
huge = range(-4 * 10**18, 4 * 10**18)
print(huge[1:5], huge[-2:], huge[::3 * 10**18], 0 in huge, huge[10**18], huge[-1])
huger = range(-9 * 10**18, 9 * 10**18)
print(0 in huger, huger[10**18])
print(5 in range(10, 0, -1), 10 in range(10, 0, -1), 0 in range(10, 0, -1), True in range(2), 'a' in range(3))
word = "ab" * 500 + "é"
print(word[3], word[-1], word[999], sum(1 for i in range(len(word)) if word[i] == "a"), word[995:1001])

# Dict views: live (they see later inserts), printed as Python prints them,
# `in` a keys view is a hash lookup; a keys view equals a set of its keys.
d = {'a': 1, 'b': 2}
k, v, it = d.keys(), d.values(), d.items()
print(k, v, it, len(k), bool(d.keys()), bool({}.values()))
d['c'] = 3
print(k, list(v), sorted(it), type(k).__name__, type(it).__name__)
print('a' in k, 'z' in k, 2 in v, 9 in v, ('b', 2) in it, ('b', 3) in it, 'b' in it)
print(set(k) == {'a', 'b', 'c'}, tuple(v), sum(v), max(k), min(v), any(v), all(k))
for i, key in enumerate(d.keys()):
    print(i, key, d[key])
for key, val in d.items():
    print(key, val)
print([x * 2 for x in d.values()], dict(zip(d.keys(), d.values())), list(zip(k, v)))
od = torch.nn.Linear(2, 1).state_dict()
print(od.keys(), len(od.values()), [k for k, _ in od.items()])
e = {}
print(e.keys(), e.values(), e.items())
big = {i: i for i in range(5000)}
print(sum(1 for i in range(20000) if i in big.keys()))
ks = sorted(d.keys(), reverse=True)
print(ks, list(reversed(list(d.keys()))), sorted(d.items(), key=lambda kv: -kv[1]))
print(d.keys() == {'a', 'b', 'c'}, d.keys() == d.keys(), str(d.keys()), repr(d.values()))

# A call's scope is reused by later calls only when nothing kept it: closures
# made in a call keep their variables through any number of calls after, and a
# call that raised leaves nothing behind.
def make_adder(k):
    return lambda x: x + k
adders = [make_adder(i) for i in range(5)]
def product(a, b):
    return a * b
def fails(n):
    scratch = n * 2
    raise ValueError(scratch)
noise = 0
for i in range(200):
    noise += product(i, 3)
    try:
        fails(i)
    except ValueError:
        pass
def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump
c1, c2 = counter(), counter()
print([f(10) for f in adders], noise, c1(), c1(), c2(), c1(), sum(product(i, i) for i in range(10)))

# Methods called straight from the class (no bound method made) keep Python's
# rules: an instance attribute shadows a method, static and class methods and
# properties bind as before, super() finds the base, and a method replaced on
# the class is the one called.
class Base:
    def hello(self, n=1):
        return "base" * n
    @staticmethod
    def twice(x):
        return 2 * x
    @classmethod
    def make(cls):
        return cls.__name__
    @property
    def size(self):
        return 7
class Child(Base):
    def hello(self, n=1):
        return "child+" + super().hello(n)
    def shout(self, *args, **kw):
        return (args, sorted(kw.items()))
c = Child()
print(c.hello(), c.hello(n=2), c.twice(4), c.make(), c.size, c.shout(1, 2, k=3))
c.hello = lambda: "shadowed"
print(c.hello(), Child().hello())
Base.hello = lambda self, n=1: "patched" * n
print(Base().hello(2), Child().hello())

# Set methods over sets and other iterables.
s = {1, 2, 3}
print(s.issubset([1, 2, 3, 4]), s.issuperset({1}), s.isdisjoint((7, 8)), s.issubset(s))
print(sorted(s.union([4], {5})), sorted(s.intersection({2, 3}, [3])), sorted(s.difference({1})), sorted(s.symmetric_difference({3, 9})))
s.update([20, 21], {22})
print(len(s), 4.0 in range(5), 4.5 in range(5), d.keys() == set(d))

# Building a string with `+=` grows it in place only where nothing else sees it.
s = ""
for i in range(3000):
    s += "ab" if i % 2 else str(i % 10)
print(len(s), s[:12], s[-6:])
alias = s
s += "!"
print(len(alias), len(s), alias[-1], s[-1], alias == s[:-1])
words = {"k": "x"}
kept = words["k"]
words["k"] += "y"
print(kept, words["k"])
def build(n):
    out, seen = "", []
    for j in range(n):
        out += chr(97 + j % 26)
        if j % 10 == 0:
            seen.append(out)
    return out, seen
text, seen = build(40)
print(text, [len(x) for x in seen], seen[1])
def counter():
    log = "<"
    def add(x):
        nonlocal log
        log += x
        return log
    return add
add = counter()
add("a")
print(add("b"), add("c"))
g = "G"
def extend():
    global g
    g += "h"
extend()
extend()
print(g)
t = "t"
t += "u" + t
u = t
u += "v"
print(t, u)

# `s = s + t` is `s += t` for strings, and plain `+` for everything else.
s = "x"
before = s
for i in range(2000):
    s = s + "yz"
print(len(s), len(before), s[:5], s[-3:])
class Tail:
    def __radd__(self, other):
        return other + "<tail>"
s = s[:3]
s = s + Tail()
print(s)
xs = [1]
ys = xs
xs = xs + [2]
print(xs, ys)
n = 5
n = n + 1.5
print(n)
try:
    s = s + 5
except TypeError as e:
    print("TypeError", s)

# Scanning a string by index, its length asked each time, and slicing it.
text = "hello world, " * 300 + "é!"
i, count, pieces = 0, 0, []
while i < len(text):
    if text[i] == "o":
        count += 1
    if i % 997 == 0:
        pieces.append(text[i:i + 6])
    i += 1
print(count, len(text), pieces, text[-3:], text[::-700], text[-1], len("日本語"), "日本語"[1], "日本語"[::-1])
print(sum(1 for c in text if c == "l"), [c for c in "aé b"], "abc"[1:], "abc"[5:], "abc"[-2])

# Sorting numbers, strings, tuples and lists directly; anything else as values.
nums = [3, 1.5, True, -2, 0, 2.0, 2, False, 10**12, -0.5]
print(sorted(nums), sorted(nums, reverse=True))
words = ["pear", "Apple", "apple", "éclair", "zeta", "", "a", "ab"]
print(sorted(words), sorted(words, key=len), sorted(words, key=len, reverse=True))
pairs = [(2, "b"), (1, "z"), (2, "a"), (1,), (1, "a", 0), (0, 5.5)]
print(sorted(pairs), sorted(pairs, reverse=True), max(pairs), min(pairs))
grid = [[2, 1], [1, 9], [1], [], [2, 0, 0]]
grid.sort()
print(grid, sorted([(1, [2, 3]), (1, [2]), (0, [9])]))
ranked = sorted(range(20), key=lambda i: i % 3)
print(ranked, sorted(range(10), key=lambda i: -(i // 4), reverse=True))
try:
    sorted([(1, "a"), (1, 2)])
except TypeError as e:
    print("TypeError")
try:
    sorted([1, "a"])
except TypeError as e:
    print("TypeError")

# Builtin methods reached as attributes take their receiver first.
s = {3, 1}
s.add(2)
s.discard(3)
s.update([7], (8,))
print(sorted(s), s.union({9}) >= s, (3 + 4j).conjugate())
add = s.add
add(40)
print(sorted(s), sum([0.5] * 1000), sum([1, 2, 3], 10), sum([[1], [2]], []), sum((True, 2.5)))
selfish = [1]
selfish.append(selfish)
print(len(sorted([selfish, selfish])), sorted([[1, [2]], [1, [1, 5]], [0, [[[[[[[[[[9]]]]]]]]]]]]))
def rebinds():
    global g2
    g2 = "new"
    return "+tail"
g2 = "old"
g2 += rebinds()
print(g2)
g2 = "old"
g2 = g2 + rebinds()
print(g2)

# Generators made and dropped by the thousand (their stacks are reused): run
# to the end, left suspended, never started, many alive at once, nested.
def counted(n):
    for i in range(n):
        yield i * i
pairs = [tuple(t * 2 for t in (i, i + 1)) for i in range(3000)]
print(pairs[0], pairs[-1], len(pairs))
half_done = []
for i in range(50):
    g = counted(10)
    half_done.append(next(g) + next(g))
print(sum(half_done), [counted(3) is None for _ in range(3)])
alive = [counted(k) for k in range(20)]
print([sum(g) for g in alive][-3:], sum(sum(x for x in range(k)) for k in range(100)))
def deep(n):
    return 0 if n == 0 else deep(n - 1) + 1
def via_gen(n):
    yield deep(n)
print([next(via_gen(150)) for _ in range(3)], list(via_gen(5)))
def fails():
    yield 1
    raise KeyError("gen")
for _ in range(3):
    try:
        list(fails())
    except KeyError:
        print("caught")
print(next(x for x in range(10) if x > 4), any(x > 3 for x in range(100)), max(x % 7 for x in range(50)))
