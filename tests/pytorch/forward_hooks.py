# A module's forward hooks: pre-hooks that see (and may replace) the inputs,
# hooks that see (and may replace) the output, prepend, removal through the
# handle (also as a context manager), and the feature-capture idiom.
import torch
import torch.nn as nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
seen = []


def pre(module, args):
    seen.append(("pre", type(module).__name__, tuple(a.shape for a in args)))


def post(module, args, output):
    seen.append(("post", type(module).__name__, tuple(output.shape)))


h1 = net[0].register_forward_pre_hook(pre)
h2 = net[0].register_forward_hook(post)
x = torch.randn(5, 3)
y = net(x)
print(seen, type(h1).__name__)
features = {}
net[1].register_forward_hook(lambda m, i, o: features.update(relu=o.detach()))
net(x)
print(features["relu"].shape, (features["relu"] >= 0).all())
h3 = net[2].register_forward_hook(lambda m, i, o: o * 0)
print(net(x))
h3.remove()
print(torch.equal(net(x), y))
net[2].register_forward_pre_hook(lambda m, args: (args[0] * 0,))
print(net(x))
order = []
lin = nn.Linear(2, 2)
lin.register_forward_hook(lambda m, i, o: order.append("first"))
lin.register_forward_hook(lambda m, i, o: order.append("prepended"), prepend=True)
lin(torch.ones(1, 2))
print(order)
h1.remove()
h2.remove()
seen.clear()
net(x)
print(seen, list(net.state_dict().keys()))
print(net)
