//! The CUDA device as a user meets it. `tests/cuda/NAME.tsh` are PyTorch
//! programs written for a GPU (the course notes' `.to("cuda")` blocks, training
//! on cuda, autograd, random numbers, mixed devices, set_default_device); run
//! as `tsh --echo` runs them, their output must equal `NAME.out`: what PyTorch
//! prints on a GPU, `device='cuda:0'` and all. Then the binary: `--check-device
//! cuda`, `:devices`, and clean errors where there is no driver or no GPU.
//! Without CUDA on this machine, all of it runs on the fake driver
//! (tests/fakecuda); `BLESS=1` rewrites the expectations.

use std::path::{Path, PathBuf};
use std::process::Command;

use tsh::interp::Buffer;
use tsh::print::error::render;
use tsh::tensor::Device;

mod common;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn transcript(src: &str, name: &str) -> String {
    let buf = Buffer::default();
    let mut it = common::interp_on(Device::Cpu, &buf);
    let result = tsh::script::run_script(&mut it, src, true);
    let mut out = buf.take();
    if let Err(e) = result {
        out.push_str(&render(&e, src, name));
    }
    out
}

#[test]
fn cuda_programs_print_what_pytorch_prints_on_a_gpu() {
    if !common::on_cuda("cuda programs") {
        return;
    }
    let bless = std::env::var_os("BLESS").is_some();
    let mut programs: Vec<PathBuf> = std::fs::read_dir(root().join("tests/cuda"))
        .expect("tests/cuda")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsh"))
        .collect();
    programs.sort();
    assert!(!programs.is_empty(), "no programs in tests/cuda");
    let mut failures = vec![];
    for path in &programs {
        let name = path.file_name().expect("name").to_string_lossy();
        // Each program starts as a fresh session does.
        tsh::tensor::device::set_default_device(Device::Cpu);
        tsh::backend::manual_seed(67_280_421_310_721);
        let src = std::fs::read_to_string(path).expect("read program");
        let got = transcript(&src, &name);
        let expected = path.with_extension("out");
        let want = std::fs::read_to_string(&expected).unwrap_or_default();
        if tsh::teach::transcript::same_output(&got, &want) {
            continue;
        }
        if bless {
            std::fs::write(&expected, &got).expect("write expectation");
        } else {
            failures.push(format!("{name}\n--- want\n{want}--- got\n{got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} cuda programs differ (BLESS=1 rewrites):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The built binary, set up to find CUDA: the machine's own, or else the fake
/// driver (None, with the skip reported, where it cannot be built); and
/// whether it is the fake.
fn tsh_on_cuda(what: &str) -> Option<(Command, bool)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tsh"));
    if Device::Cuda(0).check_available().is_ok() {
        return Some((cmd, false));
    }
    match common::fakecuda::libdir() {
        Ok(dir) => {
            cmd.env("LD_LIBRARY_PATH", &dir)
                .env("TSH_KERNEL_CACHE", dir.join("ptx"))
                .env("FAKECUDA_CACHE", dir.join("cache"));
            Some((cmd, true))
        }
        Err(why) => {
            eprintln!("{what} on cuda:0: skipped: {why}");
            None
        }
    }
}

#[test]
fn check_device_cuda_passes() {
    let Some((mut cmd, _)) = tsh_on_cuda("tsh --check-device cuda") else {
        return;
    };
    let (ok, text) = common::run_to_end(cmd.args(["--check-device", "cuda"]));
    let last = text.lines().last().unwrap_or_default().to_string();
    let (same, of) = last
        .split_once(" of ")
        .map(|(a, b)| (a.to_string(), b.split(' ').next().unwrap_or("").to_string()))
        .unwrap_or_default();
    assert!(
        ok && !same.is_empty() && same == of && of.parse::<usize>().is_ok_and(|n| n > 400),
        "--check-device cuda did not pass:\n{text}"
    );
}

#[test]
fn devices_command_lists_the_drivers_device_name() {
    let Some((mut cmd, fake)) = tsh_on_cuda(":devices") else {
        return;
    };
    let (ok, text) = common::run_to_end(cmd.args(["-c", ":devices"]));
    let line = text.lines().find(|l| l.starts_with("cuda:0")).unwrap_or("");
    let name = line.trim_start_matches("cuda:0").trim();
    assert!(
        ok && !name.is_empty(),
        ":devices did not list cuda:0:\n{text}"
    );
    // On the fake driver the name says it is an emulation (never a GPU's).
    assert!(!fake || name.contains("fake"), "{name}");
}

/// Without any CUDA library: a clean `device` error and is_available() False.
#[test]
fn without_cuda_libraries_cuda_is_a_clean_device_error() {
    let empty = std::env::temp_dir().join(format!("tsh-no-cuda-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    let (_, text) = common::run_to_end(
        Command::new(env!("CARGO_BIN_EXE_tsh"))
            .env("LD_LIBRARY_PATH", &empty)
            .args([
                "-c",
                "print(torch.cuda.is_available())\nx = torch.ones(2).cuda()",
            ]),
    );
    let _ = std::fs::remove_dir(&empty);
    if text.starts_with("True") {
        eprintln!("no-library check: skipped: this machine has CUDA on the loader's own path");
        return;
    }
    assert!(
        text.starts_with("False\n")
            && text
                .contains("error[device]: cannot use cuda:0: no CUDA device: libcuda.so not found")
            && !text.contains("panicked"),
        "{text}"
    );
}

/// A driver that finds no GPU: the same clean error, saying so.
#[test]
fn a_driver_without_a_gpu_is_a_clean_device_error() {
    if Device::Cuda(0).check_available().is_ok() {
        return;
    }
    let Ok(dir) = common::fakecuda::libdir() else {
        eprintln!("driver without a GPU: skipped: the fake driver cannot be built");
        return;
    };
    let (ok, text) = common::run_to_end(
        Command::new(env!("CARGO_BIN_EXE_tsh"))
            .env("LD_LIBRARY_PATH", &dir)
            .env("FAKECUDA_DEVICES", "0")
            .args([
                "-c",
                "print(torch.cuda.is_available(), torch.cuda.device_count())\ntorch.zeros(1, device='cuda')",
            ]),
    );
    assert!(
        !ok && text.starts_with("False 0\n")
            && text.contains("no CUDA device: the driver is installed but found no GPU"),
        "{text}"
    );
}

/// The fake driver's AddressSanitizer mode finds what it is for: a kernel that
/// reads past its buffer is reported, with the kernel's name and source line.
#[test]
fn asan_reports_an_out_of_bounds_kernel_read() {
    if std::env::var_os("TSH_OOB_KERNEL").is_some() {
        read_past_the_end();
        return;
    }
    if Device::Cuda(0).check_available().is_ok() {
        return; // a real GPU has no AddressSanitizer mode
    }
    let (Ok(dir), Some(asan)) = (common::fakecuda::libdir(), common::fakecuda::libasan()) else {
        eprintln!("ASAN on the fake driver: skipped: no C++ compiler with libasan");
        return;
    };
    let (ok, text) = common::run_to_end(
        common::this_test_again("asan_reports_an_out_of_bounds_kernel_read")
            .env("LD_LIBRARY_PATH", &dir)
            .env("FAKECUDA_CACHE", dir.join("cache"))
            .env("FAKECUDA_ASAN", "1")
            .env("LD_PRELOAD", asan)
            .env("ASAN_OPTIONS", "detect_leaks=0")
            .env("TSH_OOB_KERNEL", "1"),
    );
    assert!(
        !ok
            && text.contains("AddressSanitizer: heap-buffer-overflow")
            // The frame names the kernel and its source line (4: the read).
            && text
                .lines()
                .any(|l| l.contains("in read_past_the_end ") && l.trim_end().ends_with(":4")),
        "{text}"
    );
}

/// Four floats, and a kernel that reads the fifth.
fn read_past_the_end() {
    use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
    const SRC: &str = "\
extern \"C\" __global__ void read_past_the_end(const float* x, float* out) {
    unsigned i = threadIdx.x;
    // x has 4 elements: i + 4 is past the end.
    out[i] = x[i + 4];
}
";
    let ctx = CudaContext::new(0).expect("context");
    let stream = ctx.default_stream();
    let ptx = cudarc::nvrtc::compile_ptx(SRC).expect("compile");
    let f = ctx
        .load_module(ptx)
        .and_then(|m| m.load_function("read_past_the_end"))
        .expect("load");
    let x = stream.alloc_zeros::<f32>(4).expect("alloc");
    let mut out = stream.alloc_zeros::<f32>(1).expect("alloc");
    let mut launch = stream.launch_builder(&f);
    launch.arg(&x).arg(&mut out);
    // SAFETY: the arguments match the kernel's (that it reads out of bounds is the point).
    unsafe { launch.launch(LaunchConfig::for_num_elems(1)) }.expect("launch");
    stream.synchronize().expect("synchronize");
}
