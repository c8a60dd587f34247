//! The kernel threads: a pool of our own with OpenMP's static schedule
//! (matrix products are split on them too, split.rs; faer's factorizations
//! run on the calling thread, linalg.rs).
//!
//! Why not rayon for our loops: rayon hands pieces to whichever thread is
//! free, and its idle workers fall asleep within microseconds. PyTorch's
//! OpenMP threads always take the same share of a tensor and spin between
//! ops, so a 4 MB tensor's halves stay in each core's L2 from one op to the
//! next: `mul_` on 4 MB took 50–70 µs on rayon and 46 µs here (PyTorch 47),
//! and a 256 KB loop after 20 µs of interpreter work 9.2 µs on rayon (a
//! worker's wake-up), 3.0 µs here, 4.4 µs on one thread.
//!
//! The thread that calls a loop takes the first share itself, as OpenMP's
//! main thread does; workers spin for `SPIN` after each loop, then sleep.
//! A loop started inside another (or from a second thread while one runs)
//! runs on its caller alone.
//!
//! The pool is built by `torch.set_num_threads` when a script calls it
//! first (the usual first lines), else by the first parallel loop, with
//! `RAYON_NUM_THREADS` threads if set, else one per core. The count can
//! change at any time, as PyTorch's can.

use std::any::Any;
use std::cell::Cell;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, TryLockError};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long an idle worker waits for the next loop before it sleeps: longer
/// than the interpreter's work between two ops of a script, short enough
/// that an idle prompt leaves the cores alone.
const SPIN: Duration = Duration::from_millis(2);

static POOL: OnceLock<&'static Pool> = OnceLock::new();

thread_local! {
    /// Set on workers, and on a caller while its loop runs: a loop started
    /// there runs on that thread alone.
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// One loop: `f(piece)` for each piece in `0..pieces`, thread `t` of `n`
/// taking the pieces `[t * pieces / n, (t + 1) * pieces / n)`.
struct Job<'a> {
    f: &'a (dyn Fn(usize) + Sync),
    pieces: usize,
    threads: usize,
}

impl Job<'_> {
    fn share(&self, t: usize) {
        let (from, to) = (
            t * self.pieces / self.threads,
            (t + 1) * self.pieces / self.threads,
        );
        (from..to).for_each(self.f);
    }
}

struct Worker {
    thread: OnceLock<Thread>,
    asleep: AtomicBool,
    /// The last generation whose share this worker's index names was
    /// taken, by the worker or by the caller when the worker was slow to
    /// wake (only generations above it can be taken: one taker each).
    taken: AtomicU64,
}

/// Kernel threads at most (`torch.set_num_threads` asks are capped here).
const MAX_THREADS: usize = 256;

struct Pool {
    /// Threads a loop is split between: the caller and the first
    /// `threads - 1` workers (`torch.set_num_threads` changes it).
    threads: AtomicUsize,
    /// Slots for every worker there may be; the first `spawned` started.
    workers: Box<[Worker]>,
    spawned: AtomicUsize,
    /// Bumped for each loop; a worker runs a loop when it sees it change.
    generation: AtomicU64,
    job: AtomicPtr<Job<'static>>,
    /// Shares other than the caller's finished in the current loop.
    done: AtomicUsize,
    /// A share's panic, carried to the caller to go on unwinding there.
    panicked: Mutex<Option<Box<dyn Any + Send>>>,
    /// Held by the thread whose loop the workers run.
    busy: Mutex<()>,
}

