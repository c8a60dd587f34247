# bincount: counts and weights (float32 stays, others become float64), minlength,
# empty input, other integer dtypes, and what it refuses.
import torch
x = torch.tensor([0, 1, 1, 3, 2, 1, 7])
print(torch.bincount(x), torch.bincount(x, minlength=10), torch.bincount(x[:0]), torch.bincount(x[:0], minlength=3))
w = torch.tensor([0.5, 1., 2., 3., 4., 5., 6.])
print(torch.bincount(x, weights=w), torch.bincount(x, weights=w.double()), torch.bincount(x, w.half()))
print(torch.bincount(x.int()), torch.bincount(torch.tensor([2], dtype=torch.uint8)), x.bincount())
for bad in [lambda: torch.bincount(torch.tensor([-1, 2])), lambda: torch.bincount(x, weights=w[:3]), lambda: torch.bincount(torch.tensor([[1]])), lambda: torch.bincount(w)]:
    try:
        bad()
    except Exception as e:
        print("refused")
