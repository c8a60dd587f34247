# x @ W.T with one W again and again (a linear layer's forward, a recurrent
# layer's steps): the same digits every time, and every way of changing W
# (in place, through a view, .data, an optimizer step, a fresh W at a freed
# one's place) shows in the next product at once.
import torch
import torch.nn.functional as F

torch.manual_seed(0)
for m, k, n in [(32, 128, 512), (8, 256, 256), (3, 64, 100), (300, 700, 90), (1600, 128, 512)]:
    x = torch.randn(m, k)
    w = torch.randn(n, k)
    ys = [x @ w.T for _ in range(3)]
    print(m, k, n, torch.equal(ys[0], ys[1]), torch.equal(ys[1], ys[2]))

x = torch.randn(40, 96)
w = torch.randn(64, 96)
y = x @ w.T
y2 = x @ w.T
w.mul_(2)
print(torch.equal(x @ w.T, y * 2))
w[3] = 0
print((x @ w.T)[:, 3].abs().max().item(), torch.equal((x @ w.T)[:, 4], y[:, 4] * 2))
w.data.zero_()
print((x @ w.T).abs().max().item())
w.copy_(torch.ones(64, 96))
print((x @ w.T)[0, :3], x[0].sum())
w.T[1:3, :] = 5.0
print((x @ w.T)[0, :2])

lin = torch.nn.Linear(96, 64)
opt = torch.optim.SGD(lin.parameters(), lr=0.5)
for step in range(3):
    before = F.linear(x, lin.weight, lin.bias)
    again = F.linear(x, lin.weight, lin.bias)
    loss = (before ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    after = F.linear(x, lin.weight, lin.bias)
    print(step, torch.equal(before, again), torch.equal(before, after), round(loss.item(), 4))

# A weight freed, and a new one made in its place.
for i in range(3):
    w = torch.full((64, 96), float(i))
    print(i, (x @ w.T)[0, 0] / x[0].sum(), (x @ w.T)[1, 5] / x[1].sum())
    del w

# Column-major slices of a bigger storage: each its own operand.
big = torch.randn(200, 96)
a, b = big[:64], big[64:128]
print(torch.equal(x @ a.T, x @ big.T[:, :64]), torch.equal(x @ b.T, (x @ big.T)[:, 64:128]))
print(torch.equal(x @ a.T, x @ a.T.contiguous()), torch.equal(x @ b.T, x @ b.T))
