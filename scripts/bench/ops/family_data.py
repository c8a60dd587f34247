"""Data handling around a model: tensors made from Python lists and back, scalars
read out in a loop, shuffled batches (randperm, slices, DataLoader), accuracy
counts, one_hot, printing a tensor. `OP <name> <median ms>` lines.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
torch.set_num_threads(2)


def bench(name, step, budget=0.3):
    for _ in range(2):
        step()
    t0 = time.perf_counter()
    step()
    one = max(time.perf_counter() - t0, 1e-7)
    chunk = max(1, min(10000, int(0.002 / one)))
    times = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            for _ in range(chunk):
                step()
            n += chunk
            el = time.perf_counter() - t0
            if el >= budget / 5:
                break
        times.append(el / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.6f}")


torch.manual_seed(0)
floats = [i * 0.5 for i in range(100000)]
rows = [[i * 0.5, i * 0.25, 1.0] for i in range(20000)]
ints = list(range(100000))
t = torch.randn(100000)
m = torch.randn(300, 100)
X = torch.randn(6400, 32)
y = torch.randint(0, 10, (6400,))
logits = torch.randn(6400, 10)
small = torch.randn(8)


def item_loop():
    s = 0.0
    for i in range(1000):
        s += small[i % 8].item()
    return s


def batches_slice():
    perm = torch.randperm(6400)
    s = 0
    for i in range(0, 6400, 64):
        idx = perm[i:i + 64]
        xb, yb = X[idx], y[idx]
        s += xb.shape[0]
    return s


loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)


def loader_epoch():
    s = 0
    for xb, yb in loader:
        s += xb.shape[0]
    return s


def loss_list():
    losses = []
    for i in range(200):
        losses.append(small.sum().item())
    return sum(losses) / len(losses)


bench("tensor_from_floats_1e5", lambda: torch.tensor(floats))
bench("tensor_from_rows_2e4x3", lambda: torch.tensor(rows))
bench("tensor_from_ints_1e5", lambda: torch.tensor(ints))
bench("tolist_1e5", lambda: t.tolist())
bench("tolist_300x100", lambda: m.tolist())
bench("item_loop_1000", item_loop)
bench("loss_list_200", loss_list)
bench("randperm_6400", lambda: torch.randperm(6400))
bench("batches_slice_6400", batches_slice)
bench("dataloader_epoch_6400", loader_epoch)
bench("accuracy_6400", lambda: (logits.argmax(dim=1) == y).float().mean().item())
bench("correct_sum_6400", lambda: (logits.argmax(1) == y).sum().item())
bench("one_hot_6400", lambda: F.one_hot(y, 10))
bench("repr_300x100", lambda: repr(m))
bench("str_small", lambda: str(small))
bench("linspace_1e5", lambda: torch.linspace(0, 1, 100000))
bench("arange_float_1e5", lambda: torch.arange(0, 10, 0.0001))
bench("randint_1e5", lambda: torch.randint(0, 10, (100000,)))
bench("multinomial_1000", lambda: torch.multinomial(torch.ones(1000), 100))
bench("bernoulli_1e5", lambda: torch.bernoulli(torch.full((100000,), 0.5)))
bench("eye_500", lambda: torch.eye(500))
bench("full_1e6", lambda: torch.full((1000, 1000), 3.0))
bench("stack_rows_100", lambda: torch.stack([m[i] for i in range(100)]))
bench("numpy_roundtrip", lambda: torch.from_numpy(m.numpy()))
