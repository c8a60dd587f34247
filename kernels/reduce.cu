// Reductions, scans and softmax. A reduction's output o reads the group
// `at(kept, o) + at(red, j)` for j < nred. Floats accumulate in double and
// integers in wrapping i64, with the CPU backend's formulas (two passes for
// var/std and logsumexp), so both devices print the same digits.
//
// `team` threads compute one output: 1 (each thread one output, for many small
// groups) or blockDim.x (a block per output, combined in shared memory, for
// few large ones). team is uniform over the launch, so the barriers below are
// reached by every thread of a block or by none.

#define RED_THREADS 256

// A partial result. Which fields mean what depends on the op (see fold/combine).
struct Part {
    double a;   // float sum / product / extremum / sum of squares
    i64 i;      // integer sum / product / extremum, or a count
    i64 k;      // the index of an arg-extremum
};

__device__ __forceinline__ bool is_arg(int op) { return op == R_ARG_MAX || op == R_ARG_MIN; }

__device__ Part part_init(int op, double p, bool fl) {
    Part s;
    s.a = 0.0; s.i = 0; s.k = -1;
    switch (op) {
    case R_PROD: s.a = 1.0; s.i = 1; break;
    case R_MAX: s.a = -f64_inf(); s.i = (i64)0x8000000000000000ULL; break;
    case R_MIN: s.a = f64_inf(); s.i = 0x7fffffffffffffffLL; break;
    case R_NORM: if (p == -f64_inf()) s.a = f64_inf(); break;
    case R_LOG_SUM_EXP: break;
    default: break;
    }
    return s;
}

// Fold element x (float: xf, integer: xi) at index j into s. `c` is the
// first pass's result for the two-pass ops (the mean, or the max).
__device__ __forceinline__ void fold(int op, double p, bool fl, Part& s, double xf, i64 xi, i64 j, double c) {
    switch (op) {
    case R_SUM: case R_MEAN:
        if (fl) s.a += xf; else s.i = (i64)((u64)s.i + (u64)xi);
        break;
    case R_PROD:
        if (fl) s.a *= xf; else s.i = (i64)((u64)s.i * (u64)xi);
        break;
    case R_MAX:
        if (fl) s.a = (xf != xf || s.a != s.a) ? f64_nan() : (xf > s.a ? xf : s.a);
        else s.i = xi > s.i ? xi : s.i;
        break;
    case R_MIN:
        if (fl) s.a = (xf != xf || s.a != s.a) ? f64_nan() : (xf < s.a ? xf : s.a);
        else s.i = xi < s.i ? xi : s.i;
        break;
    case R_ARG_MAX: case R_ARG_MIN: {
        bool better;
        if (s.k < 0) better = true;
        else if (fl) {
            if (s.a != s.a) better = false;        // the first NaN wins for good
            else if (xf != xf) better = true;
            else better = op == R_ARG_MAX ? xf > s.a : xf < s.a;
        } else better = op == R_ARG_MAX ? xi > s.i : xi < s.i;
        if (better) { s.a = xf; s.i = xi; s.k = j; }
        break;
    }
    case R_VAR: case R_STD: s.a += (xf - c) * (xf - c); break;
    case R_ALL: case R_ANY: case R_COUNT_NONZERO:
        if (fl ? xf != 0.0 : xi != 0) s.i += 1;
        break;
    case R_NORM: {
        double ax = fabs(xf);
        // A NaN wins and stays, as in PyTorch.
        if (p == f64_inf()) s.a = (ax > s.a || ax != ax) ? ax : s.a;
        else if (p == -f64_inf()) s.a = (ax < s.a || ax != ax) ? ax : s.a;
        else if (p == 0.0) { if (xf != 0.0) s.a += 1.0; }
        else if (p == 2.0) s.a += xf * xf;
        else if (p == 1.0) s.a += ax;
        else s.a += pow(ax, p);
        break;
    }
    case R_LOG_SUM_EXP: s.a += exp(xf - c); break;
    }
}

