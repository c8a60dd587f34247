// fakecuda emulation header: makes plain CUDA C++ kernels compile with g++ and run on the
// host under the fake libcuda. The fake NVRTC force-includes it (-include emu.h) into every
// program. It includes no system header on purpose: NVRTC without headers knows neither
// <cstdint> types (int64_t) nor INFINITY/NAN, and a kernel that compiles here should
// compile there too. Everything is either a GCC builtin or a libm/libc symbol declared here.
//
// The runtime (libcuda) includes only the ABI part, with FAKECUDA_ABI_ONLY defined.
#ifndef FAKECUDA_EMU_H
#define FAKECUDA_EMU_H

// ---------------------------------------------------------------- ABI shared with libcuda
#define FAKECUDA_ABI 1
// Every emulated GPU thread runs on a fiber stack of this size, aligned to its size; the
// thread's record sits in the top __FC_TOP_BYTES. So any code running on a fiber finds its
// thread from the frame address alone: no TLS, no global, no call (see __fc_self).
#define __FC_STACK_BYTES (1ul << 18)
#define __FC_TOP_BYTES 256ul

struct uint3 { unsigned x, y, z; };
struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
struct __fc_block {
  uint3 blockIdx;
  dim3 blockDim, gridDim;
  void* dyn_smem;            // this block's dynamic shared memory (sharedMemBytes)
  unsigned dyn_smem_bytes, nthreads;
};
struct __fc_thread;
struct __fc_ops {
  unsigned abi;
  // Block barrier. Returns how many arriving threads had pred != 0; *participants (if
  // non-null) gets how many threads took part (the live ones).
  int (*syncthreads)(__fc_thread*, int pred, int* participants);
  // Warp exchange: every live lane of `mask` deposits `value`; returns the 32 slots (valid
  // until this thread's next warp operation) and the mask of lanes that took part.
  const unsigned long long* (*warp_gather)(__fc_thread*, unsigned mask,
                                           unsigned long long value, unsigned* participants);
  unsigned (*active_mask)(__fc_thread*);
  // Abort this thread and its launch (assert, __trap). Never returns.
  void (*fail)(__fc_thread*, int cuda_error, const char* what, const char* file, int line,
               const char* func);
};
struct __fc_thread {
  uint3 threadIdx;
  unsigned linear, lane, warp;
  const __fc_block* block;
  const __fc_ops* ops;
  void* rt;                  // runtime-private
};
typedef void (*__fc_tramp_fn)(void** kernel_params);
struct __fc_kernel_entry { const char* name; __fc_tramp_fn fn; int nparams; };
struct __fc_global_entry { const char* name; void* addr; unsigned long size; };

#ifndef FAKECUDA_ABI_ONLY
// ---------------------------------------------------------------- qualifiers
#ifdef FAKECUDA_NVRTC
// The fake NVRTC preprocesses first and needs these two as tokens in its output: it finds
// kernels by __global__ and rewrites __shared__ (static thread_local: one OS thread runs
// one block at a time) and `extern __shared__ T x[]` (dynamic shared memory) itself.
#define __global__ __global__
#define __shared__ __shared__
#else
#define __global__
#define __shared__ static thread_local
#endif
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __FC_FN static inline

typedef decltype(sizeof(0)) size_t;
constexpr int warpSize = 32;

__attribute__((always_inline)) static inline __fc_thread* __fc_self() {
  unsigned long a = (unsigned long)__builtin_frame_address(0);
  return (__fc_thread*)((a | (__FC_STACK_BYTES - 1)) + 1 - __FC_TOP_BYTES);
}
#define threadIdx (static_cast<const uint3&>(__fc_self()->threadIdx))
#define blockIdx (static_cast<const uint3&>(__fc_self()->block->blockIdx))
#define blockDim (static_cast<const dim3&>(__fc_self()->block->blockDim))
#define gridDim (static_cast<const dim3&>(__fc_self()->block->gridDim))
__FC_FN void* __fc_dyn_smem() { return __fc_self()->block->dyn_smem; }

