//! `for i in progress(range(n)) { … }`: a progress bar with rate and ETA,
//! redrawn at most ten times a second. The interpreter's output decides where
//! it goes (`Output::write_progress`): stderr on a terminal, a stderr stream in
//! a notebook, nowhere in a transcript.

use std::time::{Duration, Instant};

pub struct Bar {
    total: Option<usize>,
    done: usize,
    start: Instant,
    last_draw: Option<Instant>,
    /// Width of the last drawing, so a shorter one can blank it without escape codes.
    drawn: usize,
}

fn clock(d: f64) -> String {
    let s = d.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{:02}:{:02}", s / 60, s % 60)
    }
}

/// The bar's text after `done` of `total` items in `elapsed` seconds.
pub fn render(done: usize, total: Option<usize>, elapsed: f64, width: usize) -> String {
    let rate = if elapsed > 0.0 {
        done as f64 / elapsed
    } else {
        0.0
    };
    let rate_text = if rate >= 1.0 || rate == 0.0 {
        format!("{rate:.1} it/s")
    } else {
        format!("{:.1} s/it", 1.0 / rate)
    };
    match total {
        Some(n) if n > 0 => {
            let frac = (done as f64 / n as f64).min(1.0);
            let eighths = (frac * (width * 8) as f64) as usize;
            let bar = format!(
                "{}{}",
                "█".repeat(eighths / 8),
                ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
            );
            let eta = if rate > 0.0 {
                (n - done.min(n)) as f64 / rate
            } else {
                0.0
            };
            format!(
                "{:3.0}% |{bar:<width$}| {done}/{n} [{}<{}, {rate_text}]",
                frac * 100.0,
                clock(elapsed),
                clock(eta)
            )
        }
        _ => format!("{done} it [{}, {rate_text}]", clock(elapsed)),
    }
}

impl Bar {
    pub fn new(total: Option<usize>) -> Bar {
        Bar {
            total,
            done: 0,
            start: Instant::now(),
            last_draw: None,
            drawn: 0,
        }
    }

    /// One more item done: the line to draw, at most ten times a second.
    pub fn tick(&mut self) -> Option<String> {
        self.done += 1;
        let due = self
            .last_draw
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        due.then(|| self.line())
    }

    /// The final state, drawn whatever the time since the last drawing; also
    /// when the loop stops early (break, an error, an interrupt).
    pub fn finish(mut self) -> String {
        self.line()
    }

    /// The bar as a line that overwrites the previous one (`\r`, padded with
    /// blanks where it got shorter), which terminals and notebooks both honour.
    fn line(&mut self) -> String {
        self.last_draw = Some(Instant::now());
        let text = render(
            self.done,
            self.total,
            self.start.elapsed().as_secs_f64(),
            30,
        );
        let width = text.chars().count();
        let pad = " ".repeat(self.drawn.saturating_sub(width));
        self.drawn = width;
        format!("\r{text}{pad}")
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn shows_percent_rate_and_eta() {
            let s = render(50, Some(100), 5.0, 10);
            assert_eq!(s, " 50% |█████     | 50/100 [00:05<00:05, 10.0 it/s]");
            assert_eq!(render(3, None, 1.5, 10), "3 it [00:02, 2.0 it/s]");
            assert!(render(1, Some(10), 4.0, 10).contains("4.0 s/it"));
        }
    }
}
