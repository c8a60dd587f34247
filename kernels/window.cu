// im2col (unfold) and its adjoint (fold) for convolution and pooling, one
// thread per output element. fold gathers (each image element sums the
// columns that read it), so it needs no atomics and is deterministic; it
// accumulates in double as the CPU backend does.

struct Win {
    i64 kernel[2];
    i64 stride[2];
    i64 pad[2];       // padding before (top, left)
    i64 dilation[2];
    i64 out[2];       // output size (oh, ow)
};

// `in` is a 4-d [N, C, H, W] layout (not merged: the kernel needs each dim).
#define WINDOW_KERNELS(SUF, T)                                                                        \
    extern "C" __global__ void unfold_##SUF(i64 total, i64 C, i64 H, i64 W, Win w, Strided in_l,      \
                                            const T* in, double pad, T* out) {                        \
        const T padv = Ty<T>::from_f64(pad);                                                          \
        i64 oh = w.out[0], ow = w.out[1], kk = w.kernel[0] * w.kernel[1];                             \
        FOR_EACH(o, total) {                                                                          \
            i64 ox = o % ow, oy = (o / ow) % oh;                                                      \
            i64 tap = (o / (ow * oh)) % kk, c = (o / (ow * oh * kk)) % C, n = o / (ow * oh * kk * C); \
            i64 y = oy * w.stride[0] - w.pad[0] + (tap / w.kernel[1]) * w.dilation[0];               \
            i64 x = ox * w.stride[1] - w.pad[1] + (tap % w.kernel[1]) * w.dilation[1];               \
            out[o] = (y >= 0 && y < H && x >= 0 && x < W)                                             \
                         ? in[in_l.offset + n * in_l.stride[0] + c * in_l.stride[1] +                 \
                              y * in_l.stride[2] + x * in_l.stride[3]]                                \
                         : padv;                                                                      \
        }                                                                                             \
    }                                                                                                 \
    extern "C" __global__ void fold_##SUF(i64 total, i64 C, i64 H, i64 W, Win w, Strided cols_l,      \
                                          const T* cols, T* out) {                                    \
        i64 oh = w.out[0], ow = w.out[1], kw = w.kernel[1];                                           \
        FOR_EACH(o, total) {                                                                          \
            i64 x = o % W, y = (o / W) % H, c = (o / (W * H)) % C, n = o / (W * H * C);               \
            double acc = 0.0;                                                                         \
            for (i64 ky = 0; ky < w.kernel[0]; ++ky) {                                                \
                i64 yy = y + w.pad[0] - ky * w.dilation[0];                                           \
                if (yy < 0 || yy % w.stride[0] != 0 || yy / w.stride[0] >= oh) continue;             \
                for (i64 kx = 0; kx < kw; ++kx) {                                                     \
                    i64 xx = x + w.pad[1] - kx * w.dilation[1];                                       \
                    if (xx < 0 || xx % w.stride[1] != 0 || xx / w.stride[1] >= ow) continue;         \
                    i64 row = c * w.kernel[0] * kw + ky * kw + kx;                                    \
                    i64 col = (yy / w.stride[0]) * ow + xx / w.stride[1];                             \
                    acc += Ty<T>::to_f64(cols[cols_l.offset + n * cols_l.stride[0] +                  \
                                              row * cols_l.stride[1] + col * cols_l.stride[2]]);      \
                }                                                                                     \
            }                                                                                         \
            out[o] = Ty<T>::from_f64(acc);                                                            \
        }                                                                                             \
    }

FOR_ALL_DTYPES(WINDOW_KERNELS)

// Max pooling, one thread per output: ATen's scan (first in-bounds tap, then
// by dilation), `v > max || isnan(v)`, and the maximum's flat position in its
// H*W plane. The gradient gathers, as fold does: each input element adds, in
// output order, the gradients of the windows that picked it (no atomics).
__device__ __forceinline__ void pool_reach(i64 o, i64 size, i64 k, i64 s, i64 p, i64 d, i64* lo,
                                           i64* hi) {
    i64 start = o * s - p;
    i64 end = start + (k - 1) * d + 1;
    if (end > size) end = size;
    while (start < 0) start += d;
    *lo = start;
    *hi = end < start ? start : end;
}

