//! The library's own tests (src/unit_tests.rs), run on every core with
//! libtest's output: `test <module>::<name> ... ok` and a `test result:`
//! line. Arguments that do not start with `-` keep the tests whose names
//! contain one of them, as libtest's filters do.
//!
//! First, two checks that no test is left out: every file with a
//! `unit_tests!` block is in `all()`, and no `#[test]` is left in the
//! library (which has no test harness of its own).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod common;

type Body = fn() -> Result<(), String>;

fn main() -> ExitCode {
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let modules = tsh::unit_tests::all();
    let mut failures = left_out(&modules);
    let total: usize = modules.iter().map(|m| m.list.len()).sum();
    let tests: Vec<(String, Body)> = modules
        .iter()
        .flat_map(|m| {
            let module = m.module.trim_start_matches("tsh::");
            m.list
                .iter()
                .map(move |&(name, body)| (format!("{module}::{name}"), body))
        })
        .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(f)))
        .collect();
    println!("\nrunning {} tests", tests.len());
    let failed = run(&tests);
    let passed = tests.len() - failed.len();
    failures.extend(failed);
    for f in &failures {
        println!("\n---- {f}");
    }
    let verdict = if failures.is_empty() { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {verdict}. {passed} passed; {} failed; 0 ignored; 0 measured; {} filtered out\n",
        failures.len(),
        total - tests.len(),
    );
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

thread_local! {
    /// The last panic on this thread, with its place (the hook's text).
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs the tests side by side; the failures, each with its message. A
/// panic's text is kept for its test's failure, not printed as it happens
/// (several tests panic on purpose inside worker threads, and libtest
/// showed a passing test's output only on failure too).
fn run(tests: &[(String, Body)]) -> Vec<String> {
    std::panic::set_hook(Box::new(|info| {
        LAST_PANIC.with(|l| *l.borrow_mut() = Some(info.to_string()));
    }));
    let results = common::on_every_core(tests, |(name, body)| {
        // A panic an earlier test caught on purpose is not this one's.
        LAST_PANIC.with(|l| l.borrow_mut().take());
        let outcome = match catch_unwind(AssertUnwindSafe(body)) {
            Ok(result) => result,
            Err(payload) => Err(LAST_PANIC
                .with(|l| l.borrow_mut().take())
                .unwrap_or_else(|| panic_message(payload.as_ref()))),
        };
        let verdict = if outcome.is_ok() { "ok" } else { "FAILED" };
        println!("test {name} ... {verdict}");
        outcome.err().map(|message| format!("{name}: {message}"))
    });
    results.into_iter().flatten().collect()
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panicked".to_string()
    }
}

/// The checks that no test is left out: problems found, as failures.
fn left_out(modules: &[tsh::unit_tests::Tests]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let registered: Vec<&str> = modules.iter().map(|m| m.file).collect();
    let mut problems = Vec::new();
    for file in rust_files(&root.join("src")) {
        let rel = file.strip_prefix(root).unwrap_or(&file);
        let rel = rel.to_string_lossy().replace('\\', "/");
        // The binary's files have libtest (`cargo test` runs them).
        if rel == "src/main.rs" || rel.starts_with("src/kernel/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        if text.contains("crate::unit_tests! {") && !registered.contains(&rel.as_str()) {
            problems.push(format!(
                "{rel}: its unit_tests! block is missing from src/unit_tests.rs's all()"
            ));
        }
        if text.lines().any(|l| l.trim() == "#[test]") {
            problems.push(format!(
                "{rel}: a #[test] in the library never runs; put it in a crate::unit_tests! block"
            ));
        }
    }
    problems
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}
