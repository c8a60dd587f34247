//! Nothing the user types crashes tsh: a bounded run of the in-tree fuzzer
//! (generated and mutated programs, in-process), the kept crashers and a list of
//! edge cases through the built binary (no panic, no signal, no hang past 10 s),
//! and bytes that are not UTF-8.

mod fuzzer;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fuzzer::generate::Gen;
use fuzzer::run::{Mode, Outcome, install, on_deep_stack, run_one, seeds, tsh_files};

/// How many fuzz inputs CI runs (the million-input runs use examples/fuzz.rs).
const CI_INPUTS: u64 = 4000;
/// ...or fewer, if they take longer than this.
const CI_BUDGET: Duration = Duration::from_secs(120);

#[test]
fn fuzz_inputs_never_panic_or_hang() {
    let panics = on_deep_stack(|| {
        let scratch = scratch_dir("inproc");
        install(scratch.join("hang.tsh"));
        std::env::set_current_dir(&scratch).expect("enter the scratch folder");
        let mut g = Gen::new(20261123, seeds());
        let start = Instant::now();
        let mut panics = vec![];
        let mut n = 0;
        while n < CI_INPUTS && start.elapsed() < CI_BUDGET {
            let src = g.input();
            let mode = match n % 4 {
                0 => Mode::Script,
                k => Mode::Repl { color: k == 3 },
            };
            if let (Outcome::Panic(msg), _) = run_one(&src, mode) {
                panics.push(format!("{msg}\n--- input ---\n{src}"));
            }
            n += 1;
        }
        assert!(n >= 500, "only {n} fuzz inputs ran in {CI_BUDGET:?}");
        panics
    });
    assert!(
        panics.is_empty(),
        "{} panics; first:\n{}",
        panics.len(),
        panics[0]
    );
}

/// Run the binary on `src` as a script file, as `-c` and piped into the REPL;
/// each must end with status 0 or 1 within 10 s.
fn survives(name: &str, src: &[u8]) {
    let dir = scratch_dir(name);
    let file = dir.join("input.tsh");
    std::fs::write(&file, src).expect("write the input");
    let mut runs: Vec<(String, Command, Option<&[u8]>)> = vec![];
    let mut as_file = Command::new(env!("CARGO_BIN_EXE_tsh"));
    as_file.arg(&file);
    runs.push(("file".into(), as_file, None));
    if let Ok(text) = std::str::from_utf8(src)
        && !text.contains('\0')
        && text.len() < 100_000
    {
        let mut as_c = Command::new(env!("CARGO_BIN_EXE_tsh"));
        as_c.arg("-c").arg(text);
        runs.push(("-c".into(), as_c, None));
    }
    runs.push((
        "stdin".into(),
        Command::new(env!("CARGO_BIN_EXE_tsh")),
        Some(src),
    ));
    for (how, mut cmd, stdin) in runs {
        let mut child = cmd
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .env("XDG_DATA_HOME", &dir)
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start tsh");
        if let Some(bytes) = stdin {
            let mut pipe = child.stdin.take().expect("stdin pipe");
            let bytes = bytes.to_vec();
            std::thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
        }
        // Drain stderr while it runs: a long error must not block on a full pipe.
        let mut stderr = child.stderr.take().expect("stderr pipe");
        let drain = std::thread::spawn(move || {
            let mut err = String::new();
            let _ = std::io::Read::read_to_string(&mut stderr, &mut err);
            err
        });
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = child.try_wait().expect("wait for tsh") {
                break s;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{name} ({how}): still running after 10 s");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let err = drain.join().unwrap_or_default();
        assert!(
            matches!(status.code(), Some(0 | 1)),
            "{name} ({how}): {status}\n{}",
            err.chars().take(2000).collect::<String>()
        );
        assert!(!err.contains("panicked"), "{name} ({how}) panicked:\n{err}");
    }
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("fuzz")
        .join(name);
    std::fs::create_dir_all(&dir).expect("make a scratch folder");
    dir
}

#[test]
fn kept_crashers_survive_the_binary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzzer/regressions");
    let paths = tsh_files(&dir);
    assert!(!paths.is_empty(), "no regressions in {}", dir.display());
    for p in paths {
        let name = p
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        survives(&name, &std::fs::read(&p).expect("read a regression"));
    }
}

