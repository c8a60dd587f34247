# float32 sums of rows too short for the cascade to flush a level (70 and 20
# elements; the levels never written are skipped, one add of zero standing
# for them), and of long ones, in PyTorch's bits.
import torch

torch.manual_seed(0)
r = torch.randn(300, 70) * 3
print(r.sum(1)[:6].tolist(), r.mean(1)[-3:].tolist(), r[:, :20].sum(1)[:4].tolist())
print(r.sum().item(), r.sum(0)[:4].tolist(), (r * 1e-3).t().sum(0)[:4].tolist())
print(torch.tensor([[-0.0] * 40]).sum(1).tolist(), torch.tensor([[-0.0] * 3]).sum(1).tolist())
# Rows long enough to flush into the second and third levels.
w = torch.randn(3, 9000) * 10
print(w.sum(1).tolist(), torch.randn(1, 140000).sum(1).tolist(), torch.randn(140000).sum().item())
