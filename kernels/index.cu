// Advanced indexing (gather and put, with accumulation), and nonzero.
//
// An indexed view: output element o splits into (before, broadcast, after)
// positions ob, bb, oa; it reads `at(before, ob) + sum_k idx_k[bb] * stride_k
// + at(after, oa)` of the source. The host makes each index a contiguous int64
// buffer of the broadcast shape and checks the indices first (index_check),
// so the gather and put kernels only see valid ones.

#define MAXI 8

struct Indices {
    i64 count;
    i64 ptr[MAXI];      // device addresses of int64 buffers of nb elements
    i64 size[MAXI];     // the indexed dim's size (negative indices count from it)
    i64 stride[MAXI];   // the indexed dim's stride in the source
};

__device__ __forceinline__ i64 indexed_offset(const Indices& ix, i64 bb) {
    i64 off = 0;
    for (int k = 0; k < (int)ix.count; ++k) {
        i64 x = ((const i64*)ix.ptr[k])[bb];
        if (x < 0) x += ix.size[k];
        off += x * ix.stride[k];
    }
    return off;
}

__device__ __forceinline__ i64 source_offset(const Strided& before, const Strided& after,
                                             const Indices& ix, i64 o, i64 nb, i64 na) {
    i64 oa = o % na;
    i64 bb = (o / na) % nb;
    i64 ob = o / (na * nb);
    return at(before, ob) + indexed_offset(ix, bb) + at(after, oa);
}

// err[0] ends as the smallest k * nb + b whose index is out of range (or stays
// all ones): the host reports the same index the CPU would, the first one.
extern "C" __global__ void index_check(i64 nb, Indices ix, u64* err) {
    FOR_EACH(t, nb * ix.count) {
        i64 k = t / nb, b = t % nb;
        i64 x = ((const i64*)ix.ptr[k])[b];
        if (x < -ix.size[k] || x >= ix.size[k]) atomicMin(err, (u64)t);
    }
}

// Reinterpret the bits of a narrow element (no std::memcpy without headers).
template <typename T> union Bits { T v; unsigned short s; unsigned char c; };

// An atomic add for elements narrower than 32 bits: a compare-and-swap loop on
// the aligned word that holds the element (allocations are whole words).
template <typename T>
__device__ void atomic_add_narrow(T* p, T v) {
    u32* word = (u32*)((u64)p & ~(u64)3);
    u32 shift = (u32)((u64)p & 3) * 8;
    u32 mask = (sizeof(T) == 2 ? 0xffffu : 0xffu) << shift;
    u32 old = *word, assumed;
    do {
        assumed = old;
        Bits<T> cur, nxt;
        if (sizeof(T) == 2) cur.s = (unsigned short)((assumed & mask) >> shift);
        else cur.c = (unsigned char)((assumed & mask) >> shift);
        nxt.v = Ty<T>::from_acc(Ty<T>::to_acc(cur.v) + Ty<T>::to_acc(v));
        u32 bits = sizeof(T) == 2 ? (u32)nxt.s : (u32)nxt.c;
        old = atomicCAS(word, assumed, (assumed & ~mask) | (bits << shift));
    } while (assumed != old);
}

__device__ __forceinline__ void atomic_add(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(int* p, int v) { atomicAdd(p, v); }
__device__ __forceinline__ void atomic_add(i64* p, i64 v) { atomicAdd((u64*)p, (u64)v); }
__device__ __forceinline__ void atomic_add(bool* p, bool v) { if (v) *p = true; }
__device__ __forceinline__ void atomic_add(f16* p, f16 v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(bf16* p, bf16 v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(short* p, short v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(signed char* p, signed char v) { atomic_add_narrow(p, v); }
__device__ __forceinline__ void atomic_add(unsigned char* p, unsigned char v) { atomic_add_narrow(p, v); }

#define INDEX_KERNELS(SUF, T)                                                                         \
    extern "C" __global__ void index_##SUF(i64 n, i64 nb, i64 na, Strided before, Strided after,      \
                                           Indices ix, const T* src, T* out) {                        \
        FOR_EACH(o, n) out[o] = src[source_offset(before, after, ix, o, nb, na)];                     \
    }                                                                                                 \
    extern "C" __global__ void index_put_##SUF(i64 n, i64 nb, i64 na, Strided before, Strided after,  \
                                               Indices ix, T* dst, Strided sl, const T* src,          \
                                               int accumulate) {                                      \
        FOR_EACH(o, n) {                                                                              \
            T v = src[at(sl, o)];                                                                     \
            T* p = dst + source_offset(before, after, ix, o, nb, na);                                 \
            if (accumulate) atomic_add(p, v);                                                         \
            else *p = v;                                                                              \
        }                                                                                             \
    }

FOR_ALL_DTYPES(INDEX_KERNELS)

// nonzero of a contiguous bool buffer, in two launches of one block: count,
// then (the host having sized the output) write each true element's
// coordinates in order. Each thread takes one contiguous chunk; a prefix over
// the chunks' counts tells it where its rows go.
#define NZ_THREADS 256

__device__ __forceinline__ i64 nz_count_chunk(const bool* flags, i64 lo, i64 hi) {
    i64 c = 0;
    for (i64 i = lo; i < hi; ++i) c += flags[i] ? 1 : 0;
    return c;
}

// This thread's chunk [*lo, *hi) of the n flags, with its count stored in
// counts[threadIdx.x]. Every thread of the block calls it (it synchronises).
__device__ void nz_chunk(i64 n, const bool* flags, i64* counts, i64* lo, i64* hi) {
    i64 chunk = (n + NZ_THREADS - 1) / NZ_THREADS;
    *lo = threadIdx.x * chunk;
    *hi = *lo + chunk < n ? *lo + chunk : n;
    counts[threadIdx.x] = *lo < *hi ? nz_count_chunk(flags, *lo, *hi) : 0;
    __syncthreads();
}

extern "C" __global__ void nonzero_count(i64 n, const bool* flags, i64* count) {
    __shared__ i64 counts[NZ_THREADS];
    i64 lo, hi;
    nz_chunk(n, flags, counts, &lo, &hi);
    if (threadIdx.x == 0) {
        i64 total = 0;
        for (int t = 0; t < NZ_THREADS; ++t) total += counts[t];
        *count = total;
    }
}

// shape.shape[0..ndim] is the input's shape (row-major coordinates).
extern "C" __global__ void nonzero_write(i64 n, const bool* flags, Strided shape, i64* out) {
    __shared__ i64 starts[NZ_THREADS];
    i64 lo, hi;
    nz_chunk(n, flags, starts, &lo, &hi);
    if (threadIdx.x == 0) {
        i64 acc = 0;
        for (int t = 0; t < NZ_THREADS; ++t) {
            i64 c = starts[t];
            starts[t] = acc;
            acc += c;
        }
    }
    __syncthreads();
    i64 row = starts[threadIdx.x];
    int nd = (int)shape.ndim;
    for (i64 i = lo; i < hi; ++i) {
        if (!flags[i]) continue;
        i64 rest = i;
        for (int d = nd - 1; d >= 0; --d) {
            out[row * nd + d] = rest % shape.shape[d];
            rest /= shape.shape[d];
        }
        row += 1;
    }
}
