// Element-wise kernels: unary ops and predicates, binary ops and comparisons,
// where/clamp/lerp. Each reads its operands through a Strided layout and
// writes a contiguous output. The op codes (U_*, B_*, P_*, T_*) are the host's enum
// orders, prepended as #defines; each switch mirrors the CPU backend's scalar
// functions (src/tensor/op/*.rs), so both devices print the same digits: the
// float32 transcendental functions are computed in double and rounded once.

// Signed overflow is undefined in C++; PyTorch's integers wrap, so do it in u64.
__device__ __forceinline__ i64 wadd(i64 a, i64 b) { return (i64)((u64)a + (u64)b); }
__device__ __forceinline__ i64 wsub(i64 a, i64 b) { return (i64)((u64)a - (u64)b); }
__device__ __forceinline__ i64 wmul(i64 a, i64 b) { return (i64)((u64)a * (u64)b); }

__device__ __forceinline__ double sign_d(double x) {
    if (x > 0.0) return 1.0;
    if (x < 0.0) return -1.0;
    if (x != x) return x;
    return 0.0;
}

// min(max(x + 3, 0), 6) as std::min and std::max have it: NaN stays NaN.
template <typename F> __device__ __forceinline__ F hard_ramp(F x) {
    F y = x + (F)3;
    y = y < (F)0 ? (F)0 : y;
    return (F)6 < y ? (F)6 : y;
}
// W. J. Cody's erf, as src/tensor/op/math.rs computes it, so both devices agree.
__device__ double cody_erf(double x);
// digamma, trigamma, erfinv and the Bessel I0/I1, as src/tensor/op/special.rs.
__device__ double sp_digamma(double x);
__device__ double sp_trigamma(double x);
__device__ double sp_erfinv(double y);
__device__ double sp_bessel_i(int nu, double x, int scaled);

__device__ double un_f64(int op, double x) {
    const double PI = 3.141592653589793;
    switch (op) {
    case U_NEG: return -x;
    case U_ABS: return fabs(x);
    case U_SIGN: return sign_d(x);
    case U_FLOOR: return floor(x);
    case U_CEIL: return ceil(x);
    case U_ROUND: return rint(x);
    case U_TRUNC: return trunc(x);
    case U_FRAC: return x - trunc(x);
    case U_SQUARE: return x * x;
    case U_RELU: return (x > 0.0 || x != x) ? x : 0.0;
    case U_EXP: return exp(x);
    case U_EXP2: return exp2(x);
    case U_EXPM1: return expm1(x);
    case U_LOG: return log(x);
    case U_LOG2: return log2(x);
    case U_LOG10: return log10(x);
    case U_LOG1P: return log1p(x);
    case U_SQRT: return sqrt(x);
    case U_RSQRT: return 1.0 / sqrt(x);
    case U_SIN: return sin(x);
    case U_COS: return cos(x);
    case U_TAN: return tan(x);
    case U_ASIN: return asin(x);
    case U_ACOS: return acos(x);
    case U_ATAN: return atan(x);
    case U_SINH: return sinh(x);
    case U_COSH: return cosh(x);
    case U_TANH: return tanh(x);
    case U_SIGMOID: return 1.0 / (1.0 + exp(-x));
    // silu and gelu as src/tensor/op/unary.rs writes them; the products are
    // rounded on their own (no FMA), as on the CPU.
    case U_SILU: return x / (1.0 + exp(-x));
    case U_LOG_SIGMOID: return fmin(x, 0.0) - log1p(exp(-fabs(x)));
    case U_HARDSIGMOID: return hard_ramp(x) / 6.0;
    case U_HARDSWISH: return x * hard_ramp(x) / 6.0;
    case U_GELU: return __dmul_rn(x, 0.5) * (erf(__dmul_rn(x, 0.7071067811865476)) + 1.0);
    case U_GELU_TANH: {
        double u = __dmul_rn(x + __dmul_rn(__dmul_rn(x, __dmul_rn(x, x)), 0.044715), 0.7978845608028654);
        return __dmul_rn(x, 0.5) * (tanh(u) + 1.0);
    }
    case U_RECIPROCAL: return 1.0 / x;
    case U_ERF: return cody_erf(x);
    case U_ERFC: return erfc(x);
    case U_ASINH: return asinh(x);
    case U_ACOSH: return acosh(x);
    case U_ATANH: return atanh(x);
    case U_DEG2_RAD: return x * (PI / 180.0);
    case U_RAD2_DEG: return x * (180.0 / PI);
    case U_LOGIT: return log(x / (1.0 - x));
    case U_SINC: {
        if (x == 0.0) return 1.0;
        double px = PI * x;
        return sin(px) / px;
    }
    case U_LGAMMA: return lgamma(x);
    case U_DIGAMMA: return sp_digamma(x);
    case U_TRIGAMMA: return sp_trigamma(x);
    case U_ERFINV: return sp_erfinv(x);
    case U_I0: return sp_bessel_i(0, x, 0);
    case U_I0E: return sp_bessel_i(0, x, 1);
    case U_I1: return sp_bessel_i(1, x, 0);
    case U_I1E: return sp_bessel_i(1, x, 1);
    default: return x;
    }
}