#define POOL_KERNELS(SUF, T)                                                                          \
    extern "C" __global__ void max_pool_##SUF(i64 total, i64 C, i64 H, i64 W, Win w, Strided in_l,    \
                                              const T* in, T* out, i64* idx) {                        \
        i64 oh = w.out[0], ow = w.out[1];                                                             \
        FOR_EACH(o, total) {                                                                          \
            i64 ox = o % ow, oy = (o / ow) % oh, c = (o / (ow * oh)) % C, n = o / (ow * oh * C);      \
            i64 y0, y1, x0, x1;                                                                       \
            pool_reach(oy, H, w.kernel[0], w.stride[0], w.pad[0], w.dilation[0], &y0, &y1);           \
            pool_reach(ox, W, w.kernel[1], w.stride[1], w.pad[1], w.dilation[1], &x0, &x1);           \
            const T* plane = in + in_l.offset + n * in_l.stride[0] + c * in_l.stride[1];              \
            i64 best = y0 * W + x0;                                                                   \
            double max = -f64_inf();                                                                  \
            T maxv = Ty<T>::from_f64(max);                                                            \
            bool first = true;                                                                        \
            for (i64 y = y0; y < y1; y += w.dilation[0]) {                                            \
                for (i64 x = x0; x < x1; x += w.dilation[1]) {                                        \
                    T v = plane[y * in_l.stride[2] + x * in_l.stride[3]];                             \
                    double f = Ty<T>::to_f64(v);                                                      \
                    if (first || f > max || f != f) {                                                 \
                        max = f;                                                                      \
                        maxv = v;                                                                     \
                        best = y * W + x;                                                             \
                        first = false;                                                                \
                    }                                                                                 \
                }                                                                                     \
            }                                                                                         \
            out[o] = maxv;                                                                            \
            idx[o] = best;                                                                            \
        }                                                                                             \
    }                                                                                                 \
    extern "C" __global__ void max_pool_backward_##SUF(i64 total, i64 C, i64 H, i64 W, Win w,         \
                                                       Strided g_l, const T* g, Strided i_l,          \
                                                       const i64* idx, T* out) {                      \
        i64 oh = w.out[0], ow = w.out[1];                                                             \
        FOR_EACH(o, total) {                                                                          \
            i64 x = o % W, y = (o / W) % H, c = (o / (W * H)) % C, n = o / (W * H * C);               \
            i64 here = y * W + x;                                                                     \
            T acc = Ty<T>::from_f64(0.0);                                                             \
            /* The outputs whose window can reach (y, x): oy*s - p <= y <= oy*s - p + (k-1)*d. */     \
            i64 oy_lo = y + w.pad[0] - (w.kernel[0] - 1) * w.dilation[0];                             \
            oy_lo = oy_lo <= 0 ? 0 : (oy_lo + w.stride[0] - 1) / w.stride[0];                         \
            i64 ox_lo = x + w.pad[1] - (w.kernel[1] - 1) * w.dilation[1];                             \
            ox_lo = ox_lo <= 0 ? 0 : (ox_lo + w.stride[1] - 1) / w.stride[1];                         \
            for (i64 oy = oy_lo; oy < oh && oy * w.stride[0] - w.pad[0] <= y; ++oy) {                 \
                for (i64 ox = ox_lo; ox < ow && ox * w.stride[1] - w.pad[1] <= x; ++ox) {             \
                    i64 at = n * i_l.stride[0] + c * i_l.stride[1] + oy * i_l.stride[2] +             \
                             ox * i_l.stride[3];                                                      \
                    if (idx[i_l.offset + at] != here) continue;                                       \
                    i64 gat = n * g_l.stride[0] + c * g_l.stride[1] + oy * g_l.stride[2] +            \
                              ox * g_l.stride[3];                                                     \
                    acc = Ty<T>::from_f64(Ty<T>::to_f64(acc) + Ty<T>::to_f64(g[g_l.offset + gat]));   \
                }                                                                                     \
            }                                                                                         \
            out[o] = acc;                                                                             \
        }                                                                                             \
    }

FOR_ALL_DTYPES(POOL_KERNELS)

// Average pooling, one thread per output: ATen's windows and order (each
// window's sum from 0, row by row, left to right, in the acc type: float
// for the halves and float, double for double), divided by the window's
// count, a fixed divisor, or its height then its width (adaptive); 0 where
// the window has nothing inside the input.
struct AvgSpec {
    i64 adaptive;     // 1: adaptive windows of w.out; 0: w's geometry
    Win w;
    i64 pad_after[2];
    i64 include_pad;
    i64 divisor;      // 0: none
};

__device__ __forceinline__ void avg_axis(const AvgSpec& a, int d, i64 o, i64 size, i64* lo, i64* hi,
                                         i64* count) {
    if (a.adaptive) {
        i64 out = a.w.out[d];
        *lo = o * size / out;
        *hi = ((o + 1) * size + out - 1) / out;
        *count = *hi - *lo;
        return;
    }
    i64 start = o * a.w.stride[d] - a.w.pad[d];
    i64 end = start + a.w.kernel[d];
    if (end > size + a.pad_after[d]) end = size + a.pad_after[d];
    *lo = start < 0 ? 0 : start;
    *hi = end > size ? size : end;
    if (*hi < *lo) *hi = *lo;
    *count = a.include_pad ? end - start : *hi - *lo;
}

// A window's sum (or its gradient) divided as ATen divides it: by the
// divisor, by the height then the width (adaptive), or by the count.
template <typename A>
__device__ __forceinline__ A avg_divide(const AvgSpec& a, A v, i64 cy, i64 cx) {
    if (a.divisor != 0) return v / (A)a.divisor;
    if (a.adaptive) return v / (A)cy / (A)cx;
    return v / (A)(cy * cx);
}

