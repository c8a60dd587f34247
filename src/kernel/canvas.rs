//! An RGB canvas for the kernel's pictures: rectangles, anti-aliased lines and
//! text in the 5×7 font, then a PNG.

use super::font;
use super::png::{Png, encode_rgb};

pub type Rgb = [u8; 3];

pub const WHITE: Rgb = [255, 255, 255];
pub const INK: Rgb = [38, 38, 38];
pub const GRID: Rgb = [232, 232, 232];
/// matplotlib's first colour (tab:blue), what a notebook user expects a line in.
pub const BLUE: Rgb = [31, 119, 180];

pub struct Canvas {
    pub w: usize,
    pub h: usize,
    px: Vec<u8>,
}

impl Canvas {
    pub fn new(w: usize, h: usize, background: Rgb) -> Canvas {
        Canvas {
            w,
            h,
            px: background.repeat(w * h),
        }
    }

    pub fn set(&mut self, x: i64, y: i64, c: Rgb) {
        self.blend(x, y, c, 1.0);
    }

    /// Mix `c` into pixel (x, y) with weight `alpha` in [0, 1].
    pub fn blend(&mut self, x: i64, y: i64, c: Rgb, alpha: f64) {
        if x < 0 || y < 0 || x as usize >= self.w || y as usize >= self.h {
            return;
        }
        let i = (y as usize * self.w + x as usize) * 3;
        for (k, &new) in c.iter().enumerate() {
            let old = f64::from(self.px[i + k]);
            self.px[i + k] = (old + (f64::from(new) - old) * alpha).round() as u8;
        }
    }

    /// Fill [x0, x1) × [y0, y1).
    pub fn fill(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: Rgb) {
        for y in y0.max(0)..y1.min(self.h as i64) {
            for x in x0.max(0)..x1.min(self.w as i64) {
                self.set(x, y, c);
            }
        }
    }

    /// A one-pixel outline of [x0, x1] × [y0, y1].
    pub fn frame(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: Rgb) {
        self.fill(x0, y0, x1 + 1, y0 + 1, c);
        self.fill(x0, y1, x1 + 1, y1 + 1, c);
        self.fill(x0, y0, x0 + 1, y1 + 1, c);
        self.fill(x1, y0, x1 + 1, y1 + 1, c);
    }

    /// A polyline `width` pixels wide, anti-aliased: each pixel takes the
    /// coverage of the nearest segment, so joints are not drawn twice.
    pub fn polyline(&mut self, pts: &[(f64, f64)], width: f64, c: Rgb) {
        let r = width / 2.0;
        let mut cover = vec![0f32; self.w * self.h];
        let single = pts.len() == 1;
        for seg in pts.windows(2).chain(single.then_some(pts)) {
            let (a, b) = (seg[0], seg[seg.len() - 1]);
            let x0 = (a.0.min(b.0) - r - 1.0).floor().max(0.0) as usize;
            let x1 = ((a.0.max(b.0) + r + 1.0).ceil().max(0.0) as usize).min(self.w);
            let y0 = (a.1.min(b.1) - r - 1.0).floor().max(0.0) as usize;
            let y1 = ((a.1.max(b.1) + r + 1.0).ceil().max(0.0) as usize).min(self.h);
            for y in y0..y1 {
                for x in x0..x1 {
                    let d = distance((x as f64 + 0.5, y as f64 + 0.5), a, b);
                    let k = (r + 0.5 - d).clamp(0.0, 1.0) as f32;
                    let e = &mut cover[y * self.w + x];
                    *e = e.max(k);
                }
            }
        }
        for (i, k) in cover.into_iter().enumerate() {
            if k > 0.0 {
                self.blend((i % self.w) as i64, (i / self.w) as i64, c, f64::from(k));
            }
        }
    }

    /// Text with its top-left corner at (x, y), each font pixel `scale` pixels.
    pub fn text(&mut self, x: i64, y: i64, s: &str, scale: usize, c: Rgb) {
        self.text_lines(x, y, s, scale, font::HEIGHT * scale, c);
    }

    /// Like `text`, for lines `line_h` apart: box-drawing characters span the
    /// whole line, so a drawn tree joins up.
    pub fn text_lines(&mut self, x: i64, y: i64, s: &str, scale: usize, line_h: usize, c: Rgb) {
        let adv = advance(scale) as i64;
        let sc = scale as i64;
        for (i, ch) in s.chars().enumerate() {
            let cx = x + i as i64 * adv;
            if let Some(arms) = box_arms(ch) {
                self.box_char(cx, y, adv, line_h as i64, sc, arms, c);
                continue;
            }
            for gx in 0..font::WIDTH {
                for gy in 0..font::ROWS {
                    if font::pixel(ch, gx, gy) {
                        let (px, py) = (cx + gx as i64 * sc, y + gy as i64 * sc);
                        self.fill(px, py, px + sc, py + sc, c);
                    }
                }
            }
        }
    }

    /// Lines from a cell's middle to the edges its character reaches
    /// (up, down, left, right).
    #[allow(clippy::too_many_arguments)]
    fn box_char(&mut self, x: i64, y: i64, w: i64, h: i64, t: i64, arms: [bool; 4], c: Rgb) {
        let (mx, my) = (x + w / 2 - t / 2, y + (font::HEIGHT as i64 * t) / 2 - t / 2);
        let top = y - (h - font::HEIGHT as i64 * t) / 2;
        let bottom = top + h;
        if arms[0] {
            self.fill(mx, top, mx + t, my + t, c);
        }
        if arms[1] {
            self.fill(mx, my, mx + t, bottom, c);
        }
        if arms[2] {
            self.fill(x, my, mx + t, my + t, c);
        }
        if arms[3] {
            self.fill(mx, my, x + w, my + t, c);
        }
    }

    pub fn into_png(self) -> Png {
        encode_rgb(self.w as u32, self.h as u32, &self.px)
    }
}

/// How far text of `chars` characters reaches.
pub fn text_width(s: &str, scale: usize) -> usize {
    (s.chars().count() * advance(scale)).saturating_sub(scale)
}

fn advance(scale: usize) -> usize {
    (font::WIDTH + 1) * scale
}

fn box_arms(c: char) -> Option<[bool; 4]> {
    Some(match c {
        '─' => [false, false, true, true],
        '│' => [true, true, false, false],
        '└' => [true, false, false, true],
        '┌' => [false, true, false, true],
        '├' => [true, true, false, true],
        '┐' => [false, true, true, false],
        '┘' => [true, false, true, false],
        '┤' => [true, true, true, false],
        '┬' => [false, true, true, true],
        '┴' => [true, false, true, true],
        '┼' => [true, true, true, true],
        _ => return None,
    })
}

/// Distance from p to the segment a–b.
fn distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    ((p.0 - a.0 - t * dx).powi(2) + (p.1 - a.1 - t * dy).powi(2)).sqrt()
}
