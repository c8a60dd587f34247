// Fake libcuda, part 2: memory (device pointer = host address), copies, modules, launches.
#include "runtime.h"

#include <dlfcn.h>
#include <link.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <vector>

using namespace fc;

FC_API CUresult cuDeviceGetAttribute(int* v, int attr, int dev);

namespace {
enum AllocKind { kDevice, kHost, kGlobal };
struct Alloc { size_t size; AllocKind kind; int refs; };
struct Memory {
  std::mutex m;
  std::map<uintptr_t, Alloc> allocs;  // every live allocation, by base address
  size_t in_use = 0;
};
Memory& mem() { static Memory* m = new Memory; return *m; }  // leaked: used during exit
bool poison() { static const bool p = env_long("FAKECUDA_POISON", 0) != 0; return p; }
size_t total_mem() { return (size_t)env_long("FAKECUDA_MEM_MB", 16384) << 20; }

// Is [p, p+n) inside one live allocation? `kind` (if given) receives its kind.
bool inside(uintptr_t p, size_t n, AllocKind* kind = nullptr) {
  std::lock_guard<std::mutex> lk(mem().m);
  auto it = mem().allocs.upper_bound(p);
  if (it == mem().allocs.begin()) return false;
  --it;
  size_t off = p - it->first;
  if (off > it->second.size || n > it->second.size - off) return false;
  if (kind) *kind = it->second.kind;
  return true;
}
bool check(const char* fn, const char* what, uintptr_t p, size_t n) {
  if (inside(p, n)) return true;
  note("%s: %s range [0x%lx, +%zu) is not inside one live allocation", fn, what,
       (unsigned long)p, n);
  return false;
}

CUresult alloc(uintptr_t* out, size_t n, AllocKind kind) {
  if (!out) return CUDA_ERROR_INVALID_VALUE;
  {
    std::lock_guard<std::mutex> lk(mem().m);
    if (n > total_mem() - mem().in_use) return CUDA_ERROR_OUT_OF_MEMORY;
    mem().in_use += n;
  }
  void* p = nullptr;
  // Exact size (no rounding), so ASAN's redzone starts right after the last byte. Zero
  // bytes still get a unique non-null address.
  if (posix_memalign(&p, 256, n ? n : 1)) {
    std::lock_guard<std::mutex> lk(mem().m);
    mem().in_use -= n;
    return CUDA_ERROR_OUT_OF_MEMORY;
  }
  if (poison()) memset(p, 0xCD, n);
  std::lock_guard<std::mutex> lk(mem().m);
  mem().allocs[(uintptr_t)p] = Alloc{n, kind, 1};
  *out = (uintptr_t)p;
  return CUDA_SUCCESS;
}

CUresult release(uintptr_t p, AllocKind kind, const char* fn) {
  if (!p) return CUDA_SUCCESS;
  size_t n;
  {
    std::lock_guard<std::mutex> lk(mem().m);
    auto it = mem().allocs.find(p);
    if (it == mem().allocs.end() || it->second.kind != kind) {
      note("%s(0x%lx): not the base of a live allocation", fn, (unsigned long)p);
      return CUDA_ERROR_INVALID_VALUE;
    }
    n = it->second.size;
    mem().in_use -= n;
    mem().allocs.erase(it);
  }
  if (poison()) memset((void*)p, 0xDD, n);  // stale reads through freed pointers show
  free((void*)p);
  return CUDA_SUCCESS;
}
}  // namespace

// For libcublas (found with dlsym on this library): 1 if [p, p+n) lies in one allocation.
FC_API int fakecuda_check_range(const void* p, size_t n) { return n == 0 || inside((uintptr_t)p, n); }

