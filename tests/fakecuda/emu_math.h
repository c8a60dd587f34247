// fakecuda emulation header, part 2: the CUDA math API, min/max, bit and conversion
// intrinsics, as host functions. Included by emu.h only (it needs __FC_FN); no system
// header, for the reasons given there.
#ifndef FAKECUDA_EMU_MATH_H
#define FAKECUDA_EMU_MATH_H

// ---------------------------------------------------------------- math (libm + CUDA extras)
// Float overloads of the double names, as CUDA's C++ math API has them (sin(float) ...).
#define __FC_M1(N)                                                                          \
  extern "C" double N(double) noexcept; extern "C" float N##f(float) noexcept;               \
  __FC_FN float N(float x) { return N##f(x); }
#define __FC_M2(N)                                                                          \
  extern "C" double N(double, double) noexcept; extern "C" float N##f(float, float) noexcept; \
  __FC_FN float N(float x, float y) { return N##f(x, y); }
__FC_M1(exp) __FC_M1(exp2) __FC_M1(exp10) __FC_M1(expm1) __FC_M1(log) __FC_M1(log2)
__FC_M1(log10) __FC_M1(log1p) __FC_M1(logb) __FC_M1(sqrt) __FC_M1(cbrt) __FC_M1(sin)
__FC_M1(cos) __FC_M1(tan) __FC_M1(asin) __FC_M1(acos) __FC_M1(atan) __FC_M1(sinh)
__FC_M1(cosh) __FC_M1(tanh) __FC_M1(asinh) __FC_M1(acosh) __FC_M1(atanh) __FC_M1(erf)
__FC_M1(erfc) __FC_M1(lgamma) __FC_M1(tgamma) __FC_M1(fabs) __FC_M1(floor) __FC_M1(ceil)
__FC_M1(trunc) __FC_M1(round) __FC_M1(rint) __FC_M1(nearbyint) __FC_M1(j0) __FC_M1(j1)
__FC_M1(y0) __FC_M1(y1)
__FC_M2(atan2) __FC_M2(pow) __FC_M2(fmod) __FC_M2(remainder) __FC_M2(hypot) __FC_M2(copysign)
__FC_M2(fmax) __FC_M2(fmin) __FC_M2(fdim) __FC_M2(nextafter)
extern "C" {
double fma(double, double, double) noexcept; float fmaf(float, float, float) noexcept;
double ldexp(double, int) noexcept; float ldexpf(float, int) noexcept;
double scalbn(double, int) noexcept; float scalbnf(float, int) noexcept;
double frexp(double, int*) noexcept; float frexpf(float, int*) noexcept;
double modf(double, double*) noexcept; float modff(float, float*) noexcept;
double remquo(double, double, int*) noexcept; float remquof(float, float, int*) noexcept;
int ilogb(double) noexcept; int ilogbf(float) noexcept;
long lround(double) noexcept; long lroundf(float) noexcept;
long long llround(double) noexcept; long long llroundf(float) noexcept;
long lrint(double) noexcept; long lrintf(float) noexcept;
long long llrint(double) noexcept; long long llrintf(float) noexcept;
double nan(const char*) noexcept; float nanf(const char*) noexcept;
void sincos(double, double*, double*) noexcept; void sincosf(float, float*, float*) noexcept;
}
__FC_FN float fma(float a, float b, float c) { return fmaf(a, b, c); }
__FC_FN float ldexp(float x, int e) { return ldexpf(x, e); }
__FC_FN float scalbn(float x, int e) { return scalbnf(x, e); }
__FC_FN float frexp(float x, int* e) { return frexpf(x, e); }
__FC_FN float modf(float x, float* i) { return modff(x, i); }
__FC_FN float remquo(float x, float y, int* q) { return remquof(x, y, q); }
__FC_FN int ilogb(float x) { return ilogbf(x); }
__FC_FN long lround(float x) { return lroundf(x); }
__FC_FN long long llround(float x) { return llroundf(x); }
__FC_FN long lrint(float x) { return lrintf(x); }
__FC_FN long long llrint(float x) { return llrintf(x); }
__FC_FN void sincos(float x, float* s, float* c) { sincosf(x, s, c); }
__FC_FN float abs(float x) { return fabsf(x); }
__FC_FN double abs(double x) { return fabs(x); }
__FC_FN int abs(int x) { return x < 0 ? -x : x; }
__FC_FN long abs(long x) { return labs(x); }
__FC_FN long long abs(long long x) { return llabs(x); }
#define __FC_CLASSIFY(N, B)                                                                 \
  __FC_FN bool N(float x) { return B(x); } __FC_FN bool N(double x) { return B(x); }
__FC_CLASSIFY(isnan, __builtin_isnan) __FC_CLASSIFY(isinf, __builtin_isinf)
__FC_CLASSIFY(isfinite, __builtin_isfinite) __FC_CLASSIFY(signbit, __builtin_signbit)

// CUDA-only functions, computed in double where that makes the float version exact enough.
__FC_FN float rsqrtf(float x) { return 1.0f / sqrtf(x); }
__FC_FN double rsqrt(double x) { return 1.0 / sqrt(x); }
__FC_FN float rsqrt(float x) { return rsqrtf(x); }
__FC_FN float rcbrtf(float x) { return 1.0f / cbrtf(x); }
__FC_FN double rcbrt(double x) { return 1.0 / cbrt(x); }
__FC_FN float fdividef(float a, float b) { return a / b; }
__FC_FN double sinpi(double x) {
  double r = remainder(x, 2.0);  // exact, in [-1, 1]
  if (r == 0.0 || r == 1.0 || r == -1.0) return copysign(0.0, x);
  return sin(3.141592653589793238 * r);
}
__FC_FN double cospi(double x) {
  double r = fabs(remainder(x, 2.0));
  if (r == 0.5) return 0.0;
  return cos(3.141592653589793238 * r);
}
__FC_FN float sinpif(float x) { return (float)sinpi(x); }
__FC_FN float cospif(float x) { return (float)cospi(x); }
__FC_FN float sinpi(float x) { return sinpif(x); }
__FC_FN float cospi(float x) { return cospif(x); }
__FC_FN void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
__FC_FN void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
__FC_FN void sincospi(float x, float* s, float* c) { sincospif(x, s, c); }
// erfinv/erfcinv: Giles' single-precision approximation (from w = -log(y(2-y)), free of
// cancellation) refined by two Halley steps on erf/erfc in double.
__FC_FN double __fc_giles(double w, double x) {
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08; p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w; p = 0.00021858087 + p * w; p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w; p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3.0;
    p = -0.000200214257; p = 0.000100950558 + p * w; p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w; p = 0.00573950773 + p * w; p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w; p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  return p * x;
}
__FC_FN double erfcinv(double y) {
  if (!(y >= 0.0 && y <= 2.0)) return nan("");
  if (y == 0.0) return __builtin_inf();
  if (y == 2.0) return -__builtin_inf();
  if (y > 1.0) return -erfcinv(2.0 - y);
  double x = __fc_giles(-log(y * (2.0 - y)), 1.0 - y);
  for (int i = 0; i < 2; i++) {  // Halley on g = erfc(x) - y, g' = -2/sqrt(pi) exp(-x^2)
    double g = erfc(x) - y, d = -1.1283791670955126 * exp(-x * x);
    x -= g / (d + x * g);
  }
  return x;
}
__FC_FN double erfinv(double y) {
  if (!(y >= -1.0 && y <= 1.0)) return nan("");
  if (y < 0.0) return -erfinv(-y);
  if (y > 0.5) return erfcinv(1.0 - y);  // 1 - y is exact here
  if (y == 0.0) return y;
  double x = __fc_giles(-log((1.0 - y) * (1.0 + y)), y);
  for (int i = 0; i < 2; i++) {
    double f = erf(x) - y, d = 1.1283791670955126 * exp(-x * x);
    x -= f / (d + x * f);
  }
  return x;
}
__FC_FN float erfinvf(float y) { return (float)erfinv(y); }
__FC_FN float erfcinvf(float y) { return (float)erfcinv(y); }
__FC_FN float erfinv(float y) { return erfinvf(y); }
__FC_FN float erfcinv(float y) { return erfcinvf(y); }
__FC_FN double erfcx(double x) {  // exp(x^2) erfc(x); fine for the moderate x tests use
  return x < 25.0 ? exp(x * x) * erfc(x) : 0.5641895835477563 / x;
}
__FC_FN float erfcxf(float x) { return (float)erfcx(x); }
__FC_FN double normcdf(double x) { return 0.5 * erfc(-x * 0.7071067811865476); }
__FC_FN float normcdff(float x) { return (float)normcdf(x); }
__FC_FN double normcdfinv(double p) { return -1.4142135623730951 * erfcinv(2.0 * p); }
__FC_FN float normcdfinvf(float p) { return (float)normcdfinv(p); }
__FC_FN float normcdf(float x) { return normcdff(x); }
__FC_FN float rhypotf(float x, float y) { return 1.0f / hypotf(x, y); }
__FC_FN double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
__FC_FN float norm3df(float a, float b, float c) { return (float)sqrt((double)a * a + (double)b * b + (double)c * c); }
__FC_FN float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }

// Fast-math and explicitly rounded intrinsics: the accurate host result is within the
// documented error of the GPU versions.
__FC_FN float __expf(float x) { return expf(x); }
__FC_FN float __exp10f(float x) { return exp10f(x); }
__FC_FN float __logf(float x) { return logf(x); }
__FC_FN float __log2f(float x) { return log2f(x); }
__FC_FN float __log10f(float x) { return log10f(x); }
__FC_FN float __sinf(float x) { return sinf(x); }
__FC_FN float __cosf(float x) { return cosf(x); }
__FC_FN float __tanf(float x) { return tanf(x); }
__FC_FN void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
__FC_FN float __powf(float x, float y) { return powf(x, y); }
__FC_FN float __fdividef(float a, float b) { return a / b; }
__FC_FN float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }
__FC_FN float __fadd_rn(float a, float b) { return a + b; }
__FC_FN float __fsub_rn(float a, float b) { return a - b; }
__FC_FN float __fmul_rn(float a, float b) { return a * b; }
__FC_FN float __fdiv_rn(float a, float b) { return a / b; }
__FC_FN float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
__FC_FN float __frcp_rn(float x) { return 1.0f / x; }
__FC_FN float __fsqrt_rn(float x) { return sqrtf(x); }
__FC_FN float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
__FC_FN double __dadd_rn(double a, double b) { return a + b; }
__FC_FN double __dsub_rn(double a, double b) { return a - b; }
__FC_FN double __dmul_rn(double a, double b) { return a * b; }
__FC_FN double __ddiv_rn(double a, double b) { return a / b; }
__FC_FN double __drcp_rn(double x) { return 1.0 / x; }
__FC_FN double __dsqrt_rn(double x) { return sqrt(x); }
__FC_FN double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

