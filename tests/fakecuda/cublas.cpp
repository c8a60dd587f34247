// Fake libcublas: GEMM family on the host with cuBLAS's exact column-major semantics
// (transposes and leading dimensions really matter), cuBLAS's parameter validation, and
// operand checks against the fake libcuda's allocation registry when it is loaded.
// Half/bfloat16 operands are computed in float and rounded to nearest even on store.
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#define FC_API extern "C" __attribute__((visibility("default")))
enum : int {
#define FC_ENUM(TYPE, NAME, VALUE) NAME = VALUE,
#include "enums_cublas.inc"
#undef FC_ENUM
};
typedef int cublasStatus_t;

namespace {
enum { OP_N = 0, OP_T = 1, OP_C = 2, TF32_MATH = 3 };

struct Handle { void* stream = nullptr; int math = 0, pointer_mode = 0; };
std::mutex g_mu;
std::set<Handle*> g_handles;
bool live(void* h) { std::lock_guard<std::mutex> lk(g_mu); return g_handles.count((Handle*)h); }

// fakecuda_check_range from the fake libcuda, if that is what is loaded (RTLD_NOLOAD: never
// load it from here). Without it, operands are not checked.
int (*checker())(const void*, size_t) {
  static int (*fn)(const void*, size_t) = [] {
    Dl_info info;
    std::vector<std::string> names{"libcuda.so.1", "libcuda.so"};
    if (dladdr((void*)&live, &info) && info.dli_fname) {
      std::string d = info.dli_fname;
      d = d.substr(0, d.rfind('/') + 1);
      names.insert(names.begin(), {d + "libcuda.so.1", d + "libcuda.so"});
    }
    for (auto& n : names)
      if (void* h = dlopen(n.c_str(), RTLD_LAZY | RTLD_NOLOAD))
        if (void* f = dlsym(h, "fakecuda_check_range")) return (int (*)(const void*, size_t))f;
    return (int (*)(const void*, size_t)) nullptr;
  }();
  return fn;
}
bool operand_ok(const char* fn, const char* what, const void* p, size_t bytes) {
  if (!bytes || !checker() || checker()(p, bytes)) return true;
  const char* q = getenv("FAKECUDA_QUIET");
  if (!q || !*q || *q == '0')
    fprintf(stderr, "fakecuda: %s: operand %s [%p, +%zu bytes) is not inside one live allocation\n",
            fn, what, p, bytes);
  return false;
}

// ------------------------------------------------------------------ element types
float bits_f(unsigned u) { float f; memcpy(&f, &u, 4); return f; }
unsigned f_bits(float f) { unsigned u; memcpy(&u, &f, 4); return u; }
float half_to_float(unsigned short h) {
  unsigned s = (unsigned)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0) { float v = (float)m * 5.9604644775390625e-8f; return s ? -v : v; }  // m * 2^-24
  if (e == 31) return bits_f(s | 0x7f800000 | (m << 13));
  return bits_f(s | ((e + 112) << 23) | (m << 13));
}
unsigned short float_to_half(float f) {  // round to nearest even
  unsigned x = f_bits(f), s = (x >> 16) & 0x8000;
  x &= 0x7fffffff;
  if (x >= 0x7f800000) return (unsigned short)(s | 0x7c00 | (x > 0x7f800000 ? 0x200 : 0));
  if (x >= 0x477ff000) return (unsigned short)(s | 0x7c00);  // >= 65520 rounds to inf
  unsigned h, rem, halfway;
  if (x < 0x38800000) {                                      // half subnormal (or zero)
    if (x < 0x33000000) return (unsigned short)s;
    unsigned e = x >> 23, m = (x & 0x7fffff) | 0x800000, sh = 126 - e;
    h = m >> sh; rem = m & ((1u << sh) - 1); halfway = 1u << (sh - 1);
  } else {
    unsigned r = x - 0x38000000;  // rebias the exponent from 127 to 15
    h = r >> 13; rem = r & 0x1fff; halfway = 0x1000;
  }
  if (rem > halfway || (rem == halfway && (h & 1))) h++;
  return (unsigned short)(s | h);
}
float bf16_to_float(unsigned short b) { return bits_f((unsigned)b << 16); }
unsigned short float_to_bf16(float f) {
  unsigned x = f_bits(f);
  if ((x & 0x7fffffff) > 0x7f800000) return (unsigned short)((x >> 16) | 0x40);
  return (unsigned short)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}
