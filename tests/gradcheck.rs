//! Finite-difference gradient checks: for every differentiable op, the gradient
//! backward() computes must match central differences of a float64 scalar
//! L = sum(f(inputs) * r) (r fixed random weights), on random shapes, with
//! contiguous, transposed, strided and broadcast inputs.

use tsh::autograd::NoGradGuard;
use tsh::interp::value::Value;
use tsh::interp::{Buffer, Interp};
use tsh::tensor::ops::index::write_all;
use tsh::tensor::{DType, Device, Tensor};

mod common;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> usize {
        (self.next() % n) as usize
    }
    /// Uniform in [lo, hi).
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() as f64 / (1u64 << 31) as f64)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Domain {
    /// (-2, 2), kept away from 0 so kinks (relu, abs, max ties) are not hit.
    Signed,
    /// (0.5, 2).
    Positive,
    /// (-0.8, 0.8), for asin/acos.
    Unit,
}

impl Domain {
    fn sample(self, rng: &mut Lcg) -> f64 {
        match self {
            Domain::Signed => {
                let m = rng.uniform(0.1, 2.0);
                if rng.below(2) == 0 { m } else { -m }
            }
            Domain::Positive => rng.uniform(0.5, 2.0),
            Domain::Unit => rng.uniform(-0.8, 0.8),
        }
    }
}

/// A shape template: letters are dims drawn at random per trial (shared between
/// inputs, so "a,b" and "b" broadcast), digits are fixed sizes.
fn shape_of(template: &str, dims: &[usize; 4]) -> Vec<usize> {
    if template.is_empty() {
        return vec![];
    }
    template
        .split(',')
        .map(|p| match p {
            "a" => dims[0],
            "b" => dims[1],
            "c" => dims[2],
            "d" => dims[3],
            n => n.parse().expect("a size"),
        })
        .collect()
}

/// Values as a tensor of `shape` on `device`.
fn on(device: Device, v: Vec<f64>, shape: &[usize]) -> Tensor {
    Tensor::from_vec(v, shape)
        .to_device(device)
        .expect("the device was available")
}

fn run(it: &mut Interp, src: &str) {
    if let Err(e) = it.run(src, false) {
        panic!("`{src}` failed: {}", e.message);
    }
}

fn tensor_var(it: &Interp, name: &str) -> Tensor {
    match it.globals.get(name) {
        Some(Value::Tensor(t)) => t.clone(),
        _ => panic!("{name} is not a tensor"),
    }
}

/// A leaf holding `vals` in `shape`, exposed to the expression as `name`
/// through one of three layouts; returns the leaf and the layout's name.
fn bind_input(
    device: Device,
    it: &mut Interp,
    rng: &mut Lcg,
    name: &str,
    shape: &[usize],
    dom: Domain,
) -> (Tensor, &'static str) {
    let n = shape.len();
    let layout = rng.below(3);
    let (leaf_shape, define, label): (Vec<usize>, String, &str) = match layout {
        1 if n >= 2 => {
            let mut s = shape.to_vec();
            s.swap(n - 2, n - 1);
            (
                s,
                format!("{name} = {name}_leaf.transpose(-2, -1)"),
                "transposed",
            )
        }
        2 if n >= 1 => {
            let mut s = shape.to_vec();
            s[0] *= 2;
            (s, format!("{name} = {name}_leaf[::2]"), "strided")
        }
        _ => (
            shape.to_vec(),
            format!("{name} = {name}_leaf"),
            "contiguous",
        ),
    };
    let count: usize = leaf_shape.iter().product();
    let vals: Vec<f64> = (0..count).map(|_| dom.sample(rng)).collect();
    let leaf = on(device, vals, &leaf_shape);
    leaf.set_requires_grad(true);
    it.globals
        .insert(format!("{name}_leaf").into(), Value::Tensor(leaf.clone()));
    run(it, &define);
    (leaf, label)
}

fn loss_value(it: &mut Interp, expr: &str, r: &[f64]) -> f64 {
    run(it, &format!("__out = ({expr})"));
    let out = tensor_var(it, "__out");
    out.to_host_f64()
        .unwrap()
        .iter()
        .zip(r)
        .map(|(a, b)| a * b)
        .sum()
}

/// Check `expr`'s gradients with respect to every input, over several trials,
/// on every device.
fn check(expr: &str, inputs: &[(&str, &str, Domain)], setup: &str) {
    for device in common::devices("gradcheck") {
        check_on(device, expr, inputs, setup);
    }
}

fn check_on(device: Device, expr: &str, inputs: &[(&str, &str, Domain)], setup: &str) {
    let mut rng = Lcg(0x5eed ^ (expr.len() as u64 * 7919));
    for trial in 0..4 {
        let dims = [
            1 + rng.below(4),
            1 + rng.below(4),
            1 + rng.below(3),
            1 + rng.below(3),
        ];
        let mut it = common::interp_on(device, &Buffer::default());
        run(&mut it, "manual_seed(0)");
        if !setup.is_empty() {
            run(&mut it, setup);
        }
        let mut leaves = vec![];
        for (name, template, dom) in inputs {
            let shape = shape_of(template, &dims);
            leaves.push((
                name,
                bind_input(device, &mut it, &mut rng, name, &shape, *dom),
            ));
        }
        run(&mut it, &format!("__out = ({expr})"));
        let out = tensor_var(&it, "__out");
        assert_eq!(
            out.dtype(),
            DType::F64,
            "{expr}: the result should stay float64"
        );
        let r: Vec<f64> = (0..out.numel()).map(|_| rng.uniform(-1.0, 1.0)).collect();
        let rt = on(device, r.clone(), out.shape());
        it.globals.insert("__r".into(), Value::Tensor(rt));
        run(&mut it, "(__out * __r).sum().backward()");
        for (name, (leaf, layout)) in &leaves {
            let analytic = leaf
                .grad()
                .map(|g| g.to_host_f64().unwrap())
                .unwrap_or_else(|| vec![0.0; leaf.numel()]);
            let base = leaf.to_host_f64().unwrap();
            let eps = 1e-6;
            for k in 0..base.len() {
                let mut at = |delta: f64| {
                    let mut v = base.clone();
                    v[k] += delta;
                    let _off = NoGradGuard::new();
                    write_all(leaf, &on(device, v, leaf.shape())).expect("write");
                    drop(_off);
                    loss_value(&mut it, expr, &r)
                };
                let numeric = (at(eps) - at(-eps)) / (2.0 * eps);
                let _off = NoGradGuard::new();
                write_all(leaf, &on(device, base.clone(), leaf.shape())).expect("restore");
                drop(_off);
                let a = analytic[k];
                let tol = 1e-5 + 1e-4 * numeric.abs().max(a.abs());
                assert!(
                    (a - numeric).abs() <= tol,
                    "{expr} on {device}: d/d{name}[{k}] analytic {a} vs numeric {numeric} (trial {trial}, {layout} input of shape {:?})",
                    leaf.shape()
                );
            }
        }
    }
}