impl Pool {
    fn build(n: usize) -> &'static Pool {
        let pool: &'static Pool = Box::leak(Box::new(Pool {
            threads: AtomicUsize::new(1),
            spawned: AtomicUsize::new(0),
            workers: (1..MAX_THREADS)
                .map(|_| Worker {
                    thread: OnceLock::new(),
                    asleep: AtomicBool::new(false),
                    taken: AtomicU64::new(0),
                })
                .collect(),
            generation: AtomicU64::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            done: AtomicUsize::new(0),
            panicked: Mutex::new(None),
            busy: Mutex::new(()),
        }));
        pool.resize(n);
        pool
    }

    /// Splits loops between `n` threads from now on, starting workers as
    /// needed (a worker that cannot start leaves the count at those that
    /// did). Only between loops: the caller holds `busy`, or no loop can
    /// have started yet.
    fn resize(&'static self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        let mut spawned = self.spawned.load(Ordering::Acquire);
        // No loop runs meanwhile: a new worker starts at the generation of
        // the last one, which it must not take (its job is gone).
        let now = self.generation.load(Ordering::Acquire);
        while spawned + 1 < n {
            let t = spawned + 1;
            self.workers[t - 1].taken.store(now, Ordering::Release);
            let started = std::thread::Builder::new()
                .name(format!("tsh-kernels-{t}"))
                .spawn(move || self.work(t, now));
            let Ok(handle) = started else { break };
            let _ = self.workers[t - 1].thread.set(handle.thread().clone());
            spawned += 1;
            self.spawned.store(spawned, Ordering::Release);
        }
        self.threads.store(n.min(spawned + 1), Ordering::Release);
    }

    fn threads(&self) -> usize {
        self.threads.load(Ordering::Acquire)
    }

    /// A worker's life from generation `start`: wait for a loop, take its
    /// share unless the caller already has, run it, say so.
    fn work(&self, t: usize, start: u64) {
        INSIDE.set(true);
        let mut seen = start;
        loop {
            seen = self.wait(t, seen);
            if self.workers[t - 1].taken.fetch_max(seen, Ordering::AcqRel) < seen {
                // SAFETY: taking the share of generation `seen` means its
                // loop is still running (the caller returns only when every
                // share is done), so `job` is still the one it published
                // before the generation, and alive.
                let job = unsafe { &*self.job.load(Ordering::Acquire) };
                self.share(job, t);
            }
        }
    }

    /// Runs share `t` of `job`, and counts it done.
    fn share(&self, job: &Job, t: usize) {
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job.share(t))) {
            let mut slot = self.panicked.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(payload);
        }
        self.done.fetch_add(1, Ordering::AcqRel);
    }

    /// Waits for a generation other than `seen`: spinning for `SPIN`, then
    /// asleep until a caller wakes this worker.
    fn wait(&self, t: usize, seen: u64) -> u64 {
        let me = &self.workers[t - 1];
        let mut since = Instant::now();
        let mut spins = 0u32;
        loop {
            let g = self.generation.load(Ordering::Acquire);
            if g != seen {
                return g;
            }
            spins = spins.wrapping_add(1);
            // A worker outside the count (after set_num_threads) sleeps at once.
            let idle = t >= self.threads();
            if spins.is_multiple_of(128) && (idle || since.elapsed() > SPIN) {
                // The caller bumps the generation, then wakes whoever says
                // it sleeps; seeing the flag after the bump, or the bump
                // after the flag, one of the two checks catches it.
                me.asleep.store(true, Ordering::SeqCst);
                if self.generation.load(Ordering::SeqCst) == seen {
                    std::thread::park();
                }
                me.asleep.store(false, Ordering::SeqCst);
                since = Instant::now();
                continue;
            }
            std::hint::spin_loop();
        }
    }

    /// Runs `job` on every thread, this one taking share 0.
    fn run(&self, job: &Job) {
        let workers = job.threads - 1;
        self.done.store(0, Ordering::Relaxed);
        let published = job as *const Job as *mut Job<'static>;
        self.job.store(published, Ordering::Release);
        // Workers beyond the count have no share: theirs is taken here,
        // before they can see the generation.
        let generation = self.generation.load(Ordering::Acquire) + 1;
        let spawned = self.spawned.load(Ordering::Acquire);
        for w in &self.workers[workers..spawned] {
            w.taken.fetch_max(generation, Ordering::AcqRel);
        }
        self.generation.fetch_add(1, Ordering::SeqCst);
        for w in &self.workers[..workers] {
            if w.asleep.swap(false, Ordering::SeqCst)
                && let Some(thread) = w.thread.get()
            {
                thread.unpark();
            }
        }
        let mine = catch_unwind(AssertUnwindSafe(|| job.share(0)));
        // A share no worker has taken yet (its worker still waking up)
        // runs here: a short loop never waits on a wake-up.
        for (t, w) in self.workers[..workers].iter().enumerate() {
            if w.taken.fetch_max(generation, Ordering::AcqRel) < generation {
                self.share(job, t + 1);
            }
        }
        // Every share must be done before `job` goes out of scope, even
        // when one panicked.
        let mut spins = 0u32;
        while self.done.load(Ordering::Acquire) < workers {
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(4096) {
                std::thread::yield_now();
            }
            std::hint::spin_loop();
        }
        let theirs = self
            .panicked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(payload) = mine.err().or(theirs) {
            resume_unwind(payload);
        }
    }
}

/// Splits kernels' loops between `n` threads from now on (the calling
/// thread among them), building the pools first if no loop has yet; what
/// `torch.set_num_threads` does. The count it could start.
pub fn set(n: usize) -> usize {
    if start(n) {
        return count();
    }
    let pool = pool();
    let _guard = match pool.busy.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    };
    pool.resize(n);
    pool.threads()
}

/// Builds the pool with `n` threads (0: the default), the calling thread
/// among them. False when it was already built.
fn start(n: usize) -> bool {
    let n = if n == 0 { default_count() } else { n };
    let mut built = false;
    POOL.get_or_init(|| {
        built = true;
        Pool::build(n)
    });
    built
}