// float32: the exact operations stay in float; the functions are evaluated
// in double and rounded once (the CPU's f32 exp/log are correctly rounded,
// and libm's float functions nearly always are).
__device__ float un_f32(int op, float x) {
    switch (op) {
    case U_NEG: return -x;
    case U_ABS: return fabsf(x);
    case U_FLOOR: return floorf(x);
    case U_CEIL: return ceilf(x);
    case U_ROUND: return rintf(x);
    case U_TRUNC: return truncf(x);
    case U_FRAC: return x - truncf(x);
    case U_SQUARE: return x * x;
    case U_RELU: return (x > 0.0f || x != x) ? x : 0.0f;
    case U_SQRT: return sqrtf(x);
    case U_RSQRT: return 1.0f / sqrtf(x);
    case U_RECIPROCAL: return 1.0f / x;
    case U_DEG2_RAD: return x * (float)(3.141592653589793 / 180.0);
    case U_RAD2_DEG: return x * (float)(180.0 / 3.141592653589793);
    case U_SIGMOID: return 1.0f / (1.0f + (float)exp(-(double)x));
    case U_SILU: return x / (1.0f + (float)exp(-(double)x));
    // exp rounded to float, then log1p: the host's roundings.
    case U_LOG_SIGMOID: return fminf(x, 0.0f) - (float)log1p((double)(float)exp(-(double)fabsf(x)));
    case U_HARDSIGMOID: return hard_ramp(x) / 6.0f;
    case U_HARDSWISH: return x * hard_ramp(x) / 6.0f;
    case U_GELU: return __fmul_rn(x, 0.5f) * ((float)erf((double)__fmul_rn(x, 0.70710677f)) + 1.0f);
    case U_GELU_TANH: {
        float u = __fmul_rn(x + __fmul_rn(__fmul_rn(x, __fmul_rn(x, x)), 0.044715f), (float)0.7978845608028654);
        return __fmul_rn(x, 0.5f) * ((float)tanh((double)u) + 1.0f);
    }
    case U_LOGIT: return (float)log((double)(x / (1.0f - x)));
    case U_SINC: {
        if (x == 0.0f) return 1.0f;
        float px = 3.14159265358979f * x;
        return (float)sin((double)px) / px;
    }
    default: return (float)un_f64(op, (double)x);
    }
}

__device__ i64 un_i64(int op, i64 x) {
    switch (op) {
    case U_NEG: return wsub(0, x);
    case U_ABS: return x < 0 ? wsub(0, x) : x;
    case U_SIGN: return (x > 0) - (x < 0);
    case U_SQUARE: return wmul(x, x);
    case U_RELU: return x > 0 ? x : 0;
    case U_BITWISE_NOT: return ~x;
    default: return x;
    }
}

__device__ __forceinline__ float un(int op, float x) { return un_f32(op, x); }
__device__ __forceinline__ double un(int op, double x) { return un_f64(op, x); }
__device__ __forceinline__ i64 un(int op, i64 x) { return un_i64(op, x); }

// ---- binary ----

