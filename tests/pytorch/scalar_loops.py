# Python's numbers in loops: the interpreter's scalar fast path gives what
# CPython gives, names resolve as Python resolves them, and errors still raise.
import math

def total(n):
    s = 0
    for i in range(n):
        s += i * 2
    return s

print(total(10), total(0), total(1000))

def mixed(n):
    acc = 0.5
    flag = True
    k = -3
    for i in range(1, n, 3):
        acc += i / 4
        acc -= k * 0.25
        k = -k
        flag ^= True
        acc *= 1.0001
    return acc, flag, k

print(mixed(20))

def floors(n):
    out = []
    for i in range(-n, n):
        out.append((i // 3, i % 3, -i, i ** 2, i << 1, i >> 1, i & 5, i | 2))
    return out

print(floors(4))

# Names: a global read inside a function, a global rebound by `global`,
# a closure's variable, a local that shadows a builtin, del then rebind.
scale = 3
count = 0

def bump(n):
    global count
    for i in range(n):
        count += scale
    return count

print(bump(4), count)

def outer():
    base = 10
    def inner(x):
        y = x + base
        y *= 2
        return y
    return [inner(i) for i in range(3)]

print(outer())

def shadow():
    len = 5
    len += 1
    return len

print(shadow(), len([1, 2]))

def rebind():
    a = 1
    b = 2
    a += b
    del a
    c = 7
    a = 10
    a += c
    return a, b, c

print(rebind())

# while loops and conditions on numbers
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps

print(collatz(27), collatz(1))

def countdown(n):
    seen = 0
    while n:
        n -= 1
        seen += 1
    return seen

print(countdown(5), countdown(0))

# comparisons: mixed kinds and NaN
nan = float("nan")
x = 2
print(x < 2.5, x == 2.0, True < 2, 1 <= True, nan < 1, nan > 1, nan == nan, nan != nan)
if nan < 1:
    print("nan < 1")
else:
    print("not nan < 1")
if nan >= 1 or 3 > 2:
    print("or")

# loop variables keep their last value; break and continue
def last(n):
    for i in range(n):
        if i == 5:
            break
        if i % 2:
            continue
    return i

print(last(10), last(3))

# errors still raise as Python's, with the loop's variables intact
def divide(n):
    s = 0
    for i in range(n, -1, -1):
        s += 10 // i
    return s

try:
    divide(3)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)

try:
    y = 1.0
    y /= 0
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)

z = 5
z -= 1.5
z *= True
z **= 2
print(z, -z, +z)
w = 7
w %= -3
print(w, 7 // -2, -7 % 3, 7.5 // 2, -7.5 % 2)
print(math.isclose(total(100) * 0.5, 4950.0))
