#!/bin/sh
# Rewrite tests/pytorch/*.out with what PyTorch prints for each program, run
# from the repository root as the test runs them (needs python3 with torch:
# pip install torch numpy). Only stdout is kept: warnings go to stderr.
set -e
cd "$(dirname "$0")/.."
for f in ${1:-tests/pytorch/*.py tests/pytorch_cpu/*.py}; do
    python3 "$f" > "${f%.py}.out" || { echo "$f failed under PyTorch"; exit 1; }
done
