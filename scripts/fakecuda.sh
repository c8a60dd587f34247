#!/usr/bin/env bash
# Build the fake CUDA driver (tests/fakecuda) into OUTDIR:
#   libcuda.so(.1)  libnvrtc.so(.13, .12)  libcublas.so(.13, .12)  emu.h
# Put OUTDIR first on LD_LIBRARY_PATH and cudarc (dynamic-loading) runs CUDA code on the host.
# Prints only a final line on success; exits non-zero (with the compiler's output) on failure.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/../tests/fakecuda" && pwd)"
out="$1"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cxx="${CXX:-g++}"
flags=(-std=c++20 -O2 -fPIC -fvisibility=hidden -pthread -Wall -Wextra -Wno-unused-parameter -I"$src")
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# lib soname sources... : each library also gets the weak NOT_SUPPORTED stubs for every
# other function cudarc can bind (stubs.cpp + the generated stubs_<lib>.inc).
build() {
  local lib="$1" soname="$2" status="$3"
  shift 3
  local objs=() pids=() f pid
  for f in "$@"; do
    "$cxx" "${flags[@]}" -c "$src/$f" -o "$tmp/$lib-${f%.cpp}.o" &
    pids+=($!)
    objs+=("$tmp/$lib-${f%.cpp}.o")
  done
  "$cxx" "${flags[@]}" -DFC_STATUS="$status" -DFC_STUBS="\"stubs_$lib.inc\"" \
    -c "$src/stubs.cpp" -o "$tmp/$lib-stubs.o" &
  pids+=($!)
  objs+=("$tmp/$lib-stubs.o")
  for pid in "${pids[@]}"; do wait "$pid" || return 1; done
  "$cxx" -shared -pthread -Wl,-soname,"$soname" -Wl,--no-undefined -o "$out/$soname" \
    "${objs[@]}" -ldl
}

log="$tmp/log"
if ! {
  build cuda libcuda.so.1 801 cuda.cpp memory.cpp fiber.cpp launch.cpp &&
  build nvrtc libnvrtc.so.13 11 nvrtc.cpp rewrite.cpp &&
  build cublas libcublas.so.13 15 cublas.cpp
} >"$log" 2>&1; then
  cat "$log" >&2
  echo "fakecuda: build failed" >&2
  exit 1
fi
# Any warning is a defect in the fake: show it, but the build stands.
[ -s "$log" ] && cat "$log" >&2

cp "$src/emu.h" "$src/emu_math.h" "$out/"
ln -sf libcuda.so.1 "$out/libcuda.so"
ln -sf libnvrtc.so.13 "$out/libnvrtc.so"
ln -sf libnvrtc.so.13 "$out/libnvrtc.so.12"
ln -sf libcublas.so.13 "$out/libcublas.so"
ln -sf libcublas.so.13 "$out/libcublas.so.12"
echo "fakecuda: built $out (LD_LIBRARY_PATH=$out)"
