//! Every kernel source compiles with the real NVRTC, for real architectures
//! (g++ under the fake driver accepts things NVRTC rejects: INFINITY, int64_t,
//! ambiguous overloads). NVRTC needs no GPU: `.ci/run` installs it from PyPI
//! (nvidia-cuda-nvrtc-cu12). Where it is missing the test says it is skipped.

use std::io::Write;
use std::process::Command;

use tsh::backend::cuda::kernels::{SOURCES, compile};

mod common;

/// The folder of pip's libnvrtc, if a Python environment has it.
fn pip_nvrtc() -> Option<String> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import nvidia.cuda_nvrtc as m, os; print(os.path.join(list(m.__path__)[0], 'lib'))",
        ])
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?.trim().to_string();
    std::path::Path::new(&dir)
        .join("libnvrtc.so.12")
        .exists()
        .then_some(dir)
}

#[test]
fn every_kernel_compiles_with_the_real_nvrtc() {
    if std::env::var_os("TSH_REAL_NVRTC").is_some() {
        let failures = compile_all();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        return;
    }
    let Some(dir) = pip_nvrtc() else {
        let _ = writeln!(
            std::io::stderr(),
            "real NVRTC: skipped: no libnvrtc (pip install nvidia-cuda-nvrtc-cu12)"
        );
        return;
    };
    // The loader reads LD_LIBRARY_PATH at start: compile in a child process.
    let (ok, text) = common::run_to_end(
        common::this_test_again("every_kernel_compiles_with_the_real_nvrtc")
            .env("LD_LIBRARY_PATH", &dir)
            .env("TSH_REAL_NVRTC", "1"),
    );
    assert!(
        ok && text.contains("1 passed"),
        "NVRTC rejected a kernel:\n{text}"
    );
}

/// Every source for every architecture, on every core (each compile runs
/// alone for seconds, and NVRTC compiles separate programs side by side):
/// the failures' logs.
fn compile_all() -> Vec<String> {
    let jobs: Vec<_> = SOURCES
        .iter()
        .flat_map(|src| ["sm_80", "sm_90"].map(|arch| (src, arch)))
        .collect();
    let results = common::on_every_core(&jobs, |&(src, arch)| {
        compile(&src.text(), src.file(), arch)
            .err()
            .map(|log| format!("kernels/{} for {arch}:\n{log}", src.file()))
    });
    let mut failures: Vec<String> = results.iter().flatten().cloned().collect();
    if results.len() != jobs.len() {
        failures.push("a compile thread panicked".to_string());
    }
    failures
}
