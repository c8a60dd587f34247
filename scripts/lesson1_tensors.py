# Lesson 1 in Python's syntax: tensors, dtypes, shapes, views, broadcasting.
# The same lesson as lesson1_tensors.tsh, written as PyTorch code: it runs in tsh
# (tsh scripts/lesson1_tensors.py) and in Python with PyTorch, and prints the same.
import torch

# A tensor from nested lists. Integers give int64, floats give float32.
t = torch.tensor([[1, 2, 3], [4, 5, 6]])
print(t)
print(t.shape, t.dtype, t.device)

f = torch.tensor([[1., 2.], [3., 4.]])
print(f.dtype)

# dtypes convert explicitly.
print(t.float() / 2)
print((t / 2).dtype)          # true division always gives a float

# Shapes: reshape, transpose, add an axis.
print(t.reshape(3, 2))
print(t.T.shape)
print(t[:, None].shape)

# Views share storage: writing through one shows in the other.
v = t.T
t[0, 0] = 100
print(v[0, 0].item())
print(v.is_contiguous(), v.stride(), t.stride())

# Broadcasting: shapes line up from the right; dims of size 1 stretch.
col = torch.arange(3).reshape(3, 1)
row = torch.arange(4)
print((col + row).shape)
print(col * 10 + row)

# The classic mistake: (n,) + (n, 1) silently makes (n, n).
a = torch.arange(3.)
print((a + a.reshape(3, 1)).shape)

# Reductions over a dim.
print(t.sum(dim=0), t.float().mean(dim=1))

# Python's blocks: a loop over rows, a function, and a check.
def describe(x):
    kind = "float" if x.dtype.is_floating_point else "integer"
    return f"{tuple(x.shape)} {kind} tensor, {x.numel()} elements"

for i, r in enumerate(t):
    print(f"row {i}: sum={r.sum().item():>4d}  max={r.max().item()}")
print(describe(t), "|", describe(f))
squares = [k ** 2 for k in range(5)]
print(torch.tensor(squares, dtype=torch.float64))
