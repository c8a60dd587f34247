// Kernel launches of the fake libcuda: blocks are spread over a small thread pool (the
// launching thread works too); see fiber.cpp for how one block runs. A kernel that faults
// fails its launch instead of killing the process.
#include "engine.h"

#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>

namespace fc {
using namespace engine;
namespace {

// A kernel that faults (wild pointer, fiber stack overflow, division by zero) fails its
// launch with the error a GPU would give instead of killing the process. The handler finds
// the faulting fiber from the interrupted stack pointer and abandons it like __trap. Faults
// anywhere else go to the previous handler. Off under ASAN (it reports faults itself) and
// with FAKECUDA_CATCH_FAULTS=0.
pthread_key_t g_worker_key;
struct sigaction g_old[32];
void chain(int sig, siginfo_t* si, void* uc) {
  struct sigaction& o = g_old[sig];
  if (o.sa_flags & SA_SIGINFO) { if (o.sa_sigaction) o.sa_sigaction(sig, si, uc); }
  else if (o.sa_handler == SIG_DFL) signal(sig, SIG_DFL);  // re-executes and dies as usual
  else if (o.sa_handler != SIG_IGN) o.sa_handler(sig);
}
void on_fault(int sig, siginfo_t* si, void* ucv) {
  Worker* w = (Worker*)pthread_getspecific(g_worker_key);
  uintptr_t sp = (uintptr_t)((ucontext_t*)ucv)->uc_mcontext.gregs[REG_RSP];
  Fiber* f = nullptr;
  if (w) for (Fiber* x : w->all) if (sp - (uintptr_t)x->lo < kStack && !x->idle) f = x;
  if (!f) return chain(sig, si, ucv);
  Block* b = f->blk;
  const uint3 &bi = b->pub.blockIdx, &ti = f->t->threadIdx;
  bool overflow = (uintptr_t)si->si_addr - (uintptr_t)f->lo < kGuard;
  const char* what = sig == SIGFPE ? "arithmetic exception (integer division by zero?)"
                   : sig == SIGILL ? "illegal instruction"
                   : overflow ? "stack overflow (fiber stacks are 256 KiB)" : "illegal memory access";
  char msg[512];
  int n = snprintf(msg, sizeof msg, "fakecuda: kernel %s: block [%u,%u,%u], thread [%u,%u,%u]: %s at %p\n",
                   b->job->d.name, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, what, si->si_addr);
  if (write(2, msg, n > 0 ? (size_t)n : 0) < 0) {}
  int err = sig == SIGILL ? CUDA_ERROR_ILLEGAL_INSTRUCTION
          : sig == SIGFPE ? CUDA_ERROR_LAUNCH_FAILED : CUDA_ERROR_ILLEGAL_ADDRESS;
  int none = 0;
  b->job->error.compare_exchange_strong(none, err);
  b->aborted = true;
  yield(f, true);  // leaves the handler for good (SA_NODEFER: the signal stays unblocked)
}
void install_fault_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (asan().start || env_long("FAKECUDA_CATCH_FAULTS", 1) == 0) return;
    pthread_key_create(&g_worker_key, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) sigaction(sig, &sa, &g_old[sig]);
  });
}
void prepare_worker(Worker& w) {  // once per thread that runs blocks
  w.fault_ready = true;
  if (asan().start || env_long("FAKECUDA_CATCH_FAULTS", 1) == 0) return;
  pthread_setspecific(g_worker_key, &w);
  // The handler must run on a signal stack to survive a fiber stack overflow; Rust threads
  // have one already, other threads get one here.
  stack_t cur;
  if (sigaltstack(nullptr, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    void* p = mmap(nullptr, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return;
    stack_t ss{};
    ss.ss_sp = p;
    ss.ss_size = 1 << 16;
    if (sigaltstack(&ss, nullptr) == 0) w.altstack = p;
    else munmap(p, 1 << 16);
  }
}

void run_blocks(Job& j) {
  Worker& w = this_worker();
  if (!w.fault_ready) prepare_worker(w);
  for (;;) {
    if (j.error.load(std::memory_order_relaxed)) return;
    unsigned long long id = j.next.fetch_add(1);
    if (id >= j.nblocks) return;
    run_block(w, j, settings().reverse ? j.nblocks - 1 - id : id);
  }
}

struct Pool {
  std::mutex m;
  std::condition_variable work, idle;
  std::deque<Job*> jobs;
  int started = 0;

  void start(int n) {  // under m
    for (; started < n; started++) std::thread([this] { loop(); }).detach();
  }
  void loop() {
    std::unique_lock<std::mutex> lk(m);
    for (;;) {
      while (!jobs.empty() && jobs.front()->next.load() >= jobs.front()->nblocks) jobs.pop_front();
      if (jobs.empty()) { work.wait(lk); continue; }
      Job* j = jobs.front();
      j->active++;
      lk.unlock();
      run_blocks(*j);
      lk.lock();
      if (--j->active == 0) idle.notify_all();
    }
  }
};
Pool& pool() { static Pool* p = new Pool; return *p; }  // leaked: workers outlive exit

}  // namespace

CUresult run_kernel(const LaunchDesc& d) {
  install_fault_handler();
  Job j;
  j.d = d;
  j.nblocks = (unsigned long long)d.grid[0] * d.grid[1] * d.grid[2];
  int threads = settings().threads < 1 ? 1 : settings().threads;
  if (threads == 1 || j.nblocks == 1) {
    run_blocks(j);
    return j.error.load();
  }
  Pool& p = pool();
  {
    std::lock_guard<std::mutex> lk(p.m);
    p.start(threads - 1);
    p.jobs.push_back(&j);
  }
  unsigned long long helpers = j.nblocks - 1 < (unsigned long long)threads - 1 ? j.nblocks - 1 : threads - 1;
  for (unsigned long long i = 0; i < helpers; i++) p.work.notify_one();
  run_blocks(j);
  std::unique_lock<std::mutex> lk(p.m);
  for (auto it = p.jobs.begin(); it != p.jobs.end(); ++it)
    if (*it == &j) { p.jobs.erase(it); break; }
  p.idle.wait(lk, [&] { return j.active == 0; });
  return j.error.load();
}

}  // namespace fc

