# torch.unique by each of its paths: integers of a range no wider than their
# count (a count per value), of a narrow range (radix passes), of a wide range
# and floats (a comparison sort); inverse and counts; NaN apart; bool, int8.
import torch

dense = torch.tensor([5, 3, 5, -2, 3, 3, 0, 5, 1, 4, 2, -1])
print(torch.unique(dense, return_inverse=True, return_counts=True))
print(torch.unique(dense.reshape(3, 4).t(), return_inverse=True))
print(torch.unique(torch.tensor([7, 7, 7])), torch.unique(torch.tensor([], dtype=torch.long), return_counts=True))
sparse = torch.tensor([1000, -70000, 5, 1000, 123456, 5, -70000])
print(torch.unique(sparse, return_inverse=True, return_counts=True))
wide = torch.tensor([2**40, -2**50, 3, 2**40, -2**50, 2**62, 0])
print(torch.unique(wide, return_inverse=True, return_counts=True))
print(torch.unique(torch.tensor([True, False, True, True]), return_counts=True))
print(torch.unique(torch.tensor([-128, 127, 0, -128], dtype=torch.int8), return_inverse=True))
print(torch.unique(torch.tensor([200, 3, 200, 0], dtype=torch.uint8), return_counts=True))
fl = torch.tensor([1.5, float('nan'), -0.0, 0.0, 1.5, float('-inf'), float('nan'), 2.0])
u, i, c = torch.unique(fl, return_inverse=True, return_counts=True)
print(u, i, c)
print(torch.unique(torch.tensor([3., 1., 3.], dtype=torch.float64), return_inverse=True), torch.unique(torch.tensor([2., 1., 2.]).half()))
labels = torch.arange(100000) * 7919 % 1000
u, c = torch.unique(labels, return_counts=True)
print(u.shape, u[:5], c[:5], c.sum())
big = torch.arange(100000) * 104729 % 99991 - 50000
u, i = torch.unique(big, return_inverse=True)
print(u.shape, u[:3], u[-3:], torch.equal(u[i], big))
narrow = (torch.arange(200000) * 7919) % 150000
u, c = torch.unique(narrow[:100000], return_counts=True)
print(u.shape, u[:3], c.max(), torch.equal(torch.unique(narrow.int()), torch.unique(narrow).int()))