__device__ __forceinline__ double py_fmod(double a, double b) {
    double r = fmod(a, b);
    if (r != 0.0 && ((r < 0.0) != (b < 0.0))) r += b;
    return r;
}
__device__ __forceinline__ float py_fmodf(float a, float b) {
    float r = fmodf(a, b);
    if (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) r += b;
    return r;
}
__device__ __forceinline__ i64 py_floordiv(i64 a, i64 b) {
    if (b == 0) return 0;
    if (b == -1) return wsub(0, a);  // MIN / -1 wraps
    i64 q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return q;
}
__device__ __forceinline__ i64 py_mod(i64 a, i64 b) {
    if (b == 0 || b == -1) return 0;
    i64 r = a % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
}
__device__ i64 int_pow(i64 base, i64 e) {
    if (e < 0) {
        if (base == 1) return 1;
        if (base == -1) return (e % 2 == 0) ? 1 : -1;
        return 0;
    }
    i64 acc = 1;
    while (e > 0) {
        if (e & 1) acc = wmul(acc, base);
        base = wmul(base, base);
        e >>= 1;
    }
    return acc;
}
template <typename F> __device__ __forceinline__ F nan_max(F x, F y) { return (x != x || y != y) ? x + y : (x > y ? x : y); }
template <typename F> __device__ __forceinline__ F nan_min(F x, F y) { return (x != x || y != y) ? x + y : (x < y ? x : y); }
template <typename F> __device__ __forceinline__ F logaddexp(F x, F y) {
    if (isinf(x) && x == y) return x;
    F m = (x != x || y != y) ? x + y : (x > y ? x : y);
    return m + (F)log1p(exp(-(double)fabs((double)(x - y))));
}
template <typename F> __device__ __forceinline__ F xlogy(F x, F y) {
    if (y != y) return y;
    if (x == (F)0) return (F)0;
    return x * (F)log((double)y);
}

// Floor division from the exact remainder, as Python and ATen's
// div_floor_floating: 1.0 // 0.1 is 9, where floor(1.0 / 0.1) rounds to 10.
template <typename F> __device__ __forceinline__ F div_floor(F a, F b) {
    if (b == (F)0) return a / b;
    F r = sizeof(F) == 4 ? (F)fmodf((float)a, (float)b) : (F)fmod((double)a, (double)b);
    F div = (a - r) / b;
    if (r != (F)0 && ((b < (F)0) != (r < (F)0))) div -= (F)1;
    if (div == (F)0) return (F)copysign(0.0, (double)(a / b));
    F f = (F)floor((double)div);
    return div - f > (F)0.5 ? f + (F)1 : f;
}

template <typename F> __device__ F bin_float(int op, F x, F y) {
    switch (op) {
    case B_ADD: return x + y;
    case B_SUB: return x - y;
    case B_MUL: return x * y;
    case B_DIV: return x / y;
    case B_FLOOR_DIV: return div_floor(x, y);
    case B_REM: return sizeof(F) == 4 ? (F)py_fmodf((float)x, (float)y) : (F)py_fmod((double)x, (double)y);
    case B_POW: return (F)pow((double)x, (double)y);
    case B_MAXIMUM: return nan_max(x, y);
    case B_MINIMUM: return nan_min(x, y);
    case B_ATAN2: return (F)atan2((double)x, (double)y);
    case B_FMOD: return sizeof(F) == 4 ? (F)fmodf((float)x, (float)y) : (F)fmod((double)x, (double)y);
    case B_HYPOT: return (F)hypot((double)x, (double)y);
    case B_LOG_ADD_EXP: return logaddexp(x, y);
    case B_COPYSIGN: return (F)copysign((double)x, (double)y);
    case B_XLOGY: return xlogy(x, y);
    case B_LEAKY_RELU: return x > (F)0 ? x : x * y;
    // expm1 rounded to F, then the multiply: the host's two roundings.
    case B_ELU: return x > (F)0 ? x : (F)expm1((double)x) * y;
    // exp rounded to F, then log1p: the host's two roundings.
    case B_SOFTPLUS: return x > y ? x : (F)log1p((double)(F)exp((double)x));
    case B_NEXT_AFTER: return sizeof(F) == 4 ? (F)nextafterf((float)x, (float)y) : (F)nextafter((double)x, (double)y);
    default: return x;
    }
}