float round_tf32(float f) {  // 10 mantissa bits, nearest even
  unsigned x = f_bits(f);
  if ((x & 0x7f800000) == 0x7f800000) return f;
  return bits_f((x + 0xfff + ((x >> 13) & 1)) & ~0x1fffu);
}
size_t type_size(int t) {
  return t == CUDA_R_16F || t == CUDA_R_16BF ? 2 : t == CUDA_R_32F ? 4 : t == CUDA_R_64F ? 8 : 0;
}
double load(const void* p, size_t i, int t) {
  switch (t) {
    case CUDA_R_16F: return half_to_float(((const unsigned short*)p)[i]);
    case CUDA_R_16BF: return bf16_to_float(((const unsigned short*)p)[i]);
    case CUDA_R_32F: return ((const float*)p)[i];
    default: return ((const double*)p)[i];
  }
}
void store(void* p, size_t i, int t, double v) {
  switch (t) {
    case CUDA_R_16F: ((unsigned short*)p)[i] = float_to_half((float)v); break;
    case CUDA_R_16BF: ((unsigned short*)p)[i] = float_to_bf16((float)v); break;
    case CUDA_R_32F: ((float*)p)[i] = (float)v; break;
    default: ((double*)p)[i] = v;
  }
}

// ------------------------------------------------------------------ GEMM core
// acc(m x n) = opA(m x k) * opB(k x n), all packed column-major; four columns of C at a time
// so each pass over A feeds four accumulators.
template <class Acc>
void multiply(int m, int n, int k, const Acc* A, const Acc* B, Acc* acc) {
  std::fill(acc, acc + (size_t)m * n, Acc(0));
  for (int j0 = 0; j0 < n; j0 += 4) {
    int nb = std::min(4, n - j0);
    Acc* __restrict c0 = acc + (size_t)j0 * m;
    for (int p = 0; p < k; p++) {
      const Acc* __restrict a = A + (size_t)p * m;
      Acc b[4] = {0, 0, 0, 0};
      for (int q = 0; q < nb; q++) b[q] = B[(size_t)(j0 + q) * k + p];
      if (nb == 4) {
        Acc *__restrict c1 = c0 + m, *__restrict c2 = c1 + m, *__restrict c3 = c2 + m;
        for (int i = 0; i < m; i++) {
          Acc av = a[i];
          c0[i] += av * b[0]; c1[i] += av * b[1]; c2[i] += av * b[2]; c3[i] += av * b[3];
        }
      } else {
        for (int q = 0; q < nb; q++)
          for (int i = 0; i < m; i++) c0[(size_t)q * m + i] += a[i] * b[q];
      }
    }
  }
}

struct Gemm {
  const char* fn;
  int ta, tb, m, n, k;
  const void* alpha; const void* beta;  // scale type: by compute type
  const void* A; int at; long long lda, sa;
  const void* B; int bt; long long ldb, sb;
  void* C; int ct; long long ldc, sc;
  int batch, compute;
  const void* const* Aarr = nullptr; const void* const* Barr = nullptr; void* const* Carr = nullptr;
};

