//! The interactive shell: read a (possibly multi-line) entry, run it, echo its
//! value, report errors without losing any variable.

pub mod commands;
pub mod complete;
pub mod helper;
pub mod highlight;
pub mod lex;
pub mod reference;

use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;

use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Config, Editor};

use crate::interp::{Buffer, Interp, Output};
use crate::print::error::render_styled;
use crate::syntax::lines::join_bracketed_lines;

const BANNER: &str =
    "tsh — the tensor shell. :help for help, Tab completes, Ctrl-C interrupts, Ctrl-D leaves.";

/// `$XDG_DATA_HOME/tsh/history`, else `~/.local/share/tsh/history`.
pub fn history_path() -> Option<std::path::PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|s| !s.is_empty())
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

/// Output that goes to the terminal and is also kept for the session transcript.
struct Tee(Buffer);

impl Output for Tee {
    fn write_str(&mut self, s: &str) {
        crate::interp::Stdout.write_str(s);
        self.0.write_str(s);
    }
}

pub fn run(mut interp: Interp) -> ExitCode {
    crate::interrupt::install_handler();
    let config = Config::builder()
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .max_history_size(10_000)
        .map(|b| b.build());
    let mut editor = match config.and_then(Editor::<helper::TshHelper, DefaultHistory>::with_config)
    {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error[io]: cannot start the line editor: {e}");
            return ExitCode::from(1);
        }
    };
    let vars = Rc::new(RefCell::new(interp.globals.clone()));
    editor.set_helper(Some(helper::TshHelper::new(vars.clone(), interp.color)));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    let interactive = std::io::IsTerminal::is_terminal(&std::io::stdin());
    let captured = Buffer::default();
    interp.out = Box::new(Tee(captured.clone()));
    println!("{BANNER}");
    let mut entry = Entry::default();
    loop {
        let prompt = if entry.is_empty() { "tsh> " } else { "...  " };
        match editor.readline(prompt) {
            Ok(line) => {
                let Some(src) = entry.push(&line) else {
                    continue;
                };
                // At a terminal, history is written after every entry: a killed shell
                // loses none. Piped input is saved once at the end, since rewriting
                // the file per line would make a long pipe quadratic.
                let _ = editor.add_history_entry(src.as_str());
                if let Some(h) = history.as_ref().filter(|_| interactive) {
                    let _ = editor.save_history(h);
                }
                captured.take();
                let (quit, error) = run_entry(&mut interp, &src);
                let shown = captured.take();
                interp.record_entry(&src, &shown, error.as_ref());
                // Completion reads the variables; only a terminal completes.
                if interactive {
                    *vars.borrow_mut() = interp.globals.clone();
                }
                if quit {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {
                entry = Entry::default();
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                eprintln!("error[io]: {e}");
                break;
            }
        }
    }
    if let Some(h) = history.as_ref().filter(|_| !interactive) {
        let _ = editor.save_history(h);
    }
    ExitCode::SUCCESS
}

/// The entry being typed: lines join while brackets, braces or a string are open.
#[derive(Default)]
pub struct Entry(String);

impl Entry {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Add a line; the whole entry once it is complete (None while it is open or blank).
    pub fn push(&mut self, line: &str) -> Option<String> {
        if !self.0.is_empty() {
            self.0.push('\n');
        }
        self.0.push_str(line);
        // A blank line always submits, so a stray bracket cannot trap the user.
        if is_incomplete(&self.0) && !line.trim().is_empty() {
            return None;
        }
        let src = std::mem::take(&mut self.0);
        (!src.trim().is_empty()).then_some(src)
    }
}

/// Run one entry (a `:command` or code); report its error. True to quit.
fn run_entry(interp: &mut Interp, src: &str) -> (bool, Option<crate::error::Error>) {
    let (quit, error) = eval_entry(interp, src);
    match error {
        Some((e, text)) => {
            eprint!("{text}");
            (quit, Some(e))
        }
        None => (quit, None),
    }
}

/// What the prompt does with an entry, without the terminal: run it, and on an
/// error keep it for `:why` and return it with its rendering. True to quit.
pub fn eval_entry(interp: &mut Interp, src: &str) -> (bool, Option<(crate::error::Error, String)>) {
    crate::interrupt::clear();
    let result = match commands::dispatch(interp, src.trim()) {
        Ok(commands::Outcome::Quit) => return (true, None),
        Ok(commands::Outcome::Handled) => Ok(()),
        Ok(commands::Outcome::NotACommand) => interp.run(src, true),
        Err(e) => Err(e),
    };
    match result {
        Ok(()) => (false, None),
        Err(e) => {
            let text = render_styled(&e, src, "<stdin>", interp.color);
            interp.set_last_error(e.clone(), src);
            (false, Some((e, text)))
        }
    }
}
