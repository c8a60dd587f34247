//! Line charts and histograms as PNGs, drawn as a notebook user expects from
//! matplotlib: a framed plot area, grid lines at round ticks, tick labels, a
//! title.

use super::canvas::{BLUE, Canvas, GRID, INK, WHITE, text_width};
use super::png::Png;
use tsh::teach::picture::bounds;

/// Font scale for labels: the 5×7 font at 2× reads like 10-point text.
pub const LABEL: usize = 2;
const TICK: i64 = 5;
const PAD: i64 = 10;

/// Round tick values (1, 2 or 5 × 10^k apart) covering [lo, hi], about `target` of them.
pub fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return vec![lo];
    }
    let step = tick_step(lo, hi, target);
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last.min(first + 100))
        .map(|i| i as f64 * step)
        .collect()
}

fn tick_step(lo: f64, hi: f64, target: usize) -> f64 {
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let norm = raw / mag;
    mag * if norm < 1.5 {
        1.0
    } else if norm < 3.0 {
        2.0
    } else if norm < 7.0 {
        5.0
    } else {
        10.0
    }
}

/// Tick labels written alike: as many decimals as the step needs, or
/// scientific notation for very large or small numbers.
pub fn labels(ticks: &[f64]) -> Vec<String> {
    let step = match ticks {
        [a, b, ..] => (b - a).abs(),
        _ => 1.0,
    };
    let big = ticks.iter().fold(0f64, |m, t| m.max(t.abs()));
    if big >= 1e6 || (step < 1e-4 && step > 0.0) {
        return ticks.iter().map(|t| format!("{t:.1e}")).collect();
    }
    // The fewest decimals that write every tick exactly (0.25 needs two).
    let exact = |d: usize| {
        ticks.iter().all(|t| {
            format!("{t:.d$}")
                .parse::<f64>()
                .is_ok_and(|back| (back - t).abs() <= step * 1e-6)
        })
    };
    let decimals = (0..=6).find(|&d| exact(d)).unwrap_or(6);
    tsh::teach::picture::fixed_decimals(ticks, decimals)
}

/// A plot area in pixels and the data ranges it shows.
pub struct Axes {
    pub left: i64,
    pub top: i64,
    pub right: i64,
    pub bottom: i64,
    pub x: (f64, f64),
    pub y: (f64, f64),
}

impl Axes {
    pub fn px(&self, x: f64) -> f64 {
        self.left as f64 + (x - self.x.0) / (self.x.1 - self.x.0) * (self.right - self.left) as f64
    }

    pub fn py(&self, y: f64) -> f64 {
        self.bottom as f64
            - (y - self.y.0) / (self.y.1 - self.y.0) * (self.bottom - self.top) as f64
    }

    /// A white canvas of the chart's size with these axes' grid and ticks drawn.
    fn framed(
        (left, top, right, bottom): (i64, i64, i64, i64),
        x: (f64, f64),
        y: (f64, f64),
        xticks: &[f64],
        yticks: &[f64],
    ) -> (Axes, Canvas) {
        let axes = Axes {
            left,
            top,
            right,
            bottom,
            x,
            y,
        };
        let mut c = Canvas::new(W as usize, H as usize, WHITE);
        axes.draw(&mut c, xticks, yticks);
        (axes, c)
    }

    /// Grid lines and labelled ticks inside a frame.
    pub fn draw(&self, c: &mut Canvas, xticks: &[f64], yticks: &[f64]) {
        for (t, label) in xticks.iter().zip(labels(xticks)) {
            let x = self.px(*t).round() as i64;
            if x < self.left || x > self.right {
                continue;
            }
            c.fill(x, self.top + 1, x + 1, self.bottom, GRID);
            c.fill(x, self.bottom, x + 1, self.bottom + TICK, INK);
            let w = text_width(&label, LABEL) as i64;
            c.text(x - w / 2, self.bottom + TICK + 4, &label, LABEL, INK);
        }
        for (t, label) in yticks.iter().zip(labels(yticks)) {
            let y = self.py(*t).round() as i64;
            if y < self.top || y > self.bottom {
                continue;
            }
            c.fill(self.left + 1, y, self.right, y + 1, GRID);
            c.fill(self.left - TICK, y, self.left, y + 1, INK);
            let w = text_width(&label, LABEL) as i64;
            let h = (super::font::HEIGHT * LABEL) as i64;
            c.text(self.left - TICK - 4 - w, y - h / 2, &label, LABEL, INK);
        }
        c.frame(self.left, self.top, self.right, self.bottom, INK);
    }
}

