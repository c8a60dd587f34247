#!/bin/sh
# Rewrite tests/pytorch/*.out with what PyTorch prints for each program
# (needs python3 with torch: pip install torch numpy).
set -e
cd "$(dirname "$0")/../tests/pytorch"
for f in ${1:-*.py}; do
    python3 "$f" > "${f%.py}.out" || { echo "$f failed under PyTorch"; exit 1; }
done
