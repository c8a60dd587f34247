"""Run sweep.py (or another script here that prints `OP <name> <ms>` lines) under
tsh and under python3 (PyTorch), 2 threads each, and print each op's times and the
ratio tsh / PyTorch, worst first.

    python3 scripts/bench/ops/compare.py [--tsh target/release/tsh]
    python3 scripts/bench/ops/compare.py --script family_linalg.py
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))


def times(cmd, env):
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} failed:\n{p.stderr[-2000:]}")
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^OP (\S+) ([0-9.eE+-]+)$", p.stdout, re.M)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsh", default=os.path.join(ROOT, "target", "release", "tsh"))
    ap.add_argument("--python", default="python3")
    ap.add_argument("--script", default="sweep.py", help="a script in scripts/bench/ops/")
    args = ap.parse_args()
    env = dict(os.environ, RAYON_NUM_THREADS="2", OMP_NUM_THREADS="2", MKL_NUM_THREADS="2")
    script = os.path.join(HERE, args.script)
    if subprocess.run([args.python, "-c", "import torch"], capture_output=True).returncode != 0:
        sys.exit("PyTorch is not installed for " + args.python + " (pip install torch): nothing to compare with")
    ref = times([args.python, script], env)
    ours = times([args.tsh, script], env)
    rows = sorted(((ours[k] / ref[k], k) for k in ref if k in ours and ref[k] > 0), reverse=True)
    print(f"| op | tsh ms | PyTorch ms | ratio |\n|---|---|---|---|")
    for r, k in rows:
        print(f"| {k} | {ours[k]:.4g} | {ref[k]:.4g} | {r:.2f} |")


if __name__ == "__main__":
    main()
