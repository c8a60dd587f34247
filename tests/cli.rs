//! The built binary, run as a user would: scripts, -c, --echo, exit codes.

use std::process::Command;

fn tsh(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tsh"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tsh");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn script(name: &str, body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tsh-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, body).expect("write script");
    path.display().to_string()
}

#[test]
fn script_prints_only_print() {
    let path = script(
        "a.tsh",
        "t = tensor([[1, 2], [3, 4]])\nt.sum()\nprint(t.tolist(), t.stride())\n",
    );
    let (code, out, err) = tsh(&[&path]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "[[1, 2], [3, 4]] (2, 1)\n");
}

#[test]
fn error_exits_1_with_file_line_col() {
    let path = script(
        "bad.tsh",
        "x = 1\nprint(x)\ny = ones(2) @ ones(3)\nprint(2)\n",
    );
    let (code, out, err) = tsh(&[&path]);
    assert_eq!(code, 1);
    assert_eq!(out, "1\n");
    assert!(err.contains("error[shape]"), "{err}");
    assert!(err.contains(&format!("{path}:3:5")), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn dash_c_runs_code() {
    let (code, out, _) = tsh(&["-c", "print(arange(3).float().mean().item())"]);
    assert_eq!(code, 0);
    assert_eq!(out, "1.0\n");
}

#[test]
fn echo_shows_a_transcript() {
    let (code, out, _) = tsh(&["-c", "x = 2\nx * 3", "--echo"]);
    assert_eq!(code, 0);
    assert_eq!(out, "tsh> x = 2\ntsh> x * 3\n6\n");
}

#[test]
fn missing_file_is_an_io_error() {
    let (code, _, err) = tsh(&["/nonexistent/file.tsh"]);
    assert_eq!(code, 1);
    assert!(err.contains("error[io]"), "{err}");
}

#[test]
fn no_escape_codes_when_piped() {
    let (_, out, _) = tsh(&["-c", "ones(2)", "--echo"]);
    assert!(!out.contains('\x1b'), "{out:?}");
}

#[test]
fn deep_nesting_and_recursion_are_errors_not_crashes() {
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    let (code, _, err) = tsh(&["-c", &deep]);
    assert_eq!(code, 1);
    assert!(err.contains("error[syntax]"), "{err}");
    // Unclosed braces: each `{` is parsed once (a dict-or-set display), not
    // once as a dict and again as a set, which doubled the work per level.
    for open in ["{", "[", "({"] {
        let (code, _, err) = tsh(&["-c", &open.repeat(60)]);
        assert_eq!(code, 1);
        assert!(err.contains("error[syntax]"), "{err}");
    }
    let long_sum = format!("x = 1{}", " + 1".repeat(20000));
    let (code, _, err) = tsh(&["-c", &long_sum]);
    assert_eq!(code, 1, "{err}");
    let (code, _, err) = tsh(&["-c", "fn f(n) { return f(n) }\nf(1)"]);
    assert_eq!(code, 1);
    assert!(err.contains("error[recursion]"), "{err}");
}

#[test]
fn every_lesson_script_runs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    for entry in std::fs::read_dir(dir).expect("scripts dir").flatten() {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "tsh") {
            let (code, _, err) = tsh(&[&path.display().to_string()]);
            assert_eq!(code, 0, "{}: {err}", path.display());
        }
    }
}