__device__ i64 bin_int(int op, i64 x, i64 y) {
    switch (op) {
    case B_ADD: return wadd(x, y);
    case B_SUB: return wsub(x, y);
    case B_MUL: return wmul(x, y);
    case B_DIV: return py_floordiv(x, y);
    case B_FLOOR_DIV: return py_floordiv(x, y);
    case B_REM: return py_mod(x, y);
    case B_POW: return int_pow(x, y);
    case B_MAXIMUM: return x > y ? x : y;
    case B_MINIMUM: return x < y ? x : y;
    case B_FMOD: return (y == 0 || y == -1) ? 0 : x % y;
    case B_BIT_AND: return x & y;
    case B_BIT_OR: return x | y;
    case B_BIT_XOR: return x ^ y;
    case B_SHL: return (y >= 0 && y < 64) ? (i64)((u64)x << y) : 0;
    case B_SHR: return (y >= 0 && y < 64) ? (x >> y) : (x < 0 ? -1 : 0);
    default: return x;
    }
}

__device__ __forceinline__ float bin(int op, float x, float y) {
    // pow, atan2, hypot, copysign of float32 as the CPU: the f32 library call.
    if (op == B_POW) return powf(x, y);
    return bin_float<float>(op, x, y);
}
__device__ __forceinline__ double bin(int op, double x, double y) { return bin_float<double>(op, x, y); }
__device__ __forceinline__ i64 bin(int op, i64 x, i64 y) { return bin_int(op, x, y); }

template <typename A> __device__ __forceinline__ bool compare(int op, A x, A y) {
    const A z = (A)0;
    switch (op) {
    case B_EQ: return x == y;
    case B_NE: return x != y;
    case B_LT: return x < y;
    case B_LE: return x <= y;
    case B_GT: return x > y;
    case B_GE: return x >= y;
    case B_LOGICAL_AND: return x != z && y != z;
    case B_LOGICAL_OR: return x != z || y != z;
    case B_LOGICAL_XOR: return (x != z) != (y != z);
    default: return false;
    }
}

__device__ __forceinline__ bool predicate(int op, double x) {
    switch (op) {
    case P_IS_NAN: return x != x;
    case P_IS_INF: return isinf(x);
    case P_IS_POS_INF: return isinf(x) && x > 0.0;
    case P_IS_NEG_INF: return isinf(x) && x < 0.0;
    case P_IS_FINITE: return isfinite(x);
    case P_LOGICAL_NOT: return x == 0.0;
    default: return false;
    }
}

// ---- the kernels ----

template <typename T>
__device__ __forceinline__ void unary_impl(i64 n, int op, const Strided& l, const T* in, T* out) {
    FOR_EACH(i, n) out[i] = Ty<T>::from_acc(un(op, Ty<T>::to_acc(in[at(l, i)])));
}

template <typename T>
__device__ __forceinline__ void binary_impl(i64 n, int op, const Strided& la, const T* a,
                                            const Strided& lb, const T* b, T* out, i64* err) {
    bool div = !Ty<T>::is_float && (op == B_DIV || op == B_FLOOR_DIV || op == B_REM || op == B_FMOD);
    FOR_EACH(i, n) {
        typename Ty<T>::acc x = Ty<T>::to_acc(a[at(la, i)]);
        typename Ty<T>::acc y = Ty<T>::to_acc(b[at(lb, i)]);
        // Integer division by zero is the host's error; flag it (any thread may).
        if (div && y == 0) *err = 1;
        out[i] = Ty<T>::from_acc(bin(op, x, y));
    }
}

template <typename T>
__device__ __forceinline__ void compare_impl(i64 n, int op, const Strided& la, const T* a,
                                             const Strided& lb, const T* b, bool* out) {
    FOR_EACH(i, n) out[i] = compare(op, Ty<T>::to_acc(a[at(la, i)]), Ty<T>::to_acc(b[at(lb, i)]));
}

