//! Python's `warnings` module, the part scripts use to quiet PyTorch's
//! UserWarnings: `filterwarnings`/`simplefilter` with "ignore" (or a showing
//! action), `resetwarnings`, and `warn`. The filters live in the session and
//! decide, as Python's do, by the first filter whose message matches.

use super::Builtin;
use crate::error::{Error, Result, value_err};
use crate::interp::Interp;
use crate::interp::value::Value;
use crate::op;

/// One `filterwarnings` entry: what to do with warnings whose text starts with
/// `message` (Python matches a regular expression at the start; tsh takes it
/// as plain text).
#[derive(Clone, Debug)]
pub struct Filter {
    pub ignore: bool,
    pub message: String,
}

/// A session's warning state: its filters, and the once-only warnings it
/// has shown.
#[derive(Default)]
pub struct WarningState {
    filters: Vec<Filter>,
    shown_once: std::collections::HashSet<String>,
}

impl WarningState {
    /// Whether to show this warning now (noting a once-only one as shown).
    pub fn show(&mut self, w: &crate::warnings::Warning) -> bool {
        let ignored = self
            .filters
            .iter()
            .find(|f| w.message.starts_with(&f.message))
            .is_some_and(|f| f.ignore);
        // As PyTorch's TORCH_WARN_ONCE: used up even when a filter hides it.
        let repeated = w.once && !self.shown_once.insert(w.message.clone());
        !ignored && !repeated
    }
}

pub const ROWS: &[Builtin] = &[
    op!(
        Module,
        "warnings.filterwarnings(str action, str message=\"\", Any category=None, str module=\"\", int lineno=0, bool append=False) -> None",
        "Add a warning filter: action \"ignore\" hides the warnings whose text starts with message (all, by default); \"default\", \"always\", \"once\" or \"module\" shows them.",
        "import warnings; warnings.filterwarnings(\"ignore\")",
        |it; action: String, message: String, _category: Value, _module: String, _lineno: i64, append: bool| {
            add_filter(it, &action, message, append)
        }
    ),
    op!(
        Module,
        "warnings.simplefilter(str action, Any category=None, int lineno=0, bool append=False) -> None",
        "Add a warning filter for every message (\"ignore\" hides them all).",
        "import warnings; warnings.simplefilter(\"ignore\")",
        |it; action: String, _category: Value, _lineno: i64, append: bool| {
            add_filter(it, &action, String::new(), append)
        }
    ),
    op!(
        Module,
        "warnings.resetwarnings() -> None",
        "Remove every warning filter.",
        "import warnings; warnings.resetwarnings()",
        |it;| {
            it.warnings.filters.clear();
            Ok::<_, Error>(Value::None)
        }
    ),
    op!(
        Module,
        "warnings.warn(str message, Any category=None, int stacklevel=1) -> None",
        "Issue a warning (shown unless a filter hides it).",
        "import warnings; warnings.warn(\"careful\")",
        |message: String, _category: Value, _stacklevel: i64| {
            crate::warnings::warn(crate::warnings::WarningKind::User, message);
            Ok::<_, Error>(Value::None)
        }
    ),
];

fn add_filter(it: &mut Interp, action: &str, message: String, append: bool) -> Result<Value> {
    let ignore = match action {
        "ignore" => true,
        "default" | "always" | "once" | "module" => false,
        "error" => {
            return Err(value_err(
                "warnings action 'error' (warnings raised as exceptions) is not supported by tsh",
            ));
        }
        other => {
            return Err(value_err(format!("invalid action: '{other}'"))
                .hint("one of \"ignore\", \"default\", \"always\", \"once\", \"module\""));
        }
    };
    let filter = Filter { ignore, message };
    if append {
        it.warnings.filters.push(filter);
    } else {
        it.warnings.filters.insert(0, filter);
    }
    Ok(Value::None)
}
