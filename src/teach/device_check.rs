//! `tsh --check-device cuda`: a user's first check of a new GPU or driver. The
//! same programs run with tensors made on the CPU and on the device, and what
//! they print must agree: every builtin's own example, then every element-wise
//! op row over every dtype on contiguous, transposed, sliced, broadcast and
//! empty inputs, every reduction, scan, softmax, matrix product, indexing and
//! convolution. Inputs come from the CPU's generator on both sides (the device
//! generator's numbers differ by design), so only the device's arithmetic is
//! compared. Needs nothing but the binary.

use crate::interp::{Buffer, Interp};
use crate::tensor::Device;
use crate::tensor::op::{BINARY_ROWS, UNARY_ROWS};

/// What the check found: programs run, and a report of every difference.
pub struct Report {
    pub checked: usize,
    pub failures: Vec<String>,
}

/// Run `src` in a fresh interpreter with tensors made on `device`; what it
/// printed as the CPU prints it (device suffixes removed), then any error.
fn run_on(device: Device, src: &str) -> String {
    crate::tensor::device::set_default_device(device);
    crate::backend::manual_seed(0);
    crate::interp::builtins::pyrandom::reseed(0);
    let buf = Buffer::default();
    let mut it = Interp::new(Box::new(buf.clone()));
    let result = crate::script::run_script(&mut it, src, true);
    let mut out = crate::teach::transcript::as_printed_on_cpu(&buf.take(), device);
    if let Err(e) = result {
        out.push_str(&format!("error[{}]: {}\n", e.kind.name(), e.message));
    }
    crate::tensor::device::set_default_device(Device::Cpu);
    out
}

const DTYPES: [&str; 10] = [
    "torch.float32",
    "torch.float64",
    "torch.float16",
    "torch.bfloat16",
    "torch.int64",
    "torch.int32",
    "torch.int16",
    "torch.int8",
    "torch.uint8",
    "torch.bool",
];

/// The inputs every element-wise program starts from: the same values in
/// several layouts (`x` contiguous, `xt` transposed, `xs` sliced, `xb`
/// broadcast, `xe` empty, `x0` 0-d) and a second operand `y` of each.
fn inputs(dtype: &str) -> String {
    format!(
        "a = (torch.randn(3, 5) * 3).to({dtype})\n\
         b = (torch.randn(5, 3) * 3).to({dtype})\n\
         c = (torch.randn(3, 10) * 3).to({dtype})\n\
         r = (torch.randn(1, 5) * 3).to({dtype})\n\
         x, xt, xs, xb, xe, x0 = a, b.T, c[:, ::2], r.expand(3, 5), a[:0], a[1, 2]\n\
         y = (torch.randn(3, 5) * 3 + 0.5).to({dtype})\n"
    )
}

/// Examples whose output names the device they ran on, as PyTorch's do
/// (`.numpy()` of a CUDA tensor is refused; the default device is printed).
const ABOUT_THE_DEVICE: &[&str] = &["numpy", "get_default_device", "get_device"];