template <typename T>
__device__ __forceinline__ void ternary_impl(i64 n, int op, const Strided& la, const void* a_,
                                             const Strided& lb, const T* b, const Strided& lc,
                                             const T* c, T* out) {
    if (op == T_WHERE) {
        const bool* cond = (const bool*)a_;
        FOR_EACH(i, n) out[i] = cond[at(la, i)] ? b[at(lb, i)] : c[at(lc, i)];
        return;
    }
    const T* a = (const T*)a_;
    FOR_EACH(i, n) {
        T x = a[at(la, i)], lo = b[at(lb, i)], hi = c[at(lc, i)];
        if (op == T_CLAMP && !Ty<T>::is_float) {
            i64 v = Ty<T>::to_i64(x), l = Ty<T>::to_i64(lo), h = Ty<T>::to_i64(hi);
            v = v > l ? v : l;
            v = v < h ? v : h;
            out[i] = Ty<T>::from_i64(v);
            continue;
        }
        double p = Ty<T>::to_f64(x), q = Ty<T>::to_f64(lo), r = Ty<T>::to_f64(hi), y;
        if (op == T_CLAMP) {
            if (p != p || q != q || r != r) y = f64_nan();
            // ATen's CPU order: min(hi, max(lo, x)) keeps -0 against a +0 bound.
            else { y = q > p ? q : p; y = r < y ? r : y; }
        } else if (op == T_ADD_SCALED) {
            // add with alpha and addcmul as PyTorch: a + b * c, one fused multiply-add.
            y = sizeof(T) <= 4 ? (double)fmaf((float)q, (float)r, (float)p) : fma(q, r, p);
        } else if (sizeof(T) <= 4) {
            // lerp as PyTorch: in float below double, each step one fused multiply-add.
            float s = (float)p, e = (float)q, w = (float)r, diff = e - s;
            y = fabsf(w) < 0.5f ? fmaf(w, diff, s) : fmaf(-diff, 1.0f - w, e);
        } else {
            double diff = q - p;
            y = fabs(r) < 0.5 ? fma(r, diff, p) : fma(-diff, 1.0 - r, q);
        }
        out[i] = Ty<T>::from_f64(y);
    }
}

#define ELEMENTWISE_KERNELS(SUF, T) \
    extern "C" __global__ void unary_##SUF(i64 n, int op, Strided l, const T* in, T* out) {           \
        unary_impl<T>(n, op, l, in, out);                                                              \
    } \
    extern "C" __global__ void predicate_##SUF(i64 n, int op, Strided l, const T* in, bool* out) {    \
        FOR_EACH(i, n) out[i] = predicate(op, Ty<T>::to_f64(in[at(l, i)]));                           \
    } \
    extern "C" __global__ void binary_##SUF(i64 n, int op, Strided la, const T* a, Strided lb,        \
                                            const T* b, T* out, i64* err) {                          \
        binary_impl<T>(n, op, la, a, lb, b, out, err);                                                 \
    } \
    extern "C" __global__ void compare_##SUF(i64 n, int op, Strided la, const T* a, Strided lb,       \
                                             const T* b, bool* out) {                                 \
        compare_impl<T>(n, op, la, a, lb, b, out);                                                     \
    } \
    extern "C" __global__ void nan_to_num_##SUF(i64 n, Strided l, const T* in, T* out, double nan,   \
                                                double pos, double neg) {                            \
        T with[3] = {Ty<T>::from_f64(nan), Ty<T>::from_f64(pos), Ty<T>::from_f64(neg)};              \
        FOR_EACH(i, n) {                                                                               \
            T x = in[at(l, i)];                                                                        \
            double v = Ty<T>::to_f64(x);                                                               \
            out[i] = v != v ? with[0] : v == f64_inf() ? with[1] : v == -f64_inf() ? with[2] : x;      \
        }                                                                                              \
    } \
    extern "C" __global__ void ternary_##SUF(i64 n, int op, Strided la, const void* a, Strided lb,    \
                                             const T* b, Strided lc, const T* c, T* out) {            \
        ternary_impl<T>(n, op, la, a, lb, b, lc, c, out);                                              \
    }

FOR_ALL_DTYPES(ELEMENTWISE_KERNELS)

// One step of an LSTM cell, fused (backend/cuda/lstm.rs; backend/cpu/lstm.rs
// is the host's): the activations are the element-wise ops' own (un), and
// each product and sum is rounded on its own (no contraction into a fused
// multiply-add), so the cell gives the composite's digits.
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }

// gates [B, 4H] (i, f, g, o) and cx [B, H] to out [2, B, H] (hy, cy) and the
// activated gates, work [B, 4H].
template <typename T>
__device__ void lstm_cell_impl(i64 B, i64 H, const Strided& gl, const T* g, const Strided& cl,
                               const T* c, T* out, T* work) {
    FOR_EACH(e, B * H) {
        i64 k = (e / H) * 4 * H + e % H;
        T i = un(U_SIGMOID, g[at(gl, k)]);
        T f = un(U_SIGMOID, g[at(gl, k + H)]);
        T gg = un(U_TANH, g[at(gl, k + 2 * H)]);
        T o = un(U_SIGMOID, g[at(gl, k + 3 * H)]);
        T cn = add_rn(mul_rn(f, c[at(cl, e)]), mul_rn(i, gg));
        work[k] = i;
        work[k + H] = f;
        work[k + 2 * H] = gg;
        work[k + 3 * H] = o;
        out[B * H + e] = cn;
        out[e] = mul_rn(o, un(U_TANH, cn));
    }
}

// d [2, B, H] (hy's gradient, then cy's) to the gates' gradient dg [B, 4H]
// and cx's dc [B, H]: each product's gradient is the incoming one times the
// other factor; sigmoid' = y (1 - y), tanh' = 1 - y^2.
template <typename T>
__device__ void lstm_cell_grad_impl(i64 B, i64 H, const Strided& dl, const T* d,
                                    const Strided& cl, const T* c, const T* out, const T* work,
                                    T* dg, T* dc) {
    const T one = (T)1;
    FOR_EACH(e, B * H) {
        i64 k = (e / H) * 4 * H + e % H;
        T i = work[k], f = work[k + H], g = work[k + 2 * H], o = work[k + 3 * H];
        T dh = d[at(dl, e)], dcn = d[at(dl, B * H + e)];
        T tc = un(U_TANH, out[B * H + e]);
        T d_o = mul_rn(dh, tc);
        T dcy = add_rn(mul_rn(mul_rn(dh, o), sub_rn(one, mul_rn(tc, tc))), dcn);
        dg[k] = mul_rn(mul_rn(dcy, g), mul_rn(i, sub_rn(one, i)));
        dg[k + H] = mul_rn(mul_rn(dcy, c[at(cl, e)]), mul_rn(f, sub_rn(one, f)));
        dg[k + 2 * H] = mul_rn(mul_rn(dcy, i), sub_rn(one, mul_rn(g, g)));
        dg[k + 3 * H] = mul_rn(d_o, mul_rn(o, sub_rn(one, o)));
        dc[e] = mul_rn(dcy, f);
    }
}

#define LSTM_KERNELS(SUF, T)                                                                          \
    extern "C" __global__ void lstm_cell_##SUF(i64 B, i64 H, Strided gl, const T* g, Strided cl,      \
                                               const T* c, T* out, T* work) {                         \
        lstm_cell_impl<T>(B, H, gl, g, cl, c, out, work);                                              \
    }                                                                                                 \
    extern "C" __global__ void lstm_cell_grad_##SUF(i64 B, i64 H, Strided dl, const T* d,             \
                                                    Strided cl, const T* c, const T* out,             \
                                                    const T* work, T* dg, T* dc) {                    \
        lstm_cell_grad_impl<T>(B, H, dl, d, cl, c, out, work, dg, dc);                                 \
    }

LSTM_KERNELS(f32, float)
LSTM_KERNELS(f64, double)


__device__ double cody_erf(double x) {
    if (x != x) return x;
    double ax = fabs(x);
    double r;
    if (ax < 0.5) {
        double t = x * x;
        double num = (((1.8577770618460315e-1 * t + 3.1611237438705655) * t + 1.1386415415105016e2) * t
                      + 3.77485237685302e2) * t + 3.2093775891384694e3;
        double den = (((t + 2.3601290952344122e1) * t + 2.4402463793444417e2) * t + 1.2826165260773723e3) * t
                     + 2.844236833439171e3;
        return x * num / den;
    } else if (ax < 4.0) {
        const double p[9] = {5.641884969886701e-1, 8.883149794388377, 6.611919063714163e1,
                             2.986351381974001e2, 8.81952221241769e2, 1.7120476126340707e3,
                             2.0510783778260716e3, 1.2303393547979972e3, 2.1531153547440383e-8};
        const double q[8] = {1.5744926110709835e1, 1.176939508913125e2, 5.371811018620099e2,
                             1.6213895745666903e3, 3.2907992357334597e3, 4.362619090143247e3,
                             3.4393676741437216e3, 1.2303393548037495e3};
        double num = p[8] * ax, den = ax;
        for (int i = 0; i < 7; ++i) {
            num = (num + p[i]) * ax;
            den = (den + q[i]) * ax;
        }
        r = 1.0 - (num + p[7]) / (den + q[7]) * exp(-ax * ax);
    } else {
        r = 1.0;
    }
    return x < 0.0 ? -r : r;
}

