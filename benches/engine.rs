//! The engine against PyTorch on the ops issue 12 names: each line runs through
//! the interpreter, exactly as typed at the prompt. Run `cargo bench --bench
//! engine`; `python3 scripts/bench_engine.py` times the same lines in PyTorch.
//! Results go in BENCHMARKS.md.

mod common;

use common::median_secs;
use tsh::interp::{Buffer, Interp};

/// (name, setup, timed statement, repeats): scripts/bench_engine.py has the same rows.
pub const ROWS: &[(&str, &str, &str, usize)] = &[
    (
        "sum over dim 0 of randn(4096, 1024)",
        "x = randn(4096, 1024)",
        "y = x.sum(dim=0)",
        21,
    ),
    (
        "softmax over the last dim of randn(2048, 2048)",
        "x = randn(2048, 2048)",
        "y = x.softmax(dim=-1)",
        11,
    ),
    (
        "conv2d 64x3x32x32 by 16x3x3x3",
        "x = randn(64, 3, 32, 32); k = randn(16, 3, 3, 3)",
        "y = F.conv2d(x, k)",
        11,
    ),
    (
        "MLP 784-128-10 training step, batch 64 (SGD)",
        "manual_seed(0)
x = randn(64, 784); t = randint(0, 10, (64,))
w1 = (randn(128, 784) * 0.03).requires_grad_(); b1 = zeros(128, requires_grad=true)
w2 = (randn(10, 128) * 0.1).requires_grad_(); b2 = zeros(10, requires_grad=true)
opt = SGD([w1, b1, w2, b2], lr=0.1)",
        "opt.zero_grad(); loss = F.cross_entropy(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2), t); loss.backward(); opt.step()",
        21,
    ),
    (
        "randn(10**7).exp().sum()",
        "x = randn(10**7)",
        "y = x.exp().sum()",
        11,
    ),
    (
        "add 4M float32",
        "a = randn(2**22); b = randn(2**22)",
        "c = a + b",
        21,
    ),
    (
        "add 2048x2048 float32 + its transpose",
        "m = randn(2048, 2048)",
        "c = m + m.T",
        11,
    ),
    (
        "matmul 1024x1024 float32",
        "a = randn(1024, 1024); b = randn(1024, 1024)",
        "c = a @ b",
        7,
    ),
    (
        "print a 1000x1000 tensor (summarised)",
        "m = randn(1000, 1000)",
        "s = str(m)",
        11,
    ),
];

fn main() {
    for (name, setup, step, reps) in ROWS {
        let mut it = Interp::new(Box::new(Buffer::default()));
        it.run(setup, false).expect("setup runs");
        let s = median_secs(|| it.run(step, false).expect("step runs"), *reps);
        println!("{name}: {:.3} ms", s * 1e3);
    }
}
