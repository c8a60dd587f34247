# Optimizer state_dict/load_state_dict as PyTorch's checkpoint recipe uses
# them: the state under PyTorch's names, a save/load round trip, and training
# that resumes where it stopped.
import torch
import torch.nn as nn

w = nn.Parameter(torch.ones(2))
b = nn.Parameter(torch.zeros(1))
for opt in [torch.optim.SGD([w, b], lr=0.1), torch.optim.SGD([w, b], lr=0.1, momentum=0.9),
            torch.optim.Adam([w, b], lr=0.1), torch.optim.RMSprop([w, b], momentum=0.5, centered=True),
            torch.optim.Adagrad([w, b]), torch.optim.NAdam([w, b])]:
    (w.sum() + 2 * b.sum()).backward()
    opt.step()
    print(opt.state_dict())


def train(model, opt, steps, x, y):
    for _ in range(steps):
        opt.zero_grad()
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        opt.step()
    return loss.item()


torch.manual_seed(0)
x = torch.randn(16, 3)
y = x @ torch.tensor([[1.0], [-2.0], [0.5]])
model = nn.Linear(3, 1)
opt = torch.optim.Adam(model.parameters(), lr=0.05)
train(model, opt, 5, x, y)
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 5}, "/tmp/tsh_pytorch_text_optimizer_state.pt")
straight = train(model, opt, 5, x, y)

ckpt = torch.load("/tmp/tsh_pytorch_text_optimizer_state.pt")
model2 = nn.Linear(3, 1)
opt2 = torch.optim.Adam(model2.parameters(), lr=0.5)
model2.load_state_dict(ckpt["model"])
opt2.load_state_dict(ckpt["optimizer"])
print(ckpt["epoch"], opt2.param_groups[0]["lr"])
resumed = train(model2, opt2, 5, x, y)
print(round(straight, 6), round(resumed, 6), straight == resumed)
print(opt2.state_dict()["state"][0]["step"])
