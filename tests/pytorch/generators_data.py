# Generators, in-place samplers, and the data utilities that draw from them.
import torch
from torch.utils.data import DataLoader, TensorDataset, Dataset, Subset, ConcatDataset, random_split

torch.manual_seed(0)
print(torch.empty((), dtype=torch.int64).random_().item())
g = torch.Generator().manual_seed(42)
print(torch.randperm(10, generator=g), torch.rand(3, generator=g), g.initial_seed())
print(torch.randn(2, generator=torch.Generator().manual_seed(1)), torch.randint(0, 10, (4,), generator=torch.Generator().manual_seed(1)))
torch.manual_seed(3)
print(torch.zeros(5, dtype=torch.int64).random_(10), torch.zeros(3).random_(2, 5), torch.empty(3).uniform_(-1, 1), torch.empty(2).normal_(0, 0.1))
print(torch.bernoulli(torch.tensor([0.1, 0.9, 0.5, 0.5])))
torch.manual_seed(0)
print(list(DataLoader(TensorDataset(torch.arange(10)), batch_size=4, shuffle=True)))
print(list(DataLoader(TensorDataset(torch.arange(6)), batch_size=3, shuffle=True, generator=torch.Generator().manual_seed(7))))
torch.manual_seed(0)
a, b = random_split(range(10), [7, 3])
print(list(a), list(b), type(a).__name__, len(b))
torch.manual_seed(0)
a, b = random_split(range(10), [0.8, 0.2])
print(list(a), list(b))
a, b, c = random_split(TensorDataset(torch.arange(7.)), [0.5, 0.3, 0.2], generator=torch.Generator().manual_seed(1))
print(len(a), len(b), len(c), a[0])


class Squares(Dataset):
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return i * i


both = ConcatDataset([Squares(3), Squares(2)])
print(len(both), [both[i] for i in range(len(both))], both[-1])
print(list(Subset(Squares(10), [9, 1, 4])), len(Squares(2) + Squares(3)))
