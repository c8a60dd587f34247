//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::sync::Mutex;

use tsh::interp::{Buffer, Interp};
use tsh::print::error::render;
use tsh::tensor::Device;

/// The devices a suite runs on: the CPU, and CUDA. Where this process has a
/// CUDA device (a GPU, or the fake driver first on the loader path) both run
/// here. Where it has none, the calling test runs again in a child process with
/// the project's fake CUDA driver (tests/fakecuda, built by
/// scripts/fakecuda.sh) first on LD_LIBRARY_PATH, for the CUDA half; its
/// failure fails this test. Without a C++ compiler the CUDA half is reported as
/// skipped, with the reason, never passed: written straight to stderr so that
/// `cargo test` shows it.
pub fn devices(suite: &str) -> Vec<Device> {
    if std::env::var_os("TSH_TEST_ONLY_CUDA").is_some() {
        // The child: only the CUDA half, with the CPU's random numbers (the
        // suites compare with what PyTorch printed on the CPU).
        tsh::backend::cuda::random::draw_on_host(true);
        tsh::print::tensor::print_as_on_cpu(true);
        return vec![Device::Cuda(0)];
    }
    if Device::Cuda(0).check_available().is_ok() {
        // Device output is compared with the CPU's expectations: print as on the CPU.
        tsh::backend::cuda::random::draw_on_host(true);
        tsh::print::tensor::print_as_on_cpu(true);
        return vec![Device::Cpu, Device::Cuda(0)];
    }
    if let Err(why) = fakecuda::run_this_test_on_fake_cuda(&[]) {
        report_skip(suite, &why);
    }
    vec![Device::Cpu]
}

/// Whether this process should run a CUDA-only test: yes with a real CUDA
/// device, or in the child the fake driver runs; otherwise the test runs again
/// in a child on the fake driver (its failure fails this test) and the caller
/// returns. Without a C++ compiler the skip is reported, never passed.
pub fn on_cuda(suite: &str) -> bool {
    if std::env::var_os("TSH_TEST_ONLY_CUDA").is_some() || Device::Cuda(0).check_available().is_ok()
    {
        return true;
    }
    if let Err(why) = fakecuda::run_this_test_on_fake_cuda(&[]) {
        report_skip(suite, &why);
    }
    false
}

/// This test binary, set to run only the test `name` (in a child process, with
/// what the caller adds: the environment the loader reads at start).
pub fn this_test_again(name: &str) -> std::process::Command {
    let mut cmd = std::process::Command::new(std::env::current_exe().expect("test binary"));
    cmd.args([name, "--exact", "--nocapture", "--test-threads=1"]);
    cmd
}

