//! `tsh --lesson FILE`: presenter mode. Each step (a statement or a `:command`,
//! with the comments above it as narration) is shown, waits for a key, runs,
//! and shows its output. Enter or Space runs the step; q quits.

use std::io::{BufRead, IsTerminal, Read, Write};

use crate::interp::Interp;
use crate::print::error::render_styled;
use crate::script::{Part, blank_outside, split_parts};

pub struct Step {
    pub narration: Vec<String>,
    /// What the audience sees.
    pub shown: String,
    pub run: Run,
}

pub enum Run {
    /// The file with everything but this statement blanked (errors keep file positions).
    Code(String),
    Command(String),
}

/// Comment lines between `from` and `to` in `src`, without their `#`.
fn comments(src: &str, from: usize, to: usize) -> Vec<String> {
    src.get(from..to)
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('#') && !l.starts_with("#>"))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect()
}

pub fn steps(src: &str) -> crate::error::Result<Vec<Step>> {
    let mut out = vec![];
    let mut last = 0;
    for part in split_parts(src) {
        match part {
            Part::Code(code) => {
                for stmt in crate::syntax::parse_program(&code)? {
                    let (a, b) = (stmt.span.start, stmt.span.end.min(src.len()));
                    out.push(Step {
                        narration: comments(src, last, a),
                        shown: src[a..b].to_string(),
                        run: Run::Code(blank_outside(src, a, b)),
                    });
                    last = b;
                }
            }
            Part::Command(line) => {
                let at = src[last..].find(line).map(|i| last + i).unwrap_or(last);
                out.push(Step {
                    narration: comments(src, last, at),
                    shown: line.to_string(),
                    run: Run::Command(line.to_string()),
                });
                last = at + line.len();
            }
        }
    }
    Ok(out)
}

enum Key {
    Go,
    Quit,
    /// Ctrl-C at the key prompt: stop, as an interrupted program does (status 130).
    Interrupt,
}

/// How a presentation ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    Finished,
    Quit,
    Interrupted,
}

/// Wait for a key on a terminal (raw mode, one byte), or a line from a pipe.
fn wait_key(interactive: bool) -> Key {
    if !interactive {
        let mut line = String::new();
        return match std::io::stdin().lock().read_line(&mut line) {
            Ok(_) if line.trim() == "q" => Key::Quit,
            _ => Key::Go,
        };
    }
    // SAFETY: termios calls on fd 0 with a struct we own; the old mode is restored.
    unsafe {
        let mut old: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(0, &mut old) != 0 {
            return Key::Go;
        }
        let mut raw = old;
        raw.c_lflag &= !(libc::ICANON | libc::ECHO | libc::ISIG);
        raw.c_cc[libc::VMIN] = 1;
        raw.c_cc[libc::VTIME] = 0;
        libc::tcsetattr(0, libc::TCSANOW, &raw);
        let mut b = [0u8; 1];
        let n = std::io::stdin().read(&mut b).unwrap_or(0);
        libc::tcsetattr(0, libc::TCSANOW, &old);
        match (n, b[0]) {
            (_, 3) => Key::Interrupt,
            (0, _) | (_, b'q') | (_, 4) => Key::Quit,
            _ => Key::Go,
        }
    }
}

fn show_step(i: usize, n: usize, step: &Step, color: bool) -> String {
    let mut s = String::new();
    s.push_str(&super::dim(&format!("── step {}/{n} ──", i + 1), color));
    s.push('\n');
    for line in &step.narration {
        s.push_str(&super::dim(&format!("# {line}"), color));
        s.push('\n');
    }
    for (k, line) in step.shown.lines().enumerate() {
        let prompt = if k == 0 { "tsh> " } else { "...  " };
        let body = if color {
            crate::repl::highlight::highlight(line)
        } else {
            line.to_string()
        };
        s.push_str(&super::bold(prompt, color));
        s.push_str(&body);
        s.push('\n');
    }
    s
}

/// Present `src`, step by step, until the end, `q` or Ctrl-C.
pub fn present(interp: &mut Interp, src: &str, origin: &str) -> crate::error::Result<Ending> {
    let steps = steps(src)?;
    let interactive = std::io::stdin().is_terminal();
    crate::interrupt::install_handler();
    let color = interp.color;
    for (i, step) in steps.iter().enumerate() {
        interp
            .out
            .write_str(&show_step(i, steps.len(), step, color));
        if interactive {
            print!("{}", super::dim("  ⏎ run · q quit", color));
            let _ = std::io::stdout().flush();
        }
        let key = wait_key(interactive);
        if interactive {
            print!("\r{}\r", " ".repeat(20));
        }
        match key {
            Key::Quit => return Ok(Ending::Quit),
            Key::Interrupt => return Ok(Ending::Interrupted),
            Key::Go => {}
        }
        crate::interrupt::clear();
        let (result, text) = match &step.run {
            Run::Code(code) => (interp.run(code, true), code.as_str()),
            Run::Command(line) => (
                crate::repl::commands::dispatch(interp, line).map(|_| ()),
                line.as_str(),
            ),
        };
        if let Err(e) = result {
            let shown_src = if matches!(step.run, Run::Code(_)) {
                src
            } else {
                text
            };
            eprint!("{}", render_styled(&e, shown_src, origin, color));
            interp.set_last_error(e, shown_src);
        }
        interp.out.write_str("\n");
    }
    interp
        .out
        .write_str(&super::dim("── end of lesson ──\n", color));
    Ok(Ending::Finished)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn statements_commands_and_narration() {
            let src = "# Make a tensor\nx = tensor([1, 2])\n\n# Look at it\n:vars\nfor i in range(2) {\n  print(i)\n}\n";
            let s = steps(src).unwrap();
            assert_eq!(s.len(), 3);
            assert_eq!(s[0].narration, vec!["Make a tensor"]);
            assert_eq!(s[0].shown, "x = tensor([1, 2])");
            assert_eq!(s[1].narration, vec!["Look at it"]);
            assert_eq!(s[1].shown, ":vars");
            assert!(s[2].shown.starts_with("for i") && s[2].shown.ends_with('}'));
        }
    }
}
