//! Values and gradients of losses, convolution, pooling, activations and
//! reductions, and whole training loops with each optimizer, checked against the
//! numbers PyTorch printed for the same programs (tests/fixtures/*_parity.py, run
//! with torch 2.15 on CPU; tsh's random streams are PyTorch's, so both see the
//! same inputs). Floats must agree within 2e-4 relative.

use tsh::interp::Buffer;
use tsh::tensor::Device;

mod common;

fn numbers(line: &str) -> Vec<f64> {
    line.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == 'e'))
        .filter(|s| !s.is_empty() && s.chars().any(|c| c.is_ascii_digit()))
        .filter_map(|s| s.parse().ok())
        .collect()
}

/// Run tests/fixtures/NAME.tsh on every device and compare every number it
/// prints with NAME.torch.txt.
fn check(name: &str) {
    for device in common::devices(name) {
        check_on(name, device);
    }
}

fn check_on(name: &str, device: Device) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/");
    let src = std::fs::read_to_string(format!("{dir}{name}.tsh")).expect("script");
    let want = std::fs::read_to_string(format!("{dir}{name}.torch.txt")).expect("torch output");
    let buf = Buffer::default();
    let mut it = common::interp_on(device, &buf);
    if let Err(e) = it.run(&src, false) {
        panic!("{name}.tsh failed on {device}: {}", e.message);
    }
    let got = buf.take();
    let (got, want): (Vec<&str>, Vec<&str>) = (got.lines().collect(), want.lines().collect());
    assert_eq!(
        got.len(),
        want.len(),
        "line counts differ on {device}:\n{}",
        got.join("\n")
    );
    for (g, w) in got.iter().zip(&want) {
        let (gn, wn) = (numbers(g), numbers(w));
        assert_eq!(
            gn.len(),
            wn.len(),
            "on {device}\n  tsh:     {g}\n  pytorch: {w}"
        );
        for (a, b) in gn.iter().zip(&wn) {
            assert!(
                (a - b).abs() <= 2e-4 * b.abs().max(1.0),
                "{a} vs PyTorch's {b} on {device}\n  tsh:     {g}\n  pytorch: {w}"
            );
        }
    }
}

#[test]
fn losses_layers_and_their_gradients_match_pytorch() {
    check("autograd_parity");
}

#[test]
fn training_loops_match_pytorch() {
    check("training_parity");
}

/// `grad_fn` names: each line of the fixture is an expression on
/// `x = randn(3, 3, requires_grad=true)` and the name PyTorch gives its grad_fn.
#[test]
fn grad_fn_names_match_pytorch() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/grad_fn_names.txt"
    );
    let fixture = std::fs::read_to_string(path).expect("fixture");
    let mut wrong = vec![];
    for device in common::devices("grad_fn names") {
        grad_fn_names_on(device, &fixture, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn grad_fn_names_on(device: Device, fixture: &str, wrong: &mut Vec<String>) {
    let mut it = common::interp_on(device, &Buffer::default());
    it.run("x = randn(3, 3, requires_grad=true)", false)
        .expect("setup");
    for line in fixture.lines() {
        let (expr, want) = line.split_once('\t').expect("expr<TAB>name");
        let got = match it.eval_src(&format!("({expr}).grad_fn")) {
            Ok(tsh::interp::Value::GradFn(n)) => n.name().to_string(),
            Ok(_) => "None".to_string(),
            Err(e) => format!("error: {}", e.message),
        };
        if got != want {
            wrong.push(format!("{expr} on {device}: PyTorch {want}, tsh {got}"));
        }
    }
}

/// The whole autograd graph, not just its last node: each line of the fixture is
/// an expression and the structure of PyTorch's graph behind it (printed by
/// tests/fixtures/graph_structure.py). A function PyTorch differentiates as one
/// node must be one node here too.
#[test]
fn graph_structures_match_pytorch() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/graph_structure.torch.txt"
    );
    let fixture = std::fs::read_to_string(path).expect("fixture");
    let mut wrong = vec![];
    for device in common::devices("graph structures") {
        graph_structures_on(device, &fixture, &mut wrong);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

fn graph_structures_on(device: Device, fixture: &str, wrong: &mut Vec<String>) {
    let mut it = common::interp_on(device, &Buffer::default());
    it.run(
        "manual_seed(0)
        x = randn(3, 3, requires_grad=true)
        w = randn(4, 3, requires_grad=true)
        b = randn(4, requires_grad=true)
        y = randn(3, 4)
        img = randn(2, 3, 6, 6, requires_grad=true)
        k = randn(4, 3, 3, 3, requires_grad=true)
        kb = randn(4, requires_grad=true)
        cls = tensor([0, 1, 2])",
        false,
    )
    .expect("setup");
    for line in fixture.lines() {
        let (expr, want) = line.split_once('\t').expect("expr<TAB>structure");
        let got = match it.eval_src(expr) {
            Ok(tsh::interp::Value::Tensor(t)) => {
                tsh::autograd::graph::structure(&t).unwrap_or_else(|| "None".into())
            }
            Ok(other) => format!("not a tensor: {}", other.type_name()),
            Err(e) => format!("error: {}", e.message),
        };
        if got != want {
            wrong.push(format!(
                "{expr} on {device}\n  PyTorch {want}\n  tsh     {got}"
            ));
        }
    }
}
