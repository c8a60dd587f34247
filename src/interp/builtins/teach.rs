//! Teaching builtins: pictures in the terminal and progress bars.

use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, value_err};
use crate::interp::Interp;
use crate::interp::args::{Args, check_positive};
use crate::interp::value::Value;
use crate::row;
use crate::teach::picture;

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "imshow",
        "imshow(t, width=None)",
        "Draw a 2-d tensor as a heatmap, or an image [C, H, W] / [H, W, C] (values in [0, 1], or 0-255 for integers), in half blocks (24-bit colour; an ASCII ramp without colour).",
        "imshow(arange(64.).reshape(8, 8))",
        imshow
    ),
    row!(
        Function,
        "plot",
        "plot(x, y=None, width=60, height=15, title=None)",
        "A line chart in braille: plot(y) against 0..n-1, or plot(x, y).",
        "plot(sin(linspace(0, 6.28, 100)), title='sin')",
        plot
    ),
    row!(
        Function,
        "hist",
        "hist(t, bins=10, width=40)",
        "A histogram of a tensor's values (or a list of numbers), one bar per bin with its count.",
        "hist(randn(1000), bins=8)",
        hist
    ),
    row!(
        Python,
        "progress",
        "progress(iterable)",
        "Iterate as the iterable does and, on a terminal, draw a progress bar with rate and ETA: for i in progress(range(n)) { … }.",
        "for i in progress(range(3)) { x = i }",
        progress
    ),
];

/// Columns of the terminal on stdout, or 80.
/// A picture's width off a terminal (pipes, files, transcripts).
const PLAIN_WIDTH: usize = 79;

fn terminal_width() -> usize {
    // SAFETY: TIOCGWINSZ fills a winsize struct we own; failure leaves zeros.
    let cols = unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(1, libc::TIOCGWINSZ, &mut ws) == 0 {
            ws.ws_col as usize
        } else {
            0
        }
    };
    if cols >= 20 { cols } else { 80 }
}

/// Every element, read to the host to be drawn.
fn values(t: &crate::tensor::Tensor) -> Result<Vec<f64>> {
    t.to_host_f64()
}

fn imshow(it: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("t")?;
    let width = a.opt_int("width")?;
    a.finish()?;
    let img = picture::image_from(t.shape(), &values(&t)?).map_err(value_err)?;
    let width = width.map(|w| check_positive(w, "width")).transpose()?;
    // Transcripts keep the plain picture at 79 columns, as --verify draws it.
    let plain_w = width.unwrap_or(PLAIN_WIDTH);
    let shown_w = match width {
        Some(w) => w,
        None if it.terminal => terminal_width().min(120) - 1,
        None => PLAIN_WIDTH,
    };
    let bytes = !t.dtype().is_float() && img.channels == 3;
    let shown = picture::imshow(&img, shown_w, it.color, bytes);
    let plain = if it.color || shown_w != plain_w {
        picture::imshow(&img, plain_w, false, bytes)
    } else {
        shown.clone()
    };
    it.out.write_figure(
        &shown,
        &plain,
        &picture::Figure::Image { image: &img, bytes },
    );
    Ok(Value::None)
}

fn plot(it: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.tensor("x")?;
    let second = a.opt_tensor("y")?;
    let width = check_positive(a.int_or("width", 60)?, "width")?;
    let height = check_positive(a.int_or("height", 15)?, "height")?;
    let title = match a.take("title") {
        Some((Value::None, _)) | None => None,
        Some((v, _)) => Some(crate::print::value::plain(&v)),
    };
    a.finish()?;
    let (xs, ys) = match second {
        Some(y) => (values(&first)?, values(&y)?),
        None => {
            let ys = values(&first)?;
            ((0..ys.len()).map(|i| i as f64).collect(), ys)
        }
    };
    if xs.len() != ys.len() {
        return Err(value_err(format!(
            "plot(x, y) needs as many x values as y values, not {} and {}",
            xs.len(),
            ys.len()
        )));
    }
    let text = picture::plot(&xs, &ys, width.min(500), height.min(200), title.as_deref());
    let figure = picture::Figure::Plot {
        xs: &xs,
        ys: &ys,
        title: title.as_deref(),
    };
    it.out.write_figure(&text, &text, &figure);
    Ok(Value::None)
}

fn hist(it: &mut Interp, mut a: Args) -> Result<Value> {
    let t = a.tensor("t")?;
    let bins = check_positive(a.int_or("bins", 10)?, "bins")?;
    let width = check_positive(a.int_or("width", 40)?, "width")?;
    a.finish()?;
    let values = values(&t)?;
    let bins = bins.min(1000);
    let text = picture::hist(&values, bins, width.min(500));
    let figure = picture::Figure::Hist {
        values: &values,
        bins,
    };
    it.out.write_figure(&text, &text, &figure);
    Ok(Value::None)
}

fn progress(_: &mut Interp, mut a: Args) -> Result<Value> {
    let inner = a.value("iterable")?;
    a.finish()?;
    match &inner {
        Value::Range(..)
        | Value::List(_)
        | Value::Tuple(_)
        | Value::Tensor(_)
        | Value::Shape(_)
        | Value::Str(_) => Ok(Value::Progress(Rc::new(inner))),
        other => Err(crate::error::type_err(format!(
            "progress() wraps something to iterate (a range, list or tensor); this is of type {}",
            other.type_name()
        ))),
    }
}
