//! Long fuzz runs: `cargo run --release --example fuzz -- --count 1000000 --jobs 2`.
//!
//! The supervisor starts `--jobs` worker processes, each running its share of
//! generated and mutated programs in-process. A panic is saved as
//! `OUT/panic-SEED-N.tsh`; a worker killed by a signal (stack overflow, abort) or
//! stopped by the hang watchdog leaves its last input as `OUT/crash-SEED.tsh`,
//! and the supervisor starts a fresh worker for what was left. Crashers go to
//! tests/fuzzer/regressions once fixed.

#[path = "../tests/fuzzer/mod.rs"]
mod fuzzer;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use fuzzer::generate::Gen;
use fuzzer::run::{Mode, Outcome, SOFT_LIMIT, install, on_deep_stack, run_one, seeds};

struct Opts {
    count: u64,
    jobs: u64,
    seed: u64,
    out: PathBuf,
    worker: bool,
    /// Print the inputs instead of running them (to see what the generator makes).
    print: bool,
}

fn parse_opts() -> Opts {
    let mut o = Opts {
        count: 100_000,
        jobs: 2,
        seed: 1,
        out: PathBuf::from("target/fuzz"),
        worker: false,
        print: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--count" => o.count = value.parse().unwrap_or(o.count),
            "--jobs" => o.jobs = value.parse().unwrap_or(o.jobs).max(1),
            "--seed" => o.seed = value.parse().unwrap_or(o.seed),
            "--out" => o.out = PathBuf::from(value),
            "--worker" | "--print" => {
                o.worker |= args[i] == "--worker";
                o.print |= args[i] == "--print";
                i += 1;
                continue;
            }
            other => {
                eprintln!("unknown option {other}; use --count N --jobs J --seed S --out DIR");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    o
}

fn main() {
    let opts = parse_opts();
    if opts.print {
        let mut g = Gen::new(opts.seed, seeds());
        for _ in 0..opts.count {
            println!("{}\n----", g.input());
        }
        return;
    }
    let _ = std::fs::create_dir_all(opts.out.join("work"));
    if opts.worker {
        let code = on_deep_stack(move || worker(&opts));
        std::process::exit(code);
    }
    supervise(&opts);
}

fn supervise(opts: &Opts) {
    let start = Instant::now();
    let exe = std::env::current_exe().expect("the fuzz executable's path");
    let share = opts.count.div_ceil(opts.jobs);
    let mut crashes = 0;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..opts.jobs)
            .map(|j| {
                let exe = exe.clone();
                scope.spawn(move || {
                    let mut seed = opts.seed * 1000 + j;
                    let mut left = share;
                    let mut crashes = 0;
                    while left > 0 {
                        let status = Command::new(&exe)
                            .args(["--worker", "--count", &left.to_string()])
                            .args(["--seed", &seed.to_string(), "--out"])
                            .arg(&opts.out)
                            .status()
                            .expect("start a fuzz worker");
                        if status.success() {
                            break;
                        }
                        crashes += 1;
                        let current = opts.out.join(format!("current-{seed}.tsh"));
                        let kept = opts.out.join(format!("crash-{seed}.tsh"));
                        let _ = std::fs::copy(&current, &kept);
                        eprintln!(
                            "worker {seed} died ({status}); its input is in {}",
                            kept.display()
                        );
                        left = left.saturating_sub(done_of(&opts.out, seed));
                        seed += opts.jobs;
                    }
                    crashes
                })
            })
            .collect();
        for h in handles {
            crashes += h.join().unwrap_or(1);
        }
    });
    let panics = std::fs::read_dir(&opts.out)
        .map(|d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("panic-"))
                .count()
        })
        .unwrap_or(0);
    println!(
        "fuzz: {} inputs, {} jobs, {:.0} s, {panics} panics, {crashes} worker crashes",
        opts.count,
        opts.jobs,
        start.elapsed().as_secs_f64()
    );
    if crashes + panics as u64 > 0 {
        std::process::exit(1);
    }
}

fn done_of(out: &Path, seed: u64) -> u64 {
    std::fs::read_to_string(out.join(format!("done-{seed}")))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}

fn worker(opts: &Opts) -> i32 {
    let seed = opts.seed;
    install(opts.out.join(format!("hang-{seed}.tsh")));
    let current = opts.out.join(format!("current-{seed}.tsh"));
    // Programs may save files: let them land in a scratch folder.
    let _ = std::env::set_current_dir(opts.out.join("work"));
    let current = std::path::absolute(&current).unwrap_or(current);
    let out = std::path::absolute(&opts.out).unwrap_or(opts.out.clone());
    let mut gen_ = Gen::new(seed, seeds());
    let mut kinds: BTreeMap<&'static str, u64> = BTreeMap::new();
    let (mut panics, mut slow, mut slowest) = (0, 0, Duration::ZERO);
    let start = Instant::now();
    for i in 0..opts.count {
        let src = gen_.input();
        let _ = std::fs::write(&current, &src);
        let mode = match i % 4 {
            0 => Mode::Script,
            n => Mode::Repl { color: n == 3 },
        };
        let (outcome, took) = run_one(&src, mode);
        if took > slowest {
            slowest = took;
        }
        if took >= SOFT_LIMIT {
            slow += 1;
            let _ = std::fs::write(out.join(format!("slow-{seed}-{i}.tsh")), &src);
        }
        match outcome {
            Outcome::Ok => *kinds.entry("ok").or_default() += 1,
            Outcome::Error(kind) => *kinds.entry(kind).or_default() += 1,
            Outcome::Panic(msg) => {
                panics += 1;
                let text = format!("# panic: {}\n{src}", msg.replace('\n', " "));
                let _ = std::fs::write(out.join(format!("panic-{seed}-{i}.tsh")), text);
                eprintln!("PANIC {msg}");
            }
        }
        if (i + 1) % 1000 == 0 {
            let _ = std::fs::write(out.join(format!("done-{seed}")), (i + 1).to_string());
        }
        if (i + 1) % 50_000 == 0 {
            eprintln!(
                "worker {seed}: {} inputs, {:.0} s",
                i + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    let _ = std::fs::write(out.join(format!("done-{seed}")), opts.count.to_string());
    println!(
        "worker {seed}: {} inputs in {:.0} s; {panics} panics, {slow} slow (slowest {:.2} s); outcomes {kinds:?}",
        opts.count,
        start.elapsed().as_secs_f64(),
        slowest.as_secs_f64()
    );
    // Panics are files in OUT, counted by the supervisor; a non-zero status means a crash.
    0
}
