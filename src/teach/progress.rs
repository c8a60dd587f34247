//! `for i in progress(range(n)) { … }`: a progress bar with rate and ETA,
//! redrawn at most ten times a second, on stderr and only on a terminal.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Bar {
    total: Option<usize>,
    done: usize,
    start: Instant,
    last_draw: Option<Instant>,
    visible: bool,
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
            visible: std::io::stderr().is_terminal(),
            drawn: 0,
        }
    }

    pub fn tick(&mut self) {
        self.done += 1;
        let due = self
            .last_draw
            .is_none_or(|t| t.elapsed() >= Duration::from_millis(100));
        if due {
            self.draw();
        }
    }

    fn draw(&mut self) {
        if !self.visible {
            return;
        }
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
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r{text}{pad}");
        let _ = err.flush();
    }
}

impl Drop for Bar {
    /// The final state stays on screen, on a line of its own; also when the
    /// loop stops early (break, an error, Ctrl-C).
    fn drop(&mut self) {
        if self.visible {
            self.draw();
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shows_percent_rate_and_eta() {
        let s = render(50, Some(100), 5.0, 10);
        assert_eq!(s, " 50% |█████     | 50/100 [00:05<00:05, 10.0 it/s]");
        assert_eq!(render(3, None, 1.5, 10), "3 it [00:02, 2.0 it/s]");
        assert!(render(1, Some(10), 4.0, 10).contains("4.0 s/it"));
    }
}