/// Run `cmd` to the end: whether it succeeded, and its stdout then stderr.
pub fn run_to_end(cmd: &mut std::process::Command) -> (bool, String) {
    let out = cmd.output().expect("start the process");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn report_skip(suite: &str, why: &str) {
    use std::io::Write;
    static REPORTED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut seen = REPORTED.lock().unwrap_or_else(|p| p.into_inner());
    if !seen.iter().any(|s| s == suite) {
        seen.push(suite.to_string());
        let _ = writeln!(std::io::stderr(), "{suite} on cuda:0: skipped: {why}");
    }
}

pub mod fakecuda {
    use std::path::{Path, PathBuf};
    use std::process::Command;
    use std::sync::OnceLock;

    /// The folder the fake driver's libraries are built into (once per test
    /// binary, and only when its sources are newer than the build).
    pub fn libdir() -> Result<PathBuf, String> {
        static BUILT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
        BUILT.get_or_init(build).clone()
    }

    fn newest(dir: &Path) -> std::time::SystemTime {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.metadata().ok()?.modified().ok())
            .max()
            .unwrap_or(std::time::UNIX_EPOCH)
    }

    fn build() -> Result<PathBuf, String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let out = root.join("target").join("fakecuda");
        let lib = out.join("libcuda.so");
        let fresh = lib
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t >= newest(&root.join("tests/fakecuda")));
        if fresh {
            return Ok(out);
        }
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
        if Command::new(&cxx).arg("--version").output().is_err() {
            return Err(format!(
                "no C++ compiler ({cxx}) to build the fake CUDA driver"
            ));
        }
        let status = Command::new("bash")
            .arg(root.join("scripts/fakecuda.sh"))
            .arg(&out)
            .output()
            .map_err(|e| format!("cannot run scripts/fakecuda.sh: {e}"))?;
        if !status.status.success() {
            // A compiler that is there but fails is a failure, not a skip.
            panic!(
                "scripts/fakecuda.sh failed:\n{}{}",
                String::from_utf8_lossy(&status.stdout),
                String::from_utf8_lossy(&status.stderr)
            );
        }
        Ok(out)
    }

    /// The C++ compiler's AddressSanitizer runtime, to preload into a process
    /// whose fake-driver kernels are built with FAKECUDA_ASAN=1.
    pub fn libasan() -> Option<String> {
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "g++".into());
        let out = Command::new(cxx)
            .arg("-print-file-name=libasan.so")
            .output()
            .ok()?;
        let path = String::from_utf8_lossy(&out.stdout).trim().to_string();
        Path::new(&path).is_absolute().then_some(path)
    }

    /// Run the current test again in a child process on the fake driver, with
    /// `env` added; panic with its output if it fails. Err: why it could not run.
    pub fn run_this_test_on_fake_cuda(env: &[(&str, &str)]) -> Result<(), String> {
        let name = std::thread::current()
            .name()
            .filter(|n| *n != "main")
            .ok_or("the test's name is unknown (run with more than one test thread)")?
            .to_string();
        // A test that asks for its devices once per check runs in the child once:
        // the child runs all of its checks.
        static DONE: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
        {
            let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
            if done.contains(&name) {
                return Ok(());
            }
            done.push(name.clone());
        }
        run_test_on_fake_cuda(&name, env)
    }

    /// Run the test `name` of this test binary in a child process on the fake
    /// driver, with `env` added; panic with its output if it fails.
    pub fn run_test_on_fake_cuda(name: &str, env: &[(&str, &str)]) -> Result<(), String> {
        let dir = libdir()?;
        let mut path = dir.to_string_lossy().to_string();
        if let Some(old) = std::env::var_os("LD_LIBRARY_PATH") {
            path = format!("{path}:{}", old.to_string_lossy());
        }
        let (ok, text) = super::run_to_end(
            super::this_test_again(name)
                .env("LD_LIBRARY_PATH", path)
                .env("TSH_TEST_ONLY_CUDA", "1")
                .env("TSH_KERNEL_CACHE", dir.join("ptx"))
                .env("FAKECUDA_CACHE", dir.join("cache"))
                .envs(env.iter().copied()),
        );
        assert!(
            ok && text.contains("1 passed"),
            "{name} on cuda:0 (fake driver) failed:\n{text}"
        );
        Ok(())
    }
}

/// A fresh interpreter printing into `buf`, whose creation functions put
/// tensors on `device` (as `set_default_device` does).
pub fn interp_on(device: Device, buf: &Buffer) -> Interp {
    tsh::tensor::device::set_default_device(device);
    Interp::new(Box::new(buf.clone()))
}

/// Run `src` on `device`: the output as the CPU would print it, then any error.
pub fn run_on(device: Device, src: &str) -> String {
    let buf = Buffer::default();
    let mut it = interp_on(device, &buf);
    let result = tsh::script::run_script(&mut it, src, false);
    let mut out = tsh::teach::transcript::as_printed_on_cpu(&buf.take(), device);
    if let Err(e) = result {
        out.push_str(&render(&e, src, "<test>"));
    }
    out
}

/// Run `src` in a fresh interpreter; the printed output, then any rendered error.
pub fn run(src: &str) -> String {
    let buf = Buffer::default();
    let mut it = Interp::new(Box::new(buf.clone()));
    let result = tsh::script::run_script(&mut it, src, false);
    let mut out = buf.take();
    if let Err(e) = result {
        out.push_str(&render(&e, src, "<test>"));
    }
    out
}

/// Run `src` and return the error kind it stopped with, if any.
pub fn error_kind(src: &str) -> Option<&'static str> {
    let buf = Buffer::default();
    let mut it = Interp::new(Box::new(buf));
    tsh::script::run_script(&mut it, src, false)
        .err()
        .map(|e| e.kind.name())
}

pub fn json(path: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture file");
    serde_json::from_str(&text).expect("fixture json")
}

/// `f` of every item, on every core, each item taken by the next free thread
/// (items that take seconds each: kernel compiles, unit tests); the results
/// in no set order.
pub fn on_every_core<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let worker = || {
        let mut out = Vec::new();
        while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
            out.push(f(item));
        }
        out
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(worker)).collect();
        // A worker that panicked lost its results: its item's caller sees it
        // missing (each caller counts what came back).
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}
