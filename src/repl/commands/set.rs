//! `:set NAME VALUE` (printing and checking switches) and `:trace on|off`.

use super::{Outcome, say};
use crate::error::{Error, ErrorKind, Result, value_err};
use crate::interp::Interp;
use crate::interp::session::BroadcastCheck;

fn on_off(v: &str, what: &str) -> Result<bool> {
    match v {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(value_err(format!("{what} takes on or off, not {v:?}"))),
    }
}

fn count(v: &str, what: &str, min: usize) -> Result<usize> {
    match v.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(value_err(format!(
            "{what} takes a whole number ≥ {min}, not {v:?}"
        ))),
    }
}

fn show(interp: &mut Interp) {
    let o = interp.print_opts;
    let s = interp.settings;
    let sci = match o.sci_mode {
        None => "auto",
        Some(true) => "on",
        Some(false) => "off",
    };
    let b = match s.broadcast {
        BroadcastCheck::Off => "off",
        BroadcastCheck::Warn => "warn",
        BroadcastCheck::Error => "error",
    };
    let text = format!(
        "precision {}\nsci {sci}\nthreshold {}\nlinewidth {}\nedgeitems {}\nbroadcast {b}\nstats {}\ntrace {}",
        o.precision,
        o.threshold,
        o.linewidth,
        o.edgeitems,
        if s.stats { "on" } else { "off" },
        if s.trace { "on" } else { "off" },
    );
    say(interp, &text);
}

pub fn set(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    let mut words = arg.split_whitespace();
    let (Some(name), value) = (words.next(), words.next()) else {
        show(interp);
        return Ok(Outcome::Handled);
    };
    let Some(value) = value else {
        return Err(
            Error::new(ErrorKind::Syntax, format!(":set {name} needs a value"))
                .hint(":set alone shows every setting and its value"),
        );
    };
    let o = &mut interp.print_opts;
    match name {
        "precision" => o.precision = count(value, "precision", 0)?.min(30),
        "threshold" => o.threshold = count(value, "threshold", 0)?,
        "linewidth" => o.linewidth = count(value, "linewidth", 10)?,
        "edgeitems" => o.edgeitems = count(value, "edgeitems", 1)?,
        "sci" | "sci_mode" => {
            o.sci_mode = match value {
                "auto" | "none" => None,
                v => Some(on_off(v, "sci")?),
            }
        }
        "broadcast" => {
            interp.settings.broadcast = match value {
                "warn" => BroadcastCheck::Warn,
                "error" => BroadcastCheck::Error,
                "off" => BroadcastCheck::Off,
                v => {
                    return Err(value_err(format!(
                        "broadcast takes warn, error or off, not {v:?}"
                    )));
                }
            }
        }
        "stats" => interp.settings.stats = on_off(value, "stats")?,
        "trace" => interp.settings.trace = on_off(value, "trace")?,
        other => {
            let names = [
                "precision",
                "sci",
                "threshold",
                "linewidth",
                "edgeitems",
                "broadcast",
                "stats",
                "trace",
            ];
            let mut e = Error::new(ErrorKind::Name, format!("no setting named {other}"));
            e = match crate::print::suggest::closest(other, names.into_iter()) {
                Some(best) => e.hint(format!("did you mean {best}? (:set lists them)")),
                None => e.hint(":set lists them"),
            };
            return Err(e);
        }
    }
    Ok(Outcome::Handled)
}

pub fn trace(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    let on = match arg {
        "" => !interp.settings.trace,
        v => on_off(v, ":trace")?,
    };
    interp.settings.trace = on;
    say(
        interp,
        if on {
            "trace on: every op is listed under its statement"
        } else {
            "trace off"
        },
    );
    Ok(Outcome::Handled)
}
