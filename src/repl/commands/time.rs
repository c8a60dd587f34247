//! `:time STMT`: one warm-up run, then repeats until about half a second has
//! passed (3 to 100 runs), reporting the median. Everything runs on the CPU,
//! synchronously, so the clock sees all the work.

use std::time::Instant;

use super::{Outcome, say};
use crate::error::{Error, ErrorKind, Result};
use crate::interp::Interp;

pub fn time(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    if arg.is_empty() {
        return Err(Error::new(ErrorKind::Syntax, ":time needs a statement")
            .hint(":time a @ b  (or :time for i in range(10) { x = x * 2 })"));
    }
    let program = crate::syntax::parse_program(arg)?;
    // Kernels are queued: wait for the devices before reading the clock, so
    // GPU timings are honest.
    let run = |interp: &mut Interp| -> Result<f64> {
        let start = Instant::now();
        interp.run_stmts(&program, false, |_, _| {})?;
        crate::backend::cuda::synchronize_open()?;
        Ok(start.elapsed().as_secs_f64())
    };
    interp.source = std::rc::Rc::from(arg);
    let warm = run(interp)?;
    let repeats = if warm > 1.0 {
        1
    } else {
        ((0.5 / warm.max(1e-9)) as usize).clamp(3, 100)
    };
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        times.push(run(interp)?);
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let median = times[times.len() / 2];
    say(
        interp,
        &format!(
            "median {} over {} run{} (min {}, max {}; after one warm-up run of {}){}",
            crate::teach::seconds(median),
            times.len(),
            if times.len() == 1 { "" } else { "s" },
            crate::teach::seconds(times[0]),
            crate::teach::seconds(times[times.len() - 1]),
            crate::teach::seconds(warm),
            on_devices()?
        ),
    );
    Ok(Outcome::Handled)
}

/// " on cpu", or " on cpu and cuda:0 (synchronized)" once CUDA is in use.
fn on_devices() -> Result<String> {
    let gpus = crate::backend::cuda::synchronize_open()?;
    Ok(if gpus.is_empty() {
        " on cpu".to_string()
    } else {
        let names: Vec<String> = gpus.iter().map(|i| format!("cuda:{i}")).collect();
        format!(" on cpu and {} (synchronized)", names.join(", "))
    })
}
