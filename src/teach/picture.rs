//! Pictures in the terminal: heatmaps and images in Unicode half blocks with
//! 24-bit colour (an ASCII ramp without colour), line charts in braille, and
//! histograms in eighth blocks.

use super::short_num;

/// What a picture builtin drew, as data, so that an output able to show real
/// images (the Jupyter kernel) can draw it again at full resolution.
pub enum Figure<'a> {
    /// `imshow`: grey values are scaled from min to max; RGB values are in
    /// [0, 1], or [0, 255] when `bytes`.
    Image {
        image: &'a Image,
        bytes: bool,
    },
    Plot {
        xs: &'a [f64],
        ys: &'a [f64],
        title: Option<&'a str>,
    },
    Hist {
        values: &'a [f64],
        bins: usize,
    },
    /// `:graph`: the drawn tree, lines of text.
    Text {
        text: &'a str,
    },
}

/// An image ready to draw: `h × w` pixels, each grey (one value) or RGB.
pub struct Image {
    pub h: usize,
    pub w: usize,
    pub channels: usize,
    /// Row-major, `channels` values per pixel.
    pub data: Vec<f64>,
}

/// How a tensor of this shape is drawn: `[H, W]`, `[C, H, W]` or `[H, W, C]`
/// with C in {1, 3, 4} (alpha is ignored). Err says why not.
pub fn image_from(shape: &[usize], data: &[f64]) -> Result<Image, String> {
    // [C, H, W] (PyTorch's order) unless only the last dim looks like channels,
    // or the first is 4 (more often a height than RGBA) and the last is 3 or 4.
    let chw_first =
        |c: usize, last: usize| matches!(c, 1 | 3) || (c == 4 && !matches!(last, 3 | 4));
    let (h, w, c, chw) = match shape {
        [h, w] => (*h, *w, 1, false),
        [c, h, w] if chw_first(*c, *w) => (*h, *w, *c, true),
        [h, w, c] if matches!(c, 1 | 3 | 4) => (*h, *w, *c, false),
        _ => {
            return Err(format!(
                "imshow draws a 2-d tensor [H, W] or an image [C, H, W] / [H, W, C] with 1, 3 or 4 channels, not {}",
                crate::tensor::shape::fmt_shape(shape)
            ));
        }
    };
    if h == 0 || w == 0 {
        return Err("imshow: the image has no pixels".into());
    }
    let keep = c.min(3);
    let mut out = Vec::with_capacity(h * w * keep);
    for y in 0..h {
        for x in 0..w {
            for ch in 0..keep {
                let i = if chw {
                    (ch * h + y) * w + x
                } else {
                    (y * w + x) * c + ch
                };
                out.push(data[i]);
            }
        }
    }
    Ok(Image {
        h,
        w,
        channels: if keep == 1 { 1 } else { 3 },
        data: out,
    })
}

/// Average `img` down so it is at most `max_w` pixels wide (aspect kept).
fn fit(img: &Image, max_w: usize) -> Image {
    if img.w <= max_w {
        return Image {
            h: img.h,
            w: img.w,
            channels: img.channels,
            data: img.data.clone(),
        };
    }
    let scale = img.w as f64 / max_w as f64;
    let (w, h) = (max_w, ((img.h as f64 / scale).round() as usize).max(1));
    let c = img.channels;
    let mut data = vec![0.0; h * w * c];
    for y in 0..h {
        let (y0, y1) = span(y, h, img.h);
        for x in 0..w {
            let (x0, x1) = span(x, w, img.w);
            for ch in 0..c {
                let mut sum = 0.0;
                for yy in y0..y1 {
                    for xx in x0..x1 {
                        sum += img.data[(yy * img.w + xx) * c + ch];
                    }
                }
                data[(y * w + x) * c + ch] = sum / ((y1 - y0) * (x1 - x0)) as f64;
            }
        }
    }
    Image {
        h,
        w,
        channels: c,
        data,
    }
}

fn span(i: usize, n: usize, full: usize) -> (usize, usize) {
    let a = i * full / n;
    let b = ((i + 1) * full / n).max(a + 1);
    (a, b.min(full))
}

