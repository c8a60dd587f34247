//! The rustyline helper: completion, hints, highlighting and validation, each
//! delegating to a pure function in this module's siblings.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};

use super::complete::{self, Completion, Vars};

pub struct TshHelper {
    /// The session's variables as of the last entry (completion reads them).
    pub vars: Rc<RefCell<Vars>>,
    pub color: bool,
    files: FilenameCompleter,
}

impl TshHelper {
    pub fn new(vars: Rc<RefCell<Vars>>, color: bool) -> TshHelper {
        TshHelper {
            vars,
            color,
            files: FilenameCompleter::new(),
        }
    }
}

impl Completer for TshHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        // Tab with only indentation before it indents (pasted code keeps its shape).
        if line[..pos].trim().is_empty() {
            let indent = "    ".to_string();
            return Ok((
                pos,
                vec![Pair {
                    display: indent.clone(),
                    replacement: indent,
                }],
            ));
        }
        match complete::complete(line, pos, &self.vars.borrow()) {
            Completion::Words { start, words } => Ok((
                start,
                words
                    .into_iter()
                    .map(|w| Pair {
                        display: w.clone(),
                        replacement: w,
                    })
                    .collect(),
            )),
            Completion::Path => self.files.complete_path(line, pos),
            Completion::None => Ok((pos, vec![])),
        }
    }
}

impl Hinter for TshHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _: &Context<'_>) -> Option<String> {
        complete::hint(line, pos, &self.vars.borrow())
    }
}

impl Highlighter for TshHelper {
    fn highlight<'l>(&self, line: &'l str, _: usize) -> Cow<'l, str> {
        if self.color {
            Cow::Owned(super::highlight::highlight(line))
        } else {
            Cow::Borrowed(line)
        }
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        if self.color {
            Cow::Owned(format!("\x1b[1;32m{prompt}\x1b[0m"))
        } else {
            Cow::Borrowed(prompt)
        }
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    fn highlight_char(&self, _: &str, _: usize, _: CmdKind) -> bool {
        self.color
    }
}

impl Validator for TshHelper {
    /// A buffer that already spans lines (an entry recalled from history) keeps
    /// taking lines while brackets, braces or strings are open. A one-line buffer
    /// is always accepted: the REPL then asks for more under a `...` prompt, and
    /// real errors go to the parser, which reports them with their span.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        if input.contains('\n') && super::is_incomplete(input) {
            return Ok(ValidationResult::Incomplete);
        }
        Ok(ValidationResult::Valid(None))
    }
}

impl Helper for TshHelper {}
