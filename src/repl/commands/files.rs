//! `:load FILE` (run a script in this session) and `:save FILE` (write the
//! session as a checked transcript).

use super::{Outcome, say};
use crate::error::{Error, ErrorKind, Result};
use crate::interp::Interp;

fn need_file(arg: &str, cmd: &str) -> Result<String> {
    let f = arg.trim().trim_matches(|c| c == '"' || c == '\'');
    if f.is_empty() {
        return Err(
            Error::new(ErrorKind::Syntax, format!(":{cmd} needs a file name"))
                .hint(format!(":{cmd} session.tsh")),
        );
    }
    Ok(f.to_string())
}

pub fn load(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    let file = need_file(arg, "load")?;
    let src = std::fs::read_to_string(&file)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot read {file}: {e}")))?;
    if let Err(e) = crate::script::run_script(interp, &src, false) {
        // The error belongs to the file: say where in it, not in the entry.
        let rendered = crate::print::error::render(&e, &src, &file);
        let location = rendered
            .lines()
            .find_map(|l| l.trim_start().strip_prefix("--> "))
            .unwrap_or(&file)
            .to_string();
        let mut out = Error::new(e.kind, format!("{} (in {location})", e.message));
        out.hint = e.hint;
        out.context = e.context;
        return Err(out);
    }
    say(interp, &format!("loaded {file}"));
    Ok(Outcome::Handled)
}

pub fn save(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    let file = need_file(arg, "save")?;
    let text = crate::teach::transcript::write(&interp.transcript);
    crate::io::write_atomic(&file, text.as_bytes())?;
    let n = interp.transcript.len();
    say(
        interp,
        &format!("wrote {file} ({n} entries; tsh --verify {file} replays and checks it)"),
    );
    Ok(Outcome::Handled)
}