FC_API CUresult cuMemAlloc_v2(CUdeviceptr* p, size_t n) { FC_CTX(); return alloc((uintptr_t*)p, n, kDevice); }
FC_API CUresult cuMemAllocAsync(CUdeviceptr* p, size_t n, CUhandle s) {
  FC_CTX(); FC_STREAM(s); return alloc((uintptr_t*)p, n, kDevice);
}
FC_API CUresult cuMemAllocManaged(CUdeviceptr* p, size_t n, unsigned) { return cuMemAlloc_v2(p, n); }
FC_API CUresult cuMemAllocPitch_v2(CUdeviceptr* p, size_t* pitch, size_t w, size_t h, unsigned elem) {
  FC_CTX();
  FC_NONNULL(pitch);
  if (elem != 4 && elem != 8 && elem != 16) return CUDA_ERROR_INVALID_VALUE;
  *pitch = (w + 511) & ~(size_t)511;
  return alloc((uintptr_t*)p, *pitch * h, kDevice);
}
FC_API CUresult cuMemFree_v2(CUdeviceptr p) { FC_CTX(); return release(p, kDevice, "cuMemFree"); }
FC_API CUresult cuMemFreeAsync(CUdeviceptr p, CUhandle s) {
  FC_CTX(); FC_STREAM(s); return release(p, kDevice, "cuMemFreeAsync");
}
FC_API CUresult cuMemHostAlloc(void** p, size_t n, unsigned) { FC_CTX(); return alloc((uintptr_t*)p, n, kHost); }
FC_API CUresult cuMemAllocHost_v2(void** p, size_t n) { return cuMemHostAlloc(p, n, 0); }
FC_API CUresult cuMemFreeHost(void* p) { FC_CTX(); return release((uintptr_t)p, kHost, "cuMemFreeHost"); }
FC_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr* d, void* p, unsigned) {
  FC_CTX(); FC_NONNULL(d);
  if (!inside((uintptr_t)p, 0)) return CUDA_ERROR_INVALID_VALUE;
  *d = (uintptr_t)p;
  return CUDA_SUCCESS;
}
FC_API CUresult cuMemGetInfo_v2(size_t* free_b, size_t* total) {
  FC_CTX();
  FC_NONNULL(free_b);
  FC_NONNULL(total);
  std::lock_guard<std::mutex> lk(mem().m);
  *total = total_mem();
  *free_b = *total - mem().in_use;
  return CUDA_SUCCESS;
}
FC_API CUresult cuMemGetAddressRange_v2(CUdeviceptr* base, size_t* size, CUdeviceptr p) {
  FC_CTX();
  std::lock_guard<std::mutex> lk(mem().m);
  auto it = mem().allocs.upper_bound(p);
  if (it == mem().allocs.begin()) return CUDA_ERROR_NOT_FOUND;
  --it;
  if (p - it->first >= (it->second.size ? it->second.size : 1)) return CUDA_ERROR_NOT_FOUND;
  if (base) *base = it->first;
  if (size) *size = it->second.size;
  return CUDA_SUCCESS;
}

// ------------------------------------------------------------------ copies and memsets
// Copies run at submission; an "async" copy to pageable memory is complete on return, as
// the driver guarantees anyway.
static CUresult copy(const char* fn, uintptr_t dst, bool dst_dev, uintptr_t src, bool src_dev,
                     size_t n) {
  FC_CTX();
  if (n == 0) return CUDA_SUCCESS;
  if (!dst || !src) return CUDA_ERROR_INVALID_VALUE;
  if (dst_dev && !check(fn, "destination", dst, n)) return CUDA_ERROR_INVALID_VALUE;
  if (src_dev && !check(fn, "source", src, n)) return CUDA_ERROR_INVALID_VALUE;
  memmove((void*)dst, (const void*)src, n);
  return CUDA_SUCCESS;
}
#define FC_COPY(NAME, DD, SD, DT, ST)                                                       \
  FC_API CUresult NAME##_v2(DT dst, ST src, size_t n) {                                     \
    return copy(#NAME, (uintptr_t)dst, DD, (uintptr_t)src, SD, n);                          \
  }                                                                                         \
  FC_API CUresult NAME##Async_v2(DT dst, ST src, size_t n, CUhandle s) {                    \
    FC_INIT(); FC_STREAM(s); return copy(#NAME "Async", (uintptr_t)dst, DD, (uintptr_t)src, SD, n); \
  }
