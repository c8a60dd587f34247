//! Quantization beyond what tests/pytorch/quantization.py prints: fake
//! quantization's straight-through gradient checked by finite differences, and
//! quantized tensors met by ops that do not take them (clean errors, never a
//! panic).

mod common;

/// On a grid much finer than the finite-difference step, fake quantization is
/// the identity inside [quant_min, quant_max] * scale and constant outside, so
/// central differences measure the gradient backward() gives: one inside,
/// zero outside. Points stay a step away from the range's ends.
const GRADCHECK: &str = r#"
import torch
x = torch.tensor([-9.0, -4.5, -2.25, -0.6, 0.013, 0.9, 3.7, 4.6, 6.0, 12.0], dtype=torch.float64, requires_grad=True)
r = torch.tensor([0.3, -1.0, 0.7, 0.2, -0.4, 0.9, -0.8, 0.5, 1.0, -0.6], dtype=torch.float64)
eps = 0.01
def check(f):
    x.grad = None
    (f(x) * r).sum().backward()
    with torch.no_grad():
        fd = (f(x + eps) - f(x - eps)) / (2 * eps) * r
    inside = (x.abs() < 4.8).double()
    print(torch.allclose(x.grad, fd, atol=0.02), torch.equal(x.grad, r * inside))
check(lambda v: torch.fake_quantize_per_tensor_affine(v, 2 ** -12, 0, -20000, 20000))
check(lambda v: torch.fake_quantize_per_tensor_affine(v, torch.tensor(2 ** -12), torch.tensor(0), -20000, 20000))
scales = torch.tensor([2 ** -12, 2 ** -12])
zero_points = torch.tensor([0, 0], dtype=torch.int32)
check(lambda v: torch.fake_quantize_per_channel_affine(v.reshape(2, 5), scales, zero_points, 0, -20000, 20000).reshape(10))
"#;

#[test]
fn fake_quantize_gradients_match_finite_differences() {
    for device in common::devices("quantization gradcheck") {
        let out = common::run_on(device, GRADCHECK);
        assert_eq!(out, "True True\n".repeat(3), "on {device}");
    }
}

/// Each line uses a quantized tensor where tsh does not take one.
const MISUSES: &[(&str, &str)] = &[
    ("q + 1", "type"),
    ("-q", "type"),
    ("q == q", "type"),
    ("bool(q)", "type"),
    ("q.sum()", "name"),
    ("torch.sum(q)", "type"),
    ("torch.cat([q, q])", "type"),
    ("len(q)", "type"),
    ("[v for v in q]", "type"),
    ("q[0] = 3", "type"),
    ("p[0]", "value"),
    ("p.q_scale()", "value"),
    ("q.q_per_channel_axis()", "value"),
    ("torch.zeros(2, dtype=torch.quint8)", "dtype"),
    ("torch.ones(2).to(torch.qint8)", "dtype"),
    ("torch.tensor([1.]).int_repr()", "type"),
    ("torch.int_repr(torch.ones(2))", "type"),
    (
        "torch.quantized_max_pool2d(p.dequantize()[None], 1)",
        "type",
    ),
    ("torch.quantized_max_pool2d(p[None], 1)", "value"),
    ("torch.quantized_max_pool1d(q, [-1])", "value"),
    ("torch.quantize_per_tensor(q, 0.1, 0, torch.quint8)", "type"),
    (
        "torch.quantize_per_tensor(torch.ones(2), 0.1, 0, torch.uint8)",
        "value",
    ),
    (
        "torch.quantize_per_tensor_dynamic(torch.tensor([]), torch.quint8, False)",
        "value",
    ),
    (
        "torch.quantize_per_channel(torch.ones(2, 2), torch.tensor([0.1, 0.2]), torch.tensor([0., 1.]), 0, torch.quint8)",
        "value",
    ),
    (
        "torch.quantized_batch_norm(q, torch.ones(2), torch.zeros(2), torch.zeros(2), torch.ones(2), 1e-5, 0.1, 0)",
        "shape",
    ),
];

#[test]
fn quantized_tensors_where_they_do_not_fit_are_clean_errors() {
    let setup = "import torch\n\
        q = torch.quantize_per_tensor(torch.tensor([1.0, 2.0]), 0.1, 0, torch.quint8)\n\
        p = torch.quantize_per_channel(torch.tensor([[1.0], [2.0]]), torch.tensor([0.1, 0.2]), torch.tensor([0, 0]), 0, torch.quint8)\n";
    for (src, kind) in MISUSES {
        let got = common::error_kind(&format!("{setup}{src}"));
        assert_eq!(got, Some(*kind), "{src}");
    }
}

/// The deprecation warning comes once per session, as PyTorch's once per
/// process, and `warnings.filterwarnings("ignore")` hides it.
#[test]
fn the_deprecation_warning_shows_once_and_can_be_ignored() {
    let make = "q = torch.quantize_per_tensor(torch.ones(2), 0.1, 0, torch.quint8)\n";
    let shown = common::run(&format!("import torch\n{make}{make}"));
    assert_eq!(shown.matches("are deprecated").count(), 1, "{shown}");
    let hidden = common::run(&format!(
        "import warnings\nwarnings.filterwarnings(\"ignore\")\nimport torch\n{make}"
    ));
    assert!(!hidden.contains("deprecated"), "{hidden}");
}
