# In-place variants PyTorch has for its binary ops, comparisons and
# argument-taking functions: each writes its result into the tensor and
# returns it; and in-place arithmetic written straight into the tensor
# (add_, +=, mul_ with broadcasting, strided and scalar operands).
import torch

torch.manual_seed(0)
a = torch.tensor([[1.5, -2.0, 3.25], [0.5, 4.0, -1.0]])
b = torch.tensor([[2.0, 3.0, -1.5], [1.0, -0.5, 2.0]])


def show(name, f):
    x = a.clone()
    r = f(x)
    print(name, r is x, x)


show("atan2_", lambda x: x.atan2_(b))
show("arctan2_", lambda x: x.arctan2_(b))
show("hypot_", lambda x: x.hypot_(b))
show("fmod_", lambda x: x.fmod_(b))
show("remainder_", lambda x: x.remainder_(b))
show("copysign_", lambda x: x.copysign_(b))
show("xlogy_", lambda x: x.abs_().xlogy_(b.abs()))
show("maximum_via_clamp_min_", lambda x: x.clamp_min_(0.5))
show("clamp_max_", lambda x: x.clamp_max_(1.0))
show("clip_", lambda x: x.clip_(-1.0, 2.0))
show("lerp_", lambda x: x.lerp_(b, 0.25))
show("lerp_tensor_", lambda x: x.lerp_(b, torch.full_like(b, 0.75)))
show("eq_", lambda x: x.eq_(b))
show("ge_", lambda x: x.ge_(b))
show("lt_", lambda x: x.lt_(1.0))
show("ne_", lambda x: x.ne_(b))
show("logical_and_", lambda x: x.logical_and_(b))
show("subtract_", lambda x: x.subtract_(b, alpha=2))
show("multiply_", lambda x: x.multiply_(b))
show("divide_", lambda x: x.divide_(b))
show("divide_floor_", lambda x: x.divide_(b, rounding_mode="floor"))
show("true_divide_", lambda x: x.true_divide_(b))
show("floor_divide_", lambda x: x.floor_divide_(b))
show("round_", lambda x: x.mul_(1.37).round_(decimals=1))
show("cumsum_", lambda x: x.cumsum_(1))
show("cumprod_", lambda x: x.cumprod_(0))
show("nan_to_num_", lambda x: x.div_(torch.tensor([[0.0, 1.0, 0.0], [1.0, 0.0, 1.0]])).nan_to_num_(posinf=9.0, neginf=-9.0))
show("logit_", lambda x: x.sigmoid_().logit_())
show("sgn_", lambda x: x.sgn_())
show("float_power_", lambda x: x.double().float_power_(2))

i = torch.tensor([12, -18, 7])
j = torch.tensor([8, 12, -3])
x = i.clone(); print(x.bitwise_and_(j), x.bitwise_or_(j), x.bitwise_xor_(j))
x = i.clone(); print(x.bitwise_left_shift_(1), x.bitwise_right_shift_(2))

# Straight into the tensor: broadcast rows and columns, strided operands,
# Python numbers, views written through.
x = torch.arange(12.0).reshape(3, 4)
x.add_(torch.tensor([1.0, 2.0, 3.0, 4.0]))
x.mul_(torch.tensor([[2.0], [0.5], [-1.0]]))
x.sub_(torch.arange(12.0).reshape(4, 3).T, alpha=0.5)
x /= 3
x += 1
print(x)
y = torch.arange(6.0)
v = y[::2]
v.mul_(10)
print(y)
z = torch.ones(2, 3)
z[0].add_(torch.tensor([1.0, 2.0, 3.0]))
print(z)
h = torch.arange(6, dtype=torch.float16).reshape(2, 3)
h.mul_(0.1)
h.add_(torch.ones(3, dtype=torch.float16))
print(h)
n = torch.arange(6)
n.add_(3)
n *= 2
print(n)
try:
    n.div_(2)
except RuntimeError as e:
    print("RuntimeError")
f = torch.zeros(2, 2)
f.fill_(2.5)
f[1].zero_()
print(f)
g = torch.empty(3, 2)
g.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).T.T)
g.copy_(torch.tensor([7.0, 8.0]))
print(g)
i = torch.tensor([12, -18, 7, 0])
j = torch.tensor([8, 12, -3, 5])
x = i.clone(); print(x.gcd_(j), x)
x = i.clone(); print(x.lcm_(j), x)
f = torch.tensor([1.5, -2.0, 0.0, 3.0])
x = f.clone(); print(x.ldexp_(torch.tensor([1, 2, 3, -1])), x)
x = f.clone(); print(x.heaviside_(torch.tensor([0.5, 0.5, 0.5, 0.5])), x)
x = f.clone(); print(x.logical_not_(), x)
