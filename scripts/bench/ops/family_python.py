"""Pure-Python loops beside the scalar_loop row, one line per pattern (`OP <name>
<median ms>`): while, recursion (calls), list append / comprehension / indexing,
dict counting, a 5000-word vocabulary, set membership, float arithmetic,
branches, nested loops, string building (joined, `s += t`, `s = s + t`), scanning a string by index, sorting, `xs += [x]`, slices, `in d.keys()`, `in
range(...)`, string indexing, `math.sqrt` and user-method calls. Runs unchanged under tsh and python3; compare.py --script <this file> runs both (the
reference side is CPython itself)."""
import math
import time


def bench(name, f):
    f()
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    ts.sort()
    print(f"OP {name} {ts[2] * 1e3:.4f}")

def while_loop():
    i, s = 0, 0
    while i < 300000:
        s += i
        i += 1
    return s
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
def calls():
    return fib(20)
def list_append():
    xs = []
    for i in range(200000):
        xs.append(i * i)
    return len(xs)
def list_comp():
    return sum([i * 2 for i in range(200000)])
def dict_count():
    d = {}
    for i in range(100000):
        k = i % 100
        d[k] = d.get(k, 0) + 1
    return len(d)
def float_math():
    x = 0.0
    for i in range(200000):
        x = x * 0.5 + i / 3.0
    return x
def branchy():
    c = 0
    for i in range(200000):
        if i % 3 == 0 and i % 5 != 0:
            c += 1
        elif i % 7 == 0:
            c -= 1
    return c
def nested():
    s = 0
    for i in range(300):
        for j in range(300):
            s += i * j
    return s
def str_build():
    parts = []
    for i in range(50000):
        parts.append(str(i))
    return len("".join(parts))
def str_iadd():
    s = ""
    for i in range(50000):
        s += "ab"
    return len(s)
def str_concat():
    s = ""
    for i in range(20000):
        s = s + "ab"
    return len(s)
def str_scan():
    text = "hello world " * 5000
    i, n = 0, 0
    while i < len(text):
        if text[i] == "o":
            n += 1
        i += 1
    return n
def sort_mixed():
    xs = [(i * 7919) % 100003 / 7.0 for i in range(100000)]
    pairs = [(i % 100, str(i)) for i in range(30000)]
    return sorted(xs)[0], sorted(xs, reverse=True)[0], sorted(pairs)[-1]
def list_index():
    xs = list(range(1000))
    s = 0
    for r in range(100):
        for i in range(1000):
            s += xs[i]
    return s
def dict_vocab():
    words = [str(i % 5000) for i in range(50000)]
    idx = {}
    for w in words:
        if w not in idx:
            idx[w] = len(idx)
    return sum(idx[w] for w in words)
def set_seen():
    s = set()
    c = 0
    for i in range(50000):
        k = i * 7 % 10007
        if k not in s:
            s.add(k)
            c += 1
    return c
def list_iadd():
    xs = []
    for i in range(20000):
        xs += [i]
    return len(xs)
def slice_loop():
    xs = list(range(10000))
    s = 0
    for i in range(2000):
        s += len(xs[i:i + 10])
    return s
def keys_in():
    d = {i: i for i in range(2000)}
    return sum(1 for i in range(10000) if i in d.keys())
def in_range():
    return sum(1 for i in range(50000) if i in range(0, 10**9, 3))
def str_index():
    s = "abcdefgh" * 1000
    return sum(1 for i in range(len(s)) if s[i] == "a")
def math_calls():
    s = 0.0
    for i in range(100000):
        s += math.sqrt(i)
    return s
class P:
    def __init__(self, x):
        self.x = x
    def get(self):
        return self.x
def method_calls():
    p = P(1)
    s = 0
    for i in range(50000):
        s += p.get()
    return s
for n, f in [("while_loop", while_loop), ("fib20", calls), ("list_append", list_append), ("list_comp", list_comp),
             ("dict_count", dict_count), ("float_math", float_math), ("branchy", branchy), ("nested", nested),
             ("str_build", str_build), ("str_iadd", str_iadd), ("str_concat", str_concat), ("str_scan", str_scan), ("sort_mixed", sort_mixed), ("list_index", list_index), ("dict_vocab", dict_vocab),
             ("set_seen", set_seen), ("list_iadd", list_iadd), ("slice_loop", slice_loop), ("keys_in", keys_in),
             ("in_range", in_range), ("str_index", str_index), ("math_calls", math_calls),
             ("method_calls", method_calls)]:
    bench(n, f)