// ---- special functions: src/tensor/op/special.rs, line for line ----

__device__ double sp_digamma(double x) {
    const double PI = 3.141592653589793;
    if (x == 0.0) return copysign(1.0 / 0.0, -x);
    if (x < 0.0) {
        if (x == trunc(x)) return 0.0 / 0.0;
        double r = x - trunc(x);
        return sp_digamma(1.0 - x) - PI / tan(PI * r);
    }
    double result = 0.0;
    while (x < 10.0) {
        result -= 1.0 / x;
        x += 1.0;
    }
    if (x == 10.0) return result + 2.25175258906672110764;
    const double A[7] = {1.0 / 12.0, -691.0 / 32760.0, 1.0 / 132.0, -1.0 / 240.0,
                         1.0 / 252.0, -1.0 / 120.0, 1.0 / 12.0};
    double y = 0.0;
    if (x < 1.0e17) {
        double z = 1.0 / (x * x);
        double acc = 0.0;
        for (int i = 0; i < 7; i++) acc = acc * z + A[i];
        y = z * acc;
    }
    return result + log(x) - 0.5 / x - y;
}

__device__ double sp_trigamma(double x) {
    const double PI = 3.141592653589793;
    double sign = 1.0, result = 0.0;
    if (x < 0.5) {
        sign = -1.0;
        double s = sin(PI * x);
        result -= PI * PI / (s * s);
        x = 1.0 - x;
    }
    for (int i = 0; i < 6; i++) {
        result += 1.0 / (x * x);
        x += 1.0;
    }
    double ixx = 1.0 / (x * x);
    result += (1.0 + 1.0 / (2.0 * x) + ixx * (1.0 / 6.0 - ixx * (1.0 / 30.0 - ixx * (1.0 / 42.0)))) / x;
    return sign * result;
}

__device__ double sp_erfinv(double y) {
    const double A[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
    const double B[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
    const double C[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
    const double D[2] = {3.543889200, 1.637067800};
    double ya = fabs(y);
    if (ya != ya || ya > 1.0) return 0.0 / 0.0;
    if (ya == 1.0) return copysign(1.0 / 0.0, y);
    double x;
    if (ya <= 0.7) {
        double z = y * y;
        double num = ((A[3] * z + A[2]) * z + A[1]) * z + A[0];
        double dem = (((B[3] * z + B[2]) * z + B[1]) * z + B[0]) * z + 1.0;
        x = y * num / dem;
    } else {
        double z = sqrt(-log((1.0 - ya) / 2.0));
        double num = ((C[3] * z + C[2]) * z + C[1]) * z + C[0];
        double dem = (D[1] * z + D[0]) * z + 1.0;
        x = copysign(num, y) / dem;
    }
    for (int i = 0; i < 2; i++) x -= (cody_erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return x;
}

__device__ double sp_bessel_i(int nu, double x, int scaled) {
    const double PI = 3.141592653589793;
    double ax = fabs(x);
    if (ax != ax) return x;
    double value;
    if (ax > 30.0) {
        double mu = 4.0 * (double)(nu * nu);
        double term = 1.0, sum = 1.0;
        for (int k = 1; k < 40; k++) {
            double odd = (double)(2 * k - 1);
            term *= -(mu - odd * odd) / ((double)k * 8.0 * ax);
            sum += term;
            if (fabs(term) < 1e-17 * fabs(sum)) break;
        }
        double s = sum / sqrt(2.0 * PI * ax);
        value = scaled ? s : s * exp(ax);
    } else {
        double q = ax * ax / 4.0;
        double term = nu == 1 ? ax / 2.0 : 1.0;
        double sum = term;
        for (int k = 1; k < 200; k++) {
            term *= q / ((double)k * (double)(k + nu));
            sum += term;
            if (term < 1e-17 * sum) break;
        }
        value = scaled ? sum * exp(-ax) : sum;
    }
    return (nu == 1 && x < 0.0) ? -value : value;
}