#define AVG_POOL_KERNELS(SUF, T)                                                                      \
    extern "C" __global__ void avg_pool_##SUF(i64 total, i64 C, i64 H, i64 W, AvgSpec a,             \
                                              Strided in_l, const T* in, T* out) {                    \
        typedef typename Ty<T>::acc A;                                                                \
        i64 oh = a.w.out[0], ow = a.w.out[1];                                                         \
        FOR_EACH(o, total) {                                                                          \
            i64 ox = o % ow, oy = (o / ow) % oh, c = (o / (ow * oh)) % C, n = o / (ow * oh * C);      \
            i64 y0, y1, cy, x0, x1, cx;                                                               \
            avg_axis(a, 0, oy, H, &y0, &y1, &cy);                                                     \
            avg_axis(a, 1, ox, W, &x0, &x1, &cx);                                                     \
            const T* plane = in + in_l.offset + n * in_l.stride[0] + c * in_l.stride[1];              \
            A sum = (A)0;                                                                             \
            for (i64 y = y0; y < y1; ++y) {                                                           \
                for (i64 x = x0; x < x1; ++x) {                                                       \
                    sum += Ty<T>::to_acc(plane[y * in_l.stride[2] + x * in_l.stride[3]]);             \
                }                                                                                     \
            }                                                                                         \
            bool empty = y0 >= y1 || x0 >= x1;                                                        \
            out[o] = Ty<T>::from_acc(empty ? (A)0 : avg_divide(a, sum, cy, cx));                      \
        }                                                                                             \
    }

AVG_POOL_KERNELS(f16, f16)
AVG_POOL_KERNELS(bf16, bf16)
AVG_POOL_KERNELS(f32, float)
AVG_POOL_KERNELS(f64, double)

// The outputs along an axis whose windows can hold input position i: a
// superset of them, in order (avg_axis decides).
__device__ __forceinline__ void avg_reach(const AvgSpec& a, int d, i64 i, i64 size, i64* first,
                                          i64* last) {
    i64 out = a.w.out[d];
    if (a.adaptive) {
        *first = i * out / size;
        *last = ((i + 1) * out - 1) / size;
    } else {
        i64 lo = i + a.w.pad[d] - a.w.kernel[d] + 1;
        *first = lo <= 0 ? 0 : (lo + a.w.stride[d] - 1) / a.w.stride[d];
        *last = (i + a.w.pad[d]) / a.w.stride[d];
    }
    if (*last > out - 1) *last = out - 1;
}

// avg_pool's gradient as a gather: each input element adds, in output
// order, the gradients of the windows that hold it, each divided as its sum
// was (no atomics).
#define AVG_POOL_BACKWARD_KERNELS(SUF, T)                                                             \
    extern "C" __global__ void avg_pool_backward_##SUF(i64 total, i64 C, i64 H, i64 W, AvgSpec a,    \
                                                       Strided g_l, const T* g, T* out) {             \
        typedef typename Ty<T>::acc A;                                                                \
        FOR_EACH(o, total) {                                                                          \
            i64 x = o % W, y = (o / W) % H, c = (o / (W * H)) % C, n = o / (W * H * C);               \
            i64 oy0, oy1, ox0, ox1;                                                                   \
            avg_reach(a, 0, y, H, &oy0, &oy1);                                                        \
            avg_reach(a, 1, x, W, &ox0, &ox1);                                                        \
            A acc = (A)0;                                                                             \
            for (i64 oy = oy0; oy <= oy1; ++oy) {                                                     \
                i64 y0, y1, cy;                                                                       \
                avg_axis(a, 0, oy, H, &y0, &y1, &cy);                                                 \
                if (y < y0 || y >= y1) continue;                                                      \
                for (i64 ox = ox0; ox <= ox1; ++ox) {                                                 \
                    i64 x0, x1, cx;                                                                   \
                    avg_axis(a, 1, ox, W, &x0, &x1, &cx);                                             \
                    if (x < x0 || x >= x1) continue;                                                  \
                    A v = Ty<T>::to_acc(g[g_l.offset + n * g_l.stride[0] + c * g_l.stride[1] +        \
                                          oy * g_l.stride[2] + ox * g_l.stride[3]]);                  \
                    acc += avg_divide(a, v, cy, cx);                                                  \
                }                                                                                     \
            }                                                                                         \
            out[o] = Ty<T>::from_acc(acc);                                                            \
        }                                                                                             \
    }

AVG_POOL_BACKWARD_KERNELS(f16, f16)
AVG_POOL_BACKWARD_KERNELS(bf16, bf16)
AVG_POOL_BACKWARD_KERNELS(f32, float)
AVG_POOL_BACKWARD_KERNELS(f64, double)
