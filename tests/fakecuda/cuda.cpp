// Fake libcuda, part 1: initialisation, devices, contexts, streams, events, error strings.
// Device memory is host memory and work runs synchronously at submission (memory.cpp,
// launch.cpp), which is one legal CUDA schedule: streams and events are bookkeeping only.
#include "runtime.h"

#include <atomic>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <unordered_set>
#include <vector>

namespace fc {

long env_long(const char* name, long dflt) {
  const char* v = getenv(name);
  return v && *v ? strtol(v, nullptr, 0) : dflt;
}

void note(const char* fmt, ...) {
  static const bool quiet = env_long("FAKECUDA_QUIET", 0) != 0;
  if (quiet) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("fakecuda: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

namespace {
constexpr int kMaxDevices = 8;
struct Registry {
  std::mutex m;
  std::unordered_set<const void*> live[kKinds];
  Ctx primary[kMaxDevices];
  int primary_refs[kMaxDevices] = {};
  unsigned primary_flags[kMaxDevices] = {};
  size_t limits[16] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  int cache_config = 0;
};
// Leaked on purpose: cudarc's Drop impls may call in during process exit.
Registry& reg() { static Registry* r = new Registry; return *r; }
std::atomic<bool> g_init{false};
thread_local std::vector<Ctx*> t_ctx;  // this thread's context stack
}  // namespace

bool valid(Kind k, const void* h) {
  if (!h) return false;
  std::lock_guard<std::mutex> lk(reg().m);
  return reg().live[k].count(h) != 0;
}
void add(Kind k, const void* h) { std::lock_guard<std::mutex> lk(reg().m); reg().live[k].insert(h); }
void remove(Kind k, const void* h) { std::lock_guard<std::mutex> lk(reg().m); reg().live[k].erase(h); }
bool valid_stream(const void* s) { return (uintptr_t)s <= 2 || valid(kStream, s); }
bool initialized() { return g_init.load(std::memory_order_relaxed); }
Ctx* current_ctx() { return t_ctx.empty() ? nullptr : t_ctx.back(); }
int device_count() {
  static const int n = (int)env_long("FAKECUDA_DEVICES", 1);
  return n < 0 ? 0 : (n > kMaxDevices ? kMaxDevices : n);
}
}  // namespace fc

using namespace fc;

#define FC_DEVICE(d) \
  do { FC_INIT(); if ((d) < 0 || (d) >= device_count()) return CUDA_ERROR_INVALID_DEVICE; } while (0)

// ------------------------------------------------------------------ init, version, devices
FC_API CUresult cuInit(unsigned flags) {
  if (flags) return CUDA_ERROR_INVALID_VALUE;
  if (device_count() == 0) return CUDA_ERROR_NO_DEVICE;  // FAKECUDA_DEVICES=0: "no GPU"
  g_init = true;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDriverGetVersion(int* v) { FC_NONNULL(v); *v = 13000; return CUDA_SUCCESS; }
FC_API CUresult cuDeviceGetCount(int* n) {
  FC_INIT();
  FC_NONNULL(n);
  // Not in the contract's list: FAKECUDA_MINIMAL=1 refuses it (callers count with cuDeviceGet).
  if (fc::env_long("FAKECUDA_MINIMAL", 0)) return CUDA_ERROR_NOT_SUPPORTED;
  *n = device_count();
  return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceGet(int* dev, int ordinal) {
  FC_INIT();
  FC_NONNULL(dev);
  if (ordinal < 0 || ordinal >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
  *dev = ordinal;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceGetName(char* name, int len, int dev) {
  FC_DEVICE(dev);
  if (!name || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(name, (size_t)len, "tsh fake CUDA device (host emulation)");
  return CUDA_SUCCESS;
}
static size_t total_mem() { return (size_t)env_long("FAKECUDA_MEM_MB", 16384) << 20; }
FC_API CUresult cuDeviceTotalMem_v2(size_t* bytes, int dev) {
  FC_DEVICE(dev); FC_NONNULL(bytes); *bytes = total_mem(); return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceGetUuid_v2(unsigned char* uuid, int dev) {
  FC_DEVICE(dev);
  FC_NONNULL(uuid);
  memcpy(uuid, "fakecuda-device", 16);
  uuid[15] = (unsigned char)dev;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceGetUuid(unsigned char* uuid, int dev) { return cuDeviceGetUuid_v2(uuid, dev); }
FC_API CUresult cuDeviceGetPCIBusId(char* id, int len, int dev) {
  FC_DEVICE(dev);
  if (!id || len <= 0) return CUDA_ERROR_INVALID_VALUE;
  snprintf(id, (size_t)len, "0000:%02x:00.0", dev);
  return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceComputeCapability(int* major, int* minor, int dev) {
  FC_DEVICE(dev); FC_NONNULL(major); FC_NONNULL(minor); *major = 9; *minor = 0; return CUDA_SUCCESS;
}
FC_API CUresult cuDeviceCanAccessPeer(int* can, int dev, int peer) {
  FC_DEVICE(dev); FC_DEVICE(peer); FC_NONNULL(can); *can = dev != peer; return CUDA_SUCCESS;
}

// An H100-like device (compute capability 9.0), except that the multiprocessor count is
// the emulator's worker count: grids sized "per SM" stay small.
FC_API CUresult cuDeviceGetAttribute(int* v, int attr, int dev) {
  FC_DEVICE(dev);
  FC_NONNULL(v);
  if (attr < 1 || attr >= CU_DEVICE_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
  int sms = (int)env_long("FAKECUDA_THREADS", std::thread::hardware_concurrency());
  switch (attr) {
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X: case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y: case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK: *v = 49152; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *v = (int)kMaxDynSmem; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *v = 233472; break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *v = 1024; break;
    case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY: *v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_WARP_SIZE: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_MAX_PITCH: *v = 2147483647; break;
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
    case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR: *v = 65536; break;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE: *v = 1755000; break;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
    case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
    case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE: *v = 50 << 20; break;
    case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT: *v = 512; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = sms < 1 ? 1 : sms; break;
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR: *v = 2048; break;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR: *v = 32; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
    case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT: *v = 2; break;
    case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO: *v = 2; break;
    case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID: *v = dev; break;
    case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP: case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
    case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS: case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
    case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED: case CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED:
    case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY: case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
    case CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED: case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
    case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:  // => cudarc uses cuMemAllocAsync/FreeAsync
      *v = 1; break;
    default: *v = 0;
  }
  return CUDA_SUCCESS;
}

// ------------------------------------------------------------------ contexts
FC_API CUresult cuDevicePrimaryCtxRetain(CUhandle* pctx, int dev) {
  FC_DEVICE(dev);
  FC_NONNULL(pctx);
  Registry& r = reg();
  {
    std::lock_guard<std::mutex> lk(r.m);
    if (r.live[kCtx].insert(&r.primary[dev]).second) r.primary[dev] = Ctx{dev, r.primary_flags[dev], true};
    r.primary_refs[dev]++;
  }
  *pctx = &r.primary[dev];
  return CUDA_SUCCESS;
}
FC_API CUresult cuDevicePrimaryCtxRelease_v2(int dev) {
  FC_DEVICE(dev);
  std::lock_guard<std::mutex> lk(reg().m);
  if (reg().primary_refs[dev] <= 0) return CUDA_ERROR_INVALID_CONTEXT;
  // At zero a real driver destroys the context; here it stays usable (no memory is freed).
  reg().primary_refs[dev]--;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDevicePrimaryCtxRelease(int dev) { return cuDevicePrimaryCtxRelease_v2(dev); }
FC_API CUresult cuDevicePrimaryCtxGetState(int dev, unsigned* flags, int* active) {
  FC_DEVICE(dev);
  FC_NONNULL(flags);
  FC_NONNULL(active);
  std::lock_guard<std::mutex> lk(reg().m);
  *flags = reg().primary_flags[dev];
  *active = reg().primary_refs[dev] > 0;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDevicePrimaryCtxSetFlags_v2(int dev, unsigned flags) {
  FC_DEVICE(dev);
  std::lock_guard<std::mutex> lk(reg().m);
  reg().primary_flags[dev] = flags;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDevicePrimaryCtxSetFlags(int dev, unsigned f) { return cuDevicePrimaryCtxSetFlags_v2(dev, f); }
FC_API CUresult cuDevicePrimaryCtxReset_v2(int dev) {
  FC_DEVICE(dev);
  std::lock_guard<std::mutex> lk(reg().m);
  reg().primary_refs[dev] = 0;
  return CUDA_SUCCESS;
}
FC_API CUresult cuDevicePrimaryCtxReset(int dev) { return cuDevicePrimaryCtxReset_v2(dev); }
FC_API CUresult cuCtxCreate_v4(CUhandle* pctx, void* /*params*/, unsigned flags, int dev) {
  FC_DEVICE(dev);
  FC_NONNULL(pctx);
  Ctx* c = new Ctx{dev, flags, false};
  add(kCtx, c);
  t_ctx.push_back(c);  // a new context becomes current
  *pctx = c;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxDestroy_v2(CUhandle ctx) {
  FC_INIT();
  if (!valid(kCtx, ctx) || ((Ctx*)ctx)->primary) return CUDA_ERROR_INVALID_CONTEXT;
  remove(kCtx, ctx);  // the object is kept: other threads may still have it on their stack
  for (auto& c : t_ctx) if (c == ctx) c = nullptr;
  while (!t_ctx.empty() && !t_ctx.back()) t_ctx.pop_back();
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxGetCurrent(CUhandle* pctx) { FC_INIT(); FC_NONNULL(pctx); *pctx = current_ctx(); return CUDA_SUCCESS; }
FC_API CUresult cuCtxSetCurrent(CUhandle ctx) {
  FC_INIT();
  if (!ctx) { if (!t_ctx.empty()) t_ctx.pop_back(); return CUDA_SUCCESS; }
  if (!valid(kCtx, ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  if (t_ctx.empty()) t_ctx.push_back((Ctx*)ctx);
  else t_ctx.back() = (Ctx*)ctx;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxPushCurrent_v2(CUhandle ctx) {
  FC_INIT();
  if (!valid(kCtx, ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  t_ctx.push_back((Ctx*)ctx);
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxPopCurrent_v2(CUhandle* pctx) {
  FC_INIT();
  if (t_ctx.empty()) return CUDA_ERROR_INVALID_CONTEXT;
  if (pctx) *pctx = t_ctx.back();
  t_ctx.pop_back();
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxGetDevice(int* dev) { FC_CTX(); FC_NONNULL(dev); *dev = current_ctx()->device; return CUDA_SUCCESS; }
FC_API CUresult cuCtxGetDevice_v2(int* dev, CUhandle ctx) {
  if (!ctx) return cuCtxGetDevice(dev);
  FC_INIT();
  FC_NONNULL(dev);
  if (!valid(kCtx, ctx)) return CUDA_ERROR_INVALID_CONTEXT;
  *dev = ((Ctx*)ctx)->device;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxSynchronize() { FC_CTX(); return CUDA_SUCCESS; }
FC_API CUresult cuCtxSynchronize_v2(CUhandle ctx) {
  FC_INIT();
  if (ctx ? !valid(kCtx, ctx) : !current_ctx()) return CUDA_ERROR_INVALID_CONTEXT;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxSetFlags(unsigned flags) { FC_CTX(); current_ctx()->flags = flags; return CUDA_SUCCESS; }
FC_API CUresult cuCtxGetFlags(unsigned* flags) { FC_CTX(); FC_NONNULL(flags); *flags = current_ctx()->flags; return CUDA_SUCCESS; }
FC_API CUresult cuCtxGetApiVersion(CUhandle ctx, unsigned* v) {
  FC_INIT();
  FC_NONNULL(v);
  if (ctx ? !valid(kCtx, ctx) : !current_ctx()) return CUDA_ERROR_INVALID_CONTEXT;
  *v = 13000;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxGetLimit(size_t* v, int limit) {
  FC_CTX();
  FC_NONNULL(v);
  if (limit < 0 || limit >= CU_LIMIT_MAX) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  std::lock_guard<std::mutex> lk(reg().m);
  *v = reg().limits[limit];
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxSetLimit(int limit, size_t v) {
  FC_CTX();
  if (limit < 0 || limit >= CU_LIMIT_MAX) return CUDA_ERROR_UNSUPPORTED_LIMIT;
  std::lock_guard<std::mutex> lk(reg().m);
  reg().limits[limit] = v;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxGetCacheConfig(int* c) { FC_CTX(); FC_NONNULL(c); *c = reg().cache_config; return CUDA_SUCCESS; }
FC_API CUresult cuCtxSetCacheConfig(int c) { FC_CTX(); reg().cache_config = c; return CUDA_SUCCESS; }
FC_API CUresult cuCtxGetStreamPriorityRange(int* least, int* greatest) {
  FC_CTX();
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return CUDA_SUCCESS;
}
FC_API CUresult cuCtxEnablePeerAccess(CUhandle ctx, unsigned) { FC_CTX(); return valid(kCtx, ctx) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }
FC_API CUresult cuCtxDisablePeerAccess(CUhandle ctx) { FC_CTX(); return valid(kCtx, ctx) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }
FC_API CUresult cuProfilerStart() { return CUDA_SUCCESS; }
FC_API CUresult cuProfilerStop() { return CUDA_SUCCESS; }

// ------------------------------------------------------------------ streams
FC_API CUresult cuStreamCreateWithPriority(CUhandle* ps, unsigned flags, int prio) {
  FC_CTX();
  FC_NONNULL(ps);
  Stream* s = new Stream{current_ctx(), flags, prio < -5 ? -5 : (prio > 0 ? 0 : prio)};
  add(kStream, s);
  *ps = s;
  return CUDA_SUCCESS;
}
FC_API CUresult cuStreamCreate(CUhandle* ps, unsigned flags) { return cuStreamCreateWithPriority(ps, flags, 0); }
FC_API CUresult cuStreamDestroy_v2(CUhandle s) {
  FC_INIT();
  FC_HANDLE(kStream, s);
  remove(kStream, s);
  delete (Stream*)s;
  return CUDA_SUCCESS;
}
FC_API CUresult cuStreamDestroy(CUhandle s) { return cuStreamDestroy_v2(s); }
FC_API CUresult cuStreamSynchronize(CUhandle s) { FC_INIT(); FC_STREAM(s); return CUDA_SUCCESS; }
FC_API CUresult cuStreamQuery(CUhandle s) { FC_INIT(); FC_STREAM(s); return CUDA_SUCCESS; }
FC_API CUresult cuStreamWaitEvent(CUhandle s, CUhandle e, unsigned) {
  FC_INIT(); FC_STREAM(s); FC_HANDLE(kEvent, e); return CUDA_SUCCESS;
}
FC_API CUresult cuStreamGetPriority(CUhandle s, int* p) {
  FC_INIT(); FC_STREAM(s); FC_NONNULL(p);
  *p = (uintptr_t)s <= 2 ? 0 : ((Stream*)s)->priority;
  return CUDA_SUCCESS;
}
FC_API CUresult cuStreamGetFlags(CUhandle s, unsigned* f) {
  FC_INIT(); FC_STREAM(s); FC_NONNULL(f);
  *f = (uintptr_t)s <= 2 ? 0 : ((Stream*)s)->flags;
  return CUDA_SUCCESS;
}
FC_API CUresult cuStreamGetCtx(CUhandle s, CUhandle* pctx) {
  FC_INIT(); FC_STREAM(s); FC_NONNULL(pctx);
  if ((uintptr_t)s <= 2) { if (!current_ctx()) return CUDA_ERROR_INVALID_CONTEXT; *pctx = current_ctx(); }
  else *pctx = ((Stream*)s)->ctx;
  return CUDA_SUCCESS;
}
FC_API CUresult cuStreamGetDevice(CUhandle s, int* dev) {
  CUhandle c;
  CUresult r = cuStreamGetCtx(s, &c);
  if (r == CUDA_SUCCESS) { FC_NONNULL(dev); *dev = ((Ctx*)c)->device; }
  return r;
}
FC_API CUresult cuStreamGetId(CUhandle s, unsigned long long* id) {
  FC_INIT(); FC_STREAM(s); FC_NONNULL(id); *id = (uintptr_t)s; return CUDA_SUCCESS;
}
FC_API CUresult cuStreamIsCapturing(CUhandle s, int* status) {
  FC_INIT(); FC_STREAM(s); FC_NONNULL(status); *status = 0; return CUDA_SUCCESS;  // NONE
}

// ------------------------------------------------------------------ events
FC_API CUresult cuEventCreate(CUhandle* pe, unsigned flags) {
  FC_CTX();
  FC_NONNULL(pe);
  Event* e = new Event{flags, false, 0.0};
  add(kEvent, e);
  *pe = e;
  return CUDA_SUCCESS;
}
FC_API CUresult cuEventDestroy_v2(CUhandle e) {
  FC_INIT(); FC_HANDLE(kEvent, e); remove(kEvent, e); delete (Event*)e; return CUDA_SUCCESS;
}
FC_API CUresult cuEventDestroy(CUhandle e) { return cuEventDestroy_v2(e); }
FC_API CUresult cuEventRecord(CUhandle e, CUhandle s) {
  FC_INIT();
  FC_HANDLE(kEvent, e);
  FC_STREAM(s);
  Event* ev = (Event*)e;
  ev->recorded = true;
  ev->ms = now_ms();  // all earlier work has already completed
  return CUDA_SUCCESS;
}
FC_API CUresult cuEventRecordWithFlags(CUhandle e, CUhandle s, unsigned) { return cuEventRecord(e, s); }
FC_API CUresult cuEventQuery(CUhandle e) { FC_INIT(); FC_HANDLE(kEvent, e); return CUDA_SUCCESS; }
FC_API CUresult cuEventSynchronize(CUhandle e) { FC_INIT(); FC_HANDLE(kEvent, e); return CUDA_SUCCESS; }
FC_API CUresult cuEventElapsedTime_v2(float* ms, CUhandle a, CUhandle b) {
  FC_INIT();
  FC_NONNULL(ms);
  FC_HANDLE(kEvent, a);
  FC_HANDLE(kEvent, b);
  Event *s = (Event*)a, *e = (Event*)b;
  const unsigned kDisableTiming = 2;
  if ((s->flags | e->flags) & kDisableTiming || !s->recorded || !e->recorded)
    return CUDA_ERROR_INVALID_HANDLE;
  *ms = (float)(e->ms - s->ms);
  return CUDA_SUCCESS;
}
FC_API CUresult cuEventElapsedTime(float* ms, CUhandle a, CUhandle b) { return cuEventElapsedTime_v2(ms, a, b); }

// ------------------------------------------------------------------ error strings
static const char* error_desc(int e) {
  switch (e) {
    case CUDA_SUCCESS: return "no error";
    case CUDA_ERROR_INVALID_VALUE: return "invalid argument";
    case CUDA_ERROR_OUT_OF_MEMORY: return "out of memory";
    case CUDA_ERROR_NOT_INITIALIZED: return "initialization error";
    case CUDA_ERROR_NO_DEVICE: return "no CUDA-capable device is detected";
    case CUDA_ERROR_INVALID_DEVICE: return "invalid device ordinal";
    case CUDA_ERROR_INVALID_IMAGE: return "device kernel image is invalid";
    case CUDA_ERROR_INVALID_CONTEXT: return "invalid device context";
    case CUDA_ERROR_INVALID_PTX: return "a PTX JIT compilation failed";
    case CUDA_ERROR_FILE_NOT_FOUND: return "file not found";
    case CUDA_ERROR_SHARED_OBJECT_INIT_FAILED: return "shared object initialization failed";
    case CUDA_ERROR_INVALID_HANDLE: return "invalid resource handle";
    case CUDA_ERROR_NOT_FOUND: return "named symbol not found";
    case CUDA_ERROR_NOT_READY: return "device not ready";
    case CUDA_ERROR_ASSERT: return "device-side assert triggered";
    case CUDA_ERROR_LAUNCH_FAILED: return "unspecified launch failure";
    case CUDA_ERROR_UNSUPPORTED_LIMIT: return "limit is not supported on this architecture";
    case CUDA_ERROR_NOT_SUPPORTED: return "operation not supported (not emulated by fakecuda)";
    default: return nullptr;
  }
}
static const char* error_name(int e) {
  struct Entry { const char* type; const char* name; int value; };
  static const Entry table[] = {
#define FC_ENUM(TYPE, NAME, VALUE) {#TYPE, #NAME, VALUE},
#include "enums_cuda.inc"
#undef FC_ENUM
  };
  for (const Entry& x : table)
    if (x.value == e && !strcmp(x.type, "cudaError_enum")) return x.name;
  return nullptr;
}
FC_API CUresult cuGetErrorName(int e, const char** s) {
  FC_NONNULL(s);
  *s = error_name(e);
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
FC_API CUresult cuGetErrorString(int e, const char** s) {
  FC_NONNULL(s);
  const char* name = error_name(e);
  const char* desc = error_desc(e);
  *s = name ? (desc ? desc : name) : nullptr;
  return *s ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
