// Internals shared by the fake libcuda's translation units (cuda.cpp, launch.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#define FAKECUDA_ABI_ONLY
#include "emu.h"

#define FC_API extern "C" __attribute__((visibility("default")))

// Status codes and attribute numbers come from cudarc's own enums (generated), so the fake
// never returns a value cudarc's Rust enum cannot represent.
enum : int {
#define FC_ENUM(TYPE, NAME, VALUE) NAME = VALUE,
#include "enums_cuda.inc"
#undef FC_ENUM
};
typedef int CUresult;

namespace fc {

// Integer from the environment, or `dflt` when unset/empty.
long env_long(const char* name, long dflt);

// One kernel launch as the engine sees it (validated by cuLaunchKernel).
struct LaunchDesc {
  const char* name;
  __fc_tramp_fn fn;
  void** params;
  unsigned grid[3], block[3];
  unsigned shmem;
};
// Runs every block to completion before returning (launch.cpp). Returns CUDA_SUCCESS, or
// the error a kernel thread raised (assert → CUDA_ERROR_ASSERT, __trap or a barrier
// deadlock → CUDA_ERROR_LAUNCH_FAILED).
CUresult run_kernel(const LaunchDesc& d);

// Largest dynamic shared memory a block may request (H100 opt-in limit).
constexpr unsigned kMaxDynSmem = 232448;

// ---- handles. Every handle the fake gives out is registered, so a stale or foreign one
// is CUDA_ERROR_INVALID_HANDLE rather than a crash (cuda.cpp).
struct Ctx { int device; unsigned flags; bool primary; };
struct Stream { Ctx* ctx; unsigned flags; int priority; };
struct Event { unsigned flags; bool recorded; double ms; };
struct Module;
struct Function {
  Module* mod;
  std::string name;
  __fc_tramp_fn fn;
  int nparams;
  int max_dyn_smem;  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (48 KiB until raised)
  int carveout;
};
enum Kind { kCtx, kStream, kEvent, kModule, kFunction, kKinds };
bool valid(Kind k, const void* h);
void add(Kind k, const void* h);
void remove(Kind k, const void* h);
// null, CU_STREAM_LEGACY (1), CU_STREAM_PER_THREAD (2) or a live created stream.
bool valid_stream(const void* s);
bool initialized();
Ctx* current_ctx();
int device_count();
// Diagnostics for errors a real driver reports silently (suppressed by FAKECUDA_QUIET=1).
void note(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Milliseconds on a steady clock (event timing).
double now_ms();

}  // namespace fc

typedef unsigned long long CUdeviceptr;
typedef void* CUhandle;  // CUcontext, CUstream, CUevent, CUmodule, CUfunction: all opaque

#define FC_INIT() \
  do { if (!fc::initialized()) return CUDA_ERROR_NOT_INITIALIZED; } while (0)
#define FC_CTX() \
  do { FC_INIT(); if (!fc::current_ctx()) return CUDA_ERROR_INVALID_CONTEXT; } while (0)
#define FC_NONNULL(p) \
  do { if (!(p)) return CUDA_ERROR_INVALID_VALUE; } while (0)
#define FC_HANDLE(kind, h) \
  do { if (!fc::valid(fc::kind, h)) return CUDA_ERROR_INVALID_HANDLE; } while (0)
#define FC_STREAM(s) \
  do { if (!fc::valid_stream(s)) return CUDA_ERROR_INVALID_HANDLE; } while (0)