fn tsh_stdin(args: &[&str], input: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tsh"));
    cmd.args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("run tsh");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn verify_passes_and_reports_mismatches() {
    let good = script(
        "good_transcript.tsh",
        "x = tensor([1, 2])\nx * 2\n#> tensor([2, 4])\n#> [2] int64 cpu\ny\n#> error[name]: name 'y' is not defined\n",
    );
    let (code, out, err) = tsh(&["--verify", &good]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("2 checks passed") || out.contains("3 checks passed"),
        "{out}"
    );
    let bad = script(
        "bad_transcript.tsh",
        "x = tensor([1, 2])\nx * 3\n#> tensor([2, 4])\n#> [2] int64 cpu\n",
    );
    let (code, out, _) = tsh(&["--verify", &good, &bad]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("MISMATCH") && out.contains("- tensor([2, 4])"),
        "{out}"
    );
    assert!(out.contains("+ tensor([3, 6])"), "{out}");
}

#[test]
fn repl_save_writes_a_transcript_that_verifies() {
    let dir = std::env::temp_dir().join(format!("tsh-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("session.tsh");
    let input = format!(
        "a = arange(6).reshape(2, 3)\na.T\na @ a\n:explain a + 1\nfor i in range(2) {{\n  print(i)\n}}\n:save {}\n",
        file.display()
    );
    let home = dir.display().to_string();
    let (code, out, err) = tsh_stdin(&[], &input, &[("NO_COLOR", "1"), ("XDG_DATA_HOME", &home)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("error[dtype]") || err.contains("error[shape]"),
        "{err}"
    );
    let saved = std::fs::read_to_string(&file).expect("saved transcript");
    assert!(saved.contains("#> tensor([[0, 3],"), "{saved}");
    assert!(saved.contains("#> error[shape]"), "{saved}");
    let (code, out, err) = tsh(&["--verify", &file.display().to_string()]);
    assert_eq!(code, 0, "{out}{err}\n{saved}");
    // History went to the data directory.
    let hist = std::fs::read_to_string(dir.join("tsh/history")).unwrap_or_default();
    assert!(hist.contains("a @ a"), "{hist}");
}

#[test]
fn lesson_mode_shows_runs_and_narrates() {
    let path = script(
        "lesson.tsh",
        "# First, a tensor.\nx = tensor([1, 2, 3])\n# Its double:\nx * 2\n:vars\n",
    );
    let (code, out, err) = tsh_stdin(&["--lesson", &path], "\n\n\n", &[("NO_COLOR", "1")]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("── step 1/3 ──\n# First, a tensor.\ntsh> x = tensor([1, 2, 3])"),
        "{out}"
    );
    assert!(out.contains("tsh> x * 2\ntensor([2, 4, 6])"), "{out}");
    assert!(out.contains("tsh> :vars"), "{out}");
    assert!(out.contains("end of lesson"), "{out}");
    // q quits before the next step runs.
    let (code, out, _) = tsh_stdin(&["--lesson", &path], "\nq\n", &[("NO_COLOR", "1")]);
    assert_eq!(code, 0);
    assert!(
        !out.contains("tensor([2, 4, 6])") && !out.contains("end of lesson"),
        "{out}"
    );
}

#[test]
fn no_color_means_no_escape_codes_anywhere() {
    let (_, out, err) = tsh_stdin(
        &["--no-color"],
        "imshow(eye(4))\nx = ones(2)\nx\n:explain x + 1\nx @ ones(3)\n:why\n",
        &[],
    );
    assert!(
        !out.contains('\x1b') && !err.contains('\x1b'),
        "{out:?}{err:?}"
    );
    assert!(out.contains("@"), "{out}");
}

#[test]
fn interrupt_stops_a_script_loop_cleanly() {
    // SIGINT to a running REPL that reads a script from a pipe: the loop stops
    // with an interrupt error and the next entry still runs.
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsh"))
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run tsh");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"n = 0\nwhile true { n += 1 }\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(700));
    // SAFETY: kill(2) on our own child's pid.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    stdin.write_all(b"print('still here', n > 0)\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let (so, se) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(se.contains("error[interrupt]"), "{so}{se}");
    assert!(so.contains("still here True"), "{so}{se}");
}

/// Piped input gives nothing but results: no banner, no prompts.
#[test]
fn piped_input_prints_only_results() {
    let (code, out, err) = tsh_stdin(&[], "1 + 1\n", &[("NO_COLOR", "1")]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "2\n", ""));
}

/// A string open at the end of a line is an error at once; the lines after it run.
#[test]
fn piped_unterminated_string_does_not_swallow_later_lines() {
    let (code, out, err) = tsh_stdin(&[], "print(\"abc\ndef\")\n1+1\n", &[("NO_COLOR", "1")]);
    assert_eq!(code, 0);
    assert_eq!(out, "2\n", "{err}");
    assert_eq!(
        err.matches("unterminated string literal").count(),
        2,
        "{err}"
    );
}

/// `else` on the line after `}` at the prompt, as in a script; an `if` without
/// one still runs before the next line.
#[test]
fn piped_else_after_the_closing_brace() {
    let input = "x = 1\nif x > 5 {\n  print('big')\n}\nelse {\n  print('small')\n}\nif x == 1 { print('one') }\nprint('after')\n";
    let (code, out, err) = tsh_stdin(&[], input, &[("NO_COLOR", "1")]);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "small\none\nafter\n", "")
    );
}

/// An error inside a function defined in an earlier entry shows the failing line
/// of the function and every call on the way, innermost last.
#[test]
fn an_error_in_a_function_shows_its_line_and_the_calls() {
    let input = "fn f(a) {\n    return a @ a\n}\nfn g(b) { return f(b) }\ng(ones(2, 3))\n";
    let (code, _, err) = tsh_stdin(&[], input, &[("NO_COLOR", "1")]);
    assert_eq!(code, 0);
    let want = "error[shape]: cannot matmul [2, 3] @ [2, 3]: inner dimensions 3 and 2 differ
  --> <stdin>:1:1
1 | g(ones(2, 3))
  | ^^^^^^^^^^^^^ called here
  --> <stdin>:1:18, in g
1 | fn g(b) { return f(b) }
  |                  ^^^^ called here
  --> <stdin>:2:12, in f
2 |     return a @ a
  |            ^^^^^ here
";
    assert!(err.starts_with(want), "{err}");
    // In a script, the same, with the file's line numbers.
    let path = script(
        "calls.tsh",
        &input.replace("g(ones(2, 3))", "\n\ng(ones(2, 3))"),
    );
    let (code, _, err) = tsh(&[&path]);
    assert_eq!(code, 1);
    assert!(err.contains(&format!("--> {path}:7:1\n")), "{err}");
    assert!(err.contains(&format!("--> {path}:2:12, in f\n")), "{err}");
}

