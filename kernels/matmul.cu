// Batched matrix products for the dtypes cuBLAS has no gemm for (integers and
// bool): one thread per output element, wrapping int64 accumulation as the CPU
// backend. Float dtypes go to cuBLAS.
//
// a is [batch..., m, k] and b [batch..., k, n]: `ab`/`bb` lay out the batch
// dims (merged), the row and column strides are given apart. The output is
// contiguous [batch, m, n].

#define MATMUL_KERNELS(SUF, T)                                                                        \
    extern "C" __global__ void matmul_##SUF(i64 total, i64 m, i64 n, i64 k, Strided ab, i64 ars,      \
                                            i64 acs, const T* a, Strided bb, i64 brs, i64 bcs,        \
                                            const T* b, T* out) {                                     \
        FOR_EACH(o, total) {                                                                          \
            i64 j = o % n, i = (o / n) % m, batch = o / (n * m);                                      \
            i64 pa = at(ab, batch) + i * ars, pb = at(bb, batch) + j * bcs;                           \
            typename Ty<T>::acc acc = 0;                                                              \
            for (i64 q = 0; q < k; ++q)                                                               \
                acc = mac(acc, Ty<T>::to_acc(a[pa + q * acs]), Ty<T>::to_acc(b[pb + q * brs]));       \
            out[o] = Ty<T>::from_acc(acc);                                                            \
        }                                                                                             \
    }

__device__ __forceinline__ i64 mac(i64 acc, i64 x, i64 y) { return (i64)((u64)acc + (u64)x * (u64)y); }
__device__ __forceinline__ float mac(float acc, float x, float y) { return fmaf(x, y, acc); }
__device__ __forceinline__ double mac(double acc, double x, double y) { return fma(x, y, acc); }

FOR_ALL_DTYPES(MATMUL_KERNELS)