FC_COPY(cuMemcpyHtoD, true, false, CUdeviceptr, const void*)
FC_COPY(cuMemcpyDtoH, false, true, void*, CUdeviceptr)
FC_COPY(cuMemcpyDtoD, true, true, CUdeviceptr, CUdeviceptr)
// Unified addressing: a pointer inside a registered allocation must stay inside it; any
// other pointer is taken to be ordinary host memory.
static bool unified_ok(uintptr_t p, size_t n) {
  std::lock_guard<std::mutex> lk(mem().m);
  auto it = mem().allocs.upper_bound(p);
  if (it == mem().allocs.begin()) return true;
  --it;
  size_t off = p - it->first;
  if (off >= (it->second.size ? it->second.size : 1)) return true;
  return n <= it->second.size - off;
}
FC_API CUresult cuMemcpyAsync(CUdeviceptr d, CUdeviceptr s, size_t n, CUhandle st) {
  FC_CTX(); FC_STREAM(st);
  if (!unified_ok(d, n) || !unified_ok(s, n)) {
    note("cuMemcpy: range overruns an allocation");
    return CUDA_ERROR_INVALID_VALUE;
  }
  return copy("cuMemcpy", d, false, s, false, n);
}
FC_API CUresult cuMemcpy(CUdeviceptr d, CUdeviceptr s, size_t n) { return cuMemcpyAsync(d, s, n, nullptr); }
FC_API CUresult cuMemcpyPeerAsync(CUdeviceptr d, CUhandle dc, CUdeviceptr s, CUhandle sc, size_t n, CUhandle st) {
  FC_CTX(); FC_STREAM(st);
  if (!valid(kCtx, dc) || !valid(kCtx, sc)) return CUDA_ERROR_INVALID_CONTEXT;
  return copy("cuMemcpyPeer", d, true, s, true, n);
}
FC_API CUresult cuMemcpyPeer(CUdeviceptr d, CUhandle dc, CUdeviceptr s, CUhandle sc, size_t n) {
  return cuMemcpyPeerAsync(d, dc, s, sc, n, nullptr);
}

template <class T>
static CUresult fill(const char* fn, uintptr_t d, T v, size_t count, CUhandle s) {
  FC_CTX();
  FC_STREAM(s);
  if (count == 0) return CUDA_SUCCESS;
  if (d % sizeof(T)) return CUDA_ERROR_INVALID_VALUE;
  if (count > (size_t)-1 / sizeof(T) || !check(fn, "destination", d, count * sizeof(T)))
    return CUDA_ERROR_INVALID_VALUE;
  T* p = (T*)d;
  if (sizeof(T) == 1) memset(p, (int)v, count);
  else for (size_t i = 0; i < count; i++) p[i] = v;
  return CUDA_SUCCESS;
}
FC_API CUresult cuMemsetD8_v2(CUdeviceptr d, unsigned char v, size_t n) { return fill("cuMemsetD8", d, v, n, nullptr); }
FC_API CUresult cuMemsetD16_v2(CUdeviceptr d, unsigned short v, size_t n) { return fill("cuMemsetD16", d, v, n, nullptr); }
FC_API CUresult cuMemsetD32_v2(CUdeviceptr d, unsigned v, size_t n) { return fill("cuMemsetD32", d, v, n, nullptr); }
FC_API CUresult cuMemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUhandle s) { return fill("cuMemsetD8Async", d, v, n, s); }
FC_API CUresult cuMemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUhandle s) { return fill("cuMemsetD16Async", d, v, n, s); }
FC_API CUresult cuMemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUhandle s) { return fill("cuMemsetD32Async", d, v, n, s); }

// ------------------------------------------------------------------ modules
// A module image is the text the fake NVRTC returns as "PTX": "// fakecuda module\n.so PATH\n".
struct fc::Module {
  void* dl;
  const __fc_kernel_entry* kernels;
  const __fc_global_entry* globals;
  std::map<std::string, Function*> funcs;
  std::vector<uintptr_t> globals_registered;
};

