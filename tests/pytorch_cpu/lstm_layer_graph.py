# nn.LSTM's float32 layers on the CPU are one op each, as in PyTorch (oneDNN's
# layer): the output's grad_fn and its seven inputs; a float64 LSTM steps
# through the cell instead; values and gradients of a training step.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(5, 2, 4)
for kw in [dict(), dict(bias=False), dict(num_layers=2), dict(bidirectional=True), dict(batch_first=True)]:
    lstm = nn.LSTM(4, 3, **kw)
    out, (h, c) = lstm(x)
    print(kw, out.grad_fn.name(), h.grad_fn.name(), c.grad_fn.name())
lstm = nn.LSTM(4, 3)
out, (h, c) = lstm(x)
print([f is None for f, _ in out.grad_fn.next_functions])
print([type(f).__name__ for f, _ in out.grad_fn.next_functions if f is not None])
print(out[-1])
print(nn.LSTM(4, 3).double()(x.double())[0].grad_fn.name())
with torch.no_grad():
    print(lstm(x)[0].grad_fn)

# A loss on the output, h_n and c_n together: every parameter's gradient.
model = nn.LSTM(4, 6, num_layers=2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    out, (h, c) = model(x)
    loss = out.pow(2).mean() + h.sum() * 0.1 + c.abs().mean()
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 5))
# (Norms: single gradient entries sum terms that nearly cancel, and oneDNN's
# order of those sums is its own.)
for name, p in model.named_parameters():
    print(name, f"{p.grad.norm().item():.5g}", f"{p.norm().item():.5g}")