/// The first lesson's Python twin runs unchanged and prints what PyTorch printed
/// for it (tests/fixtures/lesson1_python.out, from `python3 scripts/lesson1_tensors.py`).
#[test]
fn lesson_one_in_python_prints_what_pytorch_prints() {
    let root = env!("CARGO_MANIFEST_DIR");
    let (code, out, err) = tsh(&[&format!("{root}/scripts/lesson1_tensors.py")]);
    assert_eq!(code, 0, "{err}");
    let want = std::fs::read_to_string(format!("{root}/tests/fixtures/lesson1_python.out"))
        .expect("fixture");
    assert_eq!(out, want);
}

/// A Python block piped into the prompt: a blank line inside a function's body
/// does not end it, and a line back at the margin does.
#[test]
fn piped_python_blocks_keep_their_blank_lines() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsh"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .env("XDG_DATA_HOME", std::env::temp_dir())
        .spawn()
        .expect("tsh runs");
    let input = "def f(x):\n    y = x * 2\n\n    return y + 1\nprint(f(3))\nfor i in range(2):\n    print(i)\nprint('done')\n";
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("written");
    let out = child.wait_with_output().expect("tsh exits");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "7\n0\n1\ndone\n");
}

/// The kernel threads include the interpreter's own (src/threads.rs): with
/// one thread no loop leaves it, with more each loop is shared. Every op
/// whose work is split gives the same digits whatever the count, and
/// `set_num_threads` before any work sets the count the script sees.
#[test]
fn one_two_or_three_kernel_threads_give_the_same_results() {
    let body = "import torch
torch.set_num_threads(int(__import_count__))
print(torch.get_num_threads())
torch.manual_seed(0)
a = torch.randn(700, 600)
print((a * 2 + 1).sum(dim=0)[:3].tolist(), a.amax(1)[:3].tolist(), a.argmax(0)[:3].tolist())
print(a.softmax(-1)[5, :3].tolist(), a.log_softmax(0)[:2, 7].tolist())
print((a @ a.T)[3, :3].tolist(), a.T.contiguous()[1, :3].tolist())
print(a[torch.arange(0, 700, 3)].sum().item(), a.sort(1).values[2, :3].tolist())
x = torch.randn(8, 4, 32, 32)
print(torch.nn.functional.max_pool2d(x, 2).sum().item(), torch.nn.functional.layer_norm(x, (32,)).std().item())
";
    let outputs: Vec<String> = ["1", "2", "3"]
        .iter()
        .map(|n| {
            let path = script(
                &format!("threads{n}.py"),
                &body.replace("__import_count__", n),
            );
            let (code, out, err) = tsh(&[&path]);
            assert_eq!(code, 0, "{n} threads: {err}");
            let (count, rest) = out.split_once('\n').expect("a count line");
            assert_eq!(count, *n);
            rest.to_string()
        })
        .collect();
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

/// A python3 script's view of its process: `sys.argv` holds the script and
/// its arguments (hyphens included), `print(file=sys.stderr)` and
/// `sys.stderr.write` go to stderr, and `sys.exit(code)` ends the script with
/// that status (a text code is printed and gives 1), as `python3 script.py`.
#[test]
fn scripts_see_argv_stderr_and_exit_status() {
    let path = script(
        "argv.py",
        "import sys\nprint(sys.argv[1:])\nprint('oops', file=sys.stderr)\nsys.stderr.write('more\\n')\n\
         if __name__ == '__main__':\n    sys.exit(int(sys.argv[1]))\nprint('not reached')\n",
    );
    let (code, out, err) = tsh(&[&path, "3", "-v", "--x"]);
    assert_eq!((code, out.as_str()), (3, "['3', '-v', '--x']\n"));
    assert_eq!(err, "oops\nmore\n");
    let (code, out, err) = tsh(&["-c", "import sys; print(sys.argv); sys.exit('bye')"]);
    assert_eq!((code, out.as_str(), err.as_str()), (1, "['-c']\n", "bye\n"));
    let (code, _, err) = tsh(&["-c", "import sys; sys.exit()"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (code, out, _) = tsh_stdin(&[], "print(1)\nimport sys\nsys.exit(4)\nprint(2)\n", &[]);
    assert_eq!((code, out.as_str()), (4, "1\n"));
}
