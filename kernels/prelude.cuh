// Shared by every kernel source: tsh's element types, their conversions, and
// the strided layout every kernel reads its operands through. The host prepends
// this text (and a block of #defines naming the op and dtype codes) to each
// kernels/*.cu before NVRTC compiles it. Self-contained on purpose: NVRTC
// without the CUDA toolkit's headers has no <cstdint>, no cuda_fp16.h, and no
// INFINITY or NAN, so the half types and special values are written here.

typedef long long i64;
typedef unsigned long long u64;
typedef unsigned int u32;

// The most dims a layout passed to a kernel may have once the host has merged
// the dims that are contiguous with each other (a [64, 3, 32, 32] contiguous
// tensor is one dim). Layouts beyond it are refused on the host, not here.
#define MAXD 12

// A layout: element i (row-major over `shape`) sits at `offset + sum(idx * stride)`.
struct Strided {
    i64 offset;
    i64 ndim;
    i64 shape[MAXD];
    i64 stride[MAXD];
};

__device__ __forceinline__ i64 at(const Strided& l, i64 i) {
    i64 off = l.offset;
#pragma unroll 1
    for (int d = (int)l.ndim - 1; d >= 0; --d) {
        i64 s = l.shape[d];
        off += (i % s) * l.stride[d];
        i /= s;
    }
    return off;
}

// Grid-stride loops: any grid size covers any n.
#define FOR_EACH(i, n) \
    for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
         i += (i64)blockDim.x * gridDim.x)

__device__ __forceinline__ double f64_nan() { return __longlong_as_double(0x7ff8000000000000LL); }
__device__ __forceinline__ double f64_inf() { return __longlong_as_double(0x7ff0000000000000LL); }
__device__ __forceinline__ float f32_nan() { return __int_as_float(0x7fc00000); }
__device__ __forceinline__ float f32_inf() { return __int_as_float(0x7f800000); }

// ---- half types: storage is the bit pattern; arithmetic happens in float ----

struct f16 { unsigned short bits; };
struct bf16 { unsigned short bits; };

__device__ __forceinline__ float f16_to_f32(f16 h) {
    u32 sign = (u32)(h.bits & 0x8000) << 16;
    u32 exp = (h.bits >> 10) & 0x1f;
    u32 man = h.bits & 0x3ff;
    if (exp == 0x1f) return __uint_as_float(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        // Subnormal (or zero): man * 2^-24, exact in float.
        float v = (float)man * 5.9604644775390625e-8f;
        return sign ? -v : v;
    }
    return __uint_as_float(sign | ((exp + 112) << 23) | (man << 13));
}

// Round a magnitude given as an integer significand `m` (with `mbits`
// fraction bits below its leading one) and unbiased exponent `e` to half,
// nearest even. One routine for float and double sources, so that a double
// rounds to half directly (no double rounding through float).
__device__ __forceinline__ unsigned short half_round(u64 m, int mbits, int e, u32 sign) {
    if (e > 15) return (unsigned short)(sign | 0x7c00);
    int shift;
    u32 base;
    if (e >= -14) {
        shift = mbits - 10;                 // keep 10 fraction bits
        base = (u32)(e + 15) << 10;
        m &= ((u64)1 << mbits) - 1;         // drop the implicit one (it is in base)
    } else {
        shift = mbits - 10 + (-14 - e);     // subnormal: value / 2^-24
        base = 0;
        if (shift > 62) return (unsigned short)sign;
    }
    u64 q = m >> shift;
    u64 rem = m & (((u64)1 << shift) - 1);
    u64 half = (u64)1 << (shift - 1);
    u32 out = base + (u32)q;
    if (rem > half || (rem == half && (out & 1))) out += 1;  // may carry into exponent/inf
    return (unsigned short)(sign | out);
}

__device__ __forceinline__ f16 f32_to_f16(float f) {
    u32 x = __float_as_uint(f);
    u32 sign = (x >> 16) & 0x8000;
    u32 ax = x & 0x7fffffff;
    f16 h;
    if (ax >= 0x7f800000) { h.bits = (unsigned short)(sign | (ax > 0x7f800000 ? 0x7e00 : 0x7c00)); return h; }
    if (ax == 0) { h.bits = (unsigned short)sign; return h; }
    int e = (int)(ax >> 23) - 127;
    u64 m = (ax & 0x7fffff);
    if (e == -127) { // float subnormal: far below half's range
        h.bits = (unsigned short)sign;
        return h;
    }
    m |= 0x800000;
    h.bits = half_round(m, 23, e, sign);
    return h;
}

