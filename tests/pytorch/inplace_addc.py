# addcmul_ and addcdiv_: written into the tensor in one pass where the operands
# have its shape and dtype, else computed and written back; PyTorch's bits either way.
import torch

torch.manual_seed(0)
torch.set_printoptions(precision=10)


def bits(t):
    return t.double().tolist()


for dtype in [torch.float32, torch.float64]:
    a = torch.randn(3, 700, dtype=dtype)
    b = torch.randn(3, 700, dtype=dtype)
    c = torch.rand(3, 700, dtype=dtype) + 0.5
    x = a.clone()
    x.addcmul_(b, c, value=0.3)
    print(dtype, "addcmul_", x[2, 690:].tolist())
    print(torch.equal(x, torch.addcmul(a, b, c, value=0.3)))
    x = a.clone()
    x.addcdiv_(b, c, value=-0.7)
    print(dtype, "addcdiv_", x[1, 695:].tolist(), x[0, :4].tolist())
    print(torch.equal(x, torch.addcdiv(a, b, c, value=-0.7)))
    # One tensor twice, the default value, an int value.
    x = a.clone()
    x.addcmul_(b, b)
    print(torch.equal(x, a + b * b), x[0, :3].tolist())
    x = a.clone()
    x.addcdiv_(b, c, value=2)
    print(x[0, :3].tolist())

# Broadcast operands, a strided tensor, mixed dtypes: written back.
a = torch.randn(4, 5)
x = a.clone()
x.addcmul_(torch.randn(5), torch.randn(4, 1), value=0.5)
print(x)
y = torch.randn(5, 4).t()
y.addcdiv_(torch.ones(4, 5), torch.full((4, 5), 4.0))
print(y)
z = torch.zeros(3)
z.addcmul_(torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), torch.tensor([2.0, 2.0, 2.0]))
print(z, z.dtype)
# The operand is the tensor itself.
w = torch.tensor([1.0, 2.0, 3.0])
w.addcmul_(w, w, value=2.0)
print(w)
# Autograd: a leaf that requires grad refuses; under no_grad it is updated.
p = torch.ones(3, requires_grad=True)
try:
    p.addcmul_(torch.ones(3), torch.ones(3))
except RuntimeError as e:
    print("RuntimeError")
with torch.no_grad():
    p.addcmul_(torch.ones(3), torch.full((3,), 2.0), value=0.25)
print(p)
# An int tensor.
i = torch.tensor([1, 2, 3])
i.addcmul_(torch.tensor([1, 1, 1]), torch.tensor([2, 3, 4]), value=2)
print(i)
# An integer result truncates a float value; integer addcdiv is refused.
print(torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([3, 2]), value=2.7))
print(torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([3, 2]), value=0.5))
try:
    torch.addcdiv(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]), torch.tensor([3, 2]))
except RuntimeError:
    print("integer addcdiv: RuntimeError")
