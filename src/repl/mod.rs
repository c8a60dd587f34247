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

/// Is the entry still open (brackets or braces), so more lines follow? A string
/// left open at the end of a line is not: it is a syntax error at once, as in
/// Python.
pub fn is_incomplete(src: &str) -> bool {
    let j = join_bracketed_lines(src);
    !j.open.is_empty()
        && j.unterminated_string.is_none()
        && j.unmatched.is_none()
        && j.too_deep.is_none()
}

/// Could the next line continue this complete entry? An `if` statement that
/// ends in `}` without an `else` may be followed by `else {` on the next line.
fn may_continue(src: &str) -> bool {
    if !src.trim_end().ends_with('}') {
        return false;
    }
    match crate::syntax::parse_program(src) {
        Ok(stmts) => matches!(
            stmts.last().map(|s| &s.kind),
            Some(crate::syntax::ast::StmtKind::If(_, None))
        ),
        Err(_) => false,
    }
}

/// Does this line continue an `if` with its `else`?
pub fn starts_with_else(line: &str) -> bool {
    line.trim_start()
        .strip_prefix("else")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Output that goes to the terminal and is also kept for the session transcript.
struct Tee(Buffer);

impl Output for Tee {
    fn write_str(&mut self, s: &str) {
        crate::interp::Stdout.write_str(s);
        self.0.write_str(s);
    }
    fn write_shown(&mut self, shown: &str, plain: &str) {
        crate::interp::Stdout.write_str(shown);
        self.0.write_str(plain);
    }
}

pub fn run(mut interp: Interp) -> ExitCode {
    crate::interrupt::install_handler();
    // Without bracketed paste a terminal sends pasted text as keys: each line
    // runs as if typed (a paste with bracketed paste would wait in the buffer
    // for one more Enter).
    let config = Config::builder()
        .bracketed_paste(false)
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
    interp.terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
    let captured = Buffer::default();
    interp.out = Box::new(Tee(captured.clone()));
    // Like Python, the banner is for people at a terminal, and goes to stderr:
    // piped input gives nothing but results.
    if interactive {
        eprintln!("{BANNER}");
    }
    let fresh = || {
        if interactive {
            Entry::default()
        } else {
            Entry::piped()
        }
    };
    let mut entry = fresh();
    let mut status = 0;
    'read: loop {
        let prompt = if entry.is_empty() { "tsh> " } else { "...  " };
        let (ready, at_end) = match editor.readline(prompt) {
            Ok(line) => (entry.push(&line), false),
            Err(ReadlineError::Interrupted) => {
                entry = fresh();
                continue;
            }
            // What is left of the last entry still runs.
            Err(ReadlineError::Eof) => (entry.finish(), true),
            Err(e) => {
                eprintln!("error[io]: {e}");
                break;
            }
        };
        for src in ready {
            if let Some(code) = run_and_record(
                &mut interp,
                &mut editor,
                &src,
                &captured,
                &history,
                interactive,
            ) {
                status = code;
                break 'read;
            }
            // Completion reads the variables; only a terminal completes.
            if interactive {
                *vars.borrow_mut() = interp.globals.clone();
            }
        }
        if at_end {
            break;
        }
    }
    if let Some(h) = history.as_ref().filter(|_| !interactive) {
        let _ = editor.save_history(h);
    }
    ExitCode::from(status)
}

/// The entry being typed: lines join while brackets or braces are open, and an
/// `if` that ends in `}` waits for one more line in case it is `else` (a blank
/// line, or any other line, runs it). A Python block (`for x in y:` and its
/// indented body) continues until a blank line or a line back at the margin.
#[derive(Default)]
pub struct Entry {
    text: String,
    /// A complete `if` statement waiting to see whether an `else` follows.
    held: Option<String>,
    /// Piped input: a blank line inside a Python block waits for the next line,
    /// which ends the block only if it is back at the margin (pasted functions
    /// have blank lines in their bodies). At a terminal a blank line runs it.
    lookahead: bool,
}

