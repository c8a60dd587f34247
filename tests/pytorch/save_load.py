# torch.save / torch.load in PyTorch's file format: a file PyTorch wrote, and
# a round trip of this program's own.
import torch
import torch.nn as nn

sd = torch.load("tests/fixtures/pt/state_dict.pt")
print(type(sd).__name__, list(sd.keys()))
print(sd["0.weight"], sd["2.bias"])
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
print(model.load_state_dict(sd))
print(model(torch.ones(1, 2)))
views = torch.load("tests/fixtures/pt/views.pt", weights_only=True)
print(views)
try:
    torch.load("tests/fixtures/pt/module.pt")
except Exception as e:
    print("refused:", "__main__.Net" in str(e))
torch.manual_seed(1)
net = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
net(torch.randn(4, 3))
path = "/tmp/tsh_pytorch_text_save_load.pt"
torch.save({"model": net.state_dict(), "epoch": 7, "lr": 0.01, "name": "run", "hist": [1.5, 2.5],
            "t": torch.arange(6, dtype=torch.int32).reshape(2, 3).T, "flags": (True, None)}, path)
ckpt = torch.load(path)
print(sorted(ckpt.keys()), ckpt["epoch"], ckpt["lr"], ckpt["name"], ckpt["hist"], ckpt["flags"])
print(ckpt["t"], ckpt["model"]["1.running_mean"], ckpt["model"]["1.num_batches_tracked"])
fresh = nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2))
print(fresh.load_state_dict(ckpt["model"]))
print(torch.equal(fresh[0].weight, net[0].weight), torch.equal(fresh[1].running_var, net[1].running_var))
p = nn.Parameter(torch.ones(2))
torch.save([p, torch.tensor(3.5, dtype=torch.float64)], path)
back = torch.load(path)
print(back, type(back[0]).__name__)
