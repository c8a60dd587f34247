# Element-wise results keep their operands' memory order, as PyTorch's
# TensorIterator lays them out: transposed and permuted inputs give
# transposed and permuted results (the values walk memory in order), the
# first operand deciding between two orders.
import torch
x = torch.arange(12.).view(3, 4)
t = x.t()
for y in [t.abs(), t * 2, 2 * t, t + t, t - t.contiguous(), t.contiguous() - t, -t, t.exp().log(), t > 5, torch.isnan(t)]:
    print(y.stride(), y.is_contiguous(), y.sum().item())
print((t * 2 + 1), (t.sqrt() * t).stride())
w = torch.arange(24).view(2, 3, 4).permute(2, 0, 1)
print((w + w).stride(), (-w).stride(), (w > 5).stride(), (w * 1.5).stride(), (w * 1.5).dtype, (w // 5)[1])
print((w + torch.ones(2, 1, dtype=torch.int64)).stride(), (w + torch.ones(4, 1, 1, dtype=torch.int64)).stride())
img = torch.arange(2 * 3 * 4 * 5.).view(2, 4, 5, 3).permute(0, 3, 1, 2)
r = img.relu() * 0.5
print(r.shape, r.stride(), r[1, 2, 3], r.contiguous().stride(), r.reshape(2, -1)[:, :4])
# Operations after a permuted result read it by its strides.
print(r.sum(1)[0, 0], r.mean((2, 3)), (r @ torch.ones(5, 2))[0, 0], r.flatten()[:6])
print(t.abs().view(4, 3)[0] if t.abs().is_contiguous() else t.abs().reshape(12)[:5])
# Gradients of ops on transposed leaves.
a = torch.arange(6., requires_grad=True)
v = a.view(2, 3).t()
((v * v).exp() * 0.001).sum().backward()
print(a.grad)
h = torch.arange(12.).half().view(3, 4).t()
print((h * 2).stride(), (h + h).dtype)
print(torch.empty(0, 3).t().abs().stride(), torch.ones(1, 5).t().neg().stride())
# Three-operand ops and nan_to_num follow the same rule.
q = torch.tensor([[1., float('nan'), -2.], [float('inf'), 0.5, -float('inf')]]).t()
for y in [torch.where(q > 0, q, 0.), torch.where(q.t().contiguous().t() > 0, 1., q), q.clamp(-1, 1), q.clamp(min=0),
          torch.lerp(q, q * 2, 0.25), q.nan_to_num(), q.masked_fill(q < 0, 7.), torch.where(torch.ones(3, 2).bool(), q, q)]:
    print(y.stride(), y)
