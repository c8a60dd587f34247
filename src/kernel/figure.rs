//! A picture builtin's figure as a PNG for display_data: charts and images
//! drawn properly, and `:graph`'s tree as text set in the pixel font.

use tsh::teach::picture::Figure;

use super::canvas::{Canvas, INK, WHITE};
use super::png::Png;

/// At most this many lines of a drawn tree go into its picture.
const MAX_LINES: usize = 400;

/// None when there is nothing to draw (no finite values): the text says why.
pub fn png(figure: &Figure) -> Option<Png> {
    match figure {
        Figure::Image { image, bytes } => Some(super::image::image(image, *bytes)),
        Figure::Plot { xs, ys, title } => super::chart::line(xs, ys, *title),
        Figure::Hist { values, bins } => super::chart::histogram(values, *bins),
        Figure::Text { text } => Some(text_picture(text)),
    }
}

fn text_picture(text: &str) -> Png {
    const SCALE: usize = 2;
    const LINE_H: usize = 20;
    const PAD: usize = 12;
    let lines: Vec<&str> = text.lines().take(MAX_LINES).collect();
    let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w = PAD * 2 + (cols * 6 * SCALE).max(1);
    let h = PAD * 2 + lines.len().max(1) * LINE_H;
    let mut c = Canvas::new(w, h, WHITE);
    let glyph_h = super::font::HEIGHT * SCALE;
    for (i, line) in lines.iter().enumerate() {
        let y = PAD + i * LINE_H + (LINE_H - glyph_h) / 2;
        c.text_lines(PAD as i64, y as i64, line, SCALE, LINE_H, INK);
    }
    c.into_png()
}
