# Advanced indexing with one int64 index into the leading dim (a[idx], take,
# index_select, embedding rows), negative indices, empty picks, and the
# errors PyTorch raises for an index out of range (take in its own words).
import torch
torch.manual_seed(0)
a = torch.randn(6, 4)
print(a[torch.tensor([0, 5, -1, 2])], a[torch.tensor([[1, 2], [3, -6]])])
print(torch.take(a, torch.tensor([0, 23, -1, -24, 7])), a.index_select(0, torch.tensor([3, 3, 0])))
print(a.t()[torch.tensor([1, 0])], a[1:][torch.tensor([0, 4])], a[:, 1][torch.tensor([2, -1])])
e = torch.zeros(5, 0)
print(e[torch.tensor([1, 4])].shape)
for bad in [lambda: a[torch.tensor([0, 6])], lambda: torch.take(a, torch.tensor([24])), lambda: e[torch.tensor([9])], lambda: torch.zeros(0, 3)[torch.tensor([0])], lambda: a[torch.tensor([-7])]]:
    try:
        bad()
    except IndexError as err:
        print("IndexError", err)
big = torch.randn(300000)
idx = torch.randint(-300000, 300000, (200000,))
print(big[idx].sum().item() == big[idx].sum().item(), big[idx][:5], torch.take(big, idx)[-5:])
idx[150000] = 300000
try:
    big[idx]
except IndexError as err:
    print("IndexError", err)
w = torch.randn(1000, 64)
ids = torch.randint(0, 1000, (4096,))
print(w[ids][100:102, :4], torch.nn.functional.embedding(ids, w)[4000, :3])
for f in [lambda: torch.zeros(0, 0)[torch.tensor([0])], lambda: torch.zeros(3, 0)[torch.tensor([5])], lambda: torch.zeros(3, 0)[:, torch.tensor([5])], lambda: torch.zeros(3, 2)[torch.tensor([], dtype=torch.long)], lambda: torch.zeros(2, 0, 3)[torch.tensor([7]), :, torch.tensor([0])]]:
    try:
        print(f().shape)
    except IndexError as err:
        print("IndexError", err)

# A range picks as the list of its numbers: d2l's cross-entropy from scratch.
y_hat = torch.tensor([[0.1, 0.3, 0.6], [0.3, 0.2, 0.5]])
y = torch.tensor([0, 2])
print(y_hat[range(len(y_hat)), y], -torch.log(y_hat[range(len(y_hat)), y]))
print(y_hat[range(1, 2)], y_hat[:, range(2, -1, -2)], y_hat[range(0)].shape)
z = torch.zeros(5)
z[range(0, 5, 2)] = 1.0
print(z)
