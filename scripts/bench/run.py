"""Paired benchmarks: each workload in scripts/bench/<name>.py runs unchanged under tsh
and under python3 with PyTorch, and scripts/bench/numpy/<name>.py (where there is one)
under python3 with NumPy. Each process prints `BENCH <name> <median ms>`; this runner
runs the sides interleaved, --repeat times each, takes the median of the in-process
numbers and also records each process's wall time, then prints a markdown table.

    python3 scripts/bench/run.py                  # all rows, 3 runs per side
    python3 scripts/bench/run.py --only add,softmax --repeat 5
    python3 scripts/bench/run.py --tsh path/to/tsh --json out.json

Ratios are tsh's time over the reference's (below 1: tsh is faster); the target column
is issue 22's target for the ratio against PyTorch. Every side runs with 2 threads:
the workloads call torch.set_num_threads(2) and this runner sets RAYON_NUM_THREADS
(tsh), OMP_NUM_THREADS and OPENBLAS_NUM_THREADS/MKL_NUM_THREADS (PyTorch, NumPy).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
THREADS = "2"
DASH = "—"

# name, what the row measures, issue 22's target ratio (tsh / PyTorch), or None
ROWS = [
    ("cnn_step", "CNN step: conv 3→16 3×3, relu, pool 2, linear 10, CE, backward, SGD; 64×3×32×32", 0.9),
    ("matmul_bf16_512", "bf16 matmul 512×512", 1.0),
    ("sum_dim0", "`a.sum(dim=0)` 4096×1024 f32", 0.8),
    ("add", "`a + b` 1e7 f32, new result", 0.5),
    ("exp_sum", "`a.exp().sum()` 1e7 f32", 0.8),
    ("mlp_step", "MLP 784→128→10 step (fwd, CE, backward, SGD), batch 64", 0.85),
    ("mlp_adam_step", "the same MLP step with Adam", None),
    ("lenet_step", "LeNet-5 step (two 5×5 convs, pools, three linears, CE, backward, SGD momentum), batch 64 of 28×28", None),
    ("matmul_256", "f32 matmul 256×256", 0.9),
    ("index_gather", "`a[idx]` 1e6 of 4e6 f32", 0.8),
    ("add_transpose", "`a + a.T` 2048×2048 f32", 0.8),
    ("small_ops", "`(a * b + a).sum()` on 2×2 (per-op overhead)", 0.25),
    ("matmul_1024", "f32 matmul 1024×1024", 0.5),
    ("softmax", "`a.softmax(dim=-1)` 2048×2048 f32", 0.4),
    ("conv2d", "`F.conv2d` 64×3×32×32 ⊛ 16×3×3×3, pad 1", 0.4),
    ("max_pool2d", "`F.max_pool2d(x, 2)` fwd+bwd 64×16×32×32", None),
    ("lstm", "`nn.LSTM(128, 128)` fwd+bwd, batch 32, seq 50", None),
    ("layer_norm", "`nn.LayerNorm(512)` fwd+bwd 32×128×512", None),
    ("batch_norm2d", "`nn.BatchNorm2d(16)` fwd+bwd 64×16×32×32", None),
    ("embedding", "`nn.Embedding(10000, 128)` fwd+bwd, 32×128 indices", None),
    ("linalg_solve", "`torch.linalg.solve` 512×512 f32, one right-hand side", None),
    ("scalar_loop", "scalar loop `s += i * 2`, 1e6 iterations (reference: CPython)", None),
]
STARTUP = ("startup", "start-up, whole process: `tsh -c 1` / `python3 -c 'import torch'` / `... numpy`", None)
FLOPS = {"matmul_1024": 2 * 1024**3}  # rows whose cells also show GFLOP/s

SIDES = ("tsh", "torch", "numpy")


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if n == 0 else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def fmt_ms(ms):
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.3g}"


def brief_error(proc_out, rc):
    """The first line of an error and its line number, short enough for a table cell."""
    lines = [ln.strip() for ln in proc_out.splitlines() if ln.strip()]
    err = next((ln for ln in lines if ln.startswith("error") or "Error" in ln), None)
    if err is None:
        err = lines[-1] if lines else f"exit status {rc}, no output"
    where = next((m.group(1) for ln in lines for m in [re.match(r"-->\s*\S+?:(\d+):\d+", ln)] if m), None)
    text = err + (f" (line {where})" if where else "")
    if len(text) > 90:
        text = text[:87] + "..."
    return text.replace("|", "\\|")


def run_one(cmd, name, env, timeout):
    """Run a process; return (ms or None, wall seconds, error text or None)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - t0, f"timed out after {timeout} s"
    except OSError as e:
        return None, time.perf_counter() - t0, str(e)
    wall = time.perf_counter() - t0
    m = re.search(rf"^BENCH {re.escape(name)} ([0-9.eE+-]+)\s*$", p.stdout, re.M)
    if p.returncode == 0 and m:
        return float(m.group(1)), wall, None
    return None, wall, brief_error(p.stderr + "\n" + p.stdout, p.returncode)


