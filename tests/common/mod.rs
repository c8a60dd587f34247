//! Helpers shared by the integration tests.
#![allow(dead_code)]

use tsh::interp::{Buffer, Interp};
use tsh::print::error::render;

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