// The first pass of the two-pass ops: a sum (for the mean) or a max.
__device__ __forceinline__ void fold_first(int op, Part& s, double xf) {
    // The maximum, a NaN winning (the result is then NaN, as in PyTorch).
    if (op == R_LOG_SUM_EXP) s.a = (xf > s.a || xf != xf) ? xf : s.a;
    else s.a += xf;
}

__device__ __forceinline__ void combine(int op, double p, bool fl, Part& s, const Part& t) {
    switch (op) {
    case R_PROD:
        if (fl) s.a *= t.a; else s.i = (i64)((u64)s.i * (u64)t.i);
        break;
    case R_MAX: case R_MIN:
        fold(op, p, fl, s, t.a, t.i, 0, 0.0);
        break;
    case R_ARG_MAX: case R_ARG_MIN: {
        if (t.k < 0) break;
        if (s.k < 0) { s = t; break; }
        bool take;
        if (fl && (s.a != s.a || t.a != t.a)) take = (t.a != t.a) && (s.a == s.a || t.k < s.k);
        else {
            bool tb = fl ? (op == R_ARG_MAX ? t.a > s.a : t.a < s.a) : (op == R_ARG_MAX ? t.i > s.i : t.i < s.i);
            bool sb = fl ? (op == R_ARG_MAX ? s.a > t.a : s.a < t.a) : (op == R_ARG_MAX ? s.i > t.i : s.i < t.i);
            take = tb || (!sb && t.k < s.k);
        }
        if (take) s = t;
        break;
    }
    case R_NORM:
        if (p == f64_inf()) s.a = (t.a > s.a || t.a != t.a) ? t.a : s.a;
        else if (p == -f64_inf()) s.a = (t.a < s.a || t.a != t.a) ? t.a : s.a;
        else s.a += t.a;
        break;
    default:  // sums and counts
        s.a += t.a;
        s.i = (i64)((u64)s.i + (u64)t.i);
        break;
    }
}

// The output value of a finished group: (float, integer, is_float).
__device__ __forceinline__ void finish(int op, double p, bool fl, const Part& s, i64 nred, double c,
                                       double corr, void* out, i64 o, int out_dt) {
    double f = s.a;
    i64 n = s.i;
    bool ff = fl;
    switch (op) {
    case R_MEAN: f = s.a / (double)nred; break;
    case R_ARG_MAX: case R_ARG_MIN: n = s.k < 0 ? 0 : s.k; ff = false; break;
    case R_VAR: case R_STD: {
        double d = (double)nred - corr;
        f = s.a / (d > 0.0 ? d : 0.0);
        if (op == R_STD) f = sqrt(f);
        break;
    }
    case R_ALL: n = s.i == nred; ff = false; break;
    case R_ANY: n = s.i > 0; ff = false; break;
    case R_COUNT_NONZERO: ff = false; break;
    case R_NORM:
        if (p == 2.0) f = sqrt(s.a);
        else if (p != f64_inf() && p != -f64_inf() && p != 0.0 && p != 1.0) f = pow(s.a, 1.0 / p);
        break;
    case R_LOG_SUM_EXP: f = isinf(c) ? c : c + log(s.a); break;
    }
    store_dtype(out, o, out_dt, f, n, ff);
}

__device__ __forceinline__ bool two_pass(int op) { return op == R_VAR || op == R_STD || op == R_LOG_SUM_EXP; }