template <class Acc>
cublasStatus_t run(Handle* h, const Gemm& g) {
  int round_in = -1;  // type the inputs are first rounded to (reduced-precision compute)
  if (g.compute == CUBLAS_COMPUTE_32F_FAST_16F) round_in = CUDA_R_16F;
  if (g.compute == CUBLAS_COMPUTE_32F_FAST_16BF) round_in = CUDA_R_16BF;
  bool tf32 = g.compute == CUBLAS_COMPUTE_32F_FAST_TF32 ||
              ((h->math & 0xf) == TF32_MATH && g.compute == CUBLAS_COMPUTE_32F && g.at == CUDA_R_32F);
  double alpha, beta;
  if (g.compute == CUBLAS_COMPUTE_16F || g.compute == CUBLAS_COMPUTE_16F_PEDANTIC) {
    alpha = load(g.alpha, 0, CUDA_R_16F); beta = load(g.beta, 0, CUDA_R_16F);
  } else if (sizeof(Acc) == 8) {
    alpha = *(const double*)g.alpha; beta = *(const double*)g.beta;
  } else {
    alpha = *(const float*)g.alpha; beta = *(const float*)g.beta;
  }
  auto prep = [&](double v) -> Acc {
    if (round_in == CUDA_R_16F) v = half_to_float(float_to_half((float)v));
    if (round_in == CUDA_R_16BF) v = bf16_to_float(float_to_bf16((float)v));
    return (Acc)(tf32 ? round_tf32((float)v) : v);
  };
  size_t m = g.m, n = g.n, k = g.k;
  std::vector<Acc> A(m * k), B(k * n), acc(m * n);
  for (int b = 0; b < g.batch; b++) {
    const void* Ab = g.Aarr ? g.Aarr[b] : (const char*)g.A + b * g.sa * (long long)type_size(g.at);
    const void* Bb = g.Barr ? g.Barr[b] : (const char*)g.B + b * g.sb * (long long)type_size(g.bt);
    void* Cb = g.Carr ? g.Carr[b] : (char*)g.C + b * g.sc * (long long)type_size(g.ct);
    bool use_ab = k > 0 && alpha != 0.0;
    if (use_ab) {
      for (size_t p = 0; p < k; p++)
        for (size_t i = 0; i < m; i++) {
          A[p * m + i] = prep(load(Ab, g.ta == OP_N ? i + p * g.lda : p + i * g.lda, g.at));
        }
      for (size_t j = 0; j < n; j++)
        for (size_t p = 0; p < k; p++) {
          B[j * k + p] = prep(load(Bb, g.tb == OP_N ? p + j * g.ldb : j + p * g.ldb, g.bt));
        }
      multiply<Acc>((int)m, (int)n, (int)k, A.data(), B.data(), acc.data());
    }
    for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < m; i++) {
        size_t ci = i + j * g.ldc;
        Acc v = use_ab ? (Acc)alpha * acc[j * m + i] : Acc(0);
        if (beta != 0.0) v += (Acc)beta * (Acc)load(Cb, ci, g.ct);  // beta == 0: C is not read
        store(Cb, ci, g.ct, v);
      }
  }
  return CUBLAS_STATUS_SUCCESS;
}

// Extent in bytes of a column-major rows x cols operand with leading dimension ld.
size_t extent(long long rows, long long cols, long long ld, int t) {
  return rows && cols ? (size_t)((cols - 1) * ld + rows) * type_size(t) : 0;
}
bool batch_ok(const Gemm& g, const char* what, const void* base, const void* const* arr,
              long long stride, long long rows, long long cols, long long ld, int t) {
  size_t one = extent(rows, cols, ld, t);
  if (!one) return true;
  if (arr) {
    if (!operand_ok(g.fn, "pointer array", arr, sizeof(void*) * g.batch)) return false;
    for (int b = 0; b < g.batch; b++) if (!operand_ok(g.fn, what, arr[b], one)) return false;
    return true;
  }
  long long s = stride * (long long)type_size(t);  // all batches, in one allocation
  const char* lo = (const char*)base + (s < 0 ? s * (g.batch - 1) : 0);
  return operand_ok(g.fn, what, lo, one + (size_t)(s < 0 ? -s : s) * (g.batch - 1));
}

