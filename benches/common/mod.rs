//! What every benchmark shares.

use std::time::Instant;

/// The median time of `reps` runs of `f`, in seconds, after one warm-up run.
pub fn median_secs(mut f: impl FnMut(), reps: usize) -> f64 {
    f();
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(|a, b| a.total_cmp(b));
    times[reps / 2]
}
