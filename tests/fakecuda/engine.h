// Internals of the kernel execution engine shared by fiber.cpp (fibers, barriers, warp
// operations, one block) and launch.cpp (thread pool, fault handling, run_kernel).
#pragma once
#include "runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <thread>
#include <vector>

namespace fc {
namespace engine {

constexpr size_t kStack = __FC_STACK_BYTES, kGuard = 4096;

// AddressSanitizer fiber annotations, looked up at run time so that libcuda itself needs
// no ASAN build: present only when libasan is preloaded (FAKECUDA_ASAN=1 kernels).
struct Asan {
  void (*start)(void**, const void*, size_t);
  void (*finish)(void*, const void**, size_t*);
  void (*unpoison)(const volatile void*, size_t);
};
inline const Asan& asan() {
  static const Asan a{
      (void (*)(void**, const void*, size_t))dlsym(RTLD_DEFAULT, "__sanitizer_start_switch_fiber"),
      (void (*)(void*, const void**, size_t*))dlsym(RTLD_DEFAULT, "__sanitizer_finish_switch_fiber"),
      (void (*)(const volatile void*, size_t))dlsym(RTLD_DEFAULT, "__asan_unpoison_memory_region")};
  return a;
}

struct Settings {
  bool reverse = env_long("FAKECUDA_REVERSE", 0) != 0;
  bool poison = env_long("FAKECUDA_POISON", 0) != 0;
  int threads = (int)env_long("FAKECUDA_THREADS", std::thread::hardware_concurrency());
};
inline const Settings& settings() { static const Settings s; return s; }

struct Job;
struct Block;
struct Worker;

struct Fiber {
  void* sp = nullptr;        // saved stack pointer while suspended
  char* lo = nullptr;        // lowest address of the stack (guard page)
  __fc_thread* t = nullptr;  // the thread record at the top of the stack
  void* asan_fake = nullptr;
  Block* blk = nullptr;
  Worker* w = nullptr;
  bool fresh = true;         // stack must be (re)initialised before the next switch into it
  bool idle = true;          // parked in fiber_main between threads
};

struct Warp {
  unsigned live = 0, arrived = 0, cur_mask = 0, buf = 0, part[2] = {0, 0}, nwait = 0;
  unsigned long long slot[2][32];  // double-buffered: one barrier per exchange suffices
  Fiber* wait[32];
};

struct Block {
  __fc_block pub;
  Job* job = nullptr;
  Worker* w = nullptr;
  unsigned n = 0, next = 0, live = 0, finished = 0;
  unsigned bar_arrived = 0, bar_gen = 0;
  int bar_count = 0, bar_result[2] = {0, 0}, bar_part[2] = {0, 0};
  bool aborted = false, reverse = false;
  const __fc_ops* ops = nullptr;
  std::vector<Fiber*> bar_wait, ready, used;  // ready is a FIFO: [ready_head, size)
  size_t ready_head = 0;
  Warp warps[32];
};

struct Job {
  LaunchDesc d;
  unsigned long long nblocks = 0;
  std::atomic<unsigned long long> next{0};
  std::atomic<int> error{0};
  int active = 0;  // pool workers inside this job (guarded by the pool mutex)
};

struct Worker {  // per OS thread that runs blocks
  void* native_sp = nullptr;
  void* native_fake = nullptr;
  const void* native_lo = nullptr;
  size_t native_size = 0;
  bool from_native = false;
  bool fault_ready = false;
  void* altstack = nullptr;  // ours, if the thread had no signal stack
  std::vector<Fiber*> all, free;
  char* dyn = nullptr;  // dynamic shared memory: one fixed buffer for the thread's life
  Block blk;
  ~Worker();
};
// This OS thread's worker state.
Worker& this_worker();
// Run block `id` of `j` on this thread (fiber.cpp).
void run_block(Worker& w, Job& j, unsigned long long id);
// The running fiber blocks, parks or (dying) is abandoned: switch to what runs next.
void yield(Fiber* f, bool dying = false);

}  // namespace engine
}  // namespace fc
