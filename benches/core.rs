//! Core CPU throughput: matmul, element-wise, reduction. Run with
//! `cargo bench --bench core`; results go in BENCHMARKS.md.

mod common;

use common::median_secs;
use tsh::tensor::op::BinaryOp;
use tsh::tensor::op::ReduceOp;
use tsh::tensor::ops::{creation, elementwise, matmul, reduce};
use tsh::tensor::{DType, Device};

fn main() {
    for n in [256usize, 1024, 2048] {
        for dtype in [DType::F32, DType::F64] {
            let a = creation::randn(&[n, n], dtype, Device::Cpu).expect("alloc");
            let b = creation::randn(&[n, n], dtype, Device::Cpu).expect("alloc");
            let s = median_secs(|| drop(matmul::matmul(&a, &b).expect("matmul")), 5);
            println!(
                "matmul {n}x{n} {dtype}: {:.2} ms, {:.1} GFLOP/s",
                s * 1e3,
                2.0 * (n as f64).powi(3) / s / 1e9
            );
        }
    }
    let n = 1 << 22;
    let a = creation::randn(&[n], DType::F32, Device::Cpu).expect("alloc");
    let b = creation::randn(&[n], DType::F32, Device::Cpu).expect("alloc");
    let s = median_secs(
        || drop(elementwise::binary(BinaryOp::Add, &a, &b).expect("add")),
        9,
    );
    println!(
        "add 4M float32 contiguous: {:.2} ms, {:.1} GB/s",
        s * 1e3,
        12.0 * n as f64 / s / 1e9
    );
    let m = creation::randn(&[2048, 2048], DType::F32, Device::Cpu).expect("alloc");
    let mt = tsh::tensor::ops::view::transpose(&m, 0, 1).expect("view");
    let s = median_secs(
        || drop(elementwise::binary(BinaryOp::Add, &m, &mt).expect("add")),
        9,
    );
    println!("add 2048x2048 float32 + its transpose: {:.2} ms", s * 1e3);
    let s = median_secs(
        || drop(reduce::reduce(&a, ReduceOp::Sum, None, false).expect("sum")),
        9,
    );
    println!("sum 4M float32: {:.2} ms", s * 1e3);
    let s = median_secs(
        || drop(reduce::reduce(&m, ReduceOp::Sum, Some(&[1]), false).expect("sum")),
        9,
    );
    println!("sum 2048x2048 float32 over dim 1: {:.2} ms", s * 1e3);
}