// ---------------------------------------------------------------- libc bits NVRTC offers
extern "C" {
int printf(const char*, ...) noexcept;
void* malloc(size_t) noexcept;
void free(void*) noexcept;
void* memcpy(void*, const void*, size_t) noexcept;
void* memset(void*, int, size_t) noexcept;
long labs(long) noexcept;
long long llabs(long long) noexcept;
}
__attribute__((noinline, noreturn)) static void __fc_fail(int err, const char* what,
                                                          const char* file, int line,
                                                          const char* func) {
  __fc_thread* t = __fc_self();
  t->ops->fail(t, err, what, file, line, func);
  __builtin_unreachable();
}
#define assert(e) ((e) ? (void)0 : __fc_fail(710, #e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
__FC_FN void __trap() { __fc_fail(719, "__trap()", "", 0, ""); }
__FC_FN void __brkpt() { __fc_fail(719, "__brkpt()", "", 0, ""); }
__FC_FN long long clock64() { return (long long)__builtin_ia32_rdtsc(); }
__FC_FN long clock() { return (long)__builtin_ia32_rdtsc(); }
__FC_FN void __nanosleep(unsigned) {}

// ---------------------------------------------------------------- barriers and fences
__FC_FN void __syncthreads() { __fc_thread* t = __fc_self(); t->ops->syncthreads(t, 0, nullptr); }
__FC_FN int __syncthreads_count(int p) {
  __fc_thread* t = __fc_self(); return t->ops->syncthreads(t, p != 0, nullptr);
}
__FC_FN int __syncthreads_and(int p) {
  __fc_thread* t = __fc_self(); int n; int c = t->ops->syncthreads(t, p != 0, &n); return c == n;
}
__FC_FN int __syncthreads_or(int p) {
  __fc_thread* t = __fc_self(); return t->ops->syncthreads(t, p != 0, nullptr) != 0;
}
__FC_FN void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__FC_FN void __threadfence_block() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__FC_FN void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

// ---------------------------------------------------------------- warp operations
__FC_FN const unsigned long long* __fc_gather(unsigned mask, unsigned long long v, unsigned* part,
                                             unsigned* lane) {
  __fc_thread* t = __fc_self();
  *lane = t->lane;
  return t->ops->warp_gather(t, mask, v, part);
}
__FC_FN void __syncwarp(unsigned mask = 0xffffffffu) { unsigned p, l; __fc_gather(mask, 0, &p, &l); }
__FC_FN unsigned __activemask() { __fc_thread* t = __fc_self(); return t->ops->active_mask(t); }
__FC_FN unsigned __ballot_sync(unsigned mask, int pred) {
  unsigned p, l, r = 0;
  const unsigned long long* s = __fc_gather(mask, pred != 0, &p, &l);
  for (int i = 0; i < 32; i++) r |= ((p >> i) & 1u) && s[i] ? 1u << i : 0u;
  return r;
}
__FC_FN int __any_sync(unsigned mask, int pred) { return __ballot_sync(mask, pred) != 0; }
__FC_FN int __all_sync(unsigned mask, int pred) {
  unsigned p, l, r = 0;
  const unsigned long long* s = __fc_gather(mask, pred != 0, &p, &l);
  for (int i = 0; i < 32; i++) r |= ((p >> i) & 1u) && s[i] ? 1u << i : 0u;
  return r == p;
}
// Shuffles follow PTX shfl.sync exactly (segment mask c = 32 - width; clamp to own lane).
template <class T>
__FC_FN T __fc_shfl(unsigned mask, T var, int mode, int b, int width) {
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &var, sizeof(T));
  unsigned part, ulane;
  const unsigned long long* s = __fc_gather(mask, bits, &part, &ulane);
  int lane = (int)ulane, seg = (32 - width) & 31, cval = mode == 1 ? 0 : 31;
  int maxl = (lane & seg) | (cval & ~seg), minl = lane & seg, j;
  bool ok;
  b &= 31;
  switch (mode) {
    case 0: j = minl | (b & ~seg); ok = j <= maxl; break;   // idx
    case 1: j = lane - b; ok = j >= maxl; break;             // up
    case 2: j = lane + b; ok = j <= maxl; break;             // down
    default: j = lane ^ b; ok = j <= maxl; break;           // xor
  }
  if (!ok || !((part >> j) & 1u)) j = lane;  // non-participating source: undefined on a GPU
  T r;
  __builtin_memcpy(&r, &s[j], sizeof(T));
  return r;
}
#define __FC_SHFL(T)                                                                        \
  __FC_FN T __shfl_sync(unsigned m, T v, int l, int w = 32) { return __fc_shfl<T>(m, v, 0, l, w); } \
  __FC_FN T __shfl_up_sync(unsigned m, T v, unsigned d, int w = 32) { return __fc_shfl<T>(m, v, 1, (int)d, w); } \
  __FC_FN T __shfl_down_sync(unsigned m, T v, unsigned d, int w = 32) { return __fc_shfl<T>(m, v, 2, (int)d, w); } \
  __FC_FN T __shfl_xor_sync(unsigned m, T v, int l, int w = 32) { return __fc_shfl<T>(m, v, 3, l, w); }