cublasStatus_t gemm(void* hv, Gemm g) {
  if (!live(hv)) return CUBLAS_STATUS_NOT_INITIALIZED;
  Handle* h = (Handle*)hv;
  auto op_ok = [](int op) { return op == OP_N || op == OP_T || op == OP_C; };
  if (!op_ok(g.ta) || !op_ok(g.tb) || g.m < 0 || g.n < 0 || g.k < 0 || g.batch < 0 ||
      g.lda < std::max(1, g.ta == OP_N ? g.m : g.k) || g.ldb < std::max(1, g.tb == OP_N ? g.k : g.n) ||
      g.ldc < std::max(1, g.m))
    return CUBLAS_STATUS_INVALID_VALUE;
  const int c = g.compute;
  const bool c16 = c == CUBLAS_COMPUTE_16F || c == CUBLAS_COMPUTE_16F_PEDANTIC;
  const bool c32 = c == CUBLAS_COMPUTE_32F || c == CUBLAS_COMPUTE_32F_PEDANTIC;
  const bool c32fast = c == CUBLAS_COMPUTE_32F_FAST_16F || c == CUBLAS_COMPUTE_32F_FAST_16BF ||
                       c == CUBLAS_COMPUTE_32F_FAST_TF32;
  const bool c64 = c == CUBLAS_COMPUTE_64F || c == CUBLAS_COMPUTE_64F_PEDANTIC;
  const int at = g.at;
  bool types = g.at == g.bt &&
               ((c16 && at == CUDA_R_16F && g.ct == CUDA_R_16F) ||
                (c32 && (at == CUDA_R_16F || at == CUDA_R_16BF) && (g.ct == at || g.ct == CUDA_R_32F)) ||
                ((c32 || c32fast) && at == CUDA_R_32F && g.ct == CUDA_R_32F) ||
                (c64 && at == CUDA_R_64F && g.ct == CUDA_R_64F));
  if (!types) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (g.m == 0 || g.n == 0 || g.batch == 0) return CUBLAS_STATUS_SUCCESS;
  if (!g.alpha || !g.beta || (!g.Aarr && !g.A && g.k) || (!g.Barr && !g.B && g.k) || (!g.Carr && !g.C))
    return CUBLAS_STATUS_INVALID_VALUE;
  long long ar = g.ta == OP_N ? g.m : g.k, ac = g.ta == OP_N ? g.k : g.m;
  long long br = g.tb == OP_N ? g.k : g.n, bc = g.tb == OP_N ? g.n : g.k;
  if (!batch_ok(g, "A", g.A, g.Aarr, g.sa, ar, ac, g.lda, g.at) ||
      !batch_ok(g, "B", g.B, g.Barr, g.sb, br, bc, g.ldb, g.bt) ||
      !batch_ok(g, "C", g.C, (const void* const*)g.Carr, g.sc, g.m, g.n, g.ldc, g.ct))
    return CUBLAS_STATUS_EXECUTION_FAILED;  // a GPU would fault on the access
  return c64 ? run<double>(h, g) : run<float>(h, g);
}
}  // namespace

