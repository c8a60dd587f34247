// Kernels for the fakecuda self-test (tests/fakecuda/selftest.sh). Plain CUDA C++ that
// NVRTC accepts as well: no #include, extern "C" entry points.

struct Affine {  // passed by value
  float a;
  int n;
  float bias[3];
};

template <typename T>
__device__ __forceinline__ T twice(T x) { return x + x; }

extern "C" __global__ void affine(float* __restrict__ out, const float* __restrict__ x, Affine p,
                                  float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) out[i] = scale * (p.a * x[i] + p.bias[i % 3]) + twice(0.0f);
}

// Tree reduction over 256 threads in static shared memory; block sums to `partial`, the
// total through float and double atomics.
extern "C" __global__ void __launch_bounds__(256) reduce_sum(const float* x, int n, float* out_f,
                                                              double* out_d, float* partial) {
  __shared__ float s[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? x[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    atomicAdd(out_f, s[0]);
    atomicAdd(out_d, (double)s[0]);
  }
}

// Two-level block sum: warp shuffles, then a __shared__ array that lives in a __device__
// helper (any block size up to 1024).
__device__ float block_sum(float v) {
  __shared__ float warp_sums[32];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  int nwarps = (blockDim.x + warpSize - 1) / warpSize;
  v = threadIdx.x < nwarps ? warp_sums[threadIdx.x] : 0.0f;
  if (warp == 0)
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
extern "C" __global__ void block_sums(const float* x, float* out) {
  float s = block_sum(x[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Dynamic shared memory: reverse each block's chunk.
extern "C" __global__ void reverse_block(const int* in, int* out, int n) {
  extern __shared__ int buf[];
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  if (base + t < n) buf[t] = in[base + t];
  __syncthreads();
  int cnt = min((int)blockDim.x, n - base);
  if (t < cnt) out[base + t] = buf[cnt - 1 - t];
}

// Dynamic shared memory carved into two typed arrays.
extern "C" __global__ void carve(const float* a, const double* b, double* out) {
  extern __shared__ __align__(16) unsigned char smem[];
  float* fs = reinterpret_cast<float*>(smem);
  double* ds = (double*)(smem + blockDim.x * sizeof(float) + 8);
  int t = threadIdx.x;
  fs[t] = a[t];
  ds[t] = b[t];
  __syncthreads();
  out[t] = fs[blockDim.x - 1 - t] + ds[(t + 1) % blockDim.x];
}

// Warp shuffles (down, up, xor, idx), ballot, for float, int and double.
extern "C" __global__ void warp_ops(const float* x, int n, float* wsum, int* scan, unsigned* ballot,
                                    double* dsum, int* bcast) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  float v = i < n ? x[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) wsum[i / 32] = v;
  int s = lane + 1;
  for (int o = 1; o < 32; o <<= 1) {
    int y = __shfl_up_sync(0xffffffffu, s, o);
    if (lane >= o) s += y;
  }
  scan[i] = s;
  unsigned b = __ballot_sync(0xffffffffu, (lane & 1) && i < n);
  if (lane == 0) ballot[i / 32] = b;
  double d = (double)lane;
  for (int o = 16; o > 0; o >>= 1) d += __shfl_xor_sync(0xffffffffu, d, o);
  dsum[i] = d;
  bcast[i] = __shfl_sync(0xffffffffu, i, 7) + __shfl_sync(0xffffffffu, lane, 3, 8);
}

// Barrier reductions.
extern "C" __global__ void sync_preds(int* out) {
  int t = threadIdx.x;
  int c = __syncthreads_count(t % 3 == 0);
  int a = __syncthreads_and(t < 1000);
  int o = __syncthreads_or(t == 5);
  int z = __syncthreads_and(t != 7);
  if (t == 0) { out[0] = c; out[1] = a; out[2] = o; out[3] = z; }
}

// Kernels stamped by a macro count too.
#define STAMP(T, NAME)                                                  \
  extern "C" __global__ void NAME(T* p, T v, int n) {                   \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                      \
    if (i < n) p[i] = v * (T)i;                                         \
  }
STAMP(float, fill_f32)
STAMP(double, fill_f64)

// 3-D blocks and a 2-D grid: every thread writes its own linear id.
extern "C" __global__ void ids3d(int* out) {
  int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int bid = blockIdx.x + gridDim.x * blockIdx.y;
  int per = blockDim.x * blockDim.y * blockDim.z;
  out[bid * per + tid] = bid * per + tid;
}

// Math API and intrinsics.
extern "C" __global__ void math(const float* x, float* out, double* dout, int* iout) {
  float v = x[0];  // 0.3
  out[0] = expf(v);
  out[1] = erfinvf(v);
  out[2] = normcdff(v);
  float s, c;
  sincospif(v, &s, &c);
  out[3] = s;
  out[4] = c;
  out[5] = rsqrtf(v);
  out[6] = __fdividef(1.0f, v);
  out[7] = max(v, 0.5f) + min(2, 3);
  out[8] = sin(v);  // float overload
  out[9] = isnan(v) ? 1.0f : 0.0f;
  dout[0] = erfinv((double)v);
  dout[1] = lgamma(4.5);
  dout[2] = normcdfinv(0.975);
  iout[0] = __float2int_rn(2.5f);
  iout[1] = __float2int_rz(-2.7f);
  iout[2] = __popc(0xF0F0u);
  iout[3] = (int)__brev(1u);
  iout[4] = __clz(1);
  iout[5] = __float2int_rn(v / 0.0f);  // saturates
  iout[6] = __ffs(8);
  iout[7] = (int)__umulhi(0x80000000u, 6u);
}

// Integer atomics from many blocks.
extern "C" __global__ void atomics(int* counters, unsigned* maxv, unsigned long long* sum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;  // returning early is fine: later barriers don't wait for us
  atomicAdd(&counters[0], 1);
  atomicSub(&counters[1], 2);
  atomicMax(maxv, (unsigned)i);
  atomicAdd(sum, (unsigned long long)i);
  atomicInc((unsigned*)&counters[2], 9u);
  atomicCAS(&counters[3], 0, 42);
}

// A __device__ global reachable through cuModuleGetGlobal.
__device__ float g_scale;
extern "C" __global__ void use_global(float* out) { out[threadIdx.x] = g_scale * threadIdx.x; }

extern "C" __global__ void checked(const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(x[i] >= 0.0f);
}

// Thread 0 waits at __syncthreads while the rest of warp 0 waits at __syncwarp: a deadlock
// (on a GPU: a hang), which the emulator reports.
extern "C" __global__ void deadlock(int* out) {
  if (threadIdx.x == 0) __syncthreads();
  else __syncwarp();
  out[threadIdx.x] = 1;
}

// A deliberate race: which thread writes last shows the emulator's thread order.
extern "C" __global__ void last_writer(int* out) { out[0] = threadIdx.x; }

// A wild write: on a GPU, CUDA_ERROR_ILLEGAL_ADDRESS; here too, instead of a crash.
extern "C" __global__ void wild_write(int* p) {
  if (threadIdx.x == 5) *(volatile int*)(p + (1ll << 40)) = 1;
}

// One past the end: caught when the kernel runs under FAKECUDA_ASAN=1.
extern "C" __global__ void read_past_end(const float* x, int n, float* out) {
  if (threadIdx.x == 0) out[0] = x[n];
}

// Benchmarks: elementwise throughput and barrier cost.
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void barriers(float* out, int rounds) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  s[t] = t;
  for (int r = 0; r < rounds; r++) {  // two barriers per round, race-free
    __syncthreads();
    float v = s[(t + 1) % blockDim.x];
    __syncthreads();
    s[t] += v * 0.5f;
  }
  out[blockIdx.x * blockDim.x + t] = s[t];
}

// Template kernel reached through nvrtcAddNameExpression.
template <typename T>
__global__ void scale_t(T* p, T f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= f;
}