// ---------------------------------------------------------------- min / max
// CUDA's exact overload set, so mixed calls are ambiguous (or not) as under NVRTC.
#define __FC_MM(R, A, B)                                                                    \
  __FC_FN R min(A a, B b) { return (R)a < (R)b ? (R)a : (R)b; }                             \
  __FC_FN R max(A a, B b) { return (R)a > (R)b ? (R)a : (R)b; }
__FC_MM(int, int, int) __FC_MM(unsigned, unsigned, unsigned) __FC_MM(unsigned, int, unsigned)
__FC_MM(unsigned, unsigned, int) __FC_MM(long, long, long)
__FC_MM(unsigned long, unsigned long, unsigned long) __FC_MM(unsigned long, long, unsigned long)
__FC_MM(unsigned long, unsigned long, long) __FC_MM(long long, long long, long long)
__FC_MM(unsigned long long, unsigned long long, unsigned long long)
__FC_MM(unsigned long long, long long, unsigned long long)
__FC_MM(unsigned long long, unsigned long long, long long)
__FC_FN float min(float a, float b) { return fminf(a, b); }
__FC_FN float max(float a, float b) { return fmaxf(a, b); }
__FC_FN double min(double a, double b) { return fmin(a, b); }
__FC_FN double max(double a, double b) { return fmax(a, b); }
__FC_FN double min(float a, double b) { return fmin((double)a, b); }
__FC_FN double max(float a, double b) { return fmax((double)a, b); }
__FC_FN double min(double a, float b) { return fmin(a, (double)b); }
__FC_FN double max(double a, float b) { return fmax(a, (double)b); }
__FC_FN unsigned umin(unsigned a, unsigned b) { return min(a, b); }
__FC_FN unsigned umax(unsigned a, unsigned b) { return max(a, b); }
__FC_FN long long llmin(long long a, long long b) { return min(a, b); }
__FC_FN long long llmax(long long a, long long b) { return max(a, b); }
__FC_FN unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
__FC_FN unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// ---------------------------------------------------------------- bits and conversions
__FC_FN int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__FC_FN unsigned __float_as_uint(float x) { return __builtin_bit_cast(unsigned, x); }
__FC_FN float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__FC_FN float __uint_as_float(unsigned x) { return __builtin_bit_cast(float, x); }
__FC_FN long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__FC_FN double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__FC_FN int __double2hiint(double x) { return (int)(__double_as_longlong(x) >> 32); }
__FC_FN int __double2loint(double x) { return (int)__double_as_longlong(x); }
__FC_FN double __hiloint2double(int hi, int lo) {
  return __longlong_as_double((long long)(((unsigned long long)(unsigned)hi << 32) | (unsigned)lo));
}
// GPU float->int conversions saturate and map NaN to 0 (a C++ cast would be UB).
template <class I, class F>
__FC_FN I __fc_f2i(F x, I lo, I hi) {
  if (x != x) return 0;
  if (x <= (F)lo) return lo;
  if (x >= (F)hi) return hi;
  return (I)x;
}
#define __FC_F2I(F, FN, I, IN, LO, HI)                                                      \
  __FC_FN I __##FN##2##IN##_rn(F x) { return __fc_f2i<I, F>(__builtin_rint(x), LO, HI); }   \
  __FC_FN I __##FN##2##IN##_rz(F x) { return __fc_f2i<I, F>(x, LO, HI); }                   \
  __FC_FN I __##FN##2##IN##_rd(F x) { return __fc_f2i<I, F>(__builtin_floor(x), LO, HI); }  \
  __FC_FN I __##FN##2##IN##_ru(F x) { return __fc_f2i<I, F>(__builtin_ceil(x), LO, HI); }
