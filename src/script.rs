//! Running a whole script or `-c` string, optionally as a transcript.

use crate::error::Result;
use crate::interp::Interp;
use crate::syntax::parse_program;

/// Run `src`. With `echo`, each top-level statement is shown (`tsh> ...`) before
/// its output, and expression values are echoed as the REPL does.
pub fn run_script(interp: &mut Interp, src: &str, echo: bool) -> Result<()> {
    for part in split_parts(src) {
        match part {
            Part::Code(code) => run_code(interp, &code, echo)?,
            Part::Command(line) => {
                if echo {
                    interp.out.write_str(&format!("tsh> {line}\n"));
                }
                if let crate::repl::commands::Outcome::Quit =
                    crate::repl::commands::dispatch(interp, line)?
                {
                    break;
                }
            }
        }
    }
    Ok(())
}

pub enum Part<'a> {
    /// The script's source with everything but one run of statements blanked,
    /// so that spans (and error positions) are those of the whole file.
    Code(String),
    Command(&'a str),
}

/// Split a script at `:command` lines that stand between statements.
pub fn split_parts(src: &str) -> Vec<Part<'_>> {
    let mut parts = vec![];
    let mut start = 0;
    let mut pos = 0;
    for line in src.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with(':') && !crate::repl::is_incomplete(&src[start..pos]) {
            parts.push(Part::Code(blank_outside(src, start, pos)));
            parts.push(Part::Command(trimmed));
            start = pos + line.len();
        }
        pos += line.len();
    }
    parts.push(Part::Code(blank_outside(src, start, src.len())));
    parts
}

pub fn blank_outside(src: &str, start: usize, end: usize) -> String {
    let blank = |s: &str| -> String {
        s.chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect::<String>()
            .replace(|c: char| c != '\n' && c != ' ', " ")
    };
    // Multi-byte characters become one space each; keep byte offsets by padding.
    let pad = |s: &str| -> String {
        let b = blank(s);
        let missing = s.len() - b.len();
        b + &" ".repeat(missing)
    };
    format!(
        "{}{}{}",
        pad(&src[..start]),
        &src[start..end],
        pad(&src[end..])
    )
}

fn run_code(interp: &mut Interp, src: &str, echo: bool) -> Result<()> {
    let program = parse_program(src)?;
    interp.source = std::rc::Rc::from(src);
    interp.run_stmts(&program, echo, |it, stmt| {
        if echo {
            let text = &src[stmt.span.start..stmt.span.end.min(src.len())];
            let mut shown = String::new();
            for (i, line) in text.lines().enumerate() {
                shown.push_str(if i == 0 { "tsh> " } else { "...  " });
                shown.push_str(line);
                shown.push('\n');
            }
            it.out.write_str(&shown);
        }
    })
}
