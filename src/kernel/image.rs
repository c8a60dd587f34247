//! `imshow` as a PNG: the pixels scaled up crisply (or sampled down) to a
//! viewable size, in a frame with pixel-index ticks, and a colorbar for a
//! grey image, whose values map through the terminal's colormap.

use tsh::teach::picture::{Image, colormap};

use super::canvas::{Canvas, INK, WHITE, text_width};
use super::chart::{Axes, LABEL, labels, ticks};
use super::png::Png;

/// The longer side of the drawn image, in pixels (about).
const SIDE: f64 = 400.0;
const NAN_GREY: [u8; 3] = [200, 200, 200];

pub fn image(img: &Image, bytes: bool) -> Png {
    let big = img.w.max(img.h) as f64;
    // Small images grow by a whole factor so each pixel stays a clean square.
    let f = if big < SIDE {
        (SIDE / big).floor()
    } else {
        SIDE / big
    };
    let (ow, oh) = (
        ((img.w as f64 * f).round() as usize).max(1),
        ((img.h as f64 * f).round() as usize).max(1),
    );
    let finite = img.data.iter().copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    let range = if hi > lo { hi - lo } else { 1.0 };
    let unit = if bytes { 255.0 } else { 1.0 };
    let colour = |x: usize, y: usize| -> [u8; 3] {
        let i = (y * img.w + x) * img.channels;
        if img.channels == 1 {
            let v = img.data[i];
            if v.is_finite() {
                colormap((v - lo) / range)
            } else {
                NAN_GREY
            }
        } else {
            let c = |v: f64| {
                if v.is_finite() {
                    ((v / unit).clamp(0.0, 1.0) * 255.0).round() as u8
                } else {
                    0
                }
            };
            [c(img.data[i]), c(img.data[i + 1]), c(img.data[i + 2])]
        }
    };
    let xt = index_ticks(img.w);
    let yt = index_ticks(img.h);
    let ylabel_w = labels(&yt)
        .iter()
        .map(|l| text_width(l, LABEL))
        .max()
        .unwrap_or(0) as i64;
    let line = (super::font::HEIGHT * LABEL) as i64;
    let (left, top) = (10 + ylabel_w + 9, 10 + line / 2);
    let grey = img.channels == 1;
    let bar = if grey { colorbar_width(lo, hi) } else { 0 };
    let w = left + ow as i64 + 20 + bar;
    let h = top + oh as i64 + 10 + line + 9;
    let mut c = Canvas::new(w as usize, h as usize, WHITE);
    for oy in 0..oh {
        let sy = ((oy as f64 / f) as usize).min(img.h - 1);
        for ox in 0..ow {
            let sx = ((ox as f64 / f) as usize).min(img.w - 1);
            c.set(left + ox as i64, top + oy as i64, colour(sx, sy));
        }
    }
    // Ticks at pixel centres, rows counted down from the top as imshow does.
    let axes = Axes {
        left: left - 1,
        top: top - 1,
        right: left + ow as i64,
        bottom: top + oh as i64,
        x: (-0.5, img.w as f64 - 0.5),
        y: (img.h as f64 - 0.5, -0.5),
    };
    axes_without_grid(&mut c, &axes, &xt, &yt);
    if grey {
        colorbar(&mut c, axes.right + 20, top, oh as i64, lo, hi);
    }
    c.into_png()
}

fn index_ticks(n: usize) -> Vec<f64> {
    ticks(0.0, (n - 1) as f64, 6)
        .into_iter()
        .filter(|t| t.fract() == 0.0)
        .collect()
}

/// Ticks and frame, with no grid lines over the picture.
fn axes_without_grid(c: &mut Canvas, axes: &Axes, xt: &[f64], yt: &[f64]) {
    let line = (super::font::HEIGHT * LABEL) as i64;
    for (t, label) in xt.iter().zip(labels(xt)) {
        let x = axes.px(*t).round() as i64;
        c.fill(x, axes.bottom, x + 1, axes.bottom + 5, INK);
        let w = text_width(&label, LABEL) as i64;
        c.text(x - w / 2, axes.bottom + 9, &label, LABEL, INK);
    }
    for (t, label) in yt.iter().zip(labels(yt)) {
        let y = axes.py(*t).round() as i64;
        c.fill(axes.left - 5, y, axes.left, y + 1, INK);
        let w = text_width(&label, LABEL) as i64;
        c.text(axes.left - 9 - w, y - line / 2, &label, LABEL, INK);
    }
    c.frame(axes.left, axes.top, axes.right, axes.bottom, INK);
}

const BAR: i64 = 18;

fn colorbar_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if hi > lo { ticks(lo, hi, 5) } else { vec![lo] }
}

fn colorbar_width(lo: f64, hi: f64) -> i64 {
    let label_w = labels(&colorbar_ticks(lo, hi))
        .iter()
        .map(|l| text_width(l, LABEL))
        .max()
        .unwrap_or(0) as i64;
    BAR + 9 + label_w + 10
}

/// A vertical colour scale from `lo` (bottom) to `hi` (top), labelled.
fn colorbar(c: &mut Canvas, x: i64, top: i64, h: i64, lo: f64, hi: f64) {
    for y in 0..h {
        let t = 1.0 - y as f64 / (h - 1).max(1) as f64;
        c.fill(x, top + y, x + BAR, top + y + 1, colormap(t));
    }
    c.frame(x - 1, top - 1, x + BAR, top + h, INK);
    if !lo.is_finite() {
        return;
    }
    let line = (super::font::HEIGHT * LABEL) as i64;
    let ts = colorbar_ticks(lo, hi);
    for (t, label) in ts.iter().zip(labels(&ts)) {
        let frac = if hi > lo { (t - lo) / (hi - lo) } else { 0.5 };
        let y = top + ((1.0 - frac) * (h - 1) as f64).round() as i64;
        c.fill(x + BAR, y, x + BAR + 5, y + 1, INK);
        c.text(x + BAR + 9, y - line / 2, &label, LABEL, INK);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_images_grow_by_whole_factors() {
        let img =
            tsh::teach::picture::image_from(&[4, 8], &(0..32).map(f64::from).collect::<Vec<_>>())
                .unwrap();
        let p = image(&img, false);
        assert!(p.width > 400 && p.height > 200, "{}x{}", p.width, p.height);
        let rgb = tsh::teach::picture::image_from(&[3, 2, 2], &[0.5; 12]).unwrap();
        let p = image(&rgb, false);
        assert!(p.width < p.height + 100);
    }
}