fn pool() -> &'static Pool {
    if let Some(p) = POOL.get() {
        return p;
    }
    start(0);
    // `start` built it, or another thread did meanwhile.
    POOL.get_or_init(|| Pool::build(1))
}

/// How many threads kernels share, building the pools first if no loop has
/// yet.
pub fn count() -> usize {
    pool().threads()
}

/// Whether kernels have more than one thread to share a loop between.
pub fn many() -> bool {
    count() > 1
}

/// How many threads kernels share, without building the pools: what
/// `torch.get_num_threads()` reports before any parallel work.
pub fn planned() -> usize {
    match POOL.get() {
        Some(p) => p.threads(),
        None => default_count(),
    }
}

fn default_count() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .filter(|&n| n > 0)
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
}

/// `f(piece)` for each piece in `0..pieces`, the pieces split into equal
/// runs of consecutive ones, one run per thread (the caller's first).
pub fn each(pieces: usize, f: impl Fn(usize) + Sync) {
    if pieces <= 1 || INSIDE.get() {
        return (0..pieces).for_each(f);
    }
    let pool = pool();
    let _guard = match pool.busy.try_lock() {
        Ok(g) => g,
        Err(TryLockError::Poisoned(p)) => p.into_inner(),
        // Another thread's loop has the workers: this one runs here.
        Err(TryLockError::WouldBlock) => return (0..pieces).for_each(f),
    };
    // Read under the lock: set_num_threads changes it only between loops.
    let threads = pool.threads();
    if threads == 1 {
        return (0..pieces).for_each(f);
    }
    INSIDE.set(true);
    let job = Job {
        f: &f,
        pieces,
        threads,
    };
    let ran = catch_unwind(AssertUnwindSafe(|| pool.run(&job)));
    INSIDE.set(false);
    if let Err(payload) = ran {
        resume_unwind(payload);
    }
}

/// `f(piece)` for each piece, in parallel as `each`, the results in order.
pub fn map<R: Send>(pieces: usize, f: impl Fn(usize) -> R + Sync) -> Vec<R> {
    zip_map(Indices(pieces), |i, _| f(i))
}

/// `f(i, piece)` for each piece of `parts`, in parallel as `zip`, the
/// results in order.
pub fn zip_map<S: Split, R: Send>(parts: S, f: impl Fn(usize, S::Piece) -> R + Sync) -> Vec<R> {
    let mut out: Vec<Option<R>> = (0..parts.count()).map(|_| None).collect();
    let slots = ChunksMut::new(&mut out, 1);
    zip((parts, slots), |i, (piece, slot)| {
        slot[0] = Some(f(i, piece))
    });
    // Every slot was filled (a panic would have propagated before here).
    out.into_iter().flatten().collect()
}

/// `f(i, piece)` for each piece of `parts` (chunks of slices, zipped as
/// pairs), in parallel as `each`.
pub fn zip<S: Split>(parts: S, f: impl Fn(usize, S::Piece) + Sync) {
    let n = parts.count();
    each(n, |i| {
        // SAFETY: `each` calls this closure once for each `i` in `0..n`, so
        // no piece is handed out twice.
        f(i, unsafe { parts.piece(i) })
    });
}

/// Something `zip` can cut into pieces by index: the chunks of a slice it
/// borrows for as long as the pieces live, or a pair of such.
pub trait Split: Sync {
    type Piece;
    /// How many pieces.
    fn count(&self) -> usize;
    /// Piece `i`.
    ///
    /// # Safety
    /// `i < count()`, and each piece is taken at most once.
    unsafe fn piece(&self, i: usize) -> Self::Piece;
}

/// The pieces `0..n`, each its own index.
pub struct Indices(pub usize);

impl Split for Indices {
    type Piece = usize;
    fn count(&self) -> usize {
        self.0
    }
    unsafe fn piece(&self, i: usize) -> usize {
        i
    }
}

/// A slice's chunks of `len` (the last may be shorter), read in parallel.
pub struct Chunks<'a, T> {
    data: &'a [T],
    len: usize,
}

impl<'a, T> Chunks<'a, T> {
    pub fn new(data: &'a [T], len: usize) -> Self {
        Chunks {
            data,
            len: len.max(1),
        }
    }
}

impl<'a, T: Sync> Split for Chunks<'a, T> {
    type Piece = &'a [T];
    fn count(&self) -> usize {
        self.data.len().div_ceil(self.len)
    }
    unsafe fn piece(&self, i: usize) -> &'a [T] {
        let from = (i * self.len).min(self.data.len());
        &self.data[from..(from + self.len).min(self.data.len())]
    }
}

/// A slice's chunks of `len` (the last may be shorter), written in parallel:
/// it holds the slice's mutable borrow, and hands each chunk out once, as
/// `split_at_mut` would.
pub struct ChunksMut<'a, T> {
    data: *mut T,
    total: usize,
    len: usize,
    _slice: PhantomData<&'a mut [T]>,
}