template <typename T>
__device__ void reduce_impl(i64 nout, i64 nred, int op, double p, double corr, const Strided& kept,
                            const Strided& red, const T* in, void* out, int out_dt, int team) {
    const bool fl = Ty<T>::is_float;
    if (team == 1) {
        FOR_EACH(o, nout) {
            i64 base = at(kept, o);
            double c = 0.0;
            if (two_pass(op)) {
                Part f = part_init(op, p, fl);
                if (op == R_LOG_SUM_EXP) f.a = -f64_inf();
                for (i64 j = 0; j < nred; ++j) fold_first(op, f, Ty<T>::to_f64(in[base + at(red, j)]));
                c = op == R_LOG_SUM_EXP ? f.a : f.a / (double)nred;
            }
            Part s = part_init(op, p, fl);
            for (i64 j = 0; j < nred; ++j) {
                T x = in[base + at(red, j)];
                fold(op, p, fl, s, fl ? Ty<T>::to_f64(x) : 0.0, fl ? 0 : Ty<T>::to_i64(x), j, c);
            }
            finish(op, p, fl, s, nred, c, corr, out, o, out_dt);
        }
        return;
    }
    __shared__ Part parts[RED_THREADS];
    __shared__ double first;
    const int tid = threadIdx.x;
    for (i64 o = blockIdx.x; o < nout; o += gridDim.x) {
        i64 base = at(kept, o);
        double c = 0.0;
        if (two_pass(op)) {
            Part f = part_init(op, p, fl);
            if (op == R_LOG_SUM_EXP) f.a = -f64_inf();
            for (i64 j = tid; j < nred; j += blockDim.x) fold_first(op, f, Ty<T>::to_f64(in[base + at(red, j)]));
            parts[tid] = f;
            __syncthreads();
            if (tid == 0) {
                Part t = parts[0];
                for (int k = 1; k < (int)blockDim.x; ++k) {
                    if (op == R_LOG_SUM_EXP) fold_first(op, t, parts[k].a);
                    else t.a += parts[k].a;
                }
                first = op == R_LOG_SUM_EXP ? t.a : t.a / (double)nred;
            }
            __syncthreads();
            c = first;
        }
        Part s = part_init(op, p, fl);
        for (i64 j = tid; j < nred; j += blockDim.x) {
            T x = in[base + at(red, j)];
            fold(op, p, fl, s, fl ? Ty<T>::to_f64(x) : 0.0, fl ? 0 : Ty<T>::to_i64(x), j, c);
        }
        parts[tid] = s;
        __syncthreads();
        // A tree over the block; each thread's partial covers indices j = tid
        // (mod blockDim), so arg ties are settled by the smaller index in combine.
        for (int w = blockDim.x / 2; w > 0; w >>= 1) {
            if (tid < w) combine(op, p, fl, parts[tid], parts[tid + w]);
            __syncthreads();
        }
        if (tid == 0) finish(op, p, fl, parts[0], nred, c, corr, out, o, out_dt);
        __syncthreads();
    }
}

// ---- lines: scans and softmax, one thread per line ----
// Line l starts at at(in_kept, l) in the input (step in_step) and at
// at(out_kept, l) in the contiguous output (step out_step).

template <typename T>
__device__ void scan_impl(i64 lines, i64 len, int op, const Strided& in_kept, i64 in_step,
                          const Strided& out_kept, i64 out_step, const T* in, void* out, int out_dt) {
    const bool fl = Ty<T>::is_float;
    FOR_EACH(l, lines) {
        i64 s = at(in_kept, l), d = at(out_kept, l);
        double af = 0.0;
        i64 ai = 0;
        for (i64 k = 0; k < len; ++k) {
            T x = in[s + k * in_step];
            if (fl) {
                double v = Ty<T>::to_f64(x);
                if (k == 0) af = v;
                else if (op == S_SUM) af += v;
                else if (op == S_PROD) af *= v;
                else if (v != v || af != af) af = f64_nan();
                else if (op == S_MAX) af = v > af ? v : af;
                else af = v < af ? v : af;
            } else {
                i64 v = Ty<T>::to_i64(x);
                if (k == 0) ai = v;
                else if (op == S_SUM) ai = (i64)((u64)ai + (u64)v);
                else if (op == S_PROD) ai = (i64)((u64)ai * (u64)v);
                else if (op == S_MAX) ai = v > ai ? v : ai;
                else ai = v < ai ? v : ai;
            }
            store_dtype(out, d + k * out_step, out_dt, af, ai, fl);
        }
    }
}

