"""Runs PyTorch's own docstring examples in PyTorch and in tsh and counts those
that print the same: the measure issue 20 is judged by.

    python3 scripts/docstring_parity.py [--tsh target/release/tsh] [--show N] [--filter S]

Each docstring's `>>>` block becomes one program: expression statements print
their repr, as doctest shows them; the run starts from `torch.manual_seed(0)`.
Blocks PyTorch itself cannot run are left out. Needs `pip install torch`.
"""

import argparse
import ast
import hashlib
import json
import inspect
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from concurrent.futures import ThreadPoolExecutor

import torch

NAMESPACES = [
    ("torch", torch),
    ("torch.Tensor", torch.Tensor),
    ("torch.nn.functional", torch.nn.functional),
    ("torch.linalg", torch.linalg),
    ("torch.special", torch.special),
    ("torch.nn", torch.nn),
    ("torch.autograd", torch.autograd),
    ("torch.fft", torch.fft),
]


def blocks():
    seen = set()
    for prefix, ns in NAMESPACES:
        for name in sorted(dir(ns)):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(ns, name)
            except Exception:
                continue
            doc = getattr(obj, "__doc__", None)
            if not isinstance(doc, str) or ">>>" not in doc or doc in seen:
                continue
            seen.add(doc)
            code = example_code(doc)
            if code:
                yield f"{prefix}.{name}", code


def example_code(doc):
    """The `>>>`/`...` lines of a docstring, as one block of source."""
    lines = []
    for raw in textwrap.dedent(doc).splitlines():
        s = raw.strip()
        if s.startswith(">>> ") or s == ">>>":
            lines.append(s[4:])
        elif (s.startswith("... ") or s == "...") and lines:
            lines.append(s[4:])
    return "\n".join(lines)


def program(code):
    """Wraps expression statements so they print their repr, as doctest does."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    out = ["import torch", "import torch.nn as nn", "import torch.nn.functional as F",
           "torch.manual_seed(0)"]
    src = code.splitlines()
    for stmt in tree.body:
        text = "\n".join(src[stmt.lineno - 1: stmt.end_lineno])
        if isinstance(stmt, ast.Expr) and not is_print(stmt.value):
            out.append(f"_ = ({text})")
            out.append("if _ is not None:\n    print(repr(_))")
        else:
            out.append(text)
    return "\n".join(out) + "\n"


def is_print(node):
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print"


def run(cmd, path):
    try:
        p = subprocess.run(cmd + [path], capture_output=True, text=True, timeout=20)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return -1, "", "timeout"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tsh", default="target/release/tsh")
    ap.add_argument("--show", type=int, default=0, help="print N failing blocks")
    ap.add_argument("--filter", default="")
    ap.add_argument("--list", action="store_true", help="list every failing name")
    args = ap.parse_args()
    tsh = os.path.abspath(args.tsh)
    work = tempfile.mkdtemp(prefix="docparity")
    cases = []
    for i, (name, code) in enumerate(blocks()):
        if args.filter not in name:
            continue
        prog = program(code)
        if prog is None:
            continue
        path = os.path.join(work, f"b{i}.py")
        with open(path, "w") as f:
            f.write(prog)
        cases.append((name, path))

    cache_path = os.path.join(os.path.dirname(tsh), "docparity_cache.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}

    def judge(case):
        name, path = case
        key = hashlib.sha1(open(path).read().encode()).hexdigest()
        if key not in cache:
            cache[key] = run([sys.executable], path)[:2]
        rc, want = cache[key]
        if rc != 0:
            return name, path, None, want, ""
        rc2, got, err = run([tsh], path)
        same = rc2 == 0 and unaddressed(got) == unaddressed(want)
        return name, path, same, want, got if rc2 == 0 else got + err

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(judge, cases))
    json.dump(cache, open(cache_path, "w"))
    runnable = [r for r in results if r[2] is not None]
    same = [r for r in runnable if r[2]]
    failing = [r for r in runnable if not r[2]]
    print(f"{len(same)}/{len(runnable)} docstring blocks print the same "
          f"({100 * len(same) / max(1, len(runnable)):.1f}%); "
          f"{len(results) - len(runnable)} left out (PyTorch cannot run them)")
    for prefix, _ in NAMESPACES:
        mine = [r for r in runnable if r[0].rsplit(".", 1)[0] == prefix]
        ok = sum(1 for r in mine if r[2])
        print(f"  {prefix}: {ok}/{len(mine)}")
    if args.list:
        for name, path, *_ in failing:
            print("  ", name, path)
    for name, path, _, want, got in failing[: args.show]:
        print(f"=== {name} ({path})")
        print(diff_head(want, got))


def unaddressed(text):
    """Object reprs carry memory addresses (`<... object at 0x7f...>`) that
    differ from run to run, in PyTorch too."""
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", text)


def diff_head(want, got):
    w, g = want.splitlines(), got.splitlines()
    for i in range(max(len(w), len(g))):
        a = w[i] if i < len(w) else "<end>"
        b = g[i] if i < len(g) else "<end>"
        if a != b:
            return f"  line {i + 1}\n  torch: {a}\n  tsh:   {b}"
    return "  (same lines; differs in trailing output)"


if __name__ == "__main__":
    main()
