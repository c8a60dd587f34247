"""The torch.linalg family, one line per op (`OP <name> <median ms>`): solve, inv,
det, the decompositions and least squares on 512x512 float32 (256 for the SVDs),
and small batched systems.
Runs unchanged under tsh and python3; compare.py --script <this file> runs both."""
import time
import torch
torch.set_num_threads(2)
def bench(name, step, budget=0.4):
    for _ in range(2):
        step()
    times = []
    for _ in range(5):
        n = 0
        t0 = time.perf_counter()
        while True:
            step()
            n += 1
            el = time.perf_counter() - t0
            if el >= budget / 5:
                break
        times.append(el / n)
    times.sort()
    print(f"OP {name} {times[2] * 1e3:.4f}")
torch.manual_seed(0)
A = torch.randn(512, 512) + 512 * torch.eye(512) * 0.1
b = torch.randn(512, 1)
B = torch.randn(512, 64)
S = A @ A.T + torch.eye(512)
bench("solve", lambda: torch.linalg.solve(A, b))
bench("solveB", lambda: torch.linalg.solve(A, B))
bench("inv", lambda: torch.linalg.inv(A))
bench("det", lambda: torch.linalg.det(A))
bench("slogdet", lambda: torch.linalg.slogdet(A))
bench("cholesky", lambda: torch.linalg.cholesky(S))
bench("qr", lambda: torch.linalg.qr(A))
bench("eigh", lambda: torch.linalg.eigh(S))
bench("svd", lambda: torch.linalg.svd(A[:256, :256]))
bench("svdvals", lambda: torch.linalg.svdvals(A[:256, :256]))
bench("lstsq", lambda: torch.linalg.lstsq(A[:, :256], B))
bench("pinv", lambda: torch.linalg.pinv(A[:256, :128]))
bench("norm2", lambda: torch.linalg.matrix_norm(A[:128, :128], ord=2))
bench("lu_factor", lambda: torch.linalg.lu_factor(A))
bench("solve_small_batched", lambda: torch.linalg.solve(A[:64, :64].expand(32, 64, 64), B[:64, :8].expand(32, 64, 8)))
bench("inv64", lambda: torch.linalg.inv(A[:64, :64]))
