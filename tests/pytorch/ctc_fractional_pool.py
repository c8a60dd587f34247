import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
T, N, C, S = 12, 3, 5, 4
log_probs = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
targets = torch.randint(1, C, (N, S), dtype=torch.long)
input_lengths = torch.tensor([12, 10, 7])
target_lengths = torch.tensor([4, 2, 3])
for reduction in ["mean", "sum", "none"]:
    loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, reduction=reduction)
    print(reduction, loss)
loss = nn.CTCLoss()(log_probs, targets, input_lengths, target_lengths)
loss.backward()
print(loss.item())
print(log_probs.grad[0])
print(log_probs.grad[6, 2])

# Concatenated targets, repeated labels, an impossible alignment.
flat = torch.tensor([1, 1, 2, 3, 3, 3, 4])
lp = torch.randn(6, 2, 5).log_softmax(2)
print(F.ctc_loss(lp, flat, (6, 6), (3, 4), reduction="none"))
print(F.ctc_loss(lp, flat, (6, 3), (3, 4), reduction="none"))
print(F.ctc_loss(lp, flat, (6, 3), (3, 4), reduction="none", zero_infinity=True))
# Unbatched input, an empty target.
print(F.ctc_loss(lp[:, 0], torch.tensor([2, 4]), torch.tensor(6), torch.tensor(2)))
print(F.ctc_loss(lp, torch.zeros(2, 0, dtype=torch.long), (6, 5), (0, 0), reduction="none"))

x = torch.randn(2, 3, 9, 8, requires_grad=True)
y, idx = F.fractional_max_pool2d(x, 3, output_size=(4, 3), return_indices=True)
print(y)
print(idx)
y.sum().backward()
print(x.grad[0, 0])
m = nn.FractionalMaxPool2d(2, output_ratio=(0.5, 0.5))
print(m(torch.randn(1, 2, 8, 6)).shape)
z = torch.randn(1, 2, 6, 7, 5)
print(F.fractional_max_pool3d(z, 2, output_size=(3, 3, 2)))
print(nn.FractionalMaxPool3d(2, output_ratio=0.5)(z).shape)
print(F.fractional_max_pool2d(torch.randn(2, 7, 7), 2, output_size=3).shape)