// ------------------------------------------------------------------ handle management
FC_API cublasStatus_t cublasCreate_v2(void** out) {
  if (!out) return CUBLAS_STATUS_INVALID_VALUE;
  Handle* h = new Handle;
  std::lock_guard<std::mutex> lk(g_mu);
  g_handles.insert(h);
  *out = h;
  return CUBLAS_STATUS_SUCCESS;
}
FC_API cublasStatus_t cublasDestroy_v2(void* h) {
  std::lock_guard<std::mutex> lk(g_mu);
  if (!g_handles.erase((Handle*)h)) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete (Handle*)h;
  return CUBLAS_STATUS_SUCCESS;
}
#define FC_HANDLE(h) if (!live(h)) return CUBLAS_STATUS_NOT_INITIALIZED
#define FC_OUT(p) if (!(p)) return CUBLAS_STATUS_INVALID_VALUE
FC_API cublasStatus_t cublasSetStream_v2(void* h, void* s) { FC_HANDLE(h); ((Handle*)h)->stream = s; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasGetStream_v2(void* h, void** s) { FC_HANDLE(h); FC_OUT(s); *s = ((Handle*)h)->stream; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasSetMathMode(void* h, int m) { FC_HANDLE(h); ((Handle*)h)->math = m; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasGetMathMode(void* h, int* m) { FC_HANDLE(h); FC_OUT(m); *m = ((Handle*)h)->math; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasSetPointerMode_v2(void* h, int m) {
  FC_HANDLE(h);
  if (m != 0 && m != 1) return CUBLAS_STATUS_INVALID_VALUE;
  ((Handle*)h)->pointer_mode = m;  // device pointers are host addresses: both read directly
  return CUBLAS_STATUS_SUCCESS;
}
FC_API cublasStatus_t cublasGetPointerMode_v2(void* h, int* m) { FC_HANDLE(h); FC_OUT(m); *m = ((Handle*)h)->pointer_mode; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasSetWorkspace_v2(void* h, void*, size_t) { FC_HANDLE(h); return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasGetVersion_v2(void* h, int* v) { FC_HANDLE(h); FC_OUT(v); *v = 130000; return CUBLAS_STATUS_SUCCESS; }
FC_API cublasStatus_t cublasGetProperty(int type, int* v) {
  FC_OUT(v);
  if (type < 0 || type > 2) return CUBLAS_STATUS_INVALID_VALUE;
  *v = type == 0 ? 13 : 0;
  return CUBLAS_STATUS_SUCCESS;
}
FC_API size_t cublasGetCudartVersion() { return 13000; }
FC_API const char* cublasGetStatusName(cublasStatus_t s) {
  struct Entry { const char* type; const char* name; int value; };
  static const Entry table[] = {
#define FC_ENUM(TYPE, NAME, VALUE) {#TYPE, #NAME, VALUE},
#include "enums_cublas.inc"
#undef FC_ENUM
  };
  for (const Entry& e : table)
    if (e.value == s && !strcmp(e.type, "cublasStatus_t")) return e.name;
  return "CUBLAS_STATUS_UNKNOWN";
}
FC_API const char* cublasGetStatusString(cublasStatus_t s) { return cublasGetStatusName(s); }

// FAKECUDA_MINIMAL=1: only the entry points the contract lists (measured from
// cudarc 0.19.10) answer; the rest say NOT_SUPPORTED, as a leaner driver would.
static bool minimal() {
  const char* v = getenv("FAKECUDA_MINIMAL");
  return v && *v && *v != '0';
}

// ------------------------------------------------------------------ GEMM entry points
#define FC_SIMPLE_GEMM(NAME, T, TYPE, COMPUTE)                                              \
  static cublasStatus_t NAME##_impl(void* h, int ta, int tb, int m, int n, int k, const T* al, \
                             const T* A, int lda, const T* B, int ldb, const T* be, T* C,    \
                             int ldc) {                                                      \
    return gemm(h, {#NAME, ta, tb, m, n, k, al, be, A, TYPE, lda, 0, B, TYPE, ldb, 0, C,     \
                    TYPE, ldc, 0, 1, COMPUTE});                                              \
  }                                                                                          \
  FC_API cublasStatus_t NAME##StridedBatched(void* h, int ta, int tb, int m, int n, int k,   \
      const T* al, const T* A, int lda, long long sa, const T* B, int ldb, long long sb,     \
      const T* be, T* C, int ldc, long long sc, int batch) {                                 \
    if (minimal()) return CUBLAS_STATUS_NOT_SUPPORTED;                                       \
    return gemm(h, {#NAME "StridedBatched", ta, tb, m, n, k, al, be, A, TYPE, lda, sa, B,    \
                    TYPE, ldb, sb, C, TYPE, ldc, sc, batch, COMPUTE});                       \
  }                                                                                          \
  FC_API cublasStatus_t NAME##Batched(void* h, int ta, int tb, int m, int n, int k,          \
      const T* al, const T* const* A, int lda, const T* const* B, int ldb, const T* be,      \
      T* const* C, int ldc, int batch) {                                                     \
    Gemm g{#NAME "Batched", ta, tb, m, n, k, al, be, nullptr, TYPE, lda, 0, nullptr, TYPE,   \
           ldb, 0, nullptr, TYPE, ldc, 0, batch, COMPUTE, (const void* const*)A,             \
           (const void* const*)B, (void* const*)C};                                          \
    return (A && B && C) || batch == 0 ? gemm(h, g) : CUBLAS_STATUS_INVALID_VALUE;           \
  }
FC_SIMPLE_GEMM(cublasSgemm, float, CUDA_R_32F, CUBLAS_COMPUTE_32F)
FC_SIMPLE_GEMM(cublasDgemm, double, CUDA_R_64F, CUBLAS_COMPUTE_64F)
FC_SIMPLE_GEMM(cublasHgemm, unsigned short, CUDA_R_16F, CUBLAS_COMPUTE_16F)
// (cublasSgemm/cublasDgemm without _v2 are the legacy handle-less API: not provided.)
FC_API cublasStatus_t cublasSgemm_v2(void* h, int ta, int tb, int m, int n, int k, const float* al,
                                     const float* A, int lda, const float* B, int ldb,
                                     const float* be, float* C, int ldc) {
  return cublasSgemm_impl(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
FC_API cublasStatus_t cublasDgemm_v2(void* h, int ta, int tb, int m, int n, int k, const double* al,
                                     const double* A, int lda, const double* B, int ldb,
                                     const double* be, double* C, int ldc) {
  return cublasDgemm_impl(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
FC_API cublasStatus_t cublasHgemm(void* h, int ta, int tb, int m, int n, int k,
                                  const unsigned short* al, const unsigned short* A, int lda,
                                  const unsigned short* B, int ldb, const unsigned short* be,
                                  unsigned short* C, int ldc) {
  return cublasHgemm_impl(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
FC_API cublasStatus_t cublasGemmEx(void* h, int ta, int tb, int m, int n, int k, const void* al,
                                   const void* A, int at, int lda, const void* B, int bt, int ldb,
                                   const void* be, void* C, int ct, int ldc, int compute, int /*algo*/) {
  return gemm(h, {"cublasGemmEx", ta, tb, m, n, k, al, be, A, at, lda, 0, B, bt, ldb, 0, C, ct,
                  ldc, 0, 1, compute});
}
FC_API cublasStatus_t cublasGemmStridedBatchedEx(void* h, int ta, int tb, int m, int n, int k,
    const void* al, const void* A, int at, int lda, long long sa, const void* B, int bt, int ldb,
    long long sb, const void* be, void* C, int ct, int ldc, long long sc, int batch, int compute,
    int /*algo*/) {
  return gemm(h, {"cublasGemmStridedBatchedEx", ta, tb, m, n, k, al, be, A, at, lda, sa, B, bt,
                  ldb, sb, C, ct, ldc, sc, batch, compute});
}
FC_API cublasStatus_t cublasGemmBatchedEx(void* h, int ta, int tb, int m, int n, int k,
    const void* al, const void* const* A, int at, int lda, const void* const* B, int bt, int ldb,
    const void* be, void* const* C, int ct, int ldc, int batch, int compute, int /*algo*/) {
  if ((!A || !B || !C) && batch) return live(h) ? CUBLAS_STATUS_INVALID_VALUE : CUBLAS_STATUS_NOT_INITIALIZED;
  return gemm(h, {"cublasGemmBatchedEx", ta, tb, m, n, k, al, be, nullptr, at, lda, 0, nullptr,
                  bt, ldb, 0, nullptr, ct, ldc, 0, batch, compute, A, B, C});
}

// y = alpha op(A) x + beta y (A is m x n)
template <class T>
static cublasStatus_t gemv(void* h, int t, int m, int n, const T* al, const T* A, int lda,
                           const T* x, int incx, const T* be, T* y, int incy) {
  FC_HANDLE(h);
  if ((t != OP_N && t != OP_T && t != OP_C) || m < 0 || n < 0 || lda < std::max(1, m) || !incx || !incy)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (!m || !n) return CUBLAS_STATUS_SUCCESS;
  if (!al || !be) return CUBLAS_STATUS_INVALID_VALUE;
  long long xl = t == OP_N ? n : m, yl = t == OP_N ? m : n;
  auto span = [](long long len, int inc) { return (size_t)((len - 1) * (inc < 0 ? -inc : inc) + 1) * sizeof(T); };
  auto first = [](const T* p, long long len, int inc) { return inc < 0 ? p + (len - 1) * inc : p; };
  if (!operand_ok("gemv", "A", A, extent(m, n, lda, sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F)) ||
      !operand_ok("gemv", "x", first(x, xl, incx), span(xl, incx)) ||
      !operand_ok("gemv", "y", first(y, yl, incy), span(yl, incy)))
    return CUBLAS_STATUS_EXECUTION_FAILED;
  std::vector<double> r(yl, 0.0);
  for (long long i = 0; i < m; i++)
    for (long long j = 0; j < n; j++) {
      double a = A[i + j * lda];
      if (t == OP_N) r[i] += a * x[(incx > 0 ? j : j - xl + 1) * incx];
      else r[j] += a * x[(incx > 0 ? i : i - xl + 1) * incx];
    }
  for (long long i = 0; i < yl; i++) {
    T& yi = y[(incy > 0 ? i : i - yl + 1) * incy];
    yi = (T)(*al * r[i] + (*be != 0 ? *be * yi : 0));
  }
  return CUBLAS_STATUS_SUCCESS;
}
FC_API cublasStatus_t cublasSgemv_v2(void* h, int t, int m, int n, const float* al, const float* A,
                                     int lda, const float* x, int incx, const float* be, float* y, int incy) {
  return gemv(h, t, m, n, al, A, lda, x, incx, be, y, incy);
}
FC_API cublasStatus_t cublasDgemv_v2(void* h, int t, int m, int n, const double* al, const double* A,
                                     int lda, const double* x, int incx, const double* be, double* y, int incy) {
  return gemv(h, t, m, n, al, A, lda, x, incx, be, y, incy);
}