// SAFETY: the pieces are disjoint sub-slices, each handed to one thread, as
// `par_chunks_mut` hands them.
unsafe impl<T: Send> Sync for ChunksMut<'_, T> {}

impl<'a, T> ChunksMut<'a, T> {
    pub fn new(data: &'a mut [T], len: usize) -> Self {
        ChunksMut {
            data: data.as_mut_ptr(),
            total: data.len(),
            len: len.max(1),
            _slice: PhantomData,
        }
    }
}

impl<'a, T: Send> Split for ChunksMut<'a, T> {
    type Piece = &'a mut [T];
    fn count(&self) -> usize {
        self.total.div_ceil(self.len)
    }
    unsafe fn piece(&self, i: usize) -> &'a mut [T] {
        let from = (i * self.len).min(self.total);
        let to = (from + self.len).min(self.total);
        // SAFETY: [from, to) lies inside the slice borrowed mutably for 'a,
        // and the caller takes each piece once, so no two overlap.
        unsafe { std::slice::from_raw_parts_mut(self.data.add(from), to - from) }
    }
}

impl<A: Split, B: Split> Split for (A, B) {
    type Piece = (A::Piece, B::Piece);
    fn count(&self) -> usize {
        self.0.count().min(self.1.count())
    }
    unsafe fn piece(&self, i: usize) -> Self::Piece {
        // SAFETY: the caller's promise, passed on to each half.
        unsafe { (self.0.piece(i), self.1.piece(i)) }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn every_piece_runs_once_in_order_of_results() {
            let squares = map(1000, |i| i * i);
            assert_eq!(squares, (0..1000).map(|i| i * i).collect::<Vec<_>>());
        }

        fn zipped_chunks_cover_both_slices() {
            let src: Vec<u32> = (0..1001).collect();
            let mut dst = vec![0u32; 1001];
            zip(
                (Chunks::new(&src, 100), ChunksMut::new(&mut dst, 100)),
                |_, (s, d)| {
                    for (d, s) in d.iter_mut().zip(s) {
                        *d = s * 2;
                    }
                },
            );
            assert_eq!(dst, src.iter().map(|s| s * 2).collect::<Vec<_>>());
        }

        fn a_panic_on_any_thread_reaches_the_caller_and_the_pool_goes_on() {
            for bad in 0..4 {
                let ran = std::panic::catch_unwind(|| {
                    each(4, |i| {
                        if i == bad {
                            panic!("piece {i}");
                        }
                    })
                });
                assert!(ran.is_err(), "piece {bad}'s panic was lost");
                assert_eq!(map(4, |i| i + 1), vec![1, 2, 3, 4]);
            }
        }

        fn loops_from_many_threads_at_once_each_get_their_results() {
            let callers: Vec<_> = (0..4)
                .map(|c| {
                    std::thread::spawn(move || {
                        for round in 0..200 {
                            let got = map(64, |i| i * c + round);
                            assert!(got.iter().enumerate().all(|(i, &g)| g == i * c + round));
                        }
                    })
                })
                .collect();
            for caller in callers {
                assert!(caller.join().is_ok());
            }
        }

        fn a_loop_after_the_workers_fell_asleep_still_runs_every_piece() {
            count();
            std::thread::sleep(SPIN * 3);
            let hits: Vec<AtomicUsize> = (0..16).map(|_| AtomicUsize::new(0)).collect();
            each(16, |i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }

        fn workers_started_after_loops_ran_take_only_new_ones() {
            // A separate pool: the tests share the global one.
            let pool = Pool::build(2);
            let run = |pieces: usize| {
                let hits: Vec<AtomicUsize> = (0..pieces).map(|_| AtomicUsize::new(0)).collect();
                let f = |i: usize| {
                    hits[i].fetch_add(1, Ordering::Relaxed);
                };
                let threads = pool.threads();
                pool.run(&Job {
                    f: &f,
                    pieces,
                    threads,
                });
                hits.iter().all(|h| h.load(Ordering::Relaxed) == 1)
            };
            for _ in 0..50 {
                assert!(run(8));
            }
            pool.resize(4);
            assert_eq!(pool.threads(), 4);
            for _ in 0..50 {
                assert!(run(8));
            }
            pool.resize(1);
            assert!(run(8));
            pool.resize(3);
            assert!(run(9));
        }

        fn a_loop_inside_a_loop_runs_on_its_caller() {
            let sums = map(8, |i| map(4, |j| i * 4 + j).into_iter().sum::<usize>());
            let want: Vec<usize> = (0..8).map(|i| (0..4).map(|j| i * 4 + j).sum()).collect();
            assert_eq!(sums, want);
        }
    }
}
