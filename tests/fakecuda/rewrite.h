// Rewriting of the preprocessed program text by the fake NVRTC (rewrite.cpp).
#pragma once
#include <string>
#include <vector>

namespace fc_nvrtc {

struct Scan {
  std::string text;                  // the program with __global__ removed and __shared__ rewritten
  std::vector<std::string> kernels;  // qualified names of its extern "C" __global__ functions
};
// `preprocessed` is g++ -E output of a program that force-included emu.h with
// FAKECUDA_NVRTC defined (so __global__ and __shared__ survive as tokens).
//  - __global__ is dropped (kernels are ordinary host functions);
//  - __shared__ becomes `static thread_local` (one OS thread runs one block at a time);
//  - `extern __shared__ T name[];` becomes a thread_local pointer to the worker's dynamic
//    shared memory buffer (fixed for the thread's life); newlines are kept, so diagnostics
//    and debug info keep the original line numbers.
Scan scan(const std::string& preprocessed);

}  // namespace fc_nvrtc
