//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::sync::Mutex;

use tsh::interp::{Buffer, Interp};
use tsh::print::error::render;
use tsh::tensor::Device;

/// The devices a suite runs on: the CPU, and CUDA where this machine has it. A
/// missing device is reported as skipped, with the reason, never passed: once
/// per suite, written straight to stderr so that `cargo test` shows it.
pub fn devices(suite: &str) -> Vec<Device> {
    use std::io::Write;
    static REPORTED: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let mut out = vec![Device::Cpu];
    match Device::Cuda(0).check_available() {
        Ok(()) => out.push(Device::Cuda(0)),
        Err(e) => {
            let mut seen = REPORTED.lock().unwrap_or_else(|p| p.into_inner());
            if !seen.iter().any(|s| s == suite) {
                seen.push(suite.to_string());
                let _ = writeln!(
                    std::io::stderr(),
                    "{suite} on cuda:0: skipped: {}",
                    e.message
                );
            }
        }
    }
    out
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
