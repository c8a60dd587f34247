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
    static START: OnceLock<Instant> = OnceLock::new();
    Ok(Value::Float(
        START.get_or_init(Instant::now).elapsed().as_secs_f64(),
    ))
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
