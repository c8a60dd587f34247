//! Autograd and training throughput: forward + backward of an MLP and a small CNN,
//! and a whole optimizer step, through the same code the language runs. Run with
//! `cargo bench --bench train`; results go in BENCHMARKS.md.

mod common;

use common::median_secs;
use tsh::interp::{Buffer, Interp};

fn bench(name: &str, setup: &str, step: &str, reps: usize) {
    let mut it = Interp::new(Box::new(Buffer::default()));
    it.run(setup, false).expect("setup runs");
    let s = median_secs(|| it.run(step, false).expect("step runs"), reps);
    println!("{name}: {:.3} ms per step", s * 1e3);
}

fn main() {
    let mlp = "manual_seed(0)
x = randn(512, 256); y = randint(0, 10, (512,))
W1 = randn(512, 256) * 0.05; W1.requires_grad_(); b1 = zeros(512, requires_grad=true)
W2 = randn(10, 512) * 0.05; W2.requires_grad_(); b2 = zeros(10, requires_grad=true)
opt = Adam([W1, b1, W2, b2], lr=0.001)";
    bench(
        "MLP 256-512-10, batch 512, float32: forward + backward + Adam step",
        mlp,
        "opt.zero_grad(); loss = F.cross_entropy(F.linear(relu(F.linear(x, W1, b1)), W2, b2), y); loss.backward(); opt.step()",
        11,
    );
    let cnn = "manual_seed(0)
x = randn(64, 3, 32, 32); y = randint(0, 10, (64,))
K = randn(16, 3, 3, 3) * 0.1; K.requires_grad_()
W = randn(10, 16 * 16 * 16) * 0.01; W.requires_grad_()
opt = SGD([K, W], lr=0.01, momentum=0.9)";
    bench(
        "CNN conv3x3(3->16) + maxpool + linear, batch 64 of 32x32, float32: full step",
        cnn,
        "opt.zero_grad(); h = F.max_pool2d(relu(F.conv2d(x, K, padding=1)), 2); loss = F.cross_entropy(F.linear(h.flatten(1), W), y); loss.backward(); opt.step()",
        5,
    );
    bench(
        "conv2d forward only (same shapes)",
        cnn,
        "no_grad { h = F.conv2d(x, K, padding=1) }",
        5,
    );
}
