#!/usr/bin/env bash
# fakecuda self-test: builds the fake libraries, then builds and runs selftest.rs in a scratch
# crate (outside the repository) against unmodified cudarc 0.19.10, in four configurations:
# default, FAKECUDA_THREADS=1, FAKECUDA_REVERSE=1 + FAKECUDA_POISON=1, and FAKECUDA_ASAN=1
# (an out-of-bounds read in a kernel must be reported with its file and line).
#
# usage: tests/fakecuda/selftest.sh [WORKDIR]   (default /tmp/fakecuda-selftest)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="${1:-/tmp/fakecuda-selftest}"
mkdir -p "$work/crate/src"
"$here/../../scripts/fakecuda.sh" "$work/lib"

cat >"$work/crate/Cargo.toml" <<'EOF'
[package]
name = "fakecuda-selftest"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
cudarc = { version = "=0.19.10", default-features = false, features = ["std", "driver", "nvrtc", "cublas", "dynamic-loading", "cuda-13000"] }

[workspace]
EOF
cp "$here/selftest.rs" "$work/crate/src/main.rs"
export CARGO_TARGET_DIR="$work/target"
(cd "$work/crate" && { cargo build --release --offline -q 2>/dev/null || cargo build --release -q; })
bin="$CARGO_TARGET_DIR/release/fakecuda-selftest"

export LD_LIBRARY_PATH="$work/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export FAKECUDA_CACHE="$work/cache"
export SELFTEST_CU="$here/selftest.cu"
# Expected-error cases print diagnostics; keep the log readable.
export FAKECUDA_QUIET=1

echo "== default"
"$bin"
echo "== FAKECUDA_THREADS=1"
FAKECUDA_THREADS=1 "$bin" | grep -v '^ok'
echo "== FAKECUDA_REVERSE=1 FAKECUDA_POISON=1"
FAKECUDA_REVERSE=1 FAKECUDA_POISON=1 "$bin" | grep -v '^ok'

echo "== FAKECUDA_ASAN=1"
asan="$(g++ -print-file-name=libasan.so)"
set +e
out="$(FAKECUDA_ASAN=1 SELFTEST_MODE=asan LD_PRELOAD="$asan" ASAN_OPTIONS=detect_leaks=0 "$bin" 2>&1)"
set -e
if grep -q "heap-buffer-overflow" <<<"$out" && grep -q "selftest.cu:[0-9]*" <<<"$out"; then
  grep -m1 "heap-buffer-overflow" <<<"$out"
  grep -m1 -o "in read_past_end .*selftest.cu:[0-9:]*" <<<"$out" || true
  echo "ok   ASAN reports the out-of-bounds kernel read with file:line"
else
  echo "$out" | tail -30
  echo "FAIL ASAN did not report the out-of-bounds read"
  exit 1
fi
echo "selftest.sh: all configurations passed"
