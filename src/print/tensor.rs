//! The tensor body exactly as PyTorch's `torch/_tensor_str.py` prints it: one
//! formatter per tensor choosing integer, fixed or scientific notation, padded to
//! a common width, with `...` summarisation and 80-column line wrapping.

use crate::tensor::Tensor;
use crate::tensor::dtype::DType;

#[derive(Clone, Copy, Debug)]
pub struct PrintOptions {
    pub precision: usize,
    pub threshold: usize,
    pub edgeitems: usize,
    pub linewidth: usize,
    /// Force scientific notation on or off; None lets the formatter decide.
    pub sci_mode: Option<bool>,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
            linewidth: 80,
            sci_mode: None,
        }
    }
}

/// Python's `'{:.{p}e}'.format(x)`: mantissa digits, then `e+05` style exponent.
pub fn format_sci(x: f64, precision: usize) -> String {
    if !x.is_finite() {
        return format_special(x);
    }
    let s = format!("{:.*e}", precision, x);
    match s.split_once('e') {
        Some((mant, exp)) => {
            let (sign, digits) = match exp.strip_prefix('-') {
                Some(d) => ('-', d),
                None => ('+', exp),
            };
            format!("{mant}e{sign}{digits:0>2}")
        }
        None => s,
    }
}

fn format_special(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

/// Python's `'{:.{p}f}'.format(x)`.
pub fn format_fixed(x: f64, precision: usize) -> String {
    if !x.is_finite() {
        return format_special(x);
    }
    format!("{:.*}", precision, x)
}

enum Values {
    Float(Vec<f64>),
    Int(Vec<i64>),
    Bool(Vec<bool>),
    /// Real and imaginary parts, each formatted on its own (as PyTorch does).
    Complex(Vec<f64>, Vec<f64>),
}

struct Formatter {
    int_mode: bool,
    sci_mode: bool,
    max_width: usize,
    precision: usize,
    /// For complex values: the imaginary parts' formatter (this one does the real parts).
    imag: Option<Box<Formatter>>,
}

impl Formatter {
    fn new(values: &Values, opts: &PrintOptions) -> Formatter {
        let mut f = Formatter {
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision: opts.precision,
            imag: None,
        };
        match values {
            Values::Complex(re, im) => {
                let mut f = Formatter::floats(re, opts);
                f.imag = Some(Box::new(Formatter::floats(im, opts)));
                return f;
            }
            Values::Int(v) => {
                f.max_width = v
                    .iter()
                    .map(|x| x.to_string().len())
                    .max()
                    .unwrap_or(1)
                    .max(1);
            }
            Values::Bool(v) => {
                f.max_width = v
                    .iter()
                    .map(|&b| if b { 4 } else { 5 })
                    .max()
                    .unwrap_or(1)
                    .max(1);
            }
            Values::Float(v) => return Formatter::floats(v, opts),
        }
        f
    }

    /// The formatter of float values (PyTorch's _Formatter over floats).
    fn floats(v: &[f64], opts: &PrintOptions) -> Formatter {
        let mut f = Formatter {
            int_mode: true,
            sci_mode: false,
            max_width: 1,
            precision: opts.precision,
            imag: None,
        };
        let nz: Vec<f64> = v
            .iter()
            .copied()
            .filter(|x| x.is_finite() && *x != 0.0)
            .collect();
        if !nz.is_empty() {
            let abs_min = nz.iter().fold(f64::INFINITY, |a, x| a.min(x.abs()));
            let abs_max = nz.iter().fold(0.0f64, |a, x| a.max(x.abs()));
            f.int_mode = nz.iter().all(|x| x.ceil() == *x);
            let p = opts.precision;
            let width = |g: &dyn Fn(f64) -> usize| nz.iter().map(|&x| g(x)).max().unwrap_or(1);
            if f.int_mode {
                if abs_max / abs_min > 1000.0 || abs_max > 1.0e8 {
                    f.sci_mode = true;
                    f.max_width = width(&|x| format_sci(x, p).len());
                } else {
                    f.max_width = width(&|x| format!("{x:.0}").len() + 1);
                }
            } else if abs_max / abs_min > 1000.0 || abs_max > 1.0e8 || abs_min < 1.0e-4 {
                f.sci_mode = true;
                f.max_width = width(&|x| format_sci(x, p).len());
            } else {
                f.max_width = width(&|x| format_fixed(x, p).len());
            }
            f.max_width = f.max_width.max(1);
        }
        if let Some(s) = opts.sci_mode {
            f.sci_mode = s;
        }
        f
    }

    fn format_float(&self, x: f64) -> String {
        let s = if self.sci_mode {
            format_sci(x, self.precision)
        } else if self.int_mode {
            if x.is_finite() {
                format!("{x:.0}.")
            } else {
                format_special(x)
            }
        } else {
            format_fixed(x, self.precision)
        };
        self.pad(s)
    }

    /// `re+imj` as PyTorch writes it: the imaginary part's padding dropped and
    /// its sign (or a `+`) joining the two.
    fn format_complex(&self, re: f64, im: f64, imag: &Formatter) -> String {
        let real = self.format_float(re);
        let imag = format!("{}j", imag.format_float(im));
        let imag = imag.trim_start();
        if imag.starts_with('+') || imag.starts_with('-') {
            format!("{real}{imag}")
        } else {
            format!("{real}+{imag}")
        }
    }

    /// An element's width plus the ", " between elements (PyTorch's element_length).
    fn element_length(&self) -> usize {
        self.max_width + 2 + self.imag.as_ref().map_or(0, |i| i.max_width + 1)
    }

    fn pad(&self, s: String) -> String {
        if s.len() >= self.max_width {
            s
        } else {
            format!("{}{}", " ".repeat(self.max_width - s.len()), s)
        }
    }
}

/// Element values of a tensor in row-major order, read to the host (only what is
/// shown: the caller has cut a large tensor to its edges first).
fn values_of(t: &Tensor) -> crate::error::Result<Values> {
    let h = t.to_host()?;
    Ok(match t.dtype() {
        d if d.is_complex() => {
            let pairs = h.to_f64_vec();
            let re = pairs.iter().step_by(2).copied().collect();
            let im = pairs.iter().skip(1).step_by(2).copied().collect();
            Values::Complex(re, im)
        }
        DType::Bool => Values::Bool(h.to_i64_vec().into_iter().map(|x| x != 0).collect()),
        d if d.is_float() => Values::Float(h.to_f64_vec()),
        _ => Values::Int(h.to_i64_vec()),
    })
}

/// A nested view of the values to print: either every element, or the
/// summarised edges of each dim (`None` marks the `...` between them).
struct Grid {
    /// The printed data's shape (each summarised dim cut to its 2·edgeitems edges).
    shape: Vec<usize>,
    /// The tensor's own shape, which decides where `...` goes.
    full_shape: Vec<usize>,
    values: Values,
}

/// Positions in the printed data along a dim whose full size is `n`: all of
/// them, or the first and last `e` with `None` marking the `...` between.
fn kept(n: usize, e: usize, summarize: bool) -> Vec<Option<usize>> {
    if summarize && n > 2 * e {
        let mut v: Vec<Option<usize>> = (0..e).map(Some).collect();
        v.push(None);
        v.extend((e..2 * e).map(Some));
        v
    } else {
        (0..n).map(Some).collect()
    }
}

/// The summarised data (what PyTorch's formatter is built from): each long dim
/// cut to its first and last `edgeitems`. The cuts always lie within the dim.
fn summarized(t: &Tensor, opts: &PrintOptions) -> crate::error::Result<Tensor> {
    let mut view = t.clone();
    for d in 0..t.ndim() {
        let n = view.shape()[d];
        if n > 2 * opts.edgeitems {
            let e = opts.edgeitems as i64;
            // The expects below cannot fail: n > 2 * edgeitems keeps both edges in range.
            let head = crate::tensor::ops::view::narrow(&view, d as i64, 0, e)
                .expect("edge items lie within the dim");
            let tail = crate::tensor::ops::view::narrow(&view, d as i64, n as i64 - e, e)
                .expect("edge items lie within the dim");
            // On a device the concatenation runs a kernel, which can fail.
            view = crate::autograd::no_grad(|| {
                crate::tensor::ops::join::cat(&[head, tail], d as i64)
            })?;
        }
    }
    Ok(view)
}

/// Print every tensor as if it were on the CPU (no device suffix, so no line
/// wrapped differently): how the device test suites and `--check-device`
/// compare a device's output with what PyTorch printed on the CPU.
static AS_ON_CPU: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn print_as_on_cpu(on: bool) {
    AS_ON_CPU.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// A tensor as PyTorch's repr prints it: the body, then the suffixes it adds
/// (`device=`, `size=` and `dtype=` where they are not the defaults, then
/// `grad_fn=<...>` or `requires_grad=True`), wrapped as `_add_suffixes` does.
pub fn format_tensor(t: &Tensor, opts: &PrintOptions) -> String {
    const PREFIX: &str = "tensor(";
    let mut suffixes: Vec<String> = device_suffix(t.device()).into_iter().collect();
    let body = if t.numel() == 0 {
        if t.ndim() != 1 {
            let dims: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
            let comma = if dims.len() == 1 { "," } else { "" };
            suffixes.push(format!("size=({}{comma})", dims.join(", ")));
        }
        // No elements to tell int64 from float32 by: the dtype always shows.
        if t.dtype() != crate::tensor::dtype::default_float() {
            suffixes.push(format!("dtype=torch.{}", t.dtype().name()));
        }
        "[]".to_string()
    } else {
        // The default complex dtype (complex64 beside float32) is not shown either.
        let default_complex = crate::tensor::dtype::default_float().to_complex();
        let shown = t.dtype() != crate::tensor::dtype::default_float()
            && t.dtype() != default_complex
            && !matches!(t.dtype(), DType::I64 | DType::Bool);
        if shown {
            suffixes.push(format!("dtype=torch.{}", t.dtype().name()));
        }
        format_body(t, opts, PREFIX.len())
    };
    if let Some(node) = t.grad_fn() {
        suffixes.push(format!("grad_fn=<{}>", node.name()));
    } else if t.requires_grad() {
        suffixes.push("requires_grad=True".to_string());
    }
    add_suffixes(
        format!("{PREFIX}{body}"),
        &suffixes,
        PREFIX.len(),
        opts.linewidth,
        false,
    )
}

/// PyTorch's `device='cuda:0'` suffix, for tensors off the CPU (unless
/// printing as on the CPU).
pub fn device_suffix(device: crate::tensor::Device) -> Option<String> {
    let as_on_cpu = AS_ON_CPU.load(std::sync::atomic::Ordering::Relaxed);
    (device != crate::tensor::Device::Cpu && !as_on_cpu).then(|| format!("device='{device}'"))
}

/// PyTorch's `_tensor_str`: the body alone (`[]` when empty), lines after the
/// first indented by `indent` (how a sparse tensor prints its parts).
pub fn tensor_str(t: &Tensor, opts: &PrintOptions, indent: usize) -> String {
    if t.numel() == 0 {
        "[]".into()
    } else {
        format_body(t, opts, indent)
    }
}

/// PyTorch's `_add_suffixes`: each suffix after ", " on the last line, or on a
/// line of its own (indented) when it would pass the line width; with
/// `force_newline` (sparse COO) the first always starts a line.
pub fn add_suffixes(
    mut text: String,
    suffixes: &[String],
    indent: usize,
    linewidth: usize,
    mut force_newline: bool,
) -> String {
    // As PyTorch's `len(s) - s.rfind("\n") + 1`: the line's length plus two.
    let mut last_line = text.len() - text.rfind('\n').map_or(0, |i| i + 1) + 2;
    for s in suffixes {
        if force_newline || last_line + s.len() + 2 > linewidth {
            force_newline = false;
            text.push_str(&format!(",\n{}{s}", " ".repeat(indent)));
            last_line = indent + s.len();
        } else {
            text.push_str(&format!(", {s}"));
            last_line += s.len() + 2;
        }
    }
    text.push(')');
    text
}

/// The data part of a non-empty tensor's text (`[1., 2.]`), lines after the
/// first indented by `indent`.
pub(crate) fn format_body(t: &Tensor, opts: &PrintOptions, indent: usize) -> String {
    let summarize = t.numel() > opts.threshold;
    let data = if summarize {
        summarized(t, opts)
    } else {
        Ok(t.clone())
    };
    let values = match data.as_ref().map_err(Clone::clone).and_then(values_of) {
        Ok(v) => v,
        Err(e) => return format!("<cannot be read: {}>", e.message),
    };
    let data = data.unwrap_or_else(|_| t.clone());
    let grid = Grid {
        shape: data.shape().to_vec(),
        full_shape: t.shape().to_vec(),
        values,
    };
    let formatter = Formatter::new(&grid.values, opts);
    let strides = crate::tensor::layout::contiguous_strides(&grid.shape);
    format_dim(&grid, &strides, 0, 0, indent, summarize, &formatter, opts)
}

fn element(grid: &Grid, index: usize, f: &Formatter) -> String {
    match &grid.values {
        Values::Float(v) => f.format_float(v[index]),
        Values::Complex(re, im) => match &f.imag {
            Some(imag) => f.format_complex(re[index], im[index], imag),
            None => f.format_float(re[index]),
        },
        Values::Int(v) => f.pad(v[index].to_string()),
        Values::Bool(v) => f.pad(if v[index] {
            "True".into()
        } else {
            "False".into()
        }),
    }
}

#[allow(clippy::too_many_arguments)]
fn format_dim(
    grid: &Grid,
    strides: &[usize],
    dim: usize,
    base: usize,
    indent: usize,
    summarize: bool,
    f: &Formatter,
    opts: &PrintOptions,
) -> String {
    let nd = grid.shape.len();
    if nd == 0 {
        return element(grid, 0, f);
    }
    let n = grid.full_shape[dim];
    let idx = kept(n, opts.edgeitems, summarize);
    if dim == nd - 1 {
        let items: Vec<String> = idx
            .iter()
            .map(|i| match i {
                Some(i) => element(grid, base + i * strides[dim], f),
                None => " ...".to_string(),
            })
            .collect();
        let per_line = ((opts.linewidth.saturating_sub(indent)) / f.element_length()).max(1);
        let lines: Vec<String> = items.chunks(per_line).map(|c| c.join(", ")).collect();
        return format!(
            "[{}]",
            lines.join(&format!(",\n{}", " ".repeat(indent + 1)))
        );
    }
    let parts: Vec<String> = idx
        .iter()
        .map(|i| match i {
            Some(i) => format_dim(
                grid,
                strides,
                dim + 1,
                base + i * strides[dim],
                indent + 1,
                summarize,
                f,
                opts,
            ),
            None => "...".to_string(),
        })
        .collect();
    let sep = format!(",{}{}", "\n".repeat(nd - dim - 1), " ".repeat(indent + 1));
    format!("[{}]", parts.join(&sep))
}