/// The programs compared: every builtin's example, then generated ones.
fn programs() -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = crate::interp::builtins::all()
        .filter(|b| {
            !b.example.is_empty()
                && !b.name.starts_with("cuda.")
                && !b.example.contains("cuda")
                && !ABOUT_THE_DEVICE.contains(&b.name)
        })
        .map(|b| (format!("example of {}", b.name), b.example.to_string()))
        .collect();
    for dtype in DTYPES {
        let setup = inputs(dtype);
        let mut body = String::new();
        for row in UNARY_ROWS {
            for v in ["x", "xt", "xs", "xb", "xe", "x0"] {
                // silu and gelu live in nn.functional only.
                let module = if ["silu", "gelu"].contains(&row.name) {
                    "torch.nn.functional"
                } else {
                    "torch"
                };
                body.push_str(&format!(
                    "try:\n    print({module}.{}({v}))\nexcept Exception as e:\n    print(type(e))\n",
                    row.name
                ));
            }
        }
        out.push((format!("unary ops on {dtype}"), format!("{setup}{body}")));
        let mut body = String::new();
        for row in BINARY_ROWS {
            for (p, q) in [
                ("x", "y"),
                ("xt", "y"),
                ("xs", "xb"),
                ("xb", "y[0]"),
                ("xe", "xe"),
                ("x0", "y"),
                ("x", "2"),
            ] {
                body.push_str(&format!("try:\n    print(torch.{}({p}, {q}))\nexcept Exception as e:\n    print(type(e))\n", row.name));
            }
        }
        out.push((format!("binary ops on {dtype}"), format!("{setup}{body}")));
        let mut body = String::new();
        for f in [
            "sum",
            "prod",
            "mean",
            "amax",
            "amin",
            "argmax",
            "argmin",
            "var",
            "std",
            "all",
            "any",
            "logsumexp",
            "count_nonzero",
            "cumsum",
            "cumprod",
            "norm",
            "softmax",
            "log_softmax",
        ] {
            for v in ["x", "xt", "xs", "xb", "xe"] {
                for dim in ["", "0", "1", "-1"] {
                    let call = match (f, dim) {
                        ("softmax" | "log_softmax" | "cumsum" | "cumprod", "") => continue,
                        ("logsumexp", "") => continue,
                        (_, "") => format!("torch.{f}({v})"),
                        _ => format!("torch.{f}({v}, {dim})"),
                    };
                    body.push_str(&format!(
                        "try:\n    print({call})\nexcept Exception as e:\n    print(type(e))\n"
                    ));
                }
            }
        }
        for extra in [
            "torch.where(x > y, x, y)",
            "torch.clamp(x, 0, 1)",
            "xt.contiguous()",
            "x.float().lerp(y.float(), 0.3)",
            "x[torch.tensor([2, 0, 2])]",
            "xt[:, torch.tensor([[1], [0]])]",
            "x[x > 0]",
            "torch.nonzero(x)",
            "x.sort(dim=1)",
            "x.flip(0)",
            "torch.cat([x, xt])",
            "x.reshape(5, 3) @ xt.reshape(3, 5) if x.dtype != torch.bool else 0",
            "torch.matmul(x.reshape(1, 3, 5).expand(2, 3, 5), y.T)",
            "x.to(torch.float64)",
            "x.to(torch.int32)",
            "x.to(torch.bool)",
            "x.to(torch.float16)",
            "x.to(torch.bfloat16)",
            "x.to(torch.uint8)",
            "x.unique()",
        ] {
            body.push_str(&format!(
                "try:\n    print({extra})\nexcept Exception as e:\n    print(type(e))\n"
            ));
        }
        body.push_str("z = x.clone()\nz[torch.tensor([0, 0, 2])] = y[:3]\nprint(z)\n");
        body.push_str("w = torch.zeros(4, dtype=x.dtype)\nw.index_put_((torch.tensor([0, 1, 0, 3]),), x[0, :4], accumulate=True)\nprint(w)\n");
        out.push((
            format!("reductions, indexing and products on {dtype}"),
            format!("{setup}{body}"),
        ));
    }
    out.push((
        "convolution, pooling and their gradients".into(),
        "x = torch.randn(2, 3, 7, 6, requires_grad=True)\n\
         w = torch.randn(4, 3, 3, 3, requires_grad=True)\n\
         y = F.max_pool2d(F.relu(F.conv2d(x, w, padding=1, stride=(1, 2))), 2, ceil_mode=True)\n\
         y = y + F.avg_pool2d(F.conv2d(x, w, dilation=2), 1).sum()\n\
         y.sum().backward()\nprint(y, x.grad, w.grad)\n"
            .into(),
    ));
    out.push((
        "a training step".into(),
        "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))\n\
         opt = torch.optim.Adam(model.parameters(), lr=0.01)\n\
         x = torch.randn(16, 4); t = torch.randint(0, 3, (16,))\n\
         for _ in range(3):\n    loss = F.cross_entropy(model(x), t)\n    opt.zero_grad(); loss.backward(); opt.step()\n    print(loss)\n"
            .into(),
    ));
    out
}

/// Printed outputs agree when their text is the same and every printed number
/// is within one unit of its last printed digit: a device may round a
/// transcendental (or order a sum) differently from the CPU in the last bit,
/// as PyTorch's CUDA kernels do, and that can flip a printed digit.
pub fn agree(want: &str, got: &str) -> bool {
    let (a, b) = (tokens(want), tokens(got));
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| match (x, y) {
            (Token::Num(p, pu), Token::Num(q, qu)) => {
                (p.is_nan() && q.is_nan()) || p == q || (p - q).abs() <= 1.01 * pu.max(*qu)
            }
            _ => x == y,
        })
}

