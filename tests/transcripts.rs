//! Golden transcripts: each `tests/transcripts/NAME.tsh` runs as `tsh --echo`
//! would, and its output must equal `NAME.out`. `BLESS=1 cargo test` rewrites them.

use std::path::Path;

use tsh::interp::Buffer;
use tsh::print::error::render;
use tsh::tensor::Device;

mod common;

/// What `tsh --echo` prints for `src` with tensors made on `device`, as the CPU
/// would print it.
fn transcript(src: &str, name: &str, device: Device) -> String {
    let buf = Buffer::default();
    let mut it = common::interp_on(device, &buf);
    let result = tsh::script::run_script(&mut it, src, true);
    let mut out = tsh::teach::transcript::as_printed_on_cpu(&buf.take(), device);
    if let Err(e) = result {
        out.push_str(&render(&e, src, name));
    }
    out
}

/// Transcripts about the device itself, which print differently on a GPU as
/// PyTorch's do (the device's name, `.numpy()` refused for a CUDA tensor, the
/// error for CUDA without a driver): they run on the CPU only.
const ABOUT_THE_DEVICE: &[&str] = &[
    "errors_device.tsh",
    "tensors.tsh",
    "python_blocks.tsh",
    "tutorial_autograd.tsh",
    "tutorial_tensors.tsh",
    "course_notes.tsh",
    "torch_api.tsh",
    "numpy_bridge.tsh",
    "d2l_calculus_probability.tsh",
    "tutorial_quickstart_loops.tsh",
];

#[test]
fn transcripts_match() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let bless = std::env::var_os("BLESS").is_some();
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("transcripts dir")
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    let devices = if bless {
        vec![Device::Cpu]
    } else {
        common::devices("transcripts")
    };
    for (path, device) in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "tsh"))
        .flat_map(|p| devices.iter().map(move |d| (p, *d)))
    {
        let name = path
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .to_string();
        if device != Device::Cpu && ABOUT_THE_DEVICE.contains(&name.as_str()) {
            continue;
        }
        count += 1;
        let src = std::fs::read_to_string(path).expect("read transcript");
        let got = transcript(&src, &name, device);
        let expected_path = path.with_extension("out");
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        // Blessing leaves alone what differs only in object addresses.
        if bless {
            if !tsh::teach::transcript::same_output(&got, &want) {
                std::fs::write(&expected_path, &got).expect("write expectation");
            }
            continue;
        }
        if !tsh::teach::transcript::same_output(&got, &want) {
            failures.push(format!(
                "{name} on {device}\n--- want\n{want}--- got\n{got}"
            ));
        }
    }
    assert!(count > 0, "no transcripts found");
    assert!(
        failures.is_empty(),
        "{} transcripts differ (BLESS=1 rewrites):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