static CUresult load_image(CUhandle* out, const char* image) {
  FC_CTX();
  FC_NONNULL(out);
  FC_NONNULL(image);
  static const char kMagic[] = "// fakecuda module\n";
  if (strncmp(image, kMagic, sizeof kMagic - 1) != 0) {
    note("cuModuleLoadData: not a fakecuda module image (real PTX/CUBIN cannot run in the "
         "host emulation; compile with the fake libnvrtc)");
    return image[0] == '/' || image[0] == '.' ? CUDA_ERROR_INVALID_PTX : CUDA_ERROR_INVALID_IMAGE;
  }
  std::istringstream in(image);
  std::string line, path;
  while (std::getline(in, line))
    if (line.rfind(".so ", 0) == 0) path = line.substr(4);
  if (path.empty()) return CUDA_ERROR_INVALID_IMAGE;
  if (access(path.c_str(), R_OK) != 0) {
    note("cuModuleLoadData: %s is missing (kernel cache cleared?)", path.c_str());
    return CUDA_ERROR_FILE_NOT_FOUND;
  }
  void* dl = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!dl) {
    const char* e = dlerror();
    note("cuModuleLoadData: %s%s", e, env_long("FAKECUDA_ASAN", 0) && strstr(e, "ASan")
         ? " (FAKECUDA_ASAN=1 kernels need LD_PRELOAD=$(g++ -print-file-name=libasan.so))" : "");
    return CUDA_ERROR_SHARED_OBJECT_INIT_FAILED;
  }
  const unsigned* abi = (const unsigned*)dlsym(dl, "__fc_abi");
  auto* kernels = (const __fc_kernel_entry*)dlsym(dl, "__fc_kernels");
  if (!abi || *abi != FAKECUDA_ABI || !kernels) {
    note("cuModuleLoadData: %s was built for another fakecuda ABI", path.c_str());
    dlclose(dl);
    return CUDA_ERROR_INVALID_IMAGE;
  }
  Module* m = new Module{dl, kernels, (const __fc_global_entry*)dlsym(dl, "__fc_globals"), {}, {}};
  add(kModule, m);
  *out = m;
  return CUDA_SUCCESS;
}
FC_API CUresult cuModuleLoadData(CUhandle* m, const void* image) { return load_image(m, (const char*)image); }
FC_API CUresult cuModuleLoadDataEx(CUhandle* m, const void* image, unsigned, void*, void*) {
  return load_image(m, (const char*)image);
}
FC_API CUresult cuModuleLoad(CUhandle* m, const char* fname) {
  FC_CTX();
  FC_NONNULL(fname);
  std::ifstream f(fname, std::ios::binary);
  if (!f) return CUDA_ERROR_FILE_NOT_FOUND;
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  return load_image(m, text.c_str());
}
FC_API CUresult cuModuleUnload(CUhandle h) {
  FC_INIT();
  FC_HANDLE(kModule, h);
  Module* m = (Module*)h;
  remove(kModule, m);
  for (auto& kv : m->funcs) { remove(kFunction, kv.second); delete kv.second; }
  {
    std::lock_guard<std::mutex> lk(mem().m);
    for (uintptr_t g : m->globals_registered) {
      auto it = mem().allocs.find(g);
      if (it != mem().allocs.end() && --it->second.refs == 0) mem().allocs.erase(it);
    }
  }
  dlclose(m->dl);
  delete m;
  return CUDA_SUCCESS;
}
FC_API CUresult cuModuleGetFunction(CUhandle* pf, CUhandle h, const char* name) {
  FC_INIT();
  FC_NONNULL(pf);
  FC_NONNULL(name);
  FC_HANDLE(kModule, h);
  Module* m = (Module*)h;
  auto it = m->funcs.find(name);
  if (it == m->funcs.end()) {
    const __fc_kernel_entry* e = m->kernels;
    while (e->name && (strcmp(e->name, name) != 0 || !e->fn)) e++;
    if (!e->name) return CUDA_ERROR_NOT_FOUND;
    Function* f = new Function{m, name, e->fn, e->nparams, 49152, -1};
    add(kFunction, f);
    it = m->funcs.emplace(name, f).first;
  }
  *pf = it->second;
  return CUDA_SUCCESS;
}
// __device__/__constant__ variables: from the name-expression table, else the dynamic
// symbol table (global-namespace variables are not mangled). They become "allocations" so
// copies into them pass the range check.
FC_API CUresult cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUhandle h, const char* name) {
  FC_INIT();
  FC_NONNULL(name);
  FC_HANDLE(kModule, h);
  Module* m = (Module*)h;
  void* addr = nullptr;
  size_t size = 0;
  for (const __fc_global_entry* g = m->globals; g && g->name; g++)
    if (!strcmp(g->name, name)) { addr = g->addr; size = g->size; }
  if (!addr && (addr = dlsym(m->dl, name))) {
    Dl_info info;
    const ElfW(Sym)* sym = nullptr;
    if (!dladdr1(addr, &info, (void**)&sym, RTLD_DL_SYMENT) || !sym ||
        ELF64_ST_TYPE(sym->st_info) != STT_OBJECT)
      addr = nullptr;
    else size = sym->st_size;
  }
  if (!addr) return CUDA_ERROR_NOT_FOUND;
  {
    std::lock_guard<std::mutex> lk(mem().m);
    auto it = mem().allocs.find((uintptr_t)addr);
    if (it == mem().allocs.end()) mem().allocs[(uintptr_t)addr] = Alloc{size, kGlobal, 1};
    else if (it->second.kind == kGlobal) it->second.refs++;
    m->globals_registered.push_back((uintptr_t)addr);
  }
  if (dptr) *dptr = (uintptr_t)addr;
  if (bytes) *bytes = size;
  return CUDA_SUCCESS;
}

