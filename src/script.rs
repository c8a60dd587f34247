//! Running a whole script or `-c` string, optionally as a transcript.

use crate::error::Result;
use crate::interp::Interp;
use crate::syntax::parse_program;

/// Run `src`. With `echo`, each top-level statement is shown (`tsh> ...`) before
/// its output, and expression values are echoed as the REPL does.
pub fn run_script(interp: &mut Interp, src: &str, echo: bool) -> Result<()> {
    let program = parse_program(src)?;
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