__FC_SHFL(int) __FC_SHFL(unsigned) __FC_SHFL(long) __FC_SHFL(unsigned long)
__FC_SHFL(long long) __FC_SHFL(unsigned long long) __FC_SHFL(float) __FC_SHFL(double)
#define __FC_WREDUCE(NAME, T, INIT, OP)                                                     \
  __FC_FN T NAME(unsigned mask, T v) {                                                      \
    unsigned p, l; T r = INIT;                                                              \
    const unsigned long long* s = __fc_gather(mask, (unsigned long long)(unsigned)v, &p, &l); \
    for (int i = 0; i < 32; i++) if ((p >> i) & 1u) { T x = (T)(unsigned)s[i]; r = OP; }    \
    return r;                                                                               \
  }
__FC_WREDUCE(__reduce_add_sync, unsigned, 0u, r + x) __FC_WREDUCE(__reduce_add_sync, int, 0, r + x)
__FC_WREDUCE(__reduce_min_sync, unsigned, 0xffffffffu, x < r ? x : r)
__FC_WREDUCE(__reduce_min_sync, int, 0x7fffffff, x < r ? x : r)
__FC_WREDUCE(__reduce_max_sync, unsigned, 0u, x > r ? x : r)
__FC_WREDUCE(__reduce_max_sync, int, (int)0x80000000, x > r ? x : r)
__FC_WREDUCE(__reduce_and_sync, unsigned, 0xffffffffu, r & x)
__FC_WREDUCE(__reduce_or_sync, unsigned, 0u, r | x) __FC_WREDUCE(__reduce_xor_sync, unsigned, 0u, r ^ x)
#define __FC_MATCH(T)                                                                       \
  __FC_FN unsigned __match_any_sync(unsigned mask, T v) {                                   \
    unsigned long long b = 0; __builtin_memcpy(&b, &v, sizeof(T));                          \
    unsigned p, l, r = 0; const unsigned long long* s = __fc_gather(mask, b, &p, &l);        \
    for (int i = 0; i < 32; i++) if (((p >> i) & 1u) && s[i] == b) r |= 1u << i;            \
    return r;                                                                               \
  }                                                                                         \
  __FC_FN unsigned __match_all_sync(unsigned mask, T v, int* pred) {                        \
    unsigned r = __match_any_sync(mask, v), p = __activemask() & mask;                      \
    *pred = r == p; return r == p ? r : 0;                                                  \
  }
__FC_MATCH(int) __FC_MATCH(unsigned) __FC_MATCH(long long) __FC_MATCH(unsigned long long)
__FC_MATCH(float) __FC_MATCH(double)