/// Viridis at five stops, interpolated: dark purple (low) to yellow (high).
pub fn colormap(t: f64) -> [u8; 3] {
    const STOPS: [[f64; 3]; 5] = [
        [68.0, 1.0, 84.0],
        [59.0, 82.0, 139.0],
        [33.0, 145.0, 140.0],
        [94.0, 201.0, 98.0],
        [253.0, 231.0, 37.0],
    ];
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * 4.0;
    let i = (x.floor() as usize).min(3);
    let f = x - i as f64;
    let mut out = [0u8; 3];
    for (k, o) in out.iter_mut().enumerate() {
        *o = (STOPS[i][k] + (STOPS[i + 1][k] - STOPS[i][k]) * f).round() as u8;
    }
    out
}

const RAMP: &[u8] = b" .:-=+*#%@";

/// Draw an image. Grey images are scaled from their min (dark) to max (bright);
/// RGB values are taken in [0, 1] (or [0, 255] when `bytes`).
pub fn imshow(img: &Image, max_w: usize, color: bool, bytes: bool) -> String {
    let img = fit(img, max_w.max(1));
    let finite = img.data.iter().copied().filter(|v| v.is_finite());
    let lo = finite.clone().fold(f64::INFINITY, f64::min);
    let hi = finite.fold(f64::NEG_INFINITY, f64::max);
    let range = if hi > lo { hi - lo } else { 1.0 };
    let px = |y: usize, x: usize| -> [u8; 3] {
        let i = (y * img.w + x) * img.channels;
        if img.channels == 1 {
            colormap((img.data[i] - lo) / range)
        } else {
            let unit = if bytes { 255.0 } else { 1.0 };
            let c = |v: f64| ((v / unit).clamp(0.0, 1.0) * 255.0).round() as u8;
            [c(img.data[i]), c(img.data[i + 1]), c(img.data[i + 2])]
        }
    };
    let level = |y: usize, x: usize| -> f64 {
        let i = (y * img.w + x) * img.channels;
        if img.channels == 1 {
            (img.data[i] - lo) / range
        } else {
            let unit = if bytes { 255.0 } else { 1.0 };
            (0.299 * img.data[i] + 0.587 * img.data[i + 1] + 0.114 * img.data[i + 2]) / unit
        }
    };
    let mut out = String::new();
    // Each character cell shows two pixel rows: top as foreground of ▀, bottom as background.
    for y in (0..img.h).step_by(2) {
        for x in 0..img.w {
            if color {
                let t = px(y, x);
                if y + 1 < img.h {
                    let b = px(y + 1, x);
                    out.push_str(&format!(
                        "\x1b[38;2;{};{};{}m\x1b[48;2;{};{};{}m▀",
                        t[0], t[1], t[2], b[0], b[1], b[2]
                    ));
                } else {
                    out.push_str(&format!("\x1b[38;2;{};{};{}m\x1b[49m▀", t[0], t[1], t[2]));
                }
            } else {
                let v = if y + 1 < img.h {
                    (level(y, x) + level(y + 1, x)) / 2.0
                } else {
                    level(y, x)
                };
                let v = if v.is_finite() {
                    v.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                out.push(RAMP[((v * (RAMP.len() - 1) as f64).round()) as usize] as char);
            }
        }
        if color {
            out.push_str("\x1b[0m");
        }
        out.push('\n');
    }
    if img.channels == 1 {
        let legend = if color {
            let bar: String = (0..16)
                .map(|i| {
                    let c = colormap(i as f64 / 15.0);
                    format!("\x1b[38;2;{};{};{}m█", c[0], c[1], c[2])
                })
                .collect();
            format!("{} {bar}\x1b[0m {}", short_num(lo), short_num(hi))
        } else {
            format!(
                "{} \"{}\" {}",
                short_num(lo),
                String::from_utf8_lossy(RAMP),
                short_num(hi)
            )
        };
        out.push_str(&legend);
        out.push('\n');
    }
    out
}

/// A braille line chart of `ys` against `xs`, `width × height` characters.
pub fn plot(xs: &[f64], ys: &[f64], width: usize, height: usize, title: Option<&str>) -> String {
    let (w, h) = (width.max(8), height.max(3));
    let (dw, dh) = (w * 2, h * 4);
    let pts: Vec<(f64, f64)> = xs
        .iter()
        .zip(ys)
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .map(|(x, y)| (*x, *y))
        .collect();
    let mut out = String::new();
    if let Some(t) = title {
        out.push_str(&format!("{t}\n"));
    }
    if pts.is_empty() {
        out.push_str("(nothing to plot: no finite points)\n");
        return out;
    }
    let (xmin, xmax) = bounds(pts.iter().map(|p| p.0));
    let (ymin, ymax) = bounds(pts.iter().map(|p| p.1));
    let to_dot = |(x, y): (f64, f64)| -> (i64, i64) {
        let fx = if xmax > xmin {
            (x - xmin) / (xmax - xmin)
        } else {
            0.5
        };
        let fy = if ymax > ymin {
            (y - ymin) / (ymax - ymin)
        } else {
            0.5
        };
        (
            (fx * (dw - 1) as f64).round() as i64,
            ((1.0 - fy) * (dh - 1) as f64).round() as i64,
        )
    };
    let mut grid = vec![vec![false; dw]; dh];
    let mut set = |x: i64, y: i64| {
        if (0..dw as i64).contains(&x) && (0..dh as i64).contains(&y) {
            grid[y as usize][x as usize] = true;
        }
    };
    let dots: Vec<(i64, i64)> = pts.iter().map(|&p| to_dot(p)).collect();
    if dots.len() == 1 {
        set(dots[0].0, dots[0].1);
    }
    for seg in dots.windows(2) {
        line(seg[0], seg[1], &mut set);
    }
    let top = short_num(ymax);
    let bottom = short_num(ymin);
    let lw = top.chars().count().max(bottom.chars().count());
    for row in 0..h {
        let label = match row {
            0 => top.clone(),
            r if r == h - 1 => bottom.clone(),
            _ => String::new(),
        };
        out.push_str(&format!("{label:>lw$} ┤"));
        for col in 0..w {
            out.push(braille(&grid, row * 4, col * 2));
        }
        out.push('\n');
    }
    let left = short_num(xmin);
    let right = short_num(xmax);
    out.push_str(&format!("{} └{}\n", " ".repeat(lw), "─".repeat(w)));
    let gap = (w + 1).saturating_sub(left.chars().count() + right.chars().count());
    out.push_str(&format!(
        "{}  {left}{}{right}\n",
        " ".repeat(lw),
        " ".repeat(gap)
    ));
    out
}

/// The least and greatest of the values.
pub fn bounds(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    })
}