#[derive(Debug, PartialEq)]
enum Token {
    /// A number, and one unit of its last printed digit.
    Num(f64, f64),
    Text(String),
}

/// Numbers and the text between them (whitespace dropped: column widths
/// follow the widest number).
fn tokens(s: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let starts_number =
            b[i].is_ascii_digit() || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit));
        let in_word = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if starts_number && !in_word {
            let start = i;
            i += 1;
            while i < b.len()
                && (b[i].is_ascii_digit()
                    || b[i] == b'.'
                    || ((b[i] == b'e' || b[i] == b'E')
                        && b.get(i + 1)
                            .is_some_and(|c| c.is_ascii_digit() || *c == b'-' || *c == b'+'))
                    || ((b[i] == b'-' || b[i] == b'+') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let text = &s[start..i];
            match text.parse::<f64>() {
                Ok(v) => out.push(Token::Num(v, last_digit_unit(text))),
                Err(_) => out.push(Token::Text(text.to_string())),
            }
        } else {
            if !b[i].is_ascii_whitespace() {
                match out.last_mut() {
                    Some(Token::Text(t)) => t.push(b[i] as char),
                    _ => out.push(Token::Text((b[i] as char).to_string())),
                }
            } else {
                out.push(Token::Text(String::new()));
            }
            i += 1;
        }
    }
    out.retain(|t| !matches!(t, Token::Text(x) if x.is_empty()));
    out
}

/// One unit of the last digit of a printed number: 0.0001 for `2.0413`,
/// 1e-8 for `3.8563e-06`; 0 (exact) for whole numbers such as `15` or `15.`,
/// which PyTorch prints only when every element is whole.
fn last_digit_unit(text: &str) -> f64 {
    let (mantissa, exp) = match text.find(['e', 'E']) {
        Some(k) => (&text[..k], text[k + 1..].parse::<i32>().ok()),
        None => (text, None),
    };
    let decimals = mantissa.find('.').map_or(0, |d| mantissa.len() - d - 1) as i32;
    match exp {
        Some(e) => 10f64.powi(e - decimals),
        None if decimals == 0 => 0.0,
        None => 10f64.powi(-decimals),
    }
}

/// Compare `device` with the CPU on every program.
pub fn check(device: Device, mut progress: impl FnMut(&str, bool)) -> Report {
    crate::backend::cuda::random::draw_on_host(true);
    crate::print::tensor::print_as_on_cpu(true);
    let mut report = Report {
        checked: 0,
        failures: vec![],
    };
    for (what, src) in programs() {
        let want = run_on(Device::Cpu, &src);
        let got = run_on(device, &src);
        report.checked += 1;
        let same = agree(&want, &got);
        progress(&what, same);
        if !same {
            let first = want
                .lines()
                .zip(got.lines())
                .find(|(a, b)| !agree(a, b))
                .map(|(a, b)| format!("    cpu:  {a}\n    {device}: {b}"))
                .unwrap_or_else(|| "    (the outputs differ in length)".into());
            report.failures.push(format!("{what}\n{first}"));
        }
    }
    crate::backend::cuda::random::draw_on_host(false);
    crate::print::tensor::print_as_on_cpu(false);
    report
}

#[doc(hidden)]
pub mod tests {
    use super::agree;

    crate::unit_tests! {
        fn outputs_agree_up_to_the_last_printed_digit() {
            assert!(agree("tensor([2.0413, 1.5])", "tensor([2.0412, 1.5])"));
            assert!(agree("tensor([3.8563e-06])", "tensor([3.8564e-06])"));
            assert!(agree(
                "tensor([ 9.9999,  1.0000])",
                "tensor([9.9999, 1.0000])"
            ));
            assert!(agree("tensor([nan, inf])", "tensor([nan, inf])"));
            assert!(!agree("tensor([2.0413])", "tensor([2.0415])"));
            assert!(!agree("tensor([3.8563e-06])", "tensor([3.8563e-05])"));
            assert!(!agree("tensor([1, 2])", "tensor([1, 3])"));
            assert!(!agree("tensor([1., 2.])", "tensor([1., 3.])"));
            assert!(!agree("tensor([1.]) float32", "tensor([1.]) float64"));
            assert!(!agree("tensor([1., 2.])", "tensor([1.])"));
        }
    }
}