__device__ __forceinline__ f16 f64_to_f16(double d) {
    u64 x = (u64)__double_as_longlong(d);
    u32 sign = (u32)(x >> 48) & 0x8000;
    u64 ax = x & 0x7fffffffffffffffULL;
    f16 h;
    if (ax >= 0x7ff0000000000000ULL) { h.bits = (unsigned short)(sign | (ax > 0x7ff0000000000000ULL ? 0x7e00 : 0x7c00)); return h; }
    int e = (int)(ax >> 52) - 1023;
    if (ax == 0 || e < -40) { h.bits = (unsigned short)sign; return h; }
    u64 m = (ax & 0xfffffffffffffULL) | 0x10000000000000ULL;
    h.bits = half_round(m, 52, e, sign);
    return h;
}

__device__ __forceinline__ float bf16_to_f32(bf16 b) { return __uint_as_float((u32)b.bits << 16); }

__device__ __forceinline__ bf16 f32_to_bf16(float f) {
    u32 x = __float_as_uint(f);
    bf16 b;
    if ((x & 0x7fffffff) > 0x7f800000) { b.bits = (unsigned short)((x >> 16) | 0x40); return b; }
    x += 0x7fff + ((x >> 16) & 1);
    b.bits = (unsigned short)(x >> 16);
    return b;
}

// Directly from double, nearest even (bf16 keeps 7 fraction bits of float's
// exponent range): round the double's 52-bit fraction to 7 bits.
__device__ __forceinline__ bf16 f64_to_bf16(double d) {
    u64 x = (u64)__double_as_longlong(d);
    u32 sign = (u32)(x >> 48) & 0x8000;
    u64 ax = x & 0x7fffffffffffffffULL;
    bf16 b;
    if (ax > 0x7ff0000000000000ULL) { b.bits = (unsigned short)(sign | 0x7fc0); return b; }
    if (ax == 0x7ff0000000000000ULL) { b.bits = (unsigned short)(sign | 0x7f80); return b; }
    int e = (int)(ax >> 52) - 1023;
    if (ax == 0 || e < -140) { b.bits = (unsigned short)sign; return b; }
    u64 m = (ax & 0xfffffffffffffULL) | 0x10000000000000ULL;
    if (e > 127) { b.bits = (unsigned short)(sign | 0x7f80); return b; }
    int shift;
    u32 base;
    if (e >= -126) {
        shift = 52 - 7;
        base = (u32)(e + 127) << 7;
        m &= 0xfffffffffffffULL;
    } else {
        shift = 52 - 7 + (-126 - e);
        base = 0;
    }
    u64 q = m >> shift;
    u64 rem = m & (((u64)1 << shift) - 1);
    u64 half = (u64)1 << (shift - 1);
    u32 out = base + (u32)q;
    if (rem > half || (rem == half && (out & 1))) out += 1;
    b.bits = (unsigned short)(sign | out);
    return b;
}

// Float to integer as PyTorch's casts on x86 (cvttsd2si): truncate toward
// zero; NaN or out of range gives the minimum. Narrower than 64 bits goes
// through int32 and then wraps, as C does.
__device__ __forceinline__ i64 float_to_int(double v, int width) {
    if (width == 8) {
        if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return (i64)0x8000000000000000ULL;
        return (i64)v;
    }
    if (!(v >= -2147483648.0 && v < 2147483648.0)) return -2147483648LL;
    return (i64)(int)v;
}

// ---- one traits struct per storage type ----
// acc: the type arithmetic happens in (float for the halves and float, double,
// i64 for integers and bool), with the conversions the CPU backend uses.

template <typename T> struct Ty;

#define INT_TY(T, W)                                                              \
    template <> struct Ty<T> {                                                    \
        typedef i64 acc;                                                          \
        static const bool is_float = false;                                       \
        static __device__ __forceinline__ i64 to_acc(T x) { return (i64)x; }      \
        static __device__ __forceinline__ T from_acc(i64 a) { return (T)a; }      \
        static __device__ __forceinline__ double to_f64(T x) { return (double)x; } \
        static __device__ __forceinline__ i64 to_i64(T x) { return (i64)x; }      \
        static __device__ __forceinline__ T from_f64(double v) { return (T)float_to_int(v, W); } \
        static __device__ __forceinline__ T from_i64(i64 v) { return (T)v; }      \
    };
INT_TY(unsigned char, 1)
INT_TY(signed char, 1)
INT_TY(short, 2)
INT_TY(int, 4)
INT_TY(i64, 8)

template <> struct Ty<bool> {
    typedef i64 acc;
    static const bool is_float = false;
    static __device__ __forceinline__ i64 to_acc(bool x) { return x ? 1 : 0; }
    static __device__ __forceinline__ bool from_acc(i64 a) { return a != 0; }
    static __device__ __forceinline__ double to_f64(bool x) { return x ? 1.0 : 0.0; }
    static __device__ __forceinline__ i64 to_i64(bool x) { return x ? 1 : 0; }
    static __device__ __forceinline__ bool from_f64(double v) { return v != 0.0; }
    static __device__ __forceinline__ bool from_i64(i64 v) { return v != 0; }
};

