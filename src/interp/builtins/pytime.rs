//! Python's `time` module, the part lessons use to time work (the CPU-vs-GPU
//! lesson): clocks and sleep.

use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "time.time",
        "time.time()",
        "Seconds since the epoch, as a float.",
        "import time; time.time() > 0",
        now
    ),
    row!(
        Module,
        "time.perf_counter",
        "time.perf_counter()",
        "A monotonic clock in seconds for timing work (differences are what count).",
        "import time; t0 = time.perf_counter(); time.perf_counter() >= t0",
        perf_counter
    ),
    row!(
        Module,
        "time.monotonic",
        "time.monotonic()",
        "A clock that never goes back, in seconds.",
        "import time; time.monotonic() >= 0",
        perf_counter
    ),
    row!(
        Module,
        "time.perf_counter_ns",
        "time.perf_counter_ns()",
        "time.perf_counter in integer nanoseconds.",
        "import time; time.perf_counter_ns() >= 0",
        perf_counter_ns
    ),
    row!(
        Module,
        "time.monotonic_ns",
        "time.monotonic_ns()",
        "time.monotonic in integer nanoseconds.",
        "import time; time.monotonic_ns() >= 0",
        perf_counter_ns
    ),
    row!(
        Module,
        "time.time_ns",
        "time.time_ns()",
        "Nanoseconds since the epoch, as an int.",
        "import time; time.time_ns() > 0",
        now_ns
    ),
    row!(
        Module,
        "time.process_time",
        "time.process_time()",
        "CPU seconds this process has used, on all its threads.",
        "import time; time.process_time() >= 0",
        process_time
    ),
    row!(
        Module,
        "time.process_time_ns",
        "time.process_time_ns()",
        "time.process_time in integer nanoseconds.",
        "import time; time.process_time_ns() >= 0",
        process_time_ns
    ),
    row!(
        Module,
        "time.sleep",
        "time.sleep(secs)",
        "Wait `secs` seconds.",
        "import time; time.sleep(0.01)",
        sleep
    ),
];

fn now(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Ok(Value::Float(t.as_secs_f64()))
}

pub(super) fn perf_counter(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Float(since_start().as_secs_f64()))
}

fn now_ns(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    Ok(Value::Int(t.as_nanos() as i64))
}

fn since_start() -> Duration {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

fn perf_counter_ns(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(since_start().as_nanos() as i64))
}

/// CPU time of the whole process (every thread), as CPython reads it.
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec, which lives on this stack.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn process_time(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Float(cpu_time().as_secs_f64()))
}

fn process_time_ns(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(cpu_time().as_nanos() as i64))
}

fn sleep(_: &mut Interp, mut a: Args) -> Result<Value> {
    let secs = a.float("secs")?;
    a.finish()?;
    if !(0.0..=1e9).contains(&secs) {
        return Err(value_err("sleep length must be non-negative"));
    }
    // In slices, so that Ctrl-C (checked between statements) is not held up long.
    let end = Instant::now() + Duration::from_secs_f64(secs);
    while Instant::now() < end {
        std::thread::sleep((end - Instant::now()).min(Duration::from_millis(50)));
        crate::interrupt::check()?;
    }
    Ok(Value::None)
}