// ---------------------------------------------------------------- atomics
// GCC __atomic builtins (what std::atomic_ref compiles to, without pulling in <atomic>).
// Blocks run concurrently on a thread pool, so these must really be atomic.
#define __FC_R __ATOMIC_RELAXED
template <class T, class F>
__FC_FN T __fc_atomic_update(T* a, F f) {
  T old, nw;
  __atomic_load(a, &old, __FC_R);
  do { nw = f(old); } while (!__atomic_compare_exchange(a, &old, &nw, true, __FC_R, __FC_R));
  return old;
}
#define __FC_ATOMICS(S)                                                                     \
  __FC_FN int atomicAdd##S(int* a, int v) { return __atomic_fetch_add(a, v, __FC_R); }     \
  __FC_FN unsigned atomicAdd##S(unsigned* a, unsigned v) { return __atomic_fetch_add(a, v, __FC_R); } \
  __FC_FN unsigned long long atomicAdd##S(unsigned long long* a, unsigned long long v) { return __atomic_fetch_add(a, v, __FC_R); } \
  __FC_FN float atomicAdd##S(float* a, float v) { return __fc_atomic_update(a, [v](float o) { return o + v; }); } \
  __FC_FN double atomicAdd##S(double* a, double v) { return __fc_atomic_update(a, [v](double o) { return o + v; }); } \
  __FC_FN int atomicSub##S(int* a, int v) { return __atomic_fetch_sub(a, v, __FC_R); }     \
  __FC_FN unsigned atomicSub##S(unsigned* a, unsigned v) { return __atomic_fetch_sub(a, v, __FC_R); } \
  __FC_FN int atomicExch##S(int* a, int v) { return __atomic_exchange_n(a, v, __FC_R); }   \
  __FC_FN unsigned atomicExch##S(unsigned* a, unsigned v) { return __atomic_exchange_n(a, v, __FC_R); } \
  __FC_FN unsigned long long atomicExch##S(unsigned long long* a, unsigned long long v) { return __atomic_exchange_n(a, v, __FC_R); } \
  __FC_FN float atomicExch##S(float* a, float v) { float o; __atomic_exchange(a, &v, &o, __FC_R); return o; } \
  __FC_FN unsigned atomicInc##S(unsigned* a, unsigned v) { return __fc_atomic_update(a, [v](unsigned o) { return o >= v ? 0u : o + 1; }); } \
  __FC_FN unsigned atomicDec##S(unsigned* a, unsigned v) { return __fc_atomic_update(a, [v](unsigned o) { return (o == 0 || o > v) ? v : o - 1; }); } \
  __FC_FN int atomicCAS##S(int* a, int c, int v) { __atomic_compare_exchange_n(a, &c, v, false, __FC_R, __FC_R); return c; } \
  __FC_FN unsigned atomicCAS##S(unsigned* a, unsigned c, unsigned v) { __atomic_compare_exchange_n(a, &c, v, false, __FC_R, __FC_R); return c; } \
  __FC_FN unsigned long long atomicCAS##S(unsigned long long* a, unsigned long long c, unsigned long long v) { __atomic_compare_exchange_n(a, &c, v, false, __FC_R, __FC_R); return c; } \
  __FC_FN unsigned short atomicCAS##S(unsigned short* a, unsigned short c, unsigned short v) { __atomic_compare_exchange_n(a, &c, v, false, __FC_R, __FC_R); return c; } \
  __FC_ATOMIC_MINMAX(S, int) __FC_ATOMIC_MINMAX(S, unsigned)                                \
  __FC_ATOMIC_MINMAX(S, long long) __FC_ATOMIC_MINMAX(S, unsigned long long)                \
  __FC_ATOMIC_BITS(S, int) __FC_ATOMIC_BITS(S, unsigned) __FC_ATOMIC_BITS(S, unsigned long long)
#define __FC_ATOMIC_MINMAX(S, T)                                                            \
  __FC_FN T atomicMin##S(T* a, T v) { return __fc_atomic_update(a, [v](T o) { return v < o ? v : o; }); } \
  __FC_FN T atomicMax##S(T* a, T v) { return __fc_atomic_update(a, [v](T o) { return v > o ? v : o; }); }
#define __FC_ATOMIC_BITS(S, T)                                                              \
  __FC_FN T atomicAnd##S(T* a, T v) { return __atomic_fetch_and(a, v, __FC_R); }           \
  __FC_FN T atomicOr##S(T* a, T v) { return __atomic_fetch_or(a, v, __FC_R); }             \
  __FC_FN T atomicXor##S(T* a, T v) { return __atomic_fetch_xor(a, v, __FC_R); }
__FC_ATOMICS() __FC_ATOMICS(_block) __FC_ATOMICS(_system)

// ---------------------------------------------------------------- math, min/max, conversions
#include "emu_math.h"  // found next to this file

// ---------------------------------------------------------------- cache-hinted loads/stores
#define __FC_LD(N) template <class T> __FC_FN T N(const T* p) { return *p; }
#define __FC_ST(N) template <class T> __FC_FN void N(T* p, T v) { *p = v; }
__FC_LD(__ldg) __FC_LD(__ldcg) __FC_LD(__ldca) __FC_LD(__ldcs) __FC_LD(__ldlu) __FC_LD(__ldcv)
__FC_ST(__stwb) __FC_ST(__stcg) __FC_ST(__stcs) __FC_ST(__stwt)

// ---------------------------------------------------------------- vector types
#define __FC_V1(T, N, A) struct __attribute__((aligned(A))) N##1 { T x; }; \
  __FC_FN N##1 make_##N##1(T x) { return N##1{x}; }
