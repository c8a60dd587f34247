"""Tensor ops no other family times: counting and histograms, flips and rolls,
masks, distances, padding, order statistics, searchsorted, scatter-adds,
comparisons, casts, random fills. `OP <name> <median ms>` lines; runs
unchanged under tsh and python3, and compare.py --script <this file> runs
both."""
import time
import torch
import torch.nn.functional as F
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
a = torch.randn(1000, 1000)
v = torch.randn(1000000)
iv = torch.randint(0, 100, (1000000,))
bench("bincount", lambda: torch.bincount(iv))
bench("histc", lambda: torch.histc(v, bins=100))
bench("flip0", lambda: a.flip(0))
bench("flip1", lambda: a.flip(1))
bench("roll", lambda: torch.roll(a, 3, 1))
bench("repeat", lambda: a[:100].repeat(2, 3))
bench("tril", lambda: torch.tril(a))
mask = torch.tril(torch.ones(1000, 1000)) == 0
bench("masked_fill", lambda: a.masked_fill(mask, float('-inf')))
bench("normalize", lambda: F.normalize(a, dim=1))
bench("cosine_sim", lambda: F.cosine_similarity(a, a, dim=1))
b = torch.randn(500, 64)
bench("cdist", lambda: torch.cdist(b, b))
x4 = torch.randn(32, 16, 32, 32)
bench("pad", lambda: F.pad(x4, (1, 1, 1, 1)))
bench("median_dim", lambda: a.median(dim=1))
bench("kthvalue", lambda: a.kthvalue(10, dim=1))
bench("quantile", lambda: torch.quantile(a, 0.5, dim=1))
sv = torch.sort(v)[0]
q = torch.rand(100000)
bench("searchsorted", lambda: torch.searchsorted(sv, q))
bench("bucketize", lambda: torch.bucketize(q, sv[::1000]))
bench("outer", lambda: torch.outer(v[:1000], v[:1000]))
bench("permute_contig", lambda: x4.permute(0, 2, 3, 1).contiguous())
bench("expand_contig", lambda: v[:1000].expand(1000, 1000).contiguous())
bench("std_all", lambda: v.std())
bench("argsort_1e6", lambda: v.argsort())
bench("unique_ints", lambda: torch.unique(iv))
bench("cummax", lambda: a.cummax(dim=1))
bench("clamp_min", lambda: a.clamp(min=0))
bench("nan_to_num", lambda: a.nan_to_num())
bench("isclose", lambda: torch.isclose(a, a))
bench("allclose", lambda: torch.allclose(a, a))
bench("equal", lambda: torch.equal(a, a))
bench("trace", lambda: a.trace())
bench("diag", lambda: a.diag())
bench("triu_idx", lambda: torch.triu_indices(300, 300))
bench("chunk_cat", lambda: torch.cat(a.chunk(10, dim=1), dim=1))
bench("split_stack", lambda: torch.stack(a.split(100, dim=0)))
bench("index_add", lambda: torch.zeros(100, 1000).index_add_(0, iv[:1000], a))
bench("where_scalar", lambda: torch.where(a > 0, a, 0.0))
bench("sign_abs", lambda: a.sign() * a.abs())
bench("logical", lambda: (a > 0) & (a < 1))
bench("count_nonzero", lambda: torch.count_nonzero(a))
bench("argwhere", lambda: torch.argwhere(a > 2))
bench("float_to_half", lambda: a.half())
bench("int_div", lambda: iv // 7)
bench("rand_like", lambda: torch.rand_like(a))
bench("randn_1e6", lambda: torch.randn(1000000))
bench("normal_", lambda: a.normal_())
bench("uniform_", lambda: a.uniform_(-1, 1))
