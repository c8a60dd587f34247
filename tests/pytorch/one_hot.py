# F.one_hot: zeros with a 1 scattered along a new last dim; class counts given
# and inferred, empty, 0-d, strided and broadcast indices, and refusals.
import torch
import torch.nn.functional as F
t = torch.tensor([[0, 2], [1, 3]])
print(F.one_hot(t), F.one_hot(t, 5), F.one_hot(torch.tensor([], dtype=torch.long), 3), F.one_hot(torch.tensor(2), 4))
print(F.one_hot(torch.arange(6)[::2], 7), F.one_hot(torch.tensor([3, 0, 3]).expand(2, 3)))
try:
    F.one_hot(torch.tensor([5]), 3)
except Exception as e:
    print("error")
try:
    F.one_hot(torch.tensor([-1]))
except Exception as e:
    print("error")
