//! The kernel threads: rayon's global pool, with the thread that runs the
//! interpreter as one of its workers.
//!
//! rayon's default pool is made of threads of its own: every parallel loop
//! started from the interpreter's thread was handed to them while that
//! thread slept, and each op paid two context switches (a quarter to a half
//! of a 1 MB `a * 2`). As a member of the pool, the interpreter's thread
//! runs its share of the loop itself, as OpenMP's main thread does in
//! PyTorch, and with one thread no loop leaves it at all.
//!
//! The pool is built once: by `torch.set_num_threads` when a script calls it
//! first (the usual first lines), else by the first parallel loop, with
//! rayon's default count (`RAYON_NUM_THREADS`, else one per core).

use std::sync::atomic::{AtomicBool, Ordering};

static STARTED: AtomicBool = AtomicBool::new(false);

/// Builds the pool with `n` threads (0: rayon's default), the calling thread
/// among them. False when a pool was already built.
pub fn start(n: usize) -> bool {
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .use_current_thread()
        .build_global()
        .is_ok();
    STARTED.store(true, Ordering::Release);
    built
}

/// How many threads kernels share, building the pool first if no loop has
/// yet. Kernels call this (or `parallel`) before any parallel loop, on the
/// thread that would otherwise hand the loop to rayon's own threads.
pub fn count() -> usize {
    if !STARTED.load(Ordering::Acquire) {
        start(0);
    }
    rayon::current_num_threads()
}

/// Whether kernels have more than one thread to share a loop between.
pub fn many() -> bool {
    count() > 1
}

/// Makes sure the pool is built before a parallel loop that `parallel` does
/// not gate (its count is not needed).
pub fn ensure() {
    count();
}

/// How many threads kernels share, without building the pool: what
/// `torch.get_num_threads()` reports before any parallel work.
pub fn planned() -> usize {
    if STARTED.load(Ordering::Acquire) {
        return rayon::current_num_threads();
    }
    // rayon's own default, read the way it reads it.
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}