/// Inputs built to be extreme: nesting, length, numbers, sizes, recursion.
fn edge_cases() -> Vec<(&'static str, Vec<u8>)> {
    let deep = |open: &str, close: &str, n: usize| {
        format!("{}1{}", open.repeat(n), close.repeat(n)).into_bytes()
    };
    vec![
        ("deep_parens", deep("(", ")", 100_000)),
        ("deep_lists", deep("[", "]", 100_000)),
        ("deep_braces", format!("{}1{}", "if 1 {".repeat(5000), "}".repeat(5000)).into_bytes()),
        ("unclosed", "(".repeat(200_000).into_bytes()),
        ("minus_chain", format!("{}1", "-".repeat(200_000)).into_bytes()),
        ("not_chain", format!("{}1", "not ".repeat(100_000)).into_bytes()),
        ("pow_chain", format!("1{}", " ** 1".repeat(100_000)).into_bytes()),
        ("plus_chain", format!("1{}", " + 1".repeat(100_000)).into_bytes()),
        ("attr_chain", format!("x = ones(2, 2)\nx{}", ".T".repeat(100_000)).into_bytes()),
        ("index_chain", format!("x = ones(2)\nx{}", "[0:2]".repeat(50_000)).into_bytes()),
        ("call_chain", format!("f = abs\nf{}", "(1)".repeat(50_000)).into_bytes()),
        ("long_number", "9".repeat(100_000).into_bytes()),
        ("long_float", format!("1.{}e999999999999", "9".repeat(10_000)).into_bytes()),
        ("long_string", format!("s = \"{}\"\nlen(s)", "a".repeat(1_000_000)).into_bytes()),
        ("long_line_of_statements", "x = 1; ".repeat(100_000).into_bytes()),
        ("huge_zeros", b"zeros(10**12, 10**12)".to_vec()),
        ("overflowing_shape", b"zeros(2**62, 2**62, 2**62)".to_vec()),
        ("negative_shape", b"ones(-5, 3)".to_vec()),
        ("huge_repeat", b"ones(2).repeat(2**40, 2**40)".to_vec()),
        ("huge_expand", b"ones(1).expand(2**62).sum()".to_vec()),
        ("huge_list_repeat", b"[0] * 10**15".to_vec()),
        ("list_doubling", b"x = [1]\nfor i in range(80) { x = x + x }".to_vec()),
        ("string_doubling", b"s = \"ab\"\nfor i in range(80) { s = s + s }".to_vec()),
        ("string_repeat", b"\"ab\" * 2**62".to_vec()),
        ("range_list", b"list(range(10**15))".to_vec()),
        ("recursion", b"fn f(n) { return f(n + 1) }\nf(0)".to_vec()),
        ("mutual_recursion", b"fn f(n) { return g(n) }\nfn g(n) { return f(n) }\nf(0)".to_vec()),
        ("int_overflow", b"x = 9223372036854775807\nx + 1\nx * x\n-(-x - 1)\n2 ** 64\n(-x - 1) // -1".to_vec()),
        ("int_tensor_overflow", b"t = tensor([9223372036854775807])\nt + 1\nt * t\n(-t - 1) // -1\n(-t - 1) % -1".to_vec()),
        ("division_by_zero", b"1 // 0\n1 % 0\ntensor([1]) // 0".to_vec()),
        ("nan_everywhere", b"t = tensor([float('nan'), float('inf'), -float('inf')])\nt.sort()\nt.max()\nt.argmax()\nt.unique()\nt.int()\nt.topk(2)".to_vec()),
        ("empty_everything", b"e = zeros(0, 3)\ne.sum()\ne.mean()\ne.max(0)\ne.argmax()\ne.min()\ne.std()\ne @ zeros(3, 0)\ne.sort()\ne.reshape(-1, 0)".to_vec()),
        ("null_bytes", b"x = 1\0\0\n\0print(x)".to_vec()),
        ("bad_utf8", b"x = \xff\xfe 1\nprint(\"\xc3\x28\")\n".to_vec()),
        ("bom_and_crlf", b"\xef\xbb\xbfx = 1\r\nprint(x)\r\n".to_vec()),
        ("lone_surrogate_like", "s = \"\\ud800\"\nprint(s)".as_bytes().to_vec()),
        ("commands", b":set precision 99999999999\n:set linewidth 0\n:set threshold -1\n:explain\n:why\n:graph\n:time\n:load\n:save\nzeros(3, 3)".to_vec()),
        ("self_reference", b"x = [1]\nx.append(x)\nprint(x)\nx == x\nx < x\ntensor(x)\nd = dict(a=1)\nd[\"d\"] = d\nd\ny = [1]\ny.append(y)\nx == y".to_vec()),
        ("deep_nesting_by_loop", b"x = []\nfor i in range(300000) { x = [x] }\nprint(x)\nx == x\nstr(x)\ntensor(x)\nlen(x)".to_vec()),
        ("deep_autograd_chain", b"x = ones(1, requires_grad=true)\ny = x\nfor i in range(100000) { y = y * 1.0 }\ny.backward()\nx.grad".to_vec()),
        // Piped into the prompt, each line is an entry: history and completion
        // bookkeeping must not make a long pipe quadratic.
        ("many_lines_and_names", (0..20_000).map(|i| format!("x{} = {i}\n", i % 5000)).collect::<String>().into_bytes()),
        ("long_loop_of_tensors", b"l = []\nfor i in range(100000) { l.append(ones(1)) }\nlen(l)".to_vec()),
    ]
}

#[test]
fn edge_cases_survive_the_binary() {
    for (name, src) in edge_cases() {
        survives(name, &src);
    }
}
