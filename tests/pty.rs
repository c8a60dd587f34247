//! End to end in a pseudo-terminal, as a user types: the real binary, its line
//! editor, Tab, multi-line entries, Ctrl-C during a loop and at the prompt,
//! Ctrl-D, and history that survives a restart.

use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Term {
    child: Child,
    master: std::fs::File,
    seen: Arc<Mutex<Vec<u8>>>,
    /// How much of `seen` earlier expectations consumed.
    mark: usize,
}

fn strip_ansi(s: &str) -> String {
    tsh::print::strip_ansi(s).replace('\r', "")
}

impl Term {
    fn spawn(data_home: &std::path::Path) -> Term {
        Term::spawn_with(data_home, &[])
    }

    fn spawn_with(data_home: &std::path::Path, args: &[&str]) -> Term {
        let (mut master, mut slave) = (0, 0);
        let ws = libc::winsize {
            ws_row: 40,
            ws_col: 120,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty fills two descriptors we then own.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &ws,
            )
        };
        assert_eq!(rc, 0, "openpty failed");
        // SAFETY: both descriptors were just opened and are owned here alone.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tsh"));
        cmd.args(args)
            .env("XDG_DATA_HOME", data_home)
            .env("HOME", data_home)
            .env("TERM", "xterm-256color")
            .env_remove("NO_COLOR")
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave));
        // SAFETY: only async-signal-safe calls between fork and exec: the child
        // gets its own session with the pty as controlling terminal, so Ctrl-C
        // typed on it becomes SIGINT for the child.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                libc::ioctl(0, libc::TIOCSCTTY, 0);
                Ok(())
            });
        }
        let child = cmd.spawn().expect("spawn tsh");
        let master = std::fs::File::from(master);
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (mut reader, mut answer) = (master.try_clone().unwrap(), master.try_clone().unwrap());
        let sink = seen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                // Answer the line editor's cursor-position query like a terminal.
                if buf[..n].windows(4).any(|w| w == b"\x1b[6n") {
                    let _ = answer.write_all(b"\x1b[1;1R");
                }
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Term {
            child,
            master,
            seen,
            mark: 0,
        }
    }

    fn send(&mut self, s: &str) {
        self.master.write_all(s.as_bytes()).unwrap();
        self.master.flush().unwrap();
    }

    /// Wait until the output since the last `settle` contains `needle`; return it.
    fn expect(&mut self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let raw = self.seen.lock().unwrap()[self.mark..].to_vec();
            let text = strip_ansi(&String::from_utf8_lossy(&raw));
            if text.contains(needle) {
                return text;
            }
            if start.elapsed() > Duration::from_secs(20) {
                panic!("timed out waiting for {needle:?}; the screen since the last step:\n{text}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Wait until the screen is quiet, then start the next step's output there
    /// (the line editor redraws the line on every key, prompt included).
    fn settle(&mut self) {
        loop {
            let n = self.seen.lock().unwrap().len();
            std::thread::sleep(Duration::from_millis(250));
            if self.seen.lock().unwrap().len() == n {
                self.mark = n;
                return;
            }
        }
    }

    /// Type `keys` once the screen is quiet.
    fn type_keys(&mut self, keys: &str) {
        self.settle();
        self.send(keys);
    }

    /// Everything shown since the start.
    fn screen(&self) -> String {
        strip_ansi(&String::from_utf8_lossy(&self.seen.lock().unwrap()))
    }

    fn banner(&mut self) {
        self.expect("tsh — the tensor shell");
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if start.elapsed() > Duration::from_secs(20) {
                let _ = self.child.kill();
                panic!("tsh did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = self.master.as_raw_fd();
    }
}

fn data_home(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("tsh-pty-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn typing_tab_multiline_and_ctrl_c() {
    let home = data_home("session");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("x = tensor([1, 2, 3])\r");
    t.type_keys("x * 2\r");
    t.expect("tensor([2, 4, 6])");
    t.expect("[3] int64 cpu");

    // Tab completes a variable, then a method of the tensor it holds.
    t.type_keys("weights = ones(2, 3)\r");
    t.type_keys("weig\t");
    t.expect("weights");
    t.type_keys(".nume\t");
    t.expect("weights.numel");
    t.type_keys("()\r");
    t.expect("6");

    // The signature of the call being typed shows as a hint.
    t.type_keys("torch.zeros(");
    t.expect("dtype=None");
    t.type_keys("2)\r");
    t.expect("tensor([0., 0.])");

    // An open brace continues the entry under a `...` prompt.
    t.type_keys("for i in range(3) {\r");
    t.expect("...");
    t.type_keys("print(i * 10)\r");
    t.type_keys("}\r");
    t.expect("20");

    // Ctrl-C stops a running loop; the variables are intact.
    t.type_keys("n = 0\r");
    t.type_keys("while true { n = n + 1 }\r");
    std::thread::sleep(Duration::from_millis(500));
    t.send("\x03");
    t.expect("error[interrupt]");
    t.type_keys("n > 0 and x.sum().item() == 6\r");
    t.expect("True");

    // Ctrl-C at the prompt throws the line away.
    t.type_keys("this is not code");
    t.type_keys("\x03");
    t.type_keys("40 + 2\r");
    let out = t.expect("42");
    assert!(
        !out.contains("error[syntax]"),
        "the interrupted line ran:\n{out}"
    );

    // Ctrl-D leaves with status 0.
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
}

#[test]
fn history_survives_a_restart() {
    let home = data_home("history");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("123 * 1000\r");
    t.expect("123000");
    t.settle();
    // Killed, not quit: history was already written after the entry.
    let _ = t.child.kill();
    let _ = t.child.wait();
    let hist = std::fs::read_to_string(home.join("tsh/history")).unwrap();
    assert!(hist.contains("123 * 1000"), "history file:\n{hist}");

    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("\x1b[A");
    t.expect("123 * 1000");
    t.type_keys("\r");
    t.expect("123000");
    t.type_keys(":quit\r");
    assert!(t.wait_exit().success());
}

/// Lines that reach the prompt together, typed ahead or pasted by a terminal
/// without bracketed paste, all run, in order, as if typed one by one.
#[test]
fn lines_typed_together_all_run() {
    let home = data_home("typeahead");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("a = 40\rb = 2\ra + b\r");
    t.expect("42");
    t.type_keys("print(a * 100 + b * 7)\r");
    t.expect("4014");
    // A pasted block, indented with a tab, runs as typed.
    t.type_keys("for i in range(3) {\r\tprint(i * 1001)\r}\rprint(\"do\" + \"ne\")\r");
    let out = t.expect("done");
    assert!(out.contains("2002") && !out.contains("error"), "{out}");
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
}

/// A Python block continues under `...` until a blank line, as in IPython; a
/// header that does not parse is an error and its body never runs.
#[test]
fn python_blocks_continue_until_a_blank_line() {
    let home = data_home("pyblock");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("def twice(v):\r");
    t.expect("...");
    t.type_keys("    return v * 2\r");
    t.expect("...");
    t.type_keys("\r");
    t.type_keys("print(twice(21))\r");
    t.expect("42");
    t.type_keys("for i in range(2):\r");
    t.type_keys("    print(f\"row {i:03d}\")\r");
    t.type_keys("\r");
    t.expect("row 001");
    t.type_keys("with torch.no_grad():\r    y = torch.ones(1, requires_grad=True) * 2\r\r");
    t.type_keys("y.requires_grad\r");
    t.expect("False");
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
}

/// A string left open at the end of a line is a syntax error at once (as in
/// Python), not a `...` prompt that traps every later line.
#[test]
fn an_unterminated_string_is_an_error_at_once() {
    let home = data_home("string");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("print(\"abc\r");
    t.expect("error[syntax]: unterminated string literal");
    t.type_keys("6 * 7\r");
    t.expect("42");
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
}

/// `else {` may start the line after an `if`'s closing brace, as in a script.
#[test]
fn else_on_the_line_after_the_brace() {
    let home = data_home("else");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("x = 3\r");
    t.type_keys("if x > 5 {\r");
    t.type_keys("print(\"bi\" + \"g\")\r");
    t.type_keys("}\r");
    t.expect("...");
    t.type_keys("else {\r");
    t.type_keys("print(\"sma\" + \"ll\")\r");
    t.type_keys("}\r");
    t.expect("small");
    let screen = t.screen();
    assert!(
        !screen.contains("error[") && !screen.contains("big"),
        "{screen}"
    );
    // An `if` with no else runs when the next line is something else.
    t.type_keys("if x > 1 { print(\"ye\" + \"s\") }\r");
    t.type_keys("print(\"ne\" + \"xt\")\r");
    let out = t.expect("next");
    assert!(out.contains("yes"), "{out}");
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
}

/// Ctrl-C in presenter mode stops the lesson as an interrupted program does.
#[test]
fn ctrl_c_in_a_lesson_exits_130() {
    let home = data_home("lesson");
    let file = home.join("lesson.tsh");
    std::fs::write(&file, "# One.\nx = 1\n# Two.\nx + 1\n").unwrap();
    let mut t = Term::spawn_with(&home, &["--lesson", &file.display().to_string()]);
    t.expect("step 1/2");
    t.type_keys("\x03");
    assert_eq!(t.wait_exit().code(), Some(130));
}

/// A session with a picture drawn in colour at the terminal's width, and a
/// statement stopped with Ctrl-C, saves a transcript that `--verify` passes.
#[test]
fn saved_session_with_pictures_and_ctrl_c_verifies() {
    let home = data_home("save");
    let file = home.join("session.tsh");
    let mut t = Term::spawn(&home);
    t.banner();
    t.type_keys("imshow(tensor([[0., 0.5, 1.], [1., 0.25, 0.]]))\r");
    t.expect("▀");
    t.type_keys("n = 0\r");
    t.type_keys("while true { n = n + 1 }\r");
    std::thread::sleep(Duration::from_millis(400));
    t.send("\x03");
    t.expect("error[interrupt]");
    t.type_keys("n >= 0\r");
    t.expect("True");
    t.type_keys(&format!(":save {}\r", file.display()));
    t.expect("wrote");
    t.type_keys("\x04");
    assert!(t.wait_exit().success());
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("#   while true"), "{saved}");
    let out = Command::new(env!("CARGO_BIN_EXE_tsh"))
        .args(["--verify", &file.display().to_string()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{saved}",
        String::from_utf8_lossy(&out.stdout)
    );
}
