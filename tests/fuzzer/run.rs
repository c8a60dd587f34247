//! Running fuzz inputs in-process: each in a fresh interpreter on a thread with
//! the binary's deep stack, panics caught and reported, a watchdog that sends the
//! interpreter an interrupt when an input runs long and gives up on a hang.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tsh::interp::{Interp, Output};

/// The same stack the `tsh` binary gives its interpreter thread.
pub const STACK_BYTES: usize = 512 << 20;

/// After this long an input is interrupted, as Ctrl-C would; it counts as slow.
pub const SOFT_LIMIT: Duration = Duration::from_secs(3);
/// After this long without returning, even to the interrupt, it is a hang.
pub const HARD_LIMIT: Duration = Duration::from_secs(10);

#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The program stopped with a tsh error (the expected way to fail).
    Error(&'static str),
    /// The interpreter panicked: a bug.
    Panic(String),
}

struct Sink;

impl Output for Sink {
    fn write_str(&mut self, _: &str) {}
}

static PANIC_MESSAGE: Mutex<Option<String>> = Mutex::new(None);

thread_local! {
    /// True on the thread running a fuzz input, while it runs.
    static IN_INPUT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
/// Milliseconds since EPOCH when the running input started; 0 when idle.
static STARTED_MS: AtomicU64 = AtomicU64::new(0);
static CURRENT: Mutex<String> = Mutex::new(String::new());

fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

/// How an input is fed to tsh.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// As `tsh FILE`: the first error stops the script.
    Script,
    /// As lines piped into the prompt: entries run one by one, errors do not stop
    /// the session, values are echoed (in colour when `color`).
    Repl { color: bool },
}

/// Run one input; the caller learns how it ended and how long it took.
pub fn run_one(src: &str, mode: Mode) -> (Outcome, Duration) {
    *CURRENT.lock().unwrap_or_else(|e| e.into_inner()) = src.to_string();
    let start = Instant::now();
    STARTED_MS.store(now_ms(), Ordering::SeqCst);
    IN_INPUT.with(|f| f.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| match mode {
        Mode::Script => script(src),
        Mode::Repl { color } => repl(src, color),
    }));
    IN_INPUT.with(|f| f.set(false));
    STARTED_MS.store(0, Ordering::SeqCst);
    tsh::interrupt::clear();
    let outcome = match result {
        Ok(Ok(())) => Outcome::Ok,
        Ok(Err(kind)) => Outcome::Error(kind),
        Err(_) => Outcome::Panic(
            PANIC_MESSAGE
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_default(),
        ),
    };
    (outcome, start.elapsed())
}

fn script(src: &str) -> Result<(), &'static str> {
    let mut interp = Interp::new(Box::new(Sink));
    let result = tsh::script::run_script(&mut interp, src, false);
    // Rendering the error is part of what the user sees: it must not fail either.
    result.map_err(|e| {
        let _ = tsh::print::error::render(&e, src, "<fuzz>");
        e.kind.name()
    })
}

/// The prompt's loop without the terminal: the last error's kind, if any.
fn repl(src: &str, color: bool) -> Result<(), &'static str> {
    let mut interp = Interp::new(Box::new(Sink));
    interp.color = color;
    let mut entry = tsh::repl::Entry::piped();
    let mut last = Ok(());
    let mut entries = vec![];
    for line in src.lines() {
        entries.extend(entry.push(line));
    }
    entries.extend(entry.finish());
    for text in entries {
        let (quit, error) = tsh::repl::eval_entry(&mut interp, &text);
        interp.record_entry(&text, "", error.as_ref().map(|(e, _)| e));
        if let Some((e, _)) = error {
            last = Err(e.kind.name());
        }
        if quit {
            break;
        }
    }
    last
}

/// Quiet panics (they are collected, not printed) and start the watchdog, which
/// writes the hanging input to `hang_file` before exiting with status 3.
pub fn install(hang_file: PathBuf) {
    // Inputs that ask for gigabytes test the allocator, not tsh: a 128 MiB cap keeps
    // runs fast, and the memory error path is the same.
    tsh::tensor::core::set_memory_limit(128 << 20);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // Only the fuzz input's panics are collected; other threads (other tests)
        // report theirs as usual.
        if !IN_INPUT.with(|f| f.get()) {
            return default_hook(info);
        }
        let at = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        *PANIC_MESSAGE.lock().unwrap_or_else(|e| e.into_inner()) = Some(format!("{at}: {msg}"));
    }));
    epoch();
    std::thread::spawn(move || watchdog(&hang_file));
}

fn watchdog(hang_file: &Path) {
    let mut interrupted_at = 0;
    loop {
        std::thread::sleep(Duration::from_millis(50));
        let started = STARTED_MS.load(Ordering::SeqCst);
        if started == 0 {
            continue;
        }
        let ran = Duration::from_millis(now_ms().saturating_sub(started));
        if ran > SOFT_LIMIT && interrupted_at != started {
            interrupted_at = started;
            tsh::interrupt::request();
        }
        if ran > HARD_LIMIT {
            let src = CURRENT.lock().unwrap_or_else(|e| e.into_inner()).clone();
            let _ = std::fs::write(hang_file, &src);
            eprintln!("HANG (no answer to an interrupt after {HARD_LIMIT:?}):\n{src}");
            std::process::exit(3);
        }
    }
}

/// Seed programs: the lesson scripts, the transcripts, the checked transcripts,
/// the fuzz regressions and every builtin's example.
pub fn seeds() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<String> = tsh::interp::builtins::all()
        .map(|b| b.example.to_string())
        .collect();
    // The training lessons (scripts/lesson2..4) are left out: a mutant that still
    // parses trains for seconds, which would starve the rest of the run.
    for dir in [
        "tests/transcripts",
        "tests/checked",
        "tests/fuzzer/regressions",
    ] {
        out.extend(
            tsh_files(&root.join(dir))
                .iter()
                .filter_map(|p| std::fs::read_to_string(p).ok()),
        );
    }
    if let Ok(text) = std::fs::read_to_string(root.join("scripts/lesson1_tensors.tsh")) {
        out.push(text);
    }
    out
}

/// The `.tsh` files in `dir`, sorted (none if it cannot be read).
pub fn tsh_files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    paths.retain(|p| p.extension().is_some_and(|e| e == "tsh"));
    paths.sort();
    paths
}

/// Run `f` on a thread with the binary's stack size.
pub fn on_deep_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(f)
        .expect("spawn the fuzz thread")
        .join()
        .expect("the fuzz thread returns")
}
