// Casts, copies and the creation fills: the kernels a tensor needs to reach
// the device and come back, in a module of their own so that moving data
// compiles only these. Conversions follow the CPU backend's (store_dtype).

// Signed overflow is undefined in C++; PyTorch's integers wrap, so do it in u64.
__device__ __forceinline__ i64 wadd(i64 a, i64 b) { return (i64)((u64)a + (u64)b); }
__device__ __forceinline__ i64 wsub(i64 a, i64 b) { return (i64)((u64)a - (u64)b); }
__device__ __forceinline__ i64 wmul(i64 a, i64 b) { return (i64)((u64)a * (u64)b); }

// One loop, the destination chosen per element by a switch that every thread
// takes alike: a loop per destination type compiled ten times as slowly.
template <typename S>
__device__ __forceinline__ void cast_impl(i64 n, int to, const Strided& l, const S* in, void* out) {
    FOR_EACH(i, n) {
        S x = in[at(l, i)];
        if (Ty<S>::is_float) store_dtype(out, i, to, Ty<S>::to_f64(x), 0, true);
        else store_dtype(out, i, to, 0.0, Ty<S>::to_i64(x), false);
    }
}

template <typename T>
__device__ __forceinline__ void arange_impl(i64 n, double fstart, double fstep, i64 istart, i64 istep, T* out) {
    FOR_EACH(i, n) {
        if (Ty<T>::is_float) out[i] = Ty<T>::from_f64(fstart + (double)i * fstep);
        else out[i] = Ty<T>::from_i64(wadd(istart, wmul(i, istep)));
    }
}

// PyTorch's linspace digit for digit (see CpuStorage::linspace): from both
// ends, one fused multiply-add each; float64 in double, the other floats in
// float from ends rounded to the dtype, integers in double from truncated ends.
template <typename T>
__device__ __forceinline__ void linspace_impl(i64 n, double start, double end, int f64_math, T* out) {
    i64 half = n / 2;
    i64 last = n - 1 > 1 ? n - 1 : 1;
    if (f64_math || !Ty<T>::is_float) {
        double s = start, e = end;
        if (!Ty<T>::is_float) { s = trunc(s); e = trunc(e); }
        double step = (e - s) / (double)last;
        FOR_EACH(i, n) {
            double v = n == 1 ? s : (i < half ? fma(step, (double)i, s) : fma(-step, (double)(n - 1 - i), e));
            out[i] = Ty<T>::is_float ? Ty<T>::from_f64(v) : Ty<T>::from_i64((i64)v);
        }
        return;
    }
    float s = (float)Ty<T>::to_f64(Ty<T>::from_f64(start));
    float e = (float)Ty<T>::to_f64(Ty<T>::from_f64(end));
    float step = (e - s) / (float)last;
    FOR_EACH(i, n) {
        float v = n == 1 ? s : (i < half ? fmaf(step, (float)i, s) : fmaf(-step, (float)(n - 1 - i), e));
        out[i] = Ty<T>::from_f64((double)v);
    }
}

#define COPY_KERNELS(SUF, T) \
    extern "C" __global__ void cast_##SUF(i64 n, int to, Strided l, const T* in, void* out) {         \
        cast_impl<T>(n, to, l, in, out);                                                               \
    } \
    extern "C" __global__ void copy_##SUF(i64 n, Strided dl, T* dst, Strided sl, const T* src) {      \
        FOR_EACH(i, n) dst[at(dl, i)] = src[at(sl, i)];                                                \
    } \
    extern "C" __global__ void fill_##SUF(i64 n, double f, i64 v, T* out) {                           \
        T x = Ty<T>::is_float ? Ty<T>::from_f64(f) : Ty<T>::from_i64(v);                              \
        FOR_EACH(i, n) out[i] = x;                                                                     \
    } \
    extern "C" __global__ void arange_##SUF(i64 n, double fs, double fst, i64 is, i64 ist, T* out) {  \
        arange_impl<T>(n, fs, fst, is, ist, out);                                                      \
    } \
    extern "C" __global__ void linspace_##SUF(i64 n, double s, double e, int f64_math, T* out) {      \
        linspace_impl<T>(n, s, e, f64_math, out);                                                      \
    }

FOR_ALL_DTYPES(COPY_KERNELS)
