// Layer normalisation over the rows of a [rows, n] layout: one thread per row
// for the statistics, the output and dx, and one per column for the sums that
// make the weight's and bias's gradients. Every sum runs in double in the CPU
// backend's order (src/backend/cpu/norm.rs: eight lanes, then the tail) and
// every product is rounded on its own (__dmul_rn: no contraction into an FMA),
// so both devices compute the same bits.

// The sum of f(j) for j < n: eight lanes over the whole groups of eight,
// joined left to right, then the rest added in order.
template <typename F>
__device__ __forceinline__ double lane_sum(i64 n, F f) {
    double lanes[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    i64 full = n / 8 * 8;
    for (i64 j = 0; j < full; ++j) lanes[j & 7] += f(j);
    double acc = 0.0;
    for (int i = 0; i < 8; ++i) acc += lanes[i];
    for (i64 j = full; j < n; ++j) acc += f(j);
    return acc;
}

// Element j of row r of a 2-d layout, or of a 1-d parameter (r = 0).
template <typename T>
__device__ __forceinline__ double elem(const T* p, const Strided& l, i64 r, i64 j) {
    return Ty<T>::to_f64(p[l.offset + r * l.stride[0] + j * l.stride[1]]);
}

template <typename T>
__device__ __forceinline__ double param(const T* p, const Strided& l, int has, i64 j, double none) {
    return has ? Ty<T>::to_f64(p[l.offset + j * l.stride[0]]) : none;
}

template <typename T>
__device__ void layer_norm_impl(i64 rows, i64 n, double eps, Strided xl, const T* x, int has_w,
                                Strided wl, const T* w, int has_b, Strided bl, const T* b, T* y,
                                double* mean, double* rstd) {
    FOR_EACH(r, rows) {
        double m = lane_sum(n, [&](i64 j) { return elem(x, xl, r, j); }) / (double)n;
        double var = lane_sum(n, [&](i64 j) {
                         double d = elem(x, xl, r, j) - m;
                         return __dmul_rn(d, d);
                     }) / (double)n;
        double rs = 1.0 / sqrt(var + eps);
        mean[r] = m;
        rstd[r] = rs;
        for (i64 j = 0; j < n; ++j) {
            double v = __dmul_rn(__dmul_rn(elem(x, xl, r, j) - m, rs), param(w, wl, has_w, j, 1.0));
            y[r * n + j] = Ty<T>::from_f64(v + param(b, bl, has_b, j, 0.0));
        }
    }
}

// `v` rounded as the dtype's arithmetic rounds it (float for the 2- and
// 4-byte floats, double for double), as cpu/norm.rs `opmath`.
template <typename T>
__device__ __forceinline__ double opmath(double v) {
    return sizeof(T) == 8 ? v : (double)(float)v;
}

// dx in ATen's form, as cpu/norm.rs grad_row: a·g·w + b·x + c, the last steps
// in the dtype's arithmetic.
template <typename T>
__device__ void layer_norm_grad_impl(i64 rows, i64 n, Strided gl, const T* g, Strided xl,
                                     const T* x, const double* mean, const double* rstd,
                                     int has_w, Strided wl, const T* w, T* dx) {
    const double scale = 1.0 / (double)n;
    FOR_EACH(r, rows) {
        double m = mean[r], rs = rstd[r];
        double sum_g = lane_sum(n, [&](i64 j) {
            return __dmul_rn(elem(g, gl, r, j), param(w, wl, has_w, j, 1.0));
        });
        double sum_gx = lane_sum(n, [&](i64 j) {
            double gw = __dmul_rn(elem(g, gl, r, j), param(w, wl, has_w, j, 1.0));
            return __dmul_rn(gw, elem(x, xl, r, j));
        });
        double b = __dmul_rn(__dmul_rn(__dmul_rn(__dmul_rn(__dmul_rn(sum_g, m) - sum_gx, rs), rs), rs), scale);
        double c = __dmul_rn(-b, m) - __dmul_rn(__dmul_rn(sum_g, rs), scale);
        double a = opmath<T>(rs);
        b = opmath<T>(b);
        c = opmath<T>(c);
        for (i64 j = 0; j < n; ++j) {
            double ag = opmath<T>(__dmul_rn(a, elem(g, gl, r, j)));
            double agw = opmath<T>(__dmul_rn(ag, param(w, wl, has_w, j, 1.0)));
            double bx = opmath<T>(__dmul_rn(b, elem(x, xl, r, j)));
            dx[r * n + j] = Ty<T>::from_f64(opmath<T>(opmath<T>(agw + bx) + c));
        }
    }
}

template <typename T>
__device__ void layer_norm_params_grad_impl(i64 rows, i64 n, Strided gl, const T* g, Strided xl,
                                            const T* x, const double* mean, const double* rstd,
                                            T* dw, T* db) {
    FOR_EACH(j, n) {
        double sw = 0.0, sb = 0.0;
        for (i64 r = 0; r < rows; ++r) {
            double gv = elem(g, gl, r, j);
            sw += __dmul_rn(gv, __dmul_rn(elem(x, xl, r, j) - mean[r], rstd[r]));
            sb += gv;
        }
        dw[j] = Ty<T>::from_f64(sw);
        db[j] = Ty<T>::from_f64(sb);
    }
}

#define NORM_KERNELS(SUF, T)                                                                          \
    extern "C" __global__ void layer_norm_##SUF(i64 rows, i64 n, double eps, Strided xl,              \
                                                const T* x, int has_w, Strided wl, const T* w,        \
                                                int has_b, Strided bl, const T* b, T* y,              \
                                                double* mean, double* rstd) {                         \
        layer_norm_impl<T>(rows, n, eps, xl, x, has_w, wl, w, has_b, bl, b, y, mean, rstd);           \
    }                                                                                                 \
    extern "C" __global__ void layer_norm_grad_##SUF(i64 rows, i64 n, Strided gl, const T* g,         \
                                                     Strided xl, const T* x, const double* mean,      \
                                                     const double* rstd, int has_w, Strided wl,       \
                                                     const T* w, T* dx) {                             \
        layer_norm_grad_impl<T>(rows, n, gl, g, xl, x, mean, rstd, has_w, wl, w, dx);                 \
    }                                                                                                 \
    extern "C" __global__ void layer_norm_params_grad_##SUF(i64 rows, i64 n, Strided gl, const T* g,  \
                                                            Strided xl, const T* x,                   \
                                                            const double* mean,                       \
                                                            const double* rstd, T* dw, T* db) {       \
        layer_norm_params_grad_impl<T>(rows, n, gl, g, xl, x, mean, rstd, dw, db);                    \
    }