/// Bresenham's line between two dots.
fn line((x0, y0): (i64, i64), (x1, y1): (i64, i64), set: &mut impl FnMut(i64, i64)) {
    let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
    let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
    let (mut x, mut y, mut err) = (x0, y0, dx + dy);
    loop {
        set(x, y);
        if x == x1 && y == y1 {
            break;
        }
        let e2 = 2 * err;
        if e2 >= dy {
            err += dy;
            x += sx;
        }
        if e2 <= dx {
            err += dx;
            y += sy;
        }
    }
}

/// The braille character for the 2×4 dots whose top-left is (y, x).
fn braille(grid: &[Vec<bool>], y: usize, x: usize) -> char {
    // Dot numbering of U+2800: columns (1,2,3,7) and (4,5,6,8).
    const BITS: [[u32; 2]; 4] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];
    let mut code = 0x2800;
    for (dy, row) in BITS.iter().enumerate() {
        for (dx, bit) in row.iter().enumerate() {
            if grid
                .get(y + dy)
                .and_then(|r| r.get(x + dx))
                .copied()
                .unwrap_or(false)
            {
                code |= bit;
            }
        }
    }
    char::from_u32(code).unwrap_or(' ')
}

/// A histogram: one bar per bin, drawn in eighth blocks, with its count.
/// Bin edges written alike: one number of decimals for all (the most any needs,
/// at most 4), or scientific notation for all when any needs it.
fn edge_labels(edges: &[f64]) -> Vec<String> {
    let short: Vec<String> = edges.iter().map(|&e| short_num(e)).collect();
    if short.iter().any(|s| s.contains('e')) {
        return edges.iter().map(|e| format!("{e:.3e}")).collect();
    }
    let decimals = short
        .iter()
        .map(|s| s.split_once('.').map_or(0, |(_, f)| f.len()))
        .max()
        .unwrap_or(0);
    fixed_decimals(edges, decimals)
}

/// Each value with `decimals` decimals, a negative zero (`-0.00`) written as 0.
pub fn fixed_decimals(values: &[f64], decimals: usize) -> Vec<String> {
    values
        .iter()
        .map(|v| {
            let s = format!("{v:.decimals$}");
            if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') {
                s[1..].to_string()
            } else {
                s
            }
        })
        .collect()
}