template <> struct Ty<float> {
    typedef float acc;
    static const bool is_float = true;
    static __device__ __forceinline__ float to_acc(float x) { return x; }
    static __device__ __forceinline__ float from_acc(float a) { return a; }
    static __device__ __forceinline__ double to_f64(float x) { return (double)x; }
    static __device__ __forceinline__ i64 to_i64(float x) { return float_to_int((double)x, 8); }
    static __device__ __forceinline__ float from_f64(double v) { return (float)v; }
    static __device__ __forceinline__ float from_i64(i64 v) { return (float)v; }
};

template <> struct Ty<double> {
    typedef double acc;
    static const bool is_float = true;
    static __device__ __forceinline__ double to_acc(double x) { return x; }
    static __device__ __forceinline__ double from_acc(double a) { return a; }
    static __device__ __forceinline__ double to_f64(double x) { return x; }
    static __device__ __forceinline__ i64 to_i64(double x) { return float_to_int(x, 8); }
    static __device__ __forceinline__ double from_f64(double v) { return v; }
    static __device__ __forceinline__ double from_i64(i64 v) { return (double)v; }
};

template <> struct Ty<f16> {
    typedef float acc;
    static const bool is_float = true;
    static __device__ __forceinline__ float to_acc(f16 x) { return f16_to_f32(x); }
    static __device__ __forceinline__ f16 from_acc(float a) { return f32_to_f16(a); }
    static __device__ __forceinline__ double to_f64(f16 x) { return (double)f16_to_f32(x); }
    static __device__ __forceinline__ i64 to_i64(f16 x) { return float_to_int((double)f16_to_f32(x), 8); }
    static __device__ __forceinline__ f16 from_f64(double v) { return f64_to_f16(v); }
    static __device__ __forceinline__ f16 from_i64(i64 v) { return f64_to_f16((double)v); }
};

template <> struct Ty<bf16> {
    typedef float acc;
    static const bool is_float = true;
    static __device__ __forceinline__ float to_acc(bf16 x) { return bf16_to_f32(x); }
    static __device__ __forceinline__ bf16 from_acc(float a) { return f32_to_bf16(a); }
    static __device__ __forceinline__ double to_f64(bf16 x) { return (double)bf16_to_f32(x); }
    static __device__ __forceinline__ i64 to_i64(bf16 x) { return float_to_int((double)bf16_to_f32(x), 8); }
    static __device__ __forceinline__ bf16 from_f64(double v) { return f64_to_bf16(v); }
    static __device__ __forceinline__ bf16 from_i64(i64 v) { return f64_to_bf16((double)v); }
};

// Stamp a kernel once per dtype: X(suffix, type).
#define FOR_ALL_DTYPES(X) \
    X(bool, bool)         \
    X(u8, unsigned char)  \
    X(i8, signed char)    \
    X(i16, short)         \
    X(i32, int)           \
    X(i64, i64)           \
    X(f16, f16)           \
    X(bf16, bf16)         \
    X(f32, float)         \
    X(f64, double)

// Write a result of either kind into an output of the dtype code `dt`
// (reductions whose output dtype differs from their input's).
__device__ __forceinline__ void store_dtype(void* out, i64 i, int dt, double f, i64 n, bool is_float) {
    switch (dt) {
    case DT_BOOL: ((bool*)out)[i] = is_float ? Ty<bool>::from_f64(f) : Ty<bool>::from_i64(n); break;
    case DT_U8: ((unsigned char*)out)[i] = is_float ? Ty<unsigned char>::from_f64(f) : Ty<unsigned char>::from_i64(n); break;
    case DT_I8: ((signed char*)out)[i] = is_float ? Ty<signed char>::from_f64(f) : Ty<signed char>::from_i64(n); break;
    case DT_I16: ((short*)out)[i] = is_float ? Ty<short>::from_f64(f) : Ty<short>::from_i64(n); break;
    case DT_I32: ((int*)out)[i] = is_float ? Ty<int>::from_f64(f) : Ty<int>::from_i64(n); break;
    case DT_I64: ((i64*)out)[i] = is_float ? Ty<i64>::from_f64(f) : n; break;
    case DT_F16: ((f16*)out)[i] = is_float ? f64_to_f16(f) : f64_to_f16((double)n); break;
    case DT_BF16: ((bf16*)out)[i] = is_float ? f64_to_bf16(f) : f64_to_bf16((double)n); break;
    case DT_F32: ((float*)out)[i] = is_float ? (float)f : (float)(double)n; break;
    default: ((double*)out)[i] = is_float ? f : (double)n; break;
    }
}