NORM_KERNELS(f16, f16)
NORM_KERNELS(bf16, bf16)
NORM_KERNELS(f32, float)
NORM_KERNELS(f64, double)

// ---- batch normalisation by channel of an [N, C, S] layout ----
// One thread per channel for the statistics and the gradient's sums (each
// line of S added in eight lanes, the lines in order), one per element for
// the output and dx; the arithmetic of cpu/batch_norm.rs (ATen's: the mean,
// 1/σ, α, β and dx in the dtype's arithmetic, the sums in double).

template <typename T>
__device__ __forceinline__ double at3(const T* p, const Strided& l, i64 n, i64 c, i64 j) {
    return Ty<T>::to_f64(p[l.offset + n * l.stride[0] + c * l.stride[1] + j * l.stride[2]]);
}

// 1/σ: from the batch's variance in double, from a running one in the
// dtype's arithmetic.
template <typename T>
__device__ __forceinline__ double bn_invstd(double var, double eps, int training) {
    if (training) return opmath<T>(1.0 / sqrt(var + eps));
    return opmath<T>(1.0 / opmath<T>(sqrt(opmath<T>(var + opmath<T>(eps)))));
}

template <typename T>
__device__ void bn_stats_impl(i64 N, i64 C, i64 S, Strided xl, const T* x, double* mean,
                              double* var) {
    const double count = (double)(N * S);
    FOR_EACH(c, C) {
        double sum = 0.0;
        for (i64 n = 0; n < N; ++n) sum += lane_sum(S, [&](i64 j) { return at3(x, xl, n, c, j); });
        double m = opmath<T>(sum / count);
        double sq = 0.0;
        for (i64 n = 0; n < N; ++n)
            sq += lane_sum(S, [&](i64 j) {
                double d = opmath<T>(at3(x, xl, n, c, j) - m);
                return opmath<T>(__dmul_rn(d, d));
            });
        mean[c] = m;
        var[c] = sq / count;
    }
}

template <typename T>
__device__ void bn_apply_impl(i64 N, i64 C, i64 S, double eps, int training, Strided xl,
                              const T* x, const double* mean, const double* var, int has_w,
                              const double* w, int has_b, const double* b, T* y) {
    FOR_EACH(o, N * C * S) {
        i64 j = o % S, c = (o / S) % C, n = o / (S * C);
        double is = bn_invstd<T>(var[c], eps, training);
        double alpha = opmath<T>(__dmul_rn(is, has_w ? w[c] : 1.0));
        double beta = opmath<T>((has_b ? b[c] : 0.0) - opmath<T>(__dmul_rn(mean[c], alpha)));
        double v = opmath<T>(__dmul_rn(at3(x, xl, n, c, j), alpha));
        y[o] = Ty<T>::from_f64(opmath<T>(v + beta));
    }
}

