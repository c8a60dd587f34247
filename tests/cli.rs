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
