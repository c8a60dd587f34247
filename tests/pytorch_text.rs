//! PyTorch programs that print: each `tests/pytorch/NAME.py` runs unchanged in
//! tsh, on every device present, and must print exactly `NAME.out`, which is
//! what PyTorch 2.15 printed for it (`scripts/bless_pytorch.sh` rewrites the
//! `.out` files by running the programs with python3 and torch).
//!
//! `tests/pytorch_cpu/` holds programs that print every digit of float
//! reductions (sums, means, softmax, losses): they pin the CPU kernels'
//! summation order to ATen's, and run on the CPU only, since a GPU sums in
//! its own order (PyTorch's does too).

use std::path::Path;

mod common;

#[test]
fn programs_print_what_pytorch_printed() {
    check("tests/pytorch", common::devices("pytorch_text"));
}

#[test]
fn cpu_programs_print_pytorchs_float_bits() {
    check("tests/pytorch_cpu", vec![tsh::tensor::Device::Cpu]);
}

fn check(dir: &str, devices: Vec<tsh::tensor::Device>) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut programs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/pytorch")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    programs.sort();
    assert!(!programs.is_empty(), "no programs in {}", dir.display());
    let mut failures = vec![];
    for device in devices {
        for path in &programs {
            let src = std::fs::read_to_string(path).expect("program");
            let want =
                std::fs::read_to_string(path.with_extension("out")).expect("PyTorch's output");
            let got = common::run_on(device, &src);
            if got != want {
                let line = got
                    .lines()
                    .zip(want.lines())
                    .position(|(g, w)| g != w)
                    .unwrap_or(got.lines().count().min(want.lines().count()));
                failures.push(format!(
                    "{} on {device}: first difference at line {}\n  tsh:     {}\n  pytorch: {}",
                    path.file_name().unwrap_or_default().to_string_lossy(),
                    line + 1,
                    got.lines().nth(line).unwrap_or("<end>"),
                    want.lines().nth(line).unwrap_or("<end>")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
