# float16/bfloat16 times or divided by a Python number: computed in float32
# with the number unrounded (PyTorch's opmath scalar), rounded once; + and -
# round the number to the tensor's dtype first.
import torch
torch.manual_seed(0)
for dt in [torch.float16, torch.bfloat16]:
    h = ((torch.arange(4000.) * 0.37).sin() * 3).to(dt)
    for name, r in [
        ("mul", h * 0.1), ("rmul", 0.1 * h), ("div", h / 3.3), ("mul_", h.clone().mul_(0.7)),
        ("imul", torch.mul(h, 1.1)), ("add", h + 0.1), ("sub", h - 0.3), ("rsub", 0.3 - h),
        ("int", h * 3), ("tensor0d", h * torch.tensor(0.1, dtype=dt)),
    ]:
        print(dt, name, r.dtype, r.float().sum().item(), r[:3])
x = torch.tensor([1.0, 2.5, -3.0], dtype=torch.float16, requires_grad=True)
y = x * 0.1
y.sum().backward()
print(y, y.grad_fn.name(), x.grad)
print(torch.ones(2, 2, dtype=torch.bfloat16)[:, 0] / 7.0)
