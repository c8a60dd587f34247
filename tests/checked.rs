//! Checked transcripts (`#>` lines hold the expected output), replayed as
//! `tsh --verify` does; they cover the teaching tools, which keep going after
//! an error as the REPL does. `BLESS=1` rewrites the `#>` lines.

use std::path::Path;

mod common;

#[test]
fn checked_transcripts_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/checked");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/checked")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "tsh"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut report = String::new();
    let mut ok = true;
    if std::env::var_os("BLESS").is_some() {
        for path in &files {
            let src = std::fs::read_to_string(path).unwrap();
            std::fs::write(path, tsh::teach::transcript::bless(&src)).unwrap();
        }
        return;
    }
    for device in common::devices("checked transcripts") {
        for path in &files {
            let src = std::fs::read_to_string(path).unwrap();
            let name = format!(
                "{} on {device}",
                path.file_name().unwrap().to_string_lossy()
            );
            ok &= tsh::teach::transcript::verify_on(&src, &name, &mut report, device).is_ok();
        }
    }
    assert!(ok, "{report}");
}
