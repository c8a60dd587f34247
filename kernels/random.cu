// Random fills from Philox 4x32-10, the counter-based generator PyTorch's CUDA
// generator uses: element i of a fill takes the block (offset + i) of the
// stream keyed by the seed, so the same seed gives the same numbers run to run
// and any launch shape gives the same numbers. (PyTorch's CUDA streams are not
// matched digit for digit.)

struct Philox { u32 v[4]; };

__device__ __forceinline__ u32 mulhi32(u32 a, u32 b) { return (u32)(((u64)a * (u64)b) >> 32); }

__device__ Philox philox(u64 counter, u64 seed) {
    u32 c0 = (u32)counter, c1 = (u32)(counter >> 32), c2 = 0, c3 = 0;
    u32 k0 = (u32)seed, k1 = (u32)(seed >> 32);
    for (int r = 0; r < 10; ++r) {
        u32 hi0 = mulhi32(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
        u32 hi1 = mulhi32(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
        u32 n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
        c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    Philox p;
    p.v[0] = c0; p.v[1] = c1; p.v[2] = c2; p.v[3] = c3;
    return p;
}

// A uniform in [0, 1): 53 random bits for float64, 24 for the narrower floats.
__device__ __forceinline__ double unit(u32 a, u32 b, int wide) {
    if (wide) return (double)((((u64)a << 32) | b) >> 11) * 1.1102230246251565e-16;
    return (double)(a >> 8) * 5.9604644775390625e-8;
}

// dist: 0 uniform [a, b), 1 normal (mean a, std b), 2 integers [lo, hi).
#define RANDOM_KERNELS(SUF, T)                                                                        \
    extern "C" __global__ void random_##SUF(i64 n, u64 seed, u64 offset, int dist, double a, double b, \
                                            i64 lo, i64 hi, int wide, T* out) {                      \
        FOR_EACH(i, n) {                                                                              \
            Philox r = philox(offset + (u64)i, seed);                                                 \
            if (dist == 0) {                                                                          \
                out[i] = Ty<T>::from_f64(a + unit(r.v[0], r.v[1], wide) * (b - a));                   \
            } else if (dist == 1) {                                                                   \
                double u1 = 1.0 - unit(r.v[0], r.v[1], wide), u2 = unit(r.v[2], r.v[3], wide);       \
                double z = sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);                        \
                out[i] = Ty<T>::from_f64(a + b * z);                                                  \
            } else {                                                                                  \
                u64 range = (u64)hi - (u64)lo;                                                        \
                u64 x = ((u64)r.v[0] << 32) | r.v[1];                                                 \
                out[i] = Ty<T>::from_i64((i64)((u64)lo + x % range));                                 \
            }                                                                                         \
        }                                                                                             \
    }

FOR_ALL_DTYPES(RANDOM_KERNELS)