def wall_one(cmd, env, timeout):
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout)
    except (subprocess.TimeoutExpired, OSError) as e:
        return None, str(e)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        return None, brief_error(p.stderr + "\n" + p.stdout, p.returncode)
    return wall * 1e3, None


def importable(python, module):
    try:
        return subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tsh", default=os.path.join(ROOT, "target", "release", "tsh"),
                    help="the tsh binary (default: target/release/tsh under the repository root)")
    ap.add_argument("--python", default="python3", help="the Python that runs the PyTorch and NumPy sides")
    ap.add_argument("--only", action="append", default=[],
                    help="run only these rows (a name, or names separated by commas; may repeat)")
    ap.add_argument("--repeat", type=int, default=3, help="processes per side and row (default 3)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds before a process is stopped")
    ap.add_argument("--json", help="also write every run's numbers to this file")
    ap.add_argument("--list", action="store_true", help="list the rows and exit")
    args = ap.parse_args()

    rows = list(ROWS)
    known = {r[0] for r in rows}
    # workloads added as files but not yet in ROWS still run, with no target
    for f in sorted(os.listdir(HERE)):
        name = f[:-3]
        if f.endswith(".py") and f != "run.py" and name not in known:
            rows.append((name, name, None))
    rows.append(STARTUP)
    if args.list:
        for name, what, _ in rows:
            print(f"{name:16} {what}")
        return 0
    if args.only:
        wanted = [n.strip() for item in args.only for n in item.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in {r[0] for r in rows}]
        if unknown:
            print(f"unknown row(s): {', '.join(unknown)}; --list shows the names", file=sys.stderr)
            return 2
        rows = [r for r in rows if r[0] in wanted]
    args.repeat = max(1, args.repeat)

    tsh = os.path.abspath(args.tsh)
    have = {
        "tsh": os.path.isfile(tsh) and os.access(tsh, os.X_OK),
        "torch": importable(args.python, "torch"),
        "numpy": importable(args.python, "numpy"),
    }
    notes = []
    if not have["tsh"]:
        notes.append(f"no tsh binary at {tsh} (build it with `cargo build --release` or pass --tsh)")
    if not have["torch"]:
        notes.append(f"PyTorch is not installed for {args.python}: its columns show {DASH}")
    if not have["numpy"]:
        notes.append(f"NumPy is not installed for {args.python}: its columns show {DASH}")

    env = dict(os.environ)
    env["RAYON_NUM_THREADS"] = THREADS
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[var] = THREADS
    env["NO_COLOR"] = "1"

    def command(side, name):
        if side == "tsh":
            return [tsh, os.path.join("scripts", "bench", name + ".py")] if have["tsh"] else None
        if side == "torch":
            return [args.python, os.path.join("scripts", "bench", name + ".py")] if have["torch"] else None
        path = os.path.join("scripts", "bench", "numpy", name + ".py")
        return [args.python, path] if have["numpy"] and os.path.isfile(os.path.join(ROOT, path)) else None

    startup_cmds = {
        "tsh": [tsh, "-c", "1"] if have["tsh"] else None,
        "torch": [args.python, "-c", "import torch"] if have["torch"] else None,
        "numpy": [args.python, "-c", "import numpy"] if have["numpy"] else None,
    }

    # results[name][side] = {"ms": [...], "wall_s": [...], "errors": [...]}
    results = {r[0]: {s: {"ms": [], "wall_s": [], "errors": []} for s in SIDES} for r in rows}
    for rep in range(args.repeat):
        for name, _, _ in rows:
            progress = []
            for side in SIDES:
                res = results[name][side]
                if name == "startup":
                    cmd = startup_cmds[side]
                    if cmd is None:
                        continue
                    # start-up is short: take five samples per repeat
                    for _ in range(5):
                        ms, err = wall_one(cmd, env, args.timeout)
                        if err:
                            res["errors"].append(err)
                            break
                        res["ms"].append(ms)
                        res["wall_s"].append(ms / 1e3)
                else:
                    cmd = command(side, name)
                    if cmd is None:
                        continue
                    ms, wall, err = run_one(cmd, name, env, args.timeout)
                    res["wall_s"].append(wall)
                    if err:
                        res["errors"].append(err)
                    else:
                        res["ms"].append(ms)
                last = f"{fmt_ms(res['ms'][-1])} ms" if res["ms"] and not res["errors"] else ("error" if res["errors"] else "")
                if last:
                    progress.append(f"{side} {last}")
            print(f"[{rep + 1}/{args.repeat}] {name}: {', '.join(progress)}", file=sys.stderr, flush=True)

    # the table
    out = [f"Note: {n}." for n in notes] + ([""] if notes else [])
    out.append("| work | tsh ms | PyTorch ms | ratio | NumPy ms | ratio | target ratio |")
    out.append("|---|---|---|---|---|---|---|")
    met = total = 0
    for name, what, target in rows:
        cells = {}
        med = {}
        for side in SIDES:
            res = results[name][side]
            med[side] = median(res["ms"]) if res["ms"] else None
            if med[side] is not None:
                cell = fmt_ms(med[side])
                if name in FLOPS:
                    cell += f" ({FLOPS[name] / (med[side] * 1e-3) / 1e9:.0f} GFLOP/s)"
                if res["errors"]:
                    cell += f" ({len(res['errors'])} of {args.repeat} failed)"
            elif res["errors"]:
                err = res["errors"][0]
                cell = err if err.startswith("error") else "error: " + err
            else:
                cell = DASH
            cells[side] = cell

        def ratio(ref):
            if med["tsh"] is None or med[ref] is None or med[ref] == 0:
                return DASH
            r = med["tsh"] / med[ref]
            return f"{r:.2f}" if r >= 0.1 else f"{r:.2g}"

        r_torch = ratio("torch")
        if target is not None and r_torch != DASH:
            total += 1
            met += med["tsh"] / med["torch"] <= target
        out.append(f"| {what} | {cells['tsh']} | {cells['torch']} | {r_torch} | {cells['numpy']} | "
                   f"{ratio('numpy')} | {DASH if target is None else target} |")
    print("\n".join(out))
    print()
    if total:
        print(f"{met} of {total} rows with a target are at or under it.")
    print(f"Median of {args.repeat} processes per side; each process reports the median of its own timed "
          f"batches after a warm-up. {THREADS} threads on every side.")

    # whole-process wall times
    print()
    print("Whole-process wall time, median (s): tsh | python3 + PyTorch | python3 + NumPy")
    print()
    print("| work | tsh s | PyTorch s | NumPy s |")
    print("|---|---|---|---|")
    for name, _, _ in rows:
        if name == "startup":
            continue
        w = [median(results[name][s]["wall_s"]) for s in SIDES]
        print(f"| {name} | " + " | ".join(DASH if x is None else f"{x:.2f}" for x in w) + " |")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": int(THREADS), "repeat": args.repeat, "tsh": tsh, "python": args.python,
                       "available": have, "notes": notes,
                       "rows": [{"name": n, "work": w, "target": t, **results[n]} for n, w, t in rows]},
                      f, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