__FC_F2I(float, float, int, int, (int)0x80000000, 0x7fffffff)
__FC_F2I(float, float, unsigned, uint, 0u, 0xffffffffu)
__FC_F2I(float, float, long long, ll, (long long)0x8000000000000000ull, 0x7fffffffffffffffll)
__FC_F2I(float, float, unsigned long long, ull, 0ull, 0xffffffffffffffffull)
__FC_F2I(double, double, int, int, (int)0x80000000, 0x7fffffff)
__FC_F2I(double, double, unsigned, uint, 0u, 0xffffffffu)
__FC_F2I(double, double, long long, ll, (long long)0x8000000000000000ull, 0x7fffffffffffffffll)
__FC_F2I(double, double, unsigned long long, ull, 0ull, 0xffffffffffffffffull)
__FC_FN float __int2float_rn(int x) { return (float)x; }
__FC_FN float __uint2float_rn(unsigned x) { return (float)x; }
__FC_FN float __ll2float_rn(long long x) { return (float)x; }
__FC_FN float __ull2float_rn(unsigned long long x) { return (float)x; }
__FC_FN double __int2double_rn(int x) { return x; }
__FC_FN double __uint2double_rn(unsigned x) { return x; }
__FC_FN double __ll2double_rn(long long x) { return (double)x; }
__FC_FN double __ull2double_rn(unsigned long long x) { return (double)x; }
__FC_FN float __double2float_rn(double x) { return (float)x; }
__FC_FN int __popc(unsigned x) { return __builtin_popcount(x); }
__FC_FN int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__FC_FN int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
__FC_FN int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
__FC_FN int __ffs(int x) { return __builtin_ffs(x); }
__FC_FN int __ffsll(long long x) { return __builtin_ffsll(x); }
__FC_FN unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(x);
}
__FC_FN unsigned long long __brevll(unsigned long long x) {
  return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
__FC_FN unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  unsigned long long v = ((unsigned long long)y << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; i++) r |= (unsigned)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
  return r;
}
__FC_FN unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
__FC_FN int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
__FC_FN unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
__FC_FN long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
__FC_FN int __mul24(int a, int b) { return ((a << 8) >> 8) * ((b << 8) >> 8); }
__FC_FN unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
__FC_FN int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
__FC_FN int __rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
__FC_FN unsigned __uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
__FC_FN unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
__FC_FN unsigned __sad(int a, int b, unsigned c) { return c + (unsigned)(a > b ? a - b : b - a); }
__FC_FN unsigned __usad(unsigned a, unsigned b, unsigned c) { return c + (a > b ? a - b : b - a); }
__FC_FN unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)(((((unsigned long long)hi << 32) | lo) << (s & 31)) >> 32);
}
__FC_FN unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) {
  return (unsigned)((((unsigned long long)hi << 32) | lo) >> (s & 31));
}

#endif  // FAKECUDA_EMU_MATH_H
