//! The interactive shell: read a (possibly multi-line) entry, run it, echo its
//! value, report errors without losing any variable.

use std::process::ExitCode;

use rustyline::DefaultEditor;
use rustyline::error::ReadlineError;

use crate::interp::Interp;
use crate::print::error::render;
use crate::syntax::lines::join_bracketed_lines;

const BANNER: &str = "tsh — the tensor shell. Type :help for help, :quit or Ctrl-D to leave.";

fn history_path() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".local/share"))
        })?;
    let dir = base.join("tsh");
    std::fs::create_dir_all(&dir).ok()?;
    Some(dir.join("history"))
}

/// Is the entry still open (brackets, braces or a string), so more lines follow?
pub fn is_incomplete(src: &str) -> bool {
    let j = join_bracketed_lines(src);
    (!j.open.is_empty() || j.open_string) && j.unmatched.is_none() && j.too_deep.is_none()
}

pub fn run(mut interp: Interp) -> ExitCode {
    let mut editor = match DefaultEditor::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error[io]: cannot start the line editor: {e}");
            return ExitCode::from(1);
        }
    };
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!("{BANNER}");
    let mut entry = String::new();
    loop {
        let prompt = if entry.is_empty() { "tsh> " } else { "...  " };
        match editor.readline(prompt) {
            Ok(line) => {
                if !entry.is_empty() {
                    entry.push('\n');
                }
                entry.push_str(&line);
                // A blank line always submits, so a stray bracket cannot trap the user.
                if is_incomplete(&entry) && !line.trim().is_empty() {
                    continue;
                }
                let src = std::mem::take(&mut entry);
                if src.trim().is_empty() {
                    continue;
                }
                let _ = editor.add_history_entry(src.as_str());
                if let Some(h) = &history {
                    let _ = editor.save_history(h);
                }
                match commands::dispatch(&mut interp, src.trim()) {
                    Ok(commands::Outcome::Quit) => break,
                    Ok(commands::Outcome::Handled) => continue,
                    Ok(commands::Outcome::NotACommand) => {}
                    Err(e) => {
                        eprint!("{}", render(&e, &src, "<stdin>"));
                        continue;
                    }
                }
                crate::interrupt::clear();
                if let Err(e) = interp.run(&src, true) {
                    eprint!("{}", render(&e, &src, "<stdin>"));
                }
            }
            Err(ReadlineError::Interrupted) => {
                entry.clear();
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error[io]: {e}");
                break;
            }
        }
    }
    ExitCode::SUCCESS
}

pub mod commands;