/// Lines that continue a Python statement at its own indentation.
pub fn continues_block(line: &str) -> bool {
    let t = line.trim_start();
    ["elif", "else", "except", "finally"].iter().any(|k| {
        t.strip_prefix(k)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// Does `line` start a new statement after the Python block open in `text`
/// (it is back at the margin and is not `elif`/`else`/`except`/`finally`)?
pub fn block_ends_before(text: &str, line: &str) -> bool {
    !line.trim().is_empty()
        && !line.starts_with([' ', '\t'])
        && !line.trim_start().starts_with('#')
        && !continues_block(line)
        && !crate::syntax::ends_with_decorator(text)
        && crate::syntax::python_block_open(text)
}

impl Entry {
    /// The entry reader for piped (not typed) input.
    pub fn piped() -> Entry {
        Entry {
            lookahead: true,
            ..Entry::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty() && self.held.is_none()
    }

    /// Add a line; the entries it completes, in order (none while one is open).
    pub fn push(&mut self, line: &str) -> Vec<String> {
        let mut done = vec![];
        if !self.text.is_empty() && block_ends_before(&self.text, line) && self.held.is_none() {
            done.push(std::mem::take(&mut self.text));
            done.extend(self.push(line));
            return done;
        }
        if let Some(held) = self.held.take() {
            if starts_with_else(line) {
                self.text = held;
            } else {
                done.push(held);
                if line.trim().is_empty() {
                    return done;
                }
            }
        }
        if !self.text.is_empty() && crate::syntax::python_block_open(&self.text) {
            if line.trim().is_empty() && !self.lookahead {
                done.push(std::mem::take(&mut self.text));
                return done;
            }
            self.text.push('\n');
            self.text.push_str(line);
            return done;
        }
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(line);
        if crate::syntax::python_block_open(&self.text) && !line.trim().is_empty() {
            return done;
        }
        // A blank line always submits, so a stray bracket cannot trap the user.
        if is_incomplete(&self.text) && !line.trim().is_empty() {
            return done;
        }
        let src = std::mem::take(&mut self.text);
        if src.trim().is_empty() {
            return done;
        }
        if may_continue(&src) && !line.trim().is_empty() {
            self.held = Some(src);
        } else {
            done.push(src);
        }
        done
    }

    /// At the end of input: whatever is left, to run as it is.
    pub fn finish(&mut self) -> Vec<String> {
        let mut done: Vec<String> = self.held.take().into_iter().collect();
        let text = std::mem::take(&mut self.text);
        if !text.trim().is_empty() {
            done.push(text);
        }
        done
    }
}

/// Keep an entry in the history, run it, and keep what it showed for `:save`.
/// True to quit.
fn run_and_record(
    interp: &mut Interp,
    editor: &mut Editor<helper::TshHelper, DefaultHistory>,
    src: &str,
    captured: &Buffer,
    history: &Option<std::path::PathBuf>,
    interactive: bool,
) -> Option<u8> {
    // At a terminal, history is written after every entry: a killed shell loses
    // none. Piped input is saved once at the end, since rewriting the file per
    // line would make a long pipe quadratic.
    let _ = editor.add_history_entry(src);
    if let Some(h) = history.as_ref().filter(|_| interactive) {
        let _ = editor.save_history(h);
    }
    captured.take();
    let (quit, error) = run_entry(interp, src);
    let shown = captured.take();
    interp.record_entry(src, &shown, error.as_ref());
    // `:quit` ends with status 0, `sys.exit(code)` with its code's.
    quit.then(|| {
        error
            .and_then(|e| e.exit_status().map(|(s, _)| s))
            .unwrap_or(0)
    })
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
        // `sys.exit()`: the session ends, showing only a code that is text.
        Err(e) if e.exit_status().is_some() => {
            let text = e
                .exit_status()
                .and_then(|(_, t)| t)
                .map(|t| format!("{t}\n"));
            (true, Some((e.clone(), text.unwrap_or_default())))
        }
        Err(e) => {
            let text = render_styled(&e, src, "<stdin>", interp.color);
            interp.set_last_error(e.clone(), src);
            (false, Some((e, text)))
        }
    }
}