// ------------------------------------------------------------------ functions and launches
FC_API CUresult cuFuncGetAttribute(int* v, int attr, CUhandle h) {
  FC_INIT();
  FC_NONNULL(v);
  FC_HANDLE(kFunction, h);
  Function* f = (Function*)h;
  switch (attr) {
    case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; break;
    case CU_FUNC_ATTRIBUTE_NUM_REGS: *v = 32; break;
    case CU_FUNC_ATTRIBUTE_PTX_VERSION: case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *v = 90; break;
    case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *v = f->max_dyn_smem; break;
    case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *v = f->carveout; break;
    default:
      if (attr < 0 || attr >= CU_FUNC_ATTRIBUTE_MAX) return CUDA_ERROR_INVALID_VALUE;
      *v = 0;  // static shared/const/local sizes are unknown to the emulation
  }
  return CUDA_SUCCESS;
}
FC_API CUresult cuFuncSetAttribute(CUhandle h, int attr, int v) {
  FC_INIT();
  FC_HANDLE(kFunction, h);
  Function* f = (Function*)h;
  if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) {
    if (v < 0 || v > (int)kMaxDynSmem) return CUDA_ERROR_INVALID_VALUE;
    f->max_dyn_smem = v;
  } else if (attr == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) {
    if (v < -1 || v > 100) return CUDA_ERROR_INVALID_VALUE;
    f->carveout = v;
  } else if (attr < 0 || attr >= CU_FUNC_ATTRIBUTE_MAX) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}
FC_API CUresult cuFuncSetCacheConfig(CUhandle h, int) { FC_INIT(); FC_HANDLE(kFunction, h); return CUDA_SUCCESS; }
FC_API CUresult cuFuncGetName(const char** name, CUhandle h) {
  FC_INIT(); FC_NONNULL(name); FC_HANDLE(kFunction, h); *name = ((Function*)h)->name.c_str(); return CUDA_SUCCESS;
}
FC_API CUresult cuFuncGetModule(CUhandle* m, CUhandle h) {
  FC_INIT(); FC_NONNULL(m); FC_HANDLE(kFunction, h); *m = ((Function*)h)->mod; return CUDA_SUCCESS;
}