template <typename T>
__device__ void bn_grad_sums_impl(i64 N, i64 C, i64 S, double eps, int training, Strided gl,
                                  const T* g, Strided xl, const T* x, const double* mean,
                                  const double* var, double* sum_g, double* dot, double* dw) {
    FOR_EACH(c, C) {
        double a = 0.0, d = 0.0, m = opmath<T>(mean[c]);
        for (i64 n = 0; n < N; ++n) {
            a += lane_sum(S, [&](i64 j) { return at3(g, gl, n, c, j); });
            d += lane_sum(S, [&](i64 j) {
                double xm = opmath<T>(at3(x, xl, n, c, j) - m);
                return opmath<T>(__dmul_rn(xm, at3(g, gl, n, c, j)));
            });
        }
        sum_g[c] = a;
        dot[c] = d;
        dw[c] = __dmul_rn(d, bn_invstd<T>(var[c], eps, training));
    }
}

template <typename T>
__device__ void bn_grad_impl(i64 N, i64 C, i64 S, double eps, int training, Strided gl,
                             const T* g, Strided xl, const T* x, const double* mean,
                             const double* var, int has_w, const double* w, const double* sum_g,
                             const double* dot, T* dx) {
    const double count = (double)(N * S);
    FOR_EACH(o, N * C * S) {
        i64 j = o % S, c = (o / S) % C, n = o / (S * C);
        double is = bn_invstd<T>(var[c], eps, training);
        double wv = opmath<T>(has_w ? w[c] : 1.0);
        double gv = at3(g, gl, n, c, j);
        double v;
        if (training) {
            double k = opmath<T>(opmath<T>(__dmul_rn(opmath<T>(__dmul_rn(opmath<T>(dot[c]), is)), is)) / count);
            double gbar = opmath<T>(sum_g[c] / count), m = opmath<T>(mean[c]);
            double xk = opmath<T>(__dmul_rn(opmath<T>(at3(x, xl, n, c, j) - m), k));
            v = opmath<T>(__dmul_rn(opmath<T>(opmath<T>(gv - gbar) - xk), is));
        } else {
            v = opmath<T>(__dmul_rn(gv, is));
        }
        dx[o] = Ty<T>::from_f64(opmath<T>(__dmul_rn(v, wv)));
    }
}

#define BATCH_NORM_KERNELS(SUF, T)                                                                    \
    extern "C" __global__ void bn_stats_##SUF(i64 N, i64 C, i64 S, Strided xl, const T* x,            \
                                              double* mean, double* var) {                            \
        bn_stats_impl<T>(N, C, S, xl, x, mean, var);                                                  \
    }                                                                                                 \
    extern "C" __global__ void bn_apply_##SUF(i64 N, i64 C, i64 S, double eps, int training,          \
                                              Strided xl, const T* x, const double* mean,             \
                                              const double* var, int has_w, const double* w,          \
                                              int has_b, const double* b, T* y) {                     \
        bn_apply_impl<T>(N, C, S, eps, training, xl, x, mean, var, has_w, w, has_b, b, y);            \
    }                                                                                                 \
    extern "C" __global__ void bn_grad_sums_##SUF(i64 N, i64 C, i64 S, double eps, int training,      \
                                                  Strided gl, const T* g, Strided xl, const T* x,     \
                                                  const double* mean, const double* var,              \
                                                  double* sum_g, double* dot, double* dw) {           \
        bn_grad_sums_impl<T>(N, C, S, eps, training, gl, g, xl, x, mean, var, sum_g, dot, dw);        \
    }                                                                                                 \
    extern "C" __global__ void bn_grad_##SUF(i64 N, i64 C, i64 S, double eps, int training,           \
                                             Strided gl, const T* g, Strided xl, const T* x,          \
                                             const double* mean, const double* var, int has_w,        \
                                             const double* w, const double* sum_g,                    \
                                             const double* dot, T* dx) {                              \
        bn_grad_impl<T>(N, C, S, eps, training, gl, g, xl, x, mean, var, has_w, w, sum_g, dot, dx);   \
    }

BATCH_NORM_KERNELS(f16, f16)
BATCH_NORM_KERNELS(bf16, bf16)
BATCH_NORM_KERNELS(f32, float)
BATCH_NORM_KERNELS(f64, double)