// cummax/cummin as ATen: a NaN takes over (a later NaN takes its place), and
// a tie moves the position to the later element.
template <typename T>
__device__ void cum_extreme_impl(i64 lines, i64 len, int max, const Strided& in_kept, i64 in_step,
                                 const Strided& out_kept, i64 out_step, const T* in, T* vals,
                                 i64* pos) {
    const bool fl = Ty<T>::is_float;
    FOR_EACH(l, lines) {
        i64 s = at(in_kept, l), d = at(out_kept, l), at_ = 0;
        T b = in[s];
        for (i64 k = 0; k < len; ++k) {
            T x = in[s + k * in_step];
            bool take;
            if (fl) {
                double v = Ty<T>::to_f64(x), w = Ty<T>::to_f64(b);
                take = v != v || (max ? v >= w : v <= w);
            } else {
                i64 v = Ty<T>::to_i64(x), w = Ty<T>::to_i64(b);
                take = max ? v >= w : v <= w;
            }
            if (take) { b = x; at_ = k; }
            vals[d + k * out_step] = b;
            pos[d + k * out_step] = at_;
        }
    }
}

template <typename T>
__device__ void softmax_impl(i64 lines, i64 len, int log_, const Strided& in_kept, i64 in_step,
                             const Strided& out_kept, i64 out_step, const T* in, T* out) {
    FOR_EACH(l, lines) {
        i64 s = at(in_kept, l), d = at(out_kept, l);
        double m = -f64_inf();
        for (i64 k = 0; k < len; ++k) {
            double v = Ty<T>::to_f64(in[s + k * in_step]);
            if (v > m || v != v) m = v;
        }
        double sum = 0.0;
        for (i64 k = 0; k < len; ++k) sum += exp(Ty<T>::to_f64(in[s + k * in_step]) - m);
        double lse = m + log(sum);
        for (i64 k = 0; k < len; ++k) {
            double v = Ty<T>::to_f64(in[s + k * in_step]);
            out[d + k * out_step] = Ty<T>::from_f64(log_ ? v - lse : exp(v - m) / sum);
        }
    }
}

#define REDUCE_KERNELS(SUF, T)                                                                        \
    extern "C" __global__ void reduce_##SUF(i64 nout, i64 nred, int op, double p, double corr,        \
                                            Strided kept, Strided red, const T* in, void* out,       \
                                            int out_dt, int team) {                                   \
        reduce_impl<T>(nout, nred, op, p, corr, kept, red, in, out, out_dt, team);                     \
    }                                                                                                 \
    extern "C" __global__ void scan_##SUF(i64 lines, i64 len, int op, Strided in_kept, i64 in_step,   \
                                          Strided out_kept, i64 out_step, const T* in, void* out,    \
                                          int out_dt) {                                               \
        scan_impl<T>(lines, len, op, in_kept, in_step, out_kept, out_step, in, out, out_dt);           \
    }                                                                                                 \
    extern "C" __global__ void cum_extreme_##SUF(i64 lines, i64 len, int max, Strided in_kept,        \
                                                 i64 in_step, Strided out_kept, i64 out_step,        \
                                                 const T* in, T* vals, i64* pos) {                   \
        cum_extreme_impl<T>(lines, len, max, in_kept, in_step, out_kept, out_step, in, vals, pos);     \
    }                                                                                                 \
    extern "C" __global__ void softmax_##SUF(i64 lines, i64 len, int log_, Strided in_kept,           \
                                             i64 in_step, Strided out_kept, i64 out_step,            \
                                             const T* in, T* out) {                                   \
        softmax_impl<T>(lines, len, log_, in_kept, in_step, out_kept, out_step, in, out);              \
    }

FOR_ALL_DTYPES(REDUCE_KERNELS)
