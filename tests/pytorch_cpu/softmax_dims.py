# softmax and log_softmax along a dim other than the last, every digit:
# SLEEF's exp where ATen runs vectors and the C library's in its scalar
# tails. Which positions are tails depends on the vector width (8 floats
# under AVX2, 16 under AVX-512) and the split between threads: the shapes
# here take the same path on either.
import torch
torch.manual_seed(0)
torch.set_num_threads(2)
x = torch.tensor([[1., 2., float('nan'), float('-inf')], [3., -1., 0., float('-inf')], [0.5, 9., 1., 2.]])
print(x.softmax(0), torch.log_softmax(x, 0), x.t().softmax(1), torch.log_softmax(x.t(), 1))
print(torch.softmax(x.double(), 0), torch.log_softmax(x.double(), 0))
# Bits, where every processor's PyTorch takes the same path: 32 positions
# on one thread are all vectors (of 8 or 16), 5 are all tails.
torch.set_printoptions(precision=10)
a = torch.randn(30, 32) * 3
print(a.softmax(0)[:2, :6], torch.log_softmax(a, 0)[-1, -4:])
b = torch.randn(8, 33, 5) * 3
print(b.softmax(1)[0, :2], torch.log_softmax(b, 1)[-1, -1])
# Strided inputs are made contiguous first, as ATen does, and take the same
# paths (a transposed view: all vectors; every other column: all tails).
c = (torch.randn(32, 30) * 3).t()
e = (torch.randn(8, 33, 10) * 3)[:, :, ::2]
print(c.softmax(0)[:2, :6], torch.log_softmax(c, 0)[-1, -4:], e.softmax(1)[0, :2], torch.log_softmax(e, 1)[-1, -1])
