// How the fake libcuda runs one block of a kernel (launch.cpp spreads blocks over threads).
//
// Within a block, the GPU threads run as fibers on one OS thread and switch only at barriers: a fiber
// runs threads one after another until one of them blocks (__syncthreads or a warp
// operation); only then does another fiber start the next thread. Barrier-free kernels
// therefore cost one switch per block. When every live thread has arrived, the waiters
// become ready again; a thread that returned no longer counts. The switch is a few lines of
// x86-64 assembly (callee-saved registers + rsp): glibc's swapcontext makes a sigprocmask
// system call per switch, 10-20x slower at barriers.
#include "engine.h"

#include <signal.h>
#include <sys/mman.h>

#include <cstdio>
#include <cstring>
#include <mutex>

// fc_switch(save, to): push callee-saved registers, store rsp in *save, load `to`, pop, ret.
// A fresh fiber's stack is laid out so that the pops land in fc_fiber_entry with r12 = arg
// and r13 = function. (MXCSR / x87 control words are not switched: kernels never change them.)
extern "C" void fc_switch(void** save_sp, void* to_sp);
extern "C" void fc_fiber_entry();
asm(R"(
  .text
  .globl fc_switch
  .hidden fc_switch
  .type fc_switch,@function
fc_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size fc_switch,.-fc_switch
  .globl fc_fiber_entry
  .hidden fc_fiber_entry
  .type fc_fiber_entry,@function
fc_fiber_entry:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size fc_fiber_entry,.-fc_fiber_entry
)");

