"""The Python a script writes around a model: the random module, f-strings,
small objects, dict and sort idioms, module calls and optimizer steps on a
ten-layer Sequential, state_dict and deepcopy, and a character-level bigram
model as Karpathy's GPT lecture builds it (encode, get_batch, train, generate).
`OP <name> <median ms>` lines; runs unchanged under tsh and python3, and
compare.py --script <this file> runs both."""
import time
import random
import copy
import torch
from torch import nn
from torch.nn import functional as F
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

idx = list(range(10000))
bench("shuffle_1e4", lambda: random.shuffle(idx))
bench("random_1e4", lambda: [random.random() for _ in range(10000)])
bench("randint_py_1e3", lambda: [random.randint(0, 9) for _ in range(1000)])
bench("tensor_small_list", lambda: torch.tensor(idx[:10]))
bench("fstring_1e3", lambda: [f"loss: {i * 0.5:>7f}  [{i:>5d}/{1000:>5d}]" for i in range(1000)])
class P:
    def __init__(self, a, b):
        self.a = a
        self.b = b
bench("objects_1e3", lambda: [P(i, i) for i in range(1000)])
bench("isinstance_1e4", lambda: [isinstance(i, int) for i in range(10000)])
keys = [str(i) for i in range(1000)]
bench("dict_zip_1e3", lambda: dict(zip(keys, range(1000))))
d = dict(zip(keys, range(1000)))
bench("sorted_items_1e3", lambda: sorted(d.items(), key=lambda x: x[1], reverse=True))
line = " ".join(str(i) for i in range(1000))
bench("map_int_split", lambda: list(map(int, line.split())))
def tries():
    s = 0
    for i in range(1000):
        try:
            s += i
        except ValueError:
            pass
    return s
bench("try_loop_1e3", tries)
text = "The quick brown fox jumps over the lazy dog " * 100
bench("str_methods", lambda: text.lower().replace("the", "a").split())
lin = nn.Linear(10, 10)
x1 = torch.randn(1, 10)
bench("module_call_linear", lambda: lin(x1))
seq = nn.Sequential(*[nn.Linear(16, 16) for _ in range(10)])
x16 = torch.randn(4, 16)
bench("sequential10_fwd", lambda: seq(x16))
bench("count_params", lambda: sum(p.numel() for p in seq.parameters() if p.requires_grad))
opt = torch.optim.SGD(seq.parameters(), lr=0.01, momentum=0.9)
def step():
    opt.zero_grad()
    seq(x16).sum().backward()
    opt.step()
bench("seq10_train_step", step)
adam = torch.optim.Adam(seq.parameters(), lr=0.01)
def astep():
    adam.zero_grad()
    seq(x16).sum().backward()
    adam.step()
bench("seq10_adam_step", astep)
bench("state_dict", lambda: seq.state_dict())
bench("deepcopy_seq", lambda: copy.deepcopy(seq))
bench("named_params", lambda: [n for n, p in seq.named_parameters()])
bench("repr_module", lambda: repr(seq))
t = torch.randn(4, 4)
bench("str_tensor_4x4", lambda: str(t))
bench("tolist_4x4", lambda: t.tolist())
bench("item_sum", lambda: t.sum().item())


# The bigram model of Karpathy's GPT lecture, on a repeated line of text.
torch.manual_seed(1337)
text = ("First Citizen: Before we proceed any further, hear me speak. All: Speak, speak. " * 400)
chars = sorted(list(set(text)))
vocab_size = len(chars)
stoi = {ch: i for i, ch in enumerate(chars)}
itos = {i: ch for i, ch in enumerate(chars)}
encode = lambda s: [stoi[c] for c in s]
decode = lambda l: ''.join([itos[i] for i in l])
bench("encode_32k", lambda: torch.tensor(encode(text), dtype=torch.long))
data = torch.tensor(encode(text), dtype=torch.long)
bench("decode_1k", lambda: decode(data[:1000].tolist()))
block_size, batch_size = 8, 32
def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + block_size + 1] for i in ix])
    return x, y
bench("get_batch", get_batch)

class BigramLanguageModel(nn.Module):
    def __init__(self, vocab_size):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, vocab_size)
    def forward(self, idx, targets=None):
        logits = self.token_embedding_table(idx)
        if targets is None:
            loss = None
        else:
            B, T, C = logits.shape
            logits = logits.view(B * T, C)
            targets = targets.view(B * T)
            loss = F.cross_entropy(logits, targets)
        return logits, loss
    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits, loss = self(idx)
            logits = logits[:, -1, :]
            probs = F.softmax(logits, dim=-1)
            idx_next = torch.multinomial(probs, num_samples=1)
            idx = torch.cat((idx, idx_next), dim=1)
        return idx

m = BigramLanguageModel(vocab_size)
optimizer = torch.optim.AdamW(m.parameters(), lr=1e-3)
def train_step():
    xb, yb = get_batch()
    logits, loss = m(xb, yb)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
bench("bigram_step", train_step)
bench("generate_100", lambda: m.generate(torch.zeros((1, 1), dtype=torch.long), 100))
