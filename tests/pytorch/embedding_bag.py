# nn.EmbeddingBag and F.embedding_bag (sum, mean, max; offsets, 2-d input,
# per-sample weights, padding_idx, include_last_offset) as PyTorch's text
# classification tutorial uses them, and F.gumbel_softmax from the seeded stream.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
bag = nn.EmbeddingBag(10, 3, mode="sum")
inp = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
offsets = torch.tensor([0, 4])
print(bag, bag(inp, offsets))
mean_bag = nn.EmbeddingBag(10, 3)
print(mean_bag, mean_bag(torch.tensor([[1, 2, 4], [4, 3, 9]])))
w = torch.arange(30.).reshape(10, 3)
print(F.embedding_bag(inp, w, offsets, mode="max"), F.embedding_bag(inp, w, torch.tensor([0, 4, 4]), mode="mean"))
print(F.embedding_bag(inp, w, offsets, mode="sum", per_sample_weights=torch.arange(8.)))
print(F.embedding_bag(inp, w, torch.tensor([0, 3, 8]), include_last_offset=True), F.embedding_bag(inp, w, offsets, padding_idx=4))
pad = nn.EmbeddingBag(10, 3, mode="mean", padding_idx=2)
print(pad, pad.weight[2], pad(torch.tensor([[2, 2, 1]])))
text = nn.EmbeddingBag(20, 4)
fc = nn.Linear(4, 2)
out = fc(text(torch.tensor([3, 7, 1, 0, 5]), torch.tensor([0, 2])))
out.sum().backward()
print(out, text.weight.grad[3], text.weight.grad[2])
logits = torch.randn(2, 5)
print(F.gumbel_softmax(logits, tau=1), F.gumbel_softmax(logits, tau=0.5, hard=True))