namespace fc {
namespace engine {

thread_local Worker tw;
Worker& this_worker() { return tw; }

// Stacks outlive the threads that used them: test harnesses run each test on a fresh
// thread, and re-mapping up to 1024 stacks per thread would be slow and fragment the
// address space. A fiber that changes owner restarts from scratch (`fresh`).
std::mutex g_spare_mu;
std::vector<Fiber*>* g_spare = new std::vector<Fiber*>;  // leaked: threads exit late
Worker::~Worker() {
  std::lock_guard<std::mutex> lk(g_spare_mu);
  for (Fiber* f : all) { f->fresh = true; f->idle = true; f->w = nullptr; g_spare->push_back(f); }
  std::free(dyn);
  if (altstack) {
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    munmap(altstack, 1 << 16);
  }
}

namespace {

const __fc_ops& ops();
[[noreturn]] void fiber_main(Fiber* f);

Fiber* new_fiber(Worker& w) {
  {
    std::lock_guard<std::mutex> lk(g_spare_mu);
    if (!g_spare->empty()) {
      Fiber* f = g_spare->back();
      g_spare->pop_back();
      f->w = &w;
      w.all.push_back(f);
      return f;
    }
  }
  void* p = mmap(nullptr, 2 * kStack, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) { perror("fakecuda: mmap fiber stack"); abort(); }
  uintptr_t a = ((uintptr_t)p + kStack - 1) & ~(kStack - 1);  // align to its size
  if (a > (uintptr_t)p) munmap(p, a - (uintptr_t)p);
  munmap((void*)(a + kStack), (uintptr_t)p + 2 * kStack - a - kStack);
  mprotect((void*)a, kGuard, PROT_NONE);  // overflow faults instead of corrupting
  Fiber* f = new Fiber;
  f->lo = (char*)a;
  f->t = (__fc_thread*)(f->lo + kStack - __FC_TOP_BYTES);
  f->w = &w;
  w.all.push_back(f);
  return f;
}

void init_stack(Fiber* f) {
  // Abandoned frames (assert, deadlock) may leave ASAN poison behind on this stack.
  if (asan().unpoison) asan().unpoison(f->lo + kGuard, kStack - kGuard);
  uintptr_t e = (((uintptr_t)f->t) & ~(uintptr_t)15) - 16;  // rsp after `ret`: 16-aligned
  void** sp = (void**)(e - 7 * sizeof(void*));
  sp[0] = sp[1] = nullptr;            // r15, r14
  sp[2] = (void*)&fiber_main;         // r13
  sp[3] = f;                          // r12
  sp[4] = sp[5] = nullptr;            // rbx, rbp (0 ends backtraces)
  sp[6] = (void*)&fc_fiber_entry;     // return address
  f->sp = sp;
  f->fresh = false;
}

// Give fiber `f` the k-th thread to start in block `b`.
void assign(Fiber* f, Block* b, unsigned k) {  // hot: once per GPU thread
  unsigned lin = b->reverse ? b->n - 1 - k : k;
  const dim3& bd = b->pub.blockDim;
  __fc_thread* t = f->t;
  if (bd.y == 1 && bd.z == 1) t->threadIdx = uint3{lin, 0, 0};  // no divisions for 1-D blocks
  else t->threadIdx = uint3{lin % bd.x, (lin / bd.x) % bd.y, lin / (bd.x * bd.y)};
  t->linear = lin;
  t->lane = lin & 31;
  t->warp = lin >> 5;
  t->block = &b->pub;
  t->ops = b->ops;
  t->rt = f;
  f->blk = b;
  f->idle = false;
}

Fiber* take_fiber(Block* b) {
  Worker& w = *b->w;
  Fiber* f;
  if (!w.free.empty()) { f = w.free.back(); w.free.pop_back(); }
  else f = new_fiber(w);
  b->used.push_back(f);
  assign(f, b, b->next++);
  return f;
}

// Next runnable fiber of the block: a released waiter first, else a new thread.
Fiber* pick(Block* b) {
  if (b->aborted) return nullptr;
  if (b->ready_head < b->ready.size()) {
    Fiber* f = b->ready[b->ready_head++];
    if (b->ready_head == b->ready.size()) { b->ready.clear(); b->ready_head = 0; }
    return f;
  }
  if (b->next < b->n) return take_fiber(b);
  return nullptr;
}

// Switch from the running context to `to` (nullptr: the worker's native stack).
// `fake` is where ASAN keeps this context's fake stack; nullptr tells ASAN it dies.
void jump(Worker& w, void** save_sp, void** fake, Fiber* to) {
  const Asan& a = asan();
  if (to && to->fresh) init_stack(to);
  if (a.start) {
    if (to) a.start(fake, to->lo, kStack);
    else a.start(fake, w.native_lo, w.native_size);
  }
  fc_switch(save_sp, to ? to->sp : w.native_sp);
  if (a.finish) {
    const void* lo; size_t size;
    a.finish(fake ? *fake : nullptr, &lo, &size);
    if (w.from_native) { w.native_lo = lo; w.native_size = size; w.from_native = false; }
  }
}

}  // namespace

void yield(Fiber* f, bool dying) {
  Block* b = f->blk;
  jump(*b->w, &f->sp, dying ? nullptr : &f->asan_fake, pick(b));
}

namespace {

void make_ready(Block* b, Fiber* const* fs, unsigned n) {
  b->ready.insert(b->ready.end(), fs, fs + n);
}

void release_bar(Block* b) {
  unsigned g = b->bar_gen & 1;
  b->bar_result[g] = b->bar_count;
  b->bar_part[g] = (int)b->bar_arrived;
  b->bar_count = 0;
  b->bar_arrived = 0;
  b->bar_gen++;
  make_ready(b, b->bar_wait.data(), (unsigned)b->bar_wait.size());
  b->bar_wait.clear();
}

void release_warp(Block* b, Warp& W) {
  W.part[W.buf] = W.arrived;
  W.arrived = 0;
  W.buf ^= 1;
  make_ready(b, W.wait, W.nwait);
  W.nwait = 0;
}

int op_sync(__fc_thread* t, int pred, int* part) {
  Fiber* f = (Fiber*)t->rt;
  Block* b = f->blk;
  unsigned g = b->bar_gen & 1;
  b->bar_count += pred;
  if (++b->bar_arrived == b->live) release_bar(b);  // the last arrival runs on
  else { b->bar_wait.push_back(f); yield(f); }
  if (part) *part = b->bar_part[g];
  return b->bar_result[g];
}

const unsigned long long* op_gather(__fc_thread* t, unsigned mask, unsigned long long v,
                                    unsigned* part) {
  Fiber* f = (Fiber*)t->rt;
  Block* b = f->blk;
  Warp& W = b->warps[t->warp];
  unsigned buf = W.buf, bit = 1u << t->lane;
  if (!W.arrived) W.cur_mask = mask;
  W.cur_mask |= bit;  // a lane outside its own mask is UB on a GPU; count it anyway
  W.slot[buf][t->lane] = v;
  W.arrived |= bit;
  if (((W.cur_mask & W.live) & ~W.arrived) == 0) release_warp(b, W);
  else { W.wait[W.nwait++] = f; yield(f); }
  *part = W.part[buf];
  return W.slot[buf];
}

unsigned op_active(__fc_thread* t) {
  return ((Fiber*)t->rt)->blk->warps[t->warp].live;
}

void thread_exit(Fiber* f) {
  Block* b = f->blk;
  __fc_thread* t = f->t;
  b->live--;
  b->finished++;
  Warp& W = b->warps[t->warp];
  W.live &= ~(1u << t->lane);
  if (W.arrived && ((W.cur_mask & W.live) & ~W.arrived) == 0) release_warp(b, W);
  if (b->bar_arrived && b->bar_arrived == b->live) release_bar(b);
}

[[noreturn]] void op_fail(__fc_thread* t, int err, const char* what, const char* file, int line,
                          const char* func) {
  Fiber* f = (Fiber*)t->rt;
  Block* b = f->blk;
  const uint3 &bi = b->pub.blockIdx, &ti = t->threadIdx;
  if (err == CUDA_ERROR_ASSERT)
    fprintf(stderr, "%s:%d: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file, line, func, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, what);
  else
    fprintf(stderr, "fakecuda: kernel %s: block [%u,%u,%u], thread [%u,%u,%u]: %s\n",
            b->job->d.name, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, what);
  int none = 0;
  b->job->error.compare_exchange_strong(none, err);
  b->aborted = true;  // like a GPU, the whole launch stops
  yield(f, true);
  __builtin_unreachable();
}

const __fc_ops& ops() {
  static const __fc_ops o{FAKECUDA_ABI, op_sync, op_gather, op_active, op_fail};
  return o;
}

[[noreturn]] void fiber_main(Fiber* f) {
  Worker& w = *f->w;
  if (asan().finish) {  // first entry: complete the switch that started us
    const void* lo; size_t size;
    asan().finish(nullptr, &lo, &size);
    if (w.from_native) { w.native_lo = lo; w.native_size = size; w.from_native = false; }
  }
  for (;;) {
    Block* b = f->blk;
    b->job->d.fn(b->job->d.params);
    thread_exit(f);
    if (!b->aborted && b->next < b->n) {  // next thread on this very fiber: no switch
      assign(f, b, b->next++);
      continue;
    }
    f->idle = true;
    w.free.push_back(f);
    yield(f);
  }
}

}  // namespace

void run_block(Worker& w, Job& j, unsigned long long id) {
  const LaunchDesc& d = j.d;
  if (!w.dyn) {
    w.dyn = (char*)aligned_alloc(256, (kMaxDynSmem + 255) & ~255u);
    if (!w.dyn) abort();
  }
  Block& b = w.blk;
  b.pub.blockIdx = uint3{(unsigned)(id % d.grid[0]), (unsigned)(id / d.grid[0] % d.grid[1]),
                         (unsigned)(id / ((unsigned long long)d.grid[0] * d.grid[1]))};
  b.pub.blockDim = dim3(d.block[0], d.block[1], d.block[2]);
  b.pub.gridDim = dim3(d.grid[0], d.grid[1], d.grid[2]);
  b.pub.dyn_smem = w.dyn;
  b.pub.dyn_smem_bytes = d.shmem;
  b.n = b.pub.nthreads = d.block[0] * d.block[1] * d.block[2];
  if (settings().poison) memset(w.dyn, 0xCD, d.shmem);
  b.job = &j;
  b.w = &w;
  b.next = b.finished = b.bar_arrived = b.bar_gen = 0;
  b.live = b.n;
  b.bar_count = 0;
  b.aborted = false;
  b.reverse = settings().reverse;
  b.ops = &ops();
  b.bar_wait.clear();
  b.ready.clear();
  b.ready_head = 0;
  b.used.clear();
  for (unsigned i = 0; i < 32; i++) {
    Warp& W = b.warps[i];
    unsigned first = i * 32;
    W.live = first >= b.n ? 0 : (b.n - first >= 32 ? ~0u : (1u << (b.n - first)) - 1);
    W.arrived = W.nwait = W.buf = 0;
  }
  while (Fiber* f = pick(&b)) {
    w.from_native = true;
    jump(w, &w.native_sp, &w.native_fake, f);
  }
  if (b.finished != b.n) {
    if (!b.aborted) {
      unsigned at_warp = (unsigned)(b.n - b.finished - b.bar_wait.size());
      note("kernel %s: block [%u,%u,%u] deadlocked: %zu of %u threads wait at __syncthreads, "
           "%u at warp operations, %u returned (every live thread must reach the same barrier)",
           d.name, b.pub.blockIdx.x, b.pub.blockIdx.y, b.pub.blockIdx.z, b.bar_wait.size(), b.n,
           at_warp, b.finished);
      int none = 0;
      j.error.compare_exchange_strong(none, CUDA_ERROR_LAUNCH_FAILED);
    }
    for (Fiber* f : b.used)  // suspended mid-kernel: restart their stacks from scratch
      if (!f->idle) { f->fresh = true; f->idle = true; w.free.push_back(f); }
  }
}


}  // namespace engine
}  // namespace fc
