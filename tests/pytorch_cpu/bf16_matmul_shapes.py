# bfloat16 matmul (AMX tiles or AVX512-BF16 dot products where the processor
# has them, f32 elsewhere): odd and even k, edges of the 6x64 and 32x32
# blocks, transposed and batched operands, k = 0 and empty products. The
# values are small multiples of 1/8, so every sum is exact and every path
# prints PyTorch's digits.
import torch

def grid(*shape, mod=13, scale=8.0):
    n = 1
    for s in shape:
        n *= s
    return ((torch.arange(n) * 7 % mod - mod // 2) / scale).reshape(shape).bfloat16()

for m, k, n in [(1, 1, 1), (7, 3, 65), (13, 64, 70), (6, 255, 64), (70, 2, 3)]:
    a, b = grid(m, k), grid(k, n, mod=11)
    c = a @ b
    print(m, k, n, c.dtype, c.shape, c.float().sum().item(), c[-1, -3:])
a = grid(3, 5, 40)
b = grid(20, 40, mod=7).t()
print((a @ b)[1, :2, :6])
print((a.transpose(1, 2).contiguous().transpose(1, 2) @ b)[2, 4, -4:])
print(torch.matmul(grid(5, 0), grid(0, 4)), torch.mm(grid(0, 3), grid(3, 2)).shape)
print(grid(9, 33) @ grid(33))
