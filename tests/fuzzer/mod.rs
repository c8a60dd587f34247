//! The in-tree fuzzer: random and mutated programs run through parse + evaluate
//! (`tests/fuzz.rs` runs a bounded number in CI; `examples/fuzz.rs` runs millions).
#![allow(dead_code)]

pub mod generate;
pub mod run;
