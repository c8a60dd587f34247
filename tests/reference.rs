//! The one table of builtins and commands: every row has an example that runs,
//! and docs/reference.md is generated from it.

use tsh::interp::builtins;
use tsh::interp::{Buffer, Interp};
use tsh::repl::commands::{COMMANDS, dispatch};

fn fresh() -> Interp {
    Interp::new(Box::new(Buffer::default()))
}

#[test]
fn every_builtin_example_runs() {
    let mut failures = vec![];
    for b in builtins::all().chain(builtins::value_methods()) {
        assert!(!b.example.is_empty(), "{} has no example", b.name);
        assert!(
            !b.help.is_empty() && !b.sig.is_empty(),
            "{} lacks help",
            b.name
        );
        let mut it = fresh();
        match it.run(b.example, true) {
            Ok(()) => {}
            // No GPU backend: the CUDA examples must fail as device errors, not otherwise.
            Err(e) if b.example.contains("cuda") && e.kind == tsh::error::ErrorKind::Device => {}
            Err(e) => failures.push(format!("{}: {} -> {e}", b.name, b.example)),
        }
    }
    assert!(
        failures.is_empty(),
        "examples that fail:\n{}",
        failures.join("\n")
    );
}

#[test]
fn every_command_example_runs() {
    for c in COMMANDS {
        let mut it = fresh();
        it.run("x = ones(2, 2); y = x.T", false).unwrap();
        // :why needs an error to explain.
        it.set_last_error(
            tsh::error::Error::new(tsh::error::ErrorKind::Shape, "demo"),
            "x @ y",
        );
        if let Err(e) = dispatch(&mut it, c.example) {
            panic!(":{} example {:?} failed: {e}", c.name, c.example);
        }
        assert!(c.example.starts_with(&format!(":{}", c.name)));
    }
}

#[test]
fn reference_doc_is_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/reference.md");
    let text = tsh::repl::reference::markdown();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        on_disk == text,
        "docs/reference.md is out of date: run BLESS=1 cargo test --release --test reference"
    );
}