/// The pixel box of a chart `w × h` with room for these y labels and a title.
fn layout(w: i64, h: i64, ylabels: &[String], title: Option<&str>) -> (i64, i64, i64, i64) {
    let label_w = ylabels
        .iter()
        .map(|l| text_width(l, LABEL) as i64)
        .max()
        .unwrap_or(0);
    let line = (super::font::HEIGHT * LABEL) as i64;
    let top = if title.is_some() {
        PAD + line + PAD
    } else {
        PAD + line / 2
    };
    (
        PAD + label_w + 4 + TICK,
        top,
        w - PAD - 2 * LABEL as i64 * 6,
        h - PAD - line - 4 - TICK,
    )
}

fn title_text(c: &mut Canvas, title: Option<&str>) {
    if let Some(t) = title {
        let w = text_width(t, LABEL) as i64;
        c.text((c.w as i64 - w) / 2, PAD, t, LABEL, INK);
    }
}

/// A range with a 5% margin each side (a single value gets ±0.5, or ±5%).
fn padded(lo: f64, hi: f64) -> (f64, f64) {
    if hi > lo {
        let m = (hi - lo) * 0.05;
        (lo - m, hi + m)
    } else {
        let m = if lo == 0.0 { 0.5 } else { lo.abs() * 0.05 };
        (lo - m, hi + m)
    }
}

const W: i64 = 640;
const H: i64 = 420;

/// `plot(y)` / `plot(x, y)`: the finite points joined by a line. None when
/// there is nothing to draw.
pub fn line(xs: &[f64], ys: &[f64], title: Option<&str>) -> Option<Png> {
    let pts: Vec<(f64, f64)> = xs
        .iter()
        .zip(ys)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect();
    if pts.is_empty() {
        return None;
    }
    let (x0, x1) = bounds(pts.iter().map(|p| p.0));
    let (y0, y1) = bounds(pts.iter().map(|p| p.1));
    let (xr, yr) = (padded(x0, x1), padded(y0, y1));
    let xt = ticks(xr.0, xr.1, 7);
    let yt = ticks(yr.0, yr.1, 6);
    let (left, top, right, bottom) = layout(W, H, &labels(&yt), title);
    let (axes, mut c) = Axes::framed((left, top, right, bottom), xr, yr, &xt, &yt);
    let path: Vec<(f64, f64)> = pts.iter().map(|&(x, y)| (axes.px(x), axes.py(y))).collect();
    c.polyline(&path, 2.0, BLUE);
    title_text(&mut c, title);
    Some(c.into_png())
}

/// `hist(t, bins)`: the counts of the finite values as bars, binned as the
/// terminal histogram bins them (the last bin closed on the right).
pub fn histogram(values: &[f64], bins: usize) -> Option<Png> {
    let (lo, step, counts) = tsh::teach::picture::bin_counts(values, bins)?;
    let bins = counts.len();
    let most = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let edge_hi = lo + step * bins as f64;
    let xr = padded(lo, edge_hi);
    let yr = (0.0, most * 1.05);
    let xt = ticks(xr.0, xr.1, 7);
    let yt: Vec<f64> = ticks(0.0, yr.1, 6)
        .into_iter()
        .filter(|t| t.fract() == 0.0)
        .collect();
    let (left, top, right, bottom) = layout(W, H, &labels(&yt), None);
    let (axes, mut c) = Axes::framed((left, top, right, bottom), xr, yr, &xt, &yt);
    for (i, &n) in counts.iter().enumerate() {
        let a = axes.px(lo + step * i as f64).round() as i64;
        let b = axes.px(lo + step * (i + 1) as f64).round() as i64;
        let y = axes.py(n as f64).round() as i64;
        // A white line between bars, as matplotlib's edges read.
        c.fill(a + 1, y, b, bottom, BLUE);
    }
    c.frame(left, top, right, bottom, INK);
    Some(c.into_png())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(ticks(0.0, 10.0, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            labels(&ticks(-1.05, 1.05, 6)),
            ["-1.0", "-0.5", "0.0", "0.5", "1.0"]
        );
        assert_eq!(labels(&[0.0, 0.25, 0.5]), ["0.00", "0.25", "0.50"]);
        assert_eq!(labels(&[0.0, 2e6]), ["0.0e0", "2.0e6"]);
        assert_eq!(ticks(3.0, 3.0, 5), [3.0]);
    }

    #[test]
    fn charts_are_pngs_and_empty_data_draws_nothing() {
        let xs: Vec<f64> = (0..50).map(f64::from).collect();
        let ys: Vec<f64> = xs.iter().map(|x| (x / 5.0).sin()).collect();
        let p = line(&xs, &ys, Some("sin")).unwrap();
        assert_eq!((p.width, p.height), (640, 420));
        assert!(line(&[f64::NAN], &[1.0], None).is_none());
        assert!(histogram(&[1.0, 2.0, 2.5, 9.0], 4).is_some());
        assert!(histogram(&[f64::NAN], 4).is_none());
        assert!(histogram(&[3.0, 3.0], 2).is_some());
    }
}
