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