static CUresult launch(CUhandle h, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                       unsigned bz, unsigned shmem, CUhandle s, void** params, void** extra) {
  FC_CTX();
  FC_HANDLE(kFunction, h);
  FC_STREAM(s);
  Function* f = (Function*)h;
  if (!gx || !gy || !gz || !bx || !by || !bz || bx > 1024 || by > 1024 || bz > 64 ||
      (unsigned long long)bx * by * bz > 1024 || gx > 2147483647u || gy > 65535 || gz > 65535) {
    note("cuLaunchKernel(%s): invalid grid (%u,%u,%u) / block (%u,%u,%u)", f->name.c_str(), gx,
         gy, gz, bx, by, bz);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (shmem > (unsigned)f->max_dyn_smem) {
    note("cuLaunchKernel(%s): %u bytes of dynamic shared memory exceed the function's limit "
         "of %d (raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)", f->name.c_str(), shmem,
         f->max_dyn_smem);
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (extra) {  // packed argument buffers would need the parameter layout; cudarc never uses them
    if (params) return CUDA_ERROR_INVALID_VALUE;
    note("cuLaunchKernel(%s): `extra` argument buffers are not emulated", f->name.c_str());
    return CUDA_ERROR_NOT_SUPPORTED;
  }
  if (f->nparams > 0 && !params) return CUDA_ERROR_INVALID_VALUE;
  LaunchDesc d{f->name.c_str(), f->fn, params, {gx, gy, gz}, {bx, by, bz}, shmem};
  return run_kernel(d);
}
FC_API CUresult cuLaunchKernel(CUhandle f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                               unsigned by, unsigned bz, unsigned shmem, CUhandle s, void** params,
                               void** extra) {
  return launch(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
}
FC_API CUresult cuLaunchCooperativeKernel(CUhandle f, unsigned gx, unsigned gy, unsigned gz,
                                          unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                          CUhandle s, void** params) {
  return launch(f, gx, gy, gz, bx, by, bz, shmem, s, params, nullptr);
}
struct LaunchConfig {  // CUlaunchConfig
  unsigned grid[3], block[3], shmem;
  CUhandle stream;
  void* attrs;
  unsigned nattrs;
};
FC_API CUresult cuLaunchKernelEx(const LaunchConfig* c, CUhandle f, void** params, void** extra) {
  FC_NONNULL(c);  // launch attributes (clusters, priorities ...) are ignored
  return launch(f, c->grid[0], c->grid[1], c->grid[2], c->block[0], c->block[1], c->block[2],
                c->shmem, c->stream, params, extra);
}
FC_API CUresult cuLaunchHostFunc(CUhandle s, void (*fn)(void*), void* data) {
  FC_CTX(); FC_STREAM(s); FC_NONNULL(fn); fn(data); return CUDA_SUCCESS;
}

// ------------------------------------------------------------------ occupancy (plausible)
FC_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* n, CUhandle f, int bs,
                                                                     size_t smem, unsigned) {
  FC_INIT(); FC_NONNULL(n); FC_HANDLE(kFunction, f);
  if (bs <= 0 || bs > 1024) return CUDA_ERROR_INVALID_VALUE;
  int by_threads = 2048 / bs, by_smem = smem ? (int)(233472 / smem) : 32;
  *n = by_threads < by_smem ? by_threads : by_smem;
  if (*n > 32) *n = 32;
  return CUDA_SUCCESS;
}
FC_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, CUhandle f, int bs, size_t smem) {
  return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, bs, smem, 0);
}
FC_API CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int* grid, int* block, CUhandle f, void*,
                                                          size_t, int limit, unsigned) {
  FC_INIT(); FC_NONNULL(grid); FC_NONNULL(block); FC_HANDLE(kFunction, f);
  *block = limit > 0 && limit < 1024 ? (limit >= 32 ? limit & ~31 : limit) : 1024;
  int sms = 1;
  cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0);
  *grid = sms * (2048 / *block > 32 ? 32 : 2048 / *block);
  return CUDA_SUCCESS;
}
FC_API CUresult cuOccupancyMaxPotentialBlockSize(int* grid, int* block, CUhandle f, void* cb,
                                                 size_t smem, int limit) {
  return cuOccupancyMaxPotentialBlockSizeWithFlags(grid, block, f, cb, smem, limit, 0);
}
FC_API CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t* n, CUhandle f, int, int) {
  FC_INIT(); FC_NONNULL(n); FC_HANDLE(kFunction, f); *n = kMaxDynSmem; return CUDA_SUCCESS;
}
