# inplace=True activations and the in-place unary methods: the input holds the
# result and is what comes back; autograd sees the write.
import torch
import torch.nn as nn
import torch.nn.functional as F

def fresh():
    return torch.tensor([[-2.0, -0.5, 0.0], [0.5, 3.0, 7.0]])

for name, f in [
    ("F.relu", lambda v: F.relu(v, inplace=True)),
    ("F.leaky_relu", lambda v: F.leaky_relu(v, 0.1, inplace=True)),
    ("F.relu6", lambda v: F.relu6(v, inplace=True)),
    ("F.hardtanh", lambda v: F.hardtanh(v, -1.0, 1.0, True)),
    ("F.hardsigmoid", lambda v: F.hardsigmoid(v, inplace=True)),
    ("F.hardswish", lambda v: F.hardswish(v, inplace=True)),
    ("F.selu", lambda v: F.selu(v, inplace=True)),
    ("F.celu", lambda v: F.celu(v, 1.0, True)),
    ("F.threshold", lambda v: F.threshold(v, 0.4, -9.0, True)),
    ("nn.ReLU", nn.ReLU(inplace=True)),
    ("nn.LeakyReLU", nn.LeakyReLU(0.2, inplace=True)),
    ("nn.ReLU6", nn.ReLU6(inplace=True)),
    ("nn.Hardtanh", nn.Hardtanh(inplace=True)),
    ("nn.SELU", nn.SELU(inplace=True)),
    ("x.relu_", lambda v: v.relu_()),
    ("x.sigmoid_", lambda v: v.sigmoid_()),
    ("x.exp_", lambda v: v.exp_()),
    ("x.abs_", lambda v: v.abs_()),
    ("x.neg_", lambda v: v.neg_()),
    ("x.tanh_", lambda v: v.tanh_()),
    ("x.floor_", lambda v: v.floor_()),
    ("x.sqrt_", lambda v: v.sqrt_()),
]:
    v = fresh()
    r = f(v)
    print(name, r is v, v)
print(F.relu(fresh()), F.relu(fresh(), inplace=False))
v = fresh()
print(F.dropout(v, 0.0, True, True) is v)
# autograd through an in-place activation of a non-leaf
w = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
h = w * 2
F.relu(h, inplace=True)
h.sum().backward()
print(h, w.grad)
w.grad = None
h = w * 1.5
h.sigmoid_()
h.sum().backward()
print(w.grad)
try:
    torch.tensor([1, 2]).exp_()
except RuntimeError as e:
    print("RuntimeError")
try:
    F.relu(torch.tensor([1.0], requires_grad=True), inplace=True)
except RuntimeError as e:
    print("RuntimeError")