/// The finite values counted into `bins` equal bins from their least to
/// their greatest: (first edge, bin width, counts), None when none is finite.
/// The last bin is closed on the right, as torch.histc and numpy do.
pub fn bin_counts(values: &[f64], bins: usize) -> Option<(f64, f64, Vec<usize>)> {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    if finite.is_empty() {
        return None;
    }
    let bins = bins.max(1);
    let (lo, hi) = bounds(finite.iter().copied());
    let step = if hi > lo {
        (hi - lo) / bins as f64
    } else {
        1.0
    };
    let mut counts = vec![0usize; bins];
    for v in &finite {
        counts[(((v - lo) / step) as usize).min(bins - 1)] += 1;
    }
    Some((lo, step, counts))
}

pub fn hist(values: &[f64], bins: usize, width: usize) -> String {
    let Some((lo, step, counts)) = bin_counts(values, bins) else {
        return "(nothing to count: no finite values)\n".into();
    };
    let skipped = values.iter().filter(|v| !v.is_finite()).count();
    let bins = counts.len();
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    let edges = edge_labels(&(0..=bins).map(|i| lo + step * i as f64).collect::<Vec<_>>());
    let ew = edges.iter().map(|e| e.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for (i, &c) in counts.iter().enumerate() {
        let eighths = (c * width * 8).div_ceil(most);
        let bar = format!(
            "{}{}",
            "█".repeat(eighths / 8),
            ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
        );
        let close = if i == bins - 1 { ']' } else { ')' };
        out.push_str(&format!(
            "[{:>ew$}, {:>ew$}{close} {bar:<width$} {c}\n",
            edges[i],
            edges[i + 1]
        ));
    }
    if skipped > 0 {
        out.push_str(&format!("({skipped} NaN/Inf values not counted)\n"));
    }
    out
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn hist_edges_share_one_format() {
            let h = hist(&[0.0, 0.2, 0.55, 1.082, 1.3], 4, 8);
            let edges: Vec<&str> = h
                .lines()
                .flat_map(|l| l[1..l.find([')', ']']).unwrap()].split(", "))
                .map(str::trim)
                .collect();
            assert!(
                edges
                    .iter()
                    .all(|e| e.len() == edges[0].len() || e.starts_with('-')),
                "{h}"
            );
            assert!(edges.contains(&"1.300") && edges.contains(&"0.650"), "{h}");
            let wide = hist(&[0.0, 1e-5, 2e6], 2, 8);
            assert!(wide.lines().all(|l| l.matches('e').count() == 2), "{wide}");
        }

        fn grey_ramp_without_colour() {
            let img = image_from(&[2, 3], &[0.0, 0.5, 1.0, 0.0, 0.5, 1.0]).unwrap();
            let s = imshow(&img, 80, false, false);
            assert_eq!(s.lines().next(), Some(" +@"));
            assert!(s.contains("0 \" .:-=+*#%@\" 1"), "{s}");
        }

        fn colour_uses_half_blocks() {
            let img = image_from(&[3, 2, 2], &[1.0; 12]).unwrap();
            let s = imshow(&img, 80, true, false);
            assert!(
                s.contains("\x1b[38;2;255;255;255m\x1b[48;2;255;255;255m▀"),
                "{s:?}"
            );
            assert!(image_from(&[5, 2, 2], &[0.0; 20]).is_err());
        }

        fn plot_draws_a_rising_line() {
            let xs: Vec<f64> = (0..10).map(f64::from).collect();
            let s = plot(&xs, &xs, 10, 4, Some("y = x"));
            let lines: Vec<&str> = s.lines().collect();
            assert_eq!(lines[0], "y = x");
            assert!(
                lines[1].starts_with("9 ┤") && lines[4].starts_with("0 ┤"),
                "{s}"
            );
            // Top-right and bottom-left cells hold dots, the opposite corners none.
            assert_ne!(lines[1].chars().last(), Some('\u{2800}'));
            assert_eq!(lines[1].chars().nth(3), Some('\u{2800}'));
            assert_ne!(lines[4].chars().nth(3), Some('\u{2800}'));
        }

        fn hist_counts_every_value() {
            let v = [0.0, 0.1, 0.2, 0.9, 1.0, f64::NAN];
            let s = hist(&v, 2, 8);
            assert!(s.contains("[0.0, 0.5) ████████ 3"), "{s}");
            assert!(s.contains("[0.5, 1.0] █████▍   2"), "{s}");
            assert!(s.contains("1 NaN/Inf"), "{s}");
        }
    }
}