#define __FC_V2(T, N, A) struct __attribute__((aligned(A))) N##2 { T x, y; }; \
  __FC_FN N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define __FC_V3(T, N, A) struct __attribute__((aligned(A))) N##3 { T x, y, z; }; \
  __FC_FN N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define __FC_V4(T, N, A) struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; \
  __FC_FN N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define __FC_VEC(T, N, S) __FC_V1(T, N, S) __FC_V2(T, N, 2 * S) __FC_V3(T, N, S) __FC_V4(T, N, 4 * S)
__FC_VEC(signed char, char, 1) __FC_VEC(unsigned char, uchar, 1)
__FC_VEC(short, short, 2) __FC_VEC(unsigned short, ushort, 2)
__FC_VEC(int, int, 4) __FC_VEC(float, float, 4)
__FC_V1(unsigned, uint, 4) __FC_V2(unsigned, uint, 8) __FC_V4(unsigned, uint, 16)
__FC_FN uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }
// 8-byte element types: CUDA caps the alignment of the 4-vectors at 16.
__FC_V1(long, long, 8) __FC_V2(long, long, 16) __FC_V3(long, long, 8) __FC_V4(long, long, 16)
__FC_V1(unsigned long, ulong, 8) __FC_V2(unsigned long, ulong, 16) __FC_V3(unsigned long, ulong, 8)
__FC_V4(unsigned long, ulong, 16)
__FC_V1(long long, longlong, 8) __FC_V2(long long, longlong, 16) __FC_V3(long long, longlong, 8)
__FC_V4(long long, longlong, 16)
__FC_V1(unsigned long long, ulonglong, 8) __FC_V2(unsigned long long, ulonglong, 16)
__FC_V3(unsigned long long, ulonglong, 8) __FC_V4(unsigned long long, ulonglong, 16)
__FC_V1(double, double, 8) __FC_V2(double, double, 16) __FC_V3(double, double, 8)
__FC_V4(double, double, 16)

// ---------------------------------------------------------------- kernel trampolines
// The fake NVRTC appends a table of __fc_tramp<&kernel>: each unpacks cuLaunchKernel's
// kernelParams (an array of pointers to the argument values) by the kernel's own parameter
// types, so pointers, scalars and structs passed by value all arrive intact.
template <unsigned long... I> struct __fc_seq {};
template <unsigned long N> using __fc_make_seq = __fc_seq<__integer_pack(N)...>;
template <class T> struct __fc_unqual { typedef T type; };
template <class T> struct __fc_unqual<const T> { typedef T type; };
template <class T> struct __fc_unqual<volatile T> { typedef T type; };
template <class T> struct __fc_unqual<const volatile T> { typedef T type; };
template <class... A, unsigned long... I>
__FC_FN void __fc_call(void (*f)(A...), void** p, __fc_seq<I...>) {
  f(*static_cast<typename __fc_unqual<A>::type*>(p[I])...);
}
template <class... A>
__FC_FN void __fc_invoke(void (*f)(A...), void** p) { __fc_call(f, p, __fc_make_seq<sizeof...(A)>{}); }
template <auto F> void __fc_tramp(void** p) { __fc_invoke(F, p); }
template <class... A> constexpr int __fc_nparams(void (*)(A...)) { return sizeof...(A); }
template <class T> constexpr bool __fc_is_kernel = false;
template <class... A> constexpr bool __fc_is_kernel<void (*)(A...)> = true;
// Entries for nvrtcAddNameExpression names: a kernel gets a trampoline, anything else null.
template <auto P> constexpr __fc_tramp_fn __fc_entry_fn() {
  if constexpr (__fc_is_kernel<decltype(P)>) return &__fc_tramp<P>; else return nullptr;
}
template <auto P> constexpr int __fc_entry_nparams() {
  if constexpr (__fc_is_kernel<decltype(P)>) return __fc_nparams(P); else return -1;
}
// ... and a __device__ variable named by one is found by cuModuleGetGlobal.
template <class T> constexpr bool __fc_is_fn = false;
template <class R, class... A> constexpr bool __fc_is_fn<R (*)(A...)> = true;
template <auto P> inline void* __fc_global_addr() {
  if constexpr (__fc_is_fn<decltype(P)>) return nullptr; else return (void*)P;
}
template <auto P> constexpr unsigned long __fc_global_size() {
  if constexpr (__fc_is_fn<decltype(P)>) return 0; else return sizeof(*P);
}
#endif  // FAKECUDA_ABI_ONLY
#endif  // FAKECUDA_EMU_H