use Domain::{Positive as P, Signed as S, Unit as U};

#[test]
fn arithmetic_with_broadcasting() {
    check("x + y", &[("x", "a,b", S), ("y", "b", S)], "");
    check("x - y", &[("x", "a,1", S), ("y", "1,b", S)], "");
    check("x * y", &[("x", "a,b", S), ("y", "a,1", S)], "");
    check("x / y", &[("x", "a,b", S), ("y", "b", P)], "");
    check("x ** y", &[("x", "a,b", P), ("y", "a,b", S)], "");
    check("x ** 3", &[("x", "a,b", S)], "");
    check("x ** 2.5", &[("x", "a", P)], "");
    check("2 ** x", &[("x", "a,b", S)], "");
    check("2 - x", &[("x", "a,b", S)], "");
    check("3 / x", &[("x", "a", P)], "");
    check("-x * 0.5 + 1", &[("x", "a,b", S)], "");
    check("maximum(x, y)", &[("x", "a,b", S), ("y", "b", S)], "");
    check("minimum(x, y)", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check("atan2(x, y)", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check("fmod(x, y)", &[("x", "a,b", S), ("y", "b", P)], "");
    check("x % y", &[("x", "a,b", S), ("y", "a,b", P)], "");
    check("hypot(x, y)", &[("x", "a,b", S), ("y", "a,1", S)], "");
    check("logaddexp(x, y)", &[("x", "a,b", S), ("y", "b", S)], "");
    check("copysign(x, y)", &[("x", "a,b", S), ("y", "a,b", P)], "");
    check("copysign(x, -1.0)", &[("x", "a,b", S)], "");
    check("xlogy(x, y)", &[("x", "a,b", S), ("y", "a,b", P)], "");
    check("x * x * x - x", &[("x", "a,b,c", S)], "");
}

#[test]
fn unary_math() {
    for f in [
        "exp", "sin", "cos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "abs", "neg",
        "square", "exp2", "expm1", "erf", "erfc", "asinh", "deg2rad", "rad2deg", "sinc",
    ] {
        check(&format!("{f}(x)"), &[("x", "a,b", S)], "");
    }
    for f in [
        "log",
        "sqrt",
        "rsqrt",
        "reciprocal",
        "log2",
        "log10",
        "log1p",
    ] {
        check(&format!("x.{f}()"), &[("x", "a,b", P)], "");
    }
    check("acosh(x + 1.5)", &[("x", "a,b", P)], "");
    check("logit(x * 0.5 + 0.5)", &[("x", "a,b", U)], "");
    for f in ["asin", "acos", "tan", "atanh"] {
        check(&format!("{f}(x)"), &[("x", "a,b", U)], "");
    }
}

#[test]
fn reductions() {
    check("x.sum()", &[("x", "a,b,c", S)], "");
    check("x.sum(1)", &[("x", "a,b,c", S)], "");
    check("x.sum((0, 2), keepdim=true)", &[("x", "a,b,c", S)], "");
    check("x.mean()", &[("x", "a,b", S)], "");
    check("x.mean(-1, keepdim=true)", &[("x", "a,b", S)], "");
    check("x.prod()", &[("x", "a,b", P)], "");
    check("x.prod(0)", &[("x", "a,b", S)], "");
    check("x.max()", &[("x", "a,b", S)], "");
    check("x.min()", &[("x", "a,b", S)], "");
    check("x.max(1).values", &[("x", "a,b", S)], "");
    check("x.min(0, keepdim=true)[0]", &[("x", "a,b", S)], "");
    check("x.amax(1)", &[("x", "a,b", S)], "");
    check("x.var()", &[("x", "3,b", S)], "");
    check("x.var(1, correction=0)", &[("x", "a,3", S)], "");
    check("x.std(0)", &[("x", "3,b", S)], "");
    check("x.norm()", &[("x", "a,b", S)], "");
    check("x.norm(p=1)", &[("x", "a,b", S)], "");
    check("x.norm(p=3, dim=1)", &[("x", "a,b", S)], "");
    check("x.logsumexp(1)", &[("x", "a,b", S)], "");
    check("x.softmax(1)", &[("x", "a,b", S)], "");
    check("x.log_softmax(0)", &[("x", "a,b", S)], "");
    check("x.cumsum(1)", &[("x", "a,b", S)], "");
    check("x.cumprod(0)", &[("x", "a,b", S)], "");
}

#[test]
fn prod_with_zeros() {
    check("x.prod(1)", &[("x", "a,3", S)], "");
    // One and two exact zeros in a row: the gradient is the product of the others.
    let out = tsh_run(
        "x = tensor([[2., 0., 3.], [0., 0., 5.]], dtype=float64, requires_grad=true)\nx.prod(1).sum().backward()\nprint(x.grad)",
    );
    assert!(
        out.contains("[0., 6., 0.]") && out.contains("[0., 0., 0.]"),
        "{out}"
    );
}

fn tsh_run(src: &str) -> String {
    let buf = Buffer::default();
    let mut it = Interp::new(Box::new(buf.clone()));
    it.run(src, false).expect("runs");
    buf.take()
}

#[test]
fn views_and_indexing() {
    check("x.reshape(-1) * 2", &[("x", "a,b", S)], "");
    check("x.reshape(-1, 1).view(-1)", &[("x", "a,b", S)], "");
    check(
        "x.transpose(0, 1) * y",
        &[("x", "a,b", S), ("y", "a", S)],
        "",
    );
    check("x.permute(2, 0, 1)", &[("x", "a,b,c", S)], "");
    check("x.t() @ x", &[("x", "a,b", S)], "");
    check("x.T * 1.5", &[("x", "a,b", S)], "");
    check(
        "x.unsqueeze(1) * y",
        &[("x", "a,b", S), ("y", "c,1", S)],
        "",
    );
    check("x.unsqueeze(0).squeeze()", &[("x", "a,3", S)], "");
    check("x.flatten()", &[("x", "a,b,c", S)], "");
    check(
        "x.expand(3, -1, -1) * y",
        &[("x", "a,b", S), ("y", "3,1,1", S)],
        "",
    );
    check("x[1:] * 2", &[("x", "3,b", S)], "");
    check("x[:, 0]", &[("x", "a,b", S)], "");
    check("x[..., ::2]", &[("x", "a,4", S)], "");
    check("x[tensor([0, 2, 0])]", &[("x", "3,b", S)], "");
    check("x[x > 0]", &[("x", "a,b", S)], "");
    check("x[tensor([1, 0]), tensor([0, 0])]", &[("x", "2,3", S)], "");
    check("x.narrow(1, 1, 2)", &[("x", "a,3", S)], "");
    check("cat(x.split(1, 0), 1)", &[("x", "a,b", S)], "");
    check("stack(x.chunk(2, 1), 0)", &[("x", "a,4", S)], "");
    check("x.unbind(0)[0] * x.unbind(0)[-1]", &[("x", "a,b", S)], "");
    check("x.flip(0)", &[("x", "a,b", S)], "");
    check("x.flip(1, 0) * y", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check("x.t().flip(-1)", &[("x", "a,b", S)], "");
    check(
        "cat([x[:, 2:], x[:, :2], x[:, 1:2]], 1)",
        &[("x", "a,4", S)],
        "",
    );
    check(
        "F.pad(x, (1, 2, -1, 1)) * y",
        &[("x", "3,4", S), ("y", "3,7", S)],
        "",
    );
    check("F.pad(x.t(), (2, 0), value=3.0)", &[("x", "a,b", S)], "");
    check("x.repeat(2, 1)", &[("x", "a,b", S)], "");
}

#[test]
fn matmul_family() {
    check("x @ y", &[("x", "a,b", S), ("y", "b,c", S)], "");
    check("x @ y", &[("x", "b", S), ("y", "b,c", S)], "");
    check("x @ y", &[("x", "a,b", S), ("y", "b", S)], "");
    check("x @ y", &[("x", "b", S), ("y", "b", S)], "");
    check("x @ y", &[("x", "2,a,b", S), ("y", "b,c", S)], "");
    check("x @ y", &[("x", "d,1,a,b", S), ("y", "2,b,c", S)], "");
    check("mm(x, y)", &[("x", "a,b", S), ("y", "b,c", S)], "");
    check("bmm(x, y)", &[("x", "2,a,b", S), ("y", "2,b,c", S)], "");
    check("mv(x, y)", &[("x", "a,b", S), ("y", "b", S)], "");
    check("dot(x, y)", &[("x", "a", S), ("y", "a", S)], "");
    check("outer(x, y)", &[("x", "a", S), ("y", "b", S)], "");
}

#[test]
fn selection_and_joins() {
    check("where(x > 0, x, y)", &[("x", "a,b", S), ("y", "b", S)], "");
    check("clamp(x, -0.5, 0.5)", &[("x", "a,b", S)], "");
    check("x.clamp(min=0.3)", &[("x", "a,b", S)], "");
    check("x.clamp(max=y)", &[("x", "a,b", S), ("y", "b", S)], "");
    check("cat([x, y], 0)", &[("x", "a,b", S), ("y", "c,b", S)], "");
    check("cat([x, y], 1)", &[("x", "a,b", S), ("y", "a,c", S)], "");
    check("stack([x, y], 1)", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check("x.sort(1).values", &[("x", "a,b", S)], "");
    check("x.sort(0, descending=true)[0]", &[("x", "a,b", S)], "");
    check("x.topk(2, dim=1).values", &[("x", "a,3", S)], "");
}

#[test]
fn activations_and_layers() {
    check("leaky_relu(x, 0.1)", &[("x", "a,b", S)], "");
    check("F.gelu(x)", &[("x", "a,b", S)], "");
    check("gelu(x, approximate='tanh')", &[("x", "a,b", S)], "");
    check("F.silu(x)", &[("x", "a,b", S)], "");
    check("F.softplus(x, beta=2)", &[("x", "a,b", S)], "");
    // beta = 1 is the one-pass Softplus row; a low threshold puts inputs on
    // both branches.
    check("F.softplus(x)", &[("x", "a,b", S)], "");
    check("F.softplus(x, threshold=0.5)", &[("x", "a,b", S)], "");
    check("F.hardsigmoid(x * 2)", &[("x", "a,b", S)], "");
    check("F.elu(x)", &[("x", "a,b", S)], "");
    check("F.logsigmoid(x)", &[("x", "a,b", S)], "");
    check("F.softmax(x, dim=1)", &[("x", "a,b", S)], "");
    check(
        "torch.nn.functional.log_softmax(x, dim=-1)",
        &[("x", "a,b", S)],
        "",
    );
    check(
        "F.linear(x, w, b)",
        &[("x", "a,c", S), ("w", "b,c", S), ("b", "b", S)],
        "",
    );
    check("F.linear(x, w)", &[("x", "2,a,c", S), ("w", "b,c", S)], "");
}

#[test]
fn losses() {
    let t = "t = tensor([0, 2, 1, 2])";
    check("F.mse_loss(x, y)", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check(
        "F.mse_loss(x, y, reduction='sum')",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check(
        "F.l1_loss(x, y, reduction='none')",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check("F.cross_entropy(x, t)", &[("x", "4,3", S)], t);
    check(
        "F.cross_entropy(x, t, reduction='sum', label_smoothing=0.1)",
        &[("x", "4,3", S)],
        t,
    );
    check(
        "F.cross_entropy(x, t, weight=tensor([1., 2., 0.5], dtype=float64))",
        &[("x", "4,3", S)],
        t,
    );
    check(
        "F.cross_entropy(x, t, ignore_index=2, reduction='none')",
        &[("x", "4,3", S)],
        t,
    );
    check(
        "F.cross_entropy(x, y.softmax(1))",
        &[("x", "a,3", S), ("y", "a,3", S)],
        "",
    );
    check(
        "F.cross_entropy(x, tensor([[0, 1], [2, 0]]))",
        &[("x", "2,3,2", S)],
        "",
    );
    check("F.nll_loss(x.log_softmax(1), t)", &[("x", "4,3", S)], t);
    check(
        "F.binary_cross_entropy(x.sigmoid(), y.sigmoid())",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check(
        "F.binary_cross_entropy_with_logits(x, y.sigmoid(), pos_weight=tensor([2.], dtype=float64))",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check(
        "F.binary_cross_entropy_with_logits(x, y.sigmoid(), reduction='sum')",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
}

#[test]
fn convolution_and_pooling() {
    check(
        "F.conv2d(x, w)",
        &[("x", "2,2,4,5", S), ("w", "3,2,2,2", S)],
        "",
    );
    check(
        "F.conv2d(x, w, b, stride=2, padding=1)",
        &[("x", "1,2,5,5", S), ("w", "2,2,3,3", S), ("b", "2", S)],
        "",
    );
    check(
        "F.conv2d(x, w, dilation=2, padding='same')",
        &[("x", "1,1,5,5", S), ("w", "1,1,3,3", S)],
        "",
    );
    check(
        "F.conv2d(x, w, groups=2)",
        &[("x", "1,4,4,4", S), ("w", "2,2,3,3", S)],
        "",
    );
    check(
        "F.conv2d(x, w, padding=(1, 0))",
        &[("x", "2,4,4", S), ("w", "3,2,3,2", S)],
        "",
    );
    check(
        "F.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))",
        &[("x", "2,2,4,5", S)],
        "",
    );
    check(
        "F.fold(x, (4, 5), 2, padding=(1, 0), stride=(1, 2))",
        &[("x", "1,8,10", S)],
        "",
    );
    check("F.max_pool2d(x, 2)", &[("x", "1,2,4,4", S)], "");
    check(
        "F.max_pool2d(x, 3, stride=2, padding=1)",
        &[("x", "1,1,5,5", S)],
        "",
    );
    check(
        "F.max_pool2d(x, 2, ceil_mode=true)",
        &[("x", "1,1,5,5", S)],
        "",
    );
    check("F.avg_pool2d(x, 2)", &[("x", "2,1,4,4", S)], "");
    check(
        "F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=false)",
        &[("x", "1,1,5,5", S)],
        "",
    );
    check(
        "F.avg_pool2d(x, 2, ceil_mode=true)",
        &[("x", "1,1,5,5", S)],
        "",
    );
    // Overlapping windows wider than a block of outputs, and a divisor.
    check(
        "F.avg_pool2d(x, 3, stride=1, padding=1, divisor_override=4)",
        &[("x", "1,2,3,21", S)],
        "",
    );
    check(
        "F.adaptive_avg_pool2d(x, (3, 17))",
        &[("x", "1,1,4,19", S)],
        "",
    );
}

#[test]
fn composite_expressions() {
    check(
        "((x @ w + b).tanh() @ v).sigmoid().mean()",
        &[
            ("x", "a,b", S),
            ("w", "b,c", S),
            ("b", "c", S),
            ("v", "c,2", S),
        ],
        "",
    );
    check(
        "(x * y).sum(0) / (x.norm() + 1)",
        &[("x", "a,b", S), ("y", "b", S)],
        "",
    );
    check(
        "x.exp() / x.exp().sum(1, keepdim=true)",
        &[("x", "a,b", S)],
        "",
    );
}

#[test]
fn in_place_on_non_leaf_keeps_history() {
    check(
        "(x * 1).mul_(y).add_(1)",
        &[("x", "a,b", S), ("y", "b", S)],
        "",
    );
}

#[test]
fn dtype_conversion_passes_gradients_back_in_the_input_dtype() {
    let out = tsh_run(
        "x = tensor([1., 2.], dtype=float64, requires_grad=true)\ny = x.float()\nprint(y.grad_fn)\n(y * 3).sum().backward()\nprint(x.grad, x.grad.dtype)",
    );
    assert!(out.starts_with("<ToCopyBackward0 object at 0x"), "{out}");
    assert!(
        out.ends_with(">\ntensor([3., 3.], dtype=torch.float64) torch.float64\n"),
        "{out}"
    );
}

#[test]
fn nan_to_num_passes_gradients_through_kept_elements() {
    check("nan_to_num(x)", &[("x", "a,b", S)], "");
    check("x.nan_to_num(nan=1.0, posinf=2.0)", &[("x", "a", S)], "");
}

#[test]
fn picking_and_masking_ops() {
    check("x.masked_fill(x > 0, 0.5)", &[("x", "a,b", S)], "");
    check("tril(x)", &[("x", "a,b", S)], "");
    check("triu(x, diagonal=1)", &[("x", "a,b,c", S)], "");
    check("diag(x)", &[("x", "a", S)], "");
    check("diag(x, 1)", &[("x", "a", S)], "");
    check("diag(x)", &[("x", "a,b", S)], "");
    check(
        "x.index_select(0, tensor([1, 0, 1]))",
        &[("x", "2,b", S)],
        "",
    );
    check(
        "x.gather(1, tensor([[0, 0], [1, 0]]))",
        &[("x", "2,2", S)],
        "",
    );
    check("roll(x, 1, 0)", &[("x", "a,b", S)], "");
    check("roll(x, -2)", &[("x", "a,b", S)], "");
    check("x.trace()", &[("x", "a,b", S)], "");
    check("diagonal(x, 1)", &[("x", "a,b", S)], "");
    check("diagonal(x, -1, 0, 2)", &[("x", "a,b,c", S)], "");
    check("diag_embed(x, 1)", &[("x", "a,b", S)], "");
    check("masked_select(x, x > 0)", &[("x", "a,b", S)], "");
    check("take(x, tensor([0, 3, 0]))", &[("x", "2,2", S)], "");
    check(
        "take_along_dim(x, tensor([[1], [0]]), 1)",
        &[("x", "2,b", S)],
        "",
    );
    check(
        "x.scatter(0, tensor([[1, 0]]), y)",
        &[("x", "2,2", S), ("y", "2,3", S)],
        "",
    );
    check(
        "x.scatter(1, tensor([[1], [0]]), 0.5)",
        &[("x", "2,2", S)],
        "",
    );
    check(
        "x.scatter_add(1, tensor([[0, 0, 1], [1, 1, 1]]), y)",
        &[("x", "2,2", S), ("y", "2,3", S)],
        "",
    );
    check(
        "x.index_add(0, tensor([2, 0, 2]), y, alpha=-2)",
        &[("x", "3,b", S), ("y", "3,b", S)],
        "",
    );
    check(
        "x.index_copy(1, tensor([1, 0]), y)",
        &[("x", "a,2", S), ("y", "a,2", S)],
        "",
    );
    check("x.index_fill(1, tensor([1]), 2.0)", &[("x", "a,2", S)], "");
    check("tensor_split(x, 3, 1)[1]", &[("x", "a,b", S)], "");
    check("dstack([x, y])", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check(
        "column_stack([x, y])",
        &[("x", "a", S), ("y", "a,b", S)],
        "",
    );
}

#[test]
fn distribution_densities() {
    check(
        "torch.distributions.Normal(x, y).log_prob(tensor(0.3))",
        &[("x", "a", S), ("y", "a", P)],
        "",
    );
    check(
        "torch.distributions.Normal(x, 1.).entropy() + torch.distributions.Normal(0., y).entropy()",
        &[("x", "a", S), ("y", "a", P)],
        "",
    );
    check(
        "torch.distributions.Categorical(logits=x).log_prob(tensor(1))",
        &[("x", "3", S)],
        "",
    );
    check(
        "torch.distributions.Bernoulli(logits=x).log_prob(tensor([1., 0., 1.]))",
        &[("x", "3", S)],
        "",
    );
}

#[test]
fn einsum_contractions() {
    check(
        "einsum('ij,jk->ik', x, y)",
        &[("x", "a,b", S), ("y", "b,c", S)],
        "",
    );
    check(
        "einsum('bij,bkj->bik', x, y)",
        &[("x", "a,b,c", S), ("y", "a,2,c", S)],
        "",
    );
    check(
        "einsum('i,j->ij', x, y)",
        &[("x", "a", S), ("y", "b", S)],
        "",
    );
    check("einsum('ij->j', x)", &[("x", "a,b", S)], "");
    // A repeated label takes a diagonal; an ellipsis carries broadcast dims.
    check("einsum('ii->i', x)", &[("x", "3,3", S)], "");
    check("einsum('iij->j', x)", &[("x", "2,2,b", S)], "");
    check(
        "einsum('...ij,...jk->...ik', x, y)",
        &[("x", "a,2,b", S), ("y", "b,c", S)],
        "",
    );
}

#[test]
fn order_statistics_and_multinomial_density() {
    check("x.median()", &[("x", "a,b", S)], "");
    check("x.median(dim=1).values", &[("x", "a,b", S)], "");
    check("x.kthvalue(2, dim=0).values", &[("x", "3,b", S)], "");
    check(
        "x.t().kthvalue(1, 1, keepdim=True).values * y",
        &[("x", "a,b", S), ("y", "b,1", S)],
        "",
    );
    check("x.median(0, keepdim=True).values", &[("x", "3,b", S)], "");
    check(
        "torch.distributions.Multinomial(4, logits=x).log_prob(tensor([1., 2., 1.]))",
        &[("x", "3", S)],
        "",
    );
}

#[test]
fn rearranging_ops() {
    check("movedim(x, 0, -1)", &[("x", "a,b,c", S)], "");
    check("x.tile((2, 1, 3))", &[("x", "a,b", S)], "");
    check("rot90(x, 1)", &[("x", "a,b", S)], "");
    check("rot90(x, -1, [1, 2])", &[("x", "a,b,c", S)], "");
    check("x.unflatten(1, (2, -1))", &[("x", "a,4", S)], "");
    check("repeat_interleave(x, 2, dim=1)", &[("x", "a,b", S)], "");
    check(
        "x.repeat_interleave(tensor([2, 0, 1]), dim=0)",
        &[("x", "3,b", S)],
        "",
    );
    check(
        "diff(x, n=2, dim=0, prepend=y)",
        &[("x", "a,b", S), ("y", "1,b", S)],
        "",
    );
    check("kron(x, y)", &[("x", "a,b", S), ("y", "c", S)], "");
    check(
        "cross(x, y, dim=1)",
        &[("x", "a,3", S), ("y", "a,3", S)],
        "",
    );
    check("cdist(x, y)", &[("x", "a,b", S), ("y", "c,b", S)], "");
    check("cdist(x, y, p=1)", &[("x", "a,b", S), ("y", "c,b", S)], "");
    // More than 25 rows: ATen's matrix-product form (EuclideanDistBackward0).
    check("cdist(x, y)", &[("x", "27,b", S), ("y", "c,b", S)], "");
    check("cdist(x, y)", &[("x", "2,27,b", S), ("y", "2,c,b", S)], "");
    check("renorm(x, 2, 0, 0.5)", &[("x", "a,b", S)], "");
    check("renorm(x, 1, 1, 0.7)", &[("x", "a,b", S)], "");
    check(
        "diagonal_scatter(x, y, 0)",
        &[("x", "3,4", S), ("y", "3", S)],
        "",
    );
    check(
        "diagonal_scatter(x, y, 1, 1, 2)",
        &[("x", "a,3,4", S), ("y", "a,3", S)],
        "",
    );
    // as_strided reads the storage: its gradient reaches the input's own
    // elements, so the inputs here cover their storage.
    check(
        "as_strided(x.contiguous(), (3, 2), (1, 1))",
        &[("x", "4", S)],
        "",
    );
    check(
        "as_strided(x.contiguous().t(), (2, 2), (1, 2), 1)",
        &[("x", "3,2", S)],
        "",
    );
    check(
        "as_strided_scatter(x, y, (2, 2), (1, 3))",
        &[("x", "3,3", S), ("y", "2,2", S)],
        "",
    );
    check(
        "put(x, tensor([0, 5]), y)",
        &[("x", "2,3", S), ("y", "2", S)],
        "",
    );
    check(
        "put(x, tensor([1, -1, 1]), y, accumulate=True)",
        &[("x", "2,3", S), ("y", "3", S)],
        "",
    );
    check(
        "torch.linalg.lu_factor(x + 3 * eye(3, dtype=float64))[0]",
        &[("x", "3,3", S)],
        "",
    );
    check(
        "torch.linalg.lu(x)[1] + torch.linalg.lu(x)[2]",
        &[("x", "a,2,2", S)],
        "",
    );
    check(
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(x + 4 * eye(3, dtype=float64)), y, adjoint=True)",
        &[("x", "3,3", S), ("y", "3,b", S)],
        "",
    );
    check(
        "torch.lu_solve(y, *torch.linalg.lu_factor(x + 4 * eye(3, dtype=float64)))",
        &[("x", "3,3", S), ("y", "3,b", S)],
        "",
    );
    check(
        "torch.linalg.lu_solve(*torch.linalg.lu_factor(x + 4 * eye(3, dtype=float64)), y, left=False)",
        &[("x", "3,3", S), ("y", "b,3", S)],
        "",
    );
    check("cartesian_prod(x, y)", &[("x", "a", S), ("y", "c", S)], "");
    check("combinations(x, 2)", &[("x", "a", S)], "");
    check(
        "combinations(x, 3, with_replacement=True)",
        &[("x", "a", S)],
        "",
    );
}

#[test]
fn normalisation_and_lookup() {
    check(
        "F.layer_norm(x, (3,), w, b)",
        &[("x", "a,3", S), ("w", "3", S), ("b", "3", S)],
        "",
    );
    check("F.layer_norm(x, x.shape[1:])", &[("x", "a,b,2", S)], "");
    check(
        "F.batch_norm(x, None, None, w, b, training=True)",
        &[("x", "3,c", S), ("w", "c", S), ("b", "c", S)],
        "",
    );
    check(
        "F.batch_norm(x, torch.zeros(2, dtype=torch.float64), torch.ones(2, dtype=torch.float64), w, None)",
        &[("x", "a,2,c", S), ("w", "2", S)],
        "",
    );
    check(
        "F.group_norm(x, 2, w, b)",
        &[("x", "a,4,c", S), ("w", "4", S), ("b", "4", S)],
        "",
    );
    check(
        "F.embedding(tensor([[0, 2], [2, 1]]), x)",
        &[("x", "3,b", S)],
        "",
    );
    check("F.normalize(x)", &[("x", "a,b", S)], "");
    check(
        "F.cosine_similarity(x, y, dim=1)",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check("F.pad(x, (1, 2, 0, 1), value=0.5)", &[("x", "a,b", S)], "");
    check("F.pad(x, (2, 1), mode='reflect')", &[("x", "a,4", S)], "");
    check("F.pad(x, (1, 2), mode='replicate')", &[("x", "a,b", S)], "");
    check("F.pad(x, (1, 1), mode='circular')", &[("x", "a,b", S)], "");
}

/// Gradients of gradients: the first gradient, made with create_graph=True,
/// checked as a function of the input like any other op.
#[test]
fn second_derivatives() {
    let g = |f: &str| format!("torch.autograd.grad(({f}).sum(), x, create_graph=True)[0]");
    for f in [
        "x ** 3",
        "torch.tanh(x)",
        "torch.sigmoid(x)",
        "torch.exp(x) * torch.sin(x)",
        "x * y + x / y",
        "torch.log(y * x * x)",
        "(x @ y.T).relu() * x.sum()",
        "torch.sqrt(x * x + 1)",
        "x.softmax(dim=-1) * y",
        "x.pow(2).mean(dim=0)",
        // Its backward rule is written in the saved x-hat and 1/sigma.
        "F.layer_norm(x, x.shape[1:]) * y",
    ] {
        check(&g(f), &[("x", "a,b", S), ("y", "a,b", P)], "");
    }
    // gather's rule scatters the gradient with a scatter that records its own graph.
    check(
        &g("x.gather(1, tensor([[0, 0], [1, 0]])) ** 2 * y"),
        &[("x", "2,2", S), ("y", "2,2", P)],
        "",
    );
    // So is batch_norm's, in the batch statistics (more than one value per channel).
    check(
        &g("F.batch_norm(x, None, None, y[0], None, training=True) * y"),
        &[("x", "3,b", S), ("y", "3,b", P)],
        "",
    );
}

#[test]
fn statistics_and_fused_products() {
    check("nansum(x, 1)", &[("x", "a,b", S)], "");
    check("nanmean(x)", &[("x", "a,b", S)], "");
    check(
        "std_mean(x, 0)[0] + std_mean(x, 0)[1]",
        &[("x", "3,b", S)],
        "",
    );
    check("var_mean(x, correction=0)[0]", &[("x", "a,b", S)], "");
    check("aminmax(x, dim=1).max", &[("x", "a,b", S)], "");
    check("cummax(x, 1).values", &[("x", "a,b", S)], "");
    check("cummin(x, 0).values", &[("x", "a,b", S)], "");
    check("logcumsumexp(x, 1)", &[("x", "a,b", S)], "");
    check("quantile(x, 0.3, dim=1)", &[("x", "a,b", S)], "");
    check("quantile(x, tensor([0.2, 0.9]))", &[("x", "a,b", S)], "");
    check(
        "addmm(x, y, z, beta=0.5, alpha=-2)",
        &[("x", "a", S), ("y", "b,c", S), ("z", "c,a", S)],
        "",
    );
    check(
        "addmv(x, y, z)",
        &[("x", "b", S), ("y", "b,c", S), ("z", "c", S)],
        "",
    );
    check(
        "baddbmm(x, y, z)",
        &[("x", "a,1,c", S), ("y", "a,1,b", S), ("z", "a,b,c", S)],
        "",
    );
    check(
        "addr(x, y, z, alpha=3)",
        &[("x", "a,b", S), ("y", "a", S), ("z", "b", S)],
        "",
    );
    check(
        "addcmul(x, y, z, value=0.5)",
        &[("x", "a,b", S), ("y", "a,b", S), ("z", "b", S)],
        "",
    );
    check(
        "addcdiv(x, y, z)",
        &[("x", "a,b", S), ("y", "a,b", S), ("z", "a,b", P)],
        "",
    );
    // add and sub with alpha: one fused multiply-add, broadcast too.
    check(
        "torch.add(x, y, alpha=-0.7)",
        &[("x", "a,b", S), ("y", "b", S)],
        "",
    );
    check(
        "torch.sub(x, y, alpha=2.5)",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
}

/// torch.linalg's differentiable decompositions, on well-conditioned
/// matrices (5·I keeps them far from singular), batched too.
#[test]
fn linear_algebra() {
    let well = "(x + 5 * torch.eye(3, dtype=torch.float64))";
    for f in [
        "torch.linalg.inv({w})",
        "torch.linalg.det({w})",
        "torch.linalg.slogdet({w}).logabsdet",
        "torch.logdet({w})",
        "torch.linalg.solve({w}, y)",
        "torch.linalg.eigvalsh({w} + {w}.mT)",
        "torch.linalg.matrix_power({w}, -2)",
        "torch.linalg.norm({w})",
        "torch.linalg.vector_norm({w}, ord=3, dim=-1)",
        "torch.linalg.matrix_norm({w}, ord=1)",
        "torch.autograd.grad(torch.linalg.inv({w}).sum(), x, create_graph=True)[0]",
        // solve's backward is itself a recorded solve: its gradient differentiates.
        "torch.autograd.grad(torch.linalg.solve({w}, y).sum(), x, create_graph=True)[0]",
    ] {
        let expr = f.replace("{w}", well);
        check(&expr, &[("x", "3,3", S), ("y", "3,b", S)], "");
        check(&expr, &[("x", "a,3,3", S), ("y", "a,3,b", S)], "");
    }
    check("torch.linalg.svdvals(x)", &[("x", "a,b", S)], "");
    check("torch.linalg.pinv(x)", &[("x", "4,2", S)], "");
}

/// The layers and losses the Python prelude composes from checked ops:
/// their compositions differentiate as PyTorch's do.
#[test]
fn prelude_layers_and_losses() {
    check(
        "F.conv1d(x, w, b, stride=2, padding=1)",
        &[("x", "a,2,5", S), ("w", "3,2,3", S), ("b", "3", S)],
        "",
    );
    check(
        "F.adaptive_avg_pool2d(x, (2, 3))",
        &[("x", "a,2,5,7", S)],
        "",
    );
    check("F.adaptive_avg_pool1d(x, 3)", &[("x", "a,2,7", S)], "");
    check(
        "F.interpolate(x, scale_factor=2, mode='bilinear')",
        &[("x", "a,2,3,3", S)],
        "",
    );
    check(
        "F.interpolate(x, size=5, mode='linear', align_corners=True)",
        &[("x", "a,2,3", S)],
        "",
    );
    check(
        "F.smooth_l1_loss(x, y, beta=0.5)",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check(
        "F.huber_loss(x, y, delta=0.7, reduction='none')",
        &[("x", "a,b", S), ("y", "a,b", S)],
        "",
    );
    check(
        "F.kl_div(x, y, reduction='batchmean')",
        &[("x", "a,b", S), ("y", "a,b", P)],
        "",
    );
    check(
        "lstm(x)[0]",
        &[("x", "a,4,3", S)],
        "lstm = nn.LSTM(3, 2, batch_first=True).double()",
    );
    check(
        "gru(x)[1]",
        &[("x", "4,a,3", S)],
        "gru = nn.GRU(3, 2, bidirectional=True).double()",
    );
    // The fused cell nn.LSTM steps through: hy and cy (one node), every input.
    let cell = "torch._thnn_fused_lstm_cell(ig, hg, cx, ib, hb)";
    check(
        &format!("{cell}[0] * 2 + {cell}[1]"),
        &[
            ("ig", "a,8", S),
            ("hg", "a,8", S),
            ("cx", "a,2", S),
            ("ib", "8", S),
            ("hb", "8", S),
        ],
        "",
    );
    // nn.LSTM's float32 layer as one op (its backward walks the steps, then
    // takes each weight's gradient in one product over them), here in
    // float64: both directions, the output and the last cell state.
    let inputs = [
        ("x", "a,b,3", S),
        ("wi", "8,3", S),
        ("wh", "8,2", S),
        ("bi", "8", S),
        ("bh", "8", S),
        ("h", "b,2", S),
        ("c", "b,2", S),
    ];
    for reverse in ["False", "True"] {
        let layer = format!(
            "torch.mkldnn_rnn_layer(x, wi, wh, bi, bh, h, c, {reverse}, [], 2, 2, 1, True, False, False, True)"
        );
        check(&format!("{layer}[0] * 1.5 + {layer}[2]"), &inputs, "");
    }
    // Without biases, and under create_graph (the steps replayed as recorded ops).
    check(
        "torch.mkldnn_rnn_layer(x, wi, wh, None, None, h, c, False, [], 2, 2, 1, False, False, False, True)[1]",
        &inputs,
        "",
    );
    check(
        "torch.autograd.grad((torch.mkldnn_rnn_layer(x, wi, wh, bi, bh, h, c, False, [], 2, 2, 1, True, False, False, True)[0] ** 2).sum(), (x, wh), create_graph=True)[1] * wh",
        &inputs,
        "",
    );
    // Its backward is differentiable too (create_graph runs it in tensor ops).
    check(
        "torch.autograd.grad((torch._thnn_fused_lstm_cell(x, y, c)[0] * 1.5 + torch._thnn_fused_lstm_cell(x, y, c)[1]).sum() ** 2, (x, c), create_graph=True)[1] * c",
        &[("x", "2,8", S), ("y", "2,8", S), ("c", "2,2", S)],
        "",
    );
}

/// The nn zoo's composites (nn_activation/loss/pool_conv/conv_norm preludes).
#[test]
fn prelude_zoo() {
    for f in [
        "F.celu(x, 0.7)",
        "F.selu(x)",
        "F.mish(x)",
        "F.softshrink(x, 0.3)",
        "F.hardswish(x)",
        "F.softsign(x)",
        "F.glu(x, 0)",
        "F.softmin(x, dim=-1)",
    ] {
        check(f, &[("x", "4,b", S)], "");
    }
    check("F.prelu(x, w)", &[("x", "a,3,4", S), ("w", "3", S)], "");
    check(
        "F.bilinear(x, y, w, b)",
        &[
            ("x", "a,3", S),
            ("y", "a,2", S),
            ("w", "4,3,2", S),
            ("b", "4", S),
        ],
        "",
    );
    check(
        "F.conv3d(x, w, b, stride=(2, 1, 1), padding=1)",
        &[("x", "a,2,3,4,3", S), ("w", "3,2,2,3,2", S), ("b", "3", S)],
        "",
    );
    check(
        "F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1)",
        &[("x", "a,2,3,3", S), ("w", "2,3,3,3", S), ("b", "3", S)],
        "",
    );
    check(
        "F.conv_transpose1d(x, w, stride=3, groups=2)",
        &[("x", "a,4,3", S), ("w", "4,1,2", S)],
        "",
    );
    check(
        "F.conv_transpose3d(x, w, b, stride=(2, 1, 2), padding=(1, 0, 0), output_padding=(1, 0, 1))",
        &[("x", "1,2,2,3,2", S), ("w", "2,2,2,2,3", S), ("b", "2", S)],
        "",
    );
    check(
        "F.max_pool3d(x, 2, stride=1, return_indices=True)[0]",
        &[("x", "1,2,3,3,3", S)],
        "",
    );
    check("F.max_pool1d(x, 2)", &[("x", "a,2,6", S)], "");
    check(
        "F.avg_pool3d(x, 2, padding=1)",
        &[("x", "a,1,3,4,3", S)],
        "",
    );
    check("F.lp_pool2d(x, 2, 2)", &[("x", "a,2,4,4", P)], "");
    check("F.instance_norm(x)", &[("x", "a,3,5", S)], "");
    check("F.rms_norm(x, (4,))", &[("x", "a,4", S)], "");
    check("F.local_response_norm(x, 3)", &[("x", "a,4,3", S)], "");
    check("F.pixel_shuffle(x, 2)", &[("x", "a,8,2,3", S)], "");
    check(
        "F.triplet_margin_loss(x, y, z, swap=True)",
        &[("x", "a,4", S), ("y", "a,4", S), ("z", "a,4", S)],
        "",
    );
    check(
        "F.cosine_embedding_loss(x, y, torch.tensor([1, -1, 1]))",
        &[("x", "3,4", S), ("y", "3,4", S)],
        "",
    );
    check(
        "F.gaussian_nll_loss(x, y, v, full=True)",
        &[("x", "a,3", S), ("y", "a,3", S), ("v", "a,3", P)],
        "",
    );
    check(
        "F.multilabel_soft_margin_loss(x, y)",
        &[("x", "a,3", S), ("y", "a,3", P)],
        "",
    );
    check(
        "F.multi_margin_loss(x, torch.tensor([2, 0, 1]), p=2)",
        &[("x", "3,4", S)],
        "",
    );
    check(
        "F.poisson_nll_loss(x, y)",
        &[("x", "a,3", S), ("y", "a,3", P)],
        "",
    );
}

/// Attention (nn_transformer_prelude.py).
#[test]
fn attention() {
    check(
        "F.scaled_dot_product_attention(q, k, v, is_causal=True)",
        &[("q", "a,3,2", S), ("k", "a,3,2", S), ("v", "a,3,4", S)],
        "",
    );
    check(
        "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor([[True, False], [True, True]]))",
        &[("q", "2,3", S), ("k", "2,3", S), ("v", "2,1", S)],
        "",
    );
    check(
        "mha(x, x, x, key_padding_mask=torch.tensor([[False, True, False]] * 2))[0]",
        &[("x", "3,2,4", S)],
        "mha = nn.MultiheadAttention(4, 2).double()",
    );
    check(
        "enc(x)",
        &[("x", "a,3,4", S)],
        "enc = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, batch_first=True).double()",
    );
}

/// torch.special's functions (tensor/op/special.rs rows, tensor/ops/special.rs).
#[test]
fn special_functions() {
    for f in [
        "torch.lgamma(x)",
        "torch.digamma(x)",
        "torch.i0(x)",
        "torch.special.i0e(x)",
        "torch.special.i1(x)",
        "torch.special.i1e(x)",
        "torch.special.polygamma(2, x)",
        "torch.special.zeta(x + 1, x)",
        "torch.special.multigammaln(x + 1, 2)",
        "torch.special.entr(x)",
    ] {
        check(f, &[("x", "a,b", P)], "");
    }
    check("torch.erfinv(x * 0.4)", &[("x", "a,b", S)], "");
    check("torch.special.ndtri(x * 0.5 + 0.5)", &[("x", "a,b", U)], "");
    check("torch.special.log_ndtr(x * 4)", &[("x", "a,b", S)], "");
    check("torch.special.erfcx(x.abs() * 5)", &[("x", "a,b", S)], "");
    check(
        "torch.special.gammainc(tensor(2.5, dtype=float64), x.abs() * 3)",
        &[("x", "a,b", S)],
        "",
    );
    check(
        "torch.igammac(tensor([[0.7], [9.]], dtype=float64), x.abs() * 4)",
        &[("x", "2,b", S)],
        "",
    );
    check("torch.special.erfcx(-x.abs())", &[("x", "a,b", S)], "");
    check("torch.special.erfcx(x * 10 + 45)", &[("x", "a,b", S)], "");
    check("torch.special.erfcx(x.abs() * 1e9)", &[("x", "a,b", S)], "");
    check("torch.special.ndtr(x)", &[("x", "a,b", S)], "");
    check(
        "torch.special.xlog1py(x, y)",
        &[("x", "a,b", S), ("y", "a,b", P)],
        "",
    );
}

/// Matrices and grids built from other ops (tensor/ops/matrix.rs).
#[test]
fn matrix_composites() {
    check("torch.cov(x)", &[("x", "3,b", S)], "");
    check(
        "torch.cov(x, aweights=torch.tensor([0.5, 1., 2.]))",
        &[("x", "a,3", S)],
        "",
    );
    check("torch.corrcoef(x)", &[("x", "2,4", S)], "");
    check(
        "torch.trapezoid(y, x)",
        &[("y", "a,b", S), ("x", "b", S)],
        "",
    );
    check(
        "torch.cumulative_trapezoid(y, dx=0.5, dim=0)",
        &[("y", "a,b", S)],
        "",
    );
    check(
        "torch.block_diag(x, y)",
        &[("x", "a,b", S), ("y", "b", S)],
        "",
    );
    check("torch.vander(x, N=3)", &[("x", "a", S)], "");
    check(
        "torch.inner(x, y)",
        &[("x", "a,3", S), ("y", "b,2,3", S)],
        "",
    );
    check("torch.fmax(x, y)", &[("x", "a,b", S), ("y", "a,b", S)], "");
    check("torch.ldexp(x, torch.tensor(2))", &[("x", "a,b", S)], "");
    check("x.unfold(1, 2, 1)", &[("x", "a,4", S)], "");
    check(
        "torch.select_scatter(x, y, 1, 1)",
        &[("x", "a,3", S), ("y", "a", S)],
        "",
    );
    check(
        "torch.slice_scatter(x, y, 1, 0, 4, 2)",
        &[("x", "a,4", S), ("y", "a,2", S)],
        "",
    );
    check(
        "x.masked_scatter(torch.tensor([True, False, True]), y)",
        &[("x", "a,3", S), ("y", "a,3", S)],
        "",
    );
    check(
        "torch.linalg.solve_triangular(a + 3 * torch.eye(3), b, upper=False, left=False)",
        &[("a", "3,3", S), ("b", "a,3", S)],
        "",
    );
    check(
        "torch.linalg.solve(a + 3 * torch.eye(3), b)",
        &[("a", "a,3,3", S), ("b", "3,2", S)],
        "",
    );
    check(
        "x.scatter_reduce(0, torch.tensor([0, 1, 0]), y, 'sum')",
        &[("x", "3", S), ("y", "3", S)],
        "",
    );
}

#[test]
fn products_solves_and_losses_of_pytorch_2_15() {
    check(
        "torch.tensordot(x, y, dims=([1, 2], [0, 1]))",
        &[("x", "a,2,b", S), ("y", "2,b,c", S)],
        "",
    );
    check(
        "torch.tensordot(x, y, dims=1)",
        &[("x", "a,b", S), ("y", "b,c", S)],
        "",
    );
    // Kept well conditioned: the identity added.
    check(
        "torch.linalg.tensorinv(x * 0.1 + torch.eye(6).reshape(2, 3, 6), ind=2)",
        &[("x", "2,3,6", S)],
        "",
    );
    check(
        "torch.linalg.tensorsolve(x * 0.1 + torch.eye(6).reshape(6, 2, 3), y)",
        &[("x", "6,2,3", S), ("y", "6", S)],
        "",
    );
    check("torch.clamp_min(x, 0.3)", &[("x", "a,b", S)], "");
    check("x.clamp_max(0.3)", &[("x", "a,b", S)], "");
    check(
        "F.ctc_loss(x.log_softmax(2), t, (6, 5), (2, 3))",
        &[("x", "6,2,4", S)],
        "t = tensor([[1, 2, 0], [3, 3, 1]])",
    );
    check(
        "F.fractional_max_pool2d(x, 2, output_size=(3, 3), _random_samples=r)",
        &[("x", "1,2,6,5", S)],
        "r = tensor([[[0.3, 0.7], [0.9, 0.1]]])",
    );
    check(
        "F.linear_cross_entropy(x, w, t)",
        &[("x", "3,4", S), ("w", "5,4", S)],
        "t = tensor([0, 4, 2])",
    );
}
