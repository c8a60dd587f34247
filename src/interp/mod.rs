//! The interpreter: values, the environment, evaluation of statements and
//! expressions, and the tables of builtins, methods and attributes.

pub mod args;
pub mod bind;
pub mod builtins;
mod call;
pub mod classes;
pub mod convert;
pub mod eval;
mod expr;
mod fast;
pub mod format;
pub mod generator;
pub(crate) mod number;
pub mod numpy;
mod observe;
mod ops;
pub mod pycomplex;
mod pyexpr;
pub mod pyhash;
pub mod pyset;
mod pystmt;
pub mod pystr;
pub mod schema;
pub mod session;
mod subscript;
pub mod value;

use std::rc::Rc;

use crate::error::Result;
use crate::print::tensor::PrintOptions;
use crate::syntax::ast::Stmt;
use crate::syntax::parse_program;

pub use ops::binary as ops_binary;
pub use value::Value;

/// Deepest chain of user function calls before a `recursion` error.
pub const MAX_CALL_DEPTH: usize = 200;

/// Where printed output goes: the process's stdout, or a buffer (tests, :save).
pub trait Output {
    fn write_str(&mut self, s: &str);
    /// Output that looks different on a terminal (colour, the terminal's width)
    /// from its plain form, which transcripts keep so that `--verify` can replay it.
    fn write_shown(&mut self, shown: &str, plain: &str) {
        let _ = plain;
        self.write_str(shown);
    }
    /// A warning (PyTorch's UserWarnings): where Python sends them, stderr, for
    /// a process; in line with the rest for an in-memory transcript.
    fn write_warning(&mut self, s: &str) {
        self.write_str(s);
    }
    /// A picture (`imshow`, `plot`, `hist`, `:graph`): its drawing as text, and
    /// the data behind it for outputs that can show a real image (the Jupyter
    /// kernel draws a PNG from it). Text outputs show the drawing.
    fn write_figure(&mut self, shown: &str, plain: &str, figure: &crate::teach::picture::Figure) {
        let _ = figure;
        self.write_shown(shown, plain);
    }
    /// A progress bar's line (it starts with `\r` to overwrite the last one);
    /// `last` ends it. Shown on stderr where that is a terminal (as tqdm), so
    /// piped output and transcripts stay clean.
    fn write_progress(&mut self, line: &str, last: bool) {
        use std::io::{IsTerminal, Write};
        let mut err = std::io::stderr().lock();
        if err.is_terminal() {
            let _ = write!(err, "{line}{}", if last { "\n" } else { "" });
            let _ = err.flush();
        }
    }
}

pub struct Stdout;

impl Output for Stdout {
    fn write_str(&mut self, s: &str) {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(s.as_bytes());
        let _ = out.flush();
    }
    fn write_warning(&mut self, s: &str) {
        use std::io::Write;
        let _ = std::io::stdout().lock().flush();
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(s.as_bytes());
        let _ = err.flush();
    }
}

/// A shared in-memory output (tests, transcripts): clone it, hand one to the
/// interpreter, read the other.
#[derive(Clone, Default)]
pub struct Buffer(pub std::rc::Rc<std::cell::RefCell<String>>);

impl Buffer {
    pub fn take(&self) -> String {
        std::mem::take(&mut self.0.borrow_mut())
    }
}

impl Output for Buffer {
    fn write_str(&mut self, s: &str) {
        self.0.borrow_mut().push_str(s);
    }
}

pub struct Interp {
    pub globals: crate::interp::value::Vars,
    pub(crate) locals: Vec<Rc<value::Scope>>,
    pub out: Box<dyn Output>,
    pub print_opts: PrintOptions,
    /// Colour the footer (only on a terminal, never with NO_COLOR).
    pub color: bool,
    /// Output goes to a terminal (the REPL at one): pictures take its width.
    pub terminal: bool,
    pub settings: session::Settings,
    /// Every REPL entry and its output (`:save`).
    pub transcript: Vec<session::Entry>,
    pub last_error: Option<session::LastError>,
    /// The ops of the running top-level statement, while `:trace on`.
    pub trace_log: Option<Vec<crate::teach::trace::TraceOp>>,
    /// The source being run (trace lines quote it).
    pub source: Rc<str>,
    depth: usize,
    /// Names each running function declared `global` or `nonlocal`.
    declared: Vec<Declared>,
    /// The instance and class of each running method (for `super()`).
    method_ctx: Vec<(Value, Rc<classes::Class>)>,
    /// tsh's nn layers (nn.Linear...), made from nn_prelude.py on first use.
    nn_classes: Option<crate::interp::value::Vars>,
    /// The prelude is being run: its own top level finds none of its names
    /// through `torch.nn` (asking would run it again, without end).
    nn_loading: bool,
    /// What `module.name` gave when it was a function, class or module (they
    /// never change): finding one walks several tables and lists by name, and
    /// a loop calling `F.relu(x)` or `torch.exp(x)` asks on every pass.
    module_members:
        std::collections::HashMap<Box<str>, Value, std::hash::BuildHasherDefault<value::FxHasher>>,
    /// Scopes of calls that returned and that nothing kept (no closure made
    /// in them): emptied, they are the next calls' scopes, so a call does not
    /// allocate its table of variables afresh.
    spare_scopes: Vec<Rc<value::Scope>>,
    /// The generator bodies running now, innermost last.
    generators: Vec<generator::Frame>,
    /// The errors being handled by `except` blocks (a bare `raise` re-raises the last).
    handling: Vec<crate::error::Error>,
    /// Python's warning filters (`warnings.filterwarnings`) and the once-only
    /// warnings already shown.
    pub(crate) warnings: builtins::pywarnings::WarningState,
}

/// The names a running function declared `global` (bound in the module's
/// scope) and `nonlocal` (bound in the enclosing function's).
#[derive(Default)]
struct Declared {
    global: std::collections::HashSet<Rc<str>>,
    nonlocal: std::collections::HashSet<Rc<str>>,
}

impl Declared {
    fn is_empty(&self) -> bool {
        self.global.is_empty() && self.nonlocal.is_empty()
    }
}

impl Interp {
    pub fn new(out: Box<dyn Output>) -> Interp {
        Interp {
            globals: Default::default(),
            locals: Vec::new(),
            out,
            print_opts: PrintOptions::default(),
            color: false,
            terminal: false,
            settings: session::Settings::default(),
            transcript: Vec::new(),
            last_error: None,
            trace_log: None,
            source: Rc::from(""),
            depth: 0,
            declared: Vec::new(),
            generators: Vec::new(),
            spare_scopes: Vec::new(),
            method_ctx: Vec::new(),
            nn_classes: None,
            nn_loading: false,
            module_members: Default::default(),
            handling: Vec::new(),
            warnings: Default::default(),
        }
    }

    /// What an instance's own `__str__`/`__repr__` (the first its class
    /// defines) gives, when it gives a string.
    fn dunder_text(&mut self, v: &Value, names: &[&str]) -> Option<String> {
        let Value::Object(o) = v else { return None };
        let f = names
            .iter()
            .find_map(|n| o.class.lookup(n).map(|_| classes::object_attr(o, n)))??;
        match self.call(&f, vec![], vec![], Default::default()) {
            Ok(Value::Str(s)) => Some(s.to_string()),
            _ => None,
        }
    }

    /// Python's `str(v)` with this session's print options.
    pub fn str_text(&mut self, v: &Value) -> String {
        if let Some(text) = self.dunder_text(v, &["__str__", "__repr__"]) {
            return text;
        }
        match v {
            Value::Object(o) if o.class.module => self.module_repr(o),
            Value::List(_) | Value::Tuple(_) if self.holds_module(v) => self.repr_text(v),
            _ => crate::print::value::plain_with(v, &self.print_opts),
        }
    }

    /// Python's `repr(v)` with this session's print options.
    pub fn repr_text(&mut self, v: &Value) -> String {
        if let Some(text) = self.dunder_text(v, &["__repr__"]) {
            return text;
        }
        match v {
            Value::Object(o) if o.class.module => self.module_repr(o),
            // Modules in a list or tuple print as modules (the generic printer
            // does not run their extra_repr).
            Value::List(_) | Value::Tuple(_) if self.holds_module(v) => {
                let items: Vec<String> = v
                    .iter_items()
                    .unwrap_or_default()
                    .iter()
                    .map(|x| self.repr_text(x))
                    .collect();
                match v {
                    Value::Tuple(_) if items.len() == 1 => format!("({},)", items[0]),
                    Value::Tuple(_) => format!("({})", items.join(", ")),
                    _ => format!("[{}]", items.join(", ")),
                }
            }
            _ => crate::print::value::repr_with(v, &self.print_opts),
        }
    }

    fn holds_module(&self, v: &Value) -> bool {
        v.iter_items()
            .unwrap_or_default()
            .iter()
            .any(|x| matches!(x, Value::Object(o) if o.class.module))
    }

    /// Parse and run `src`; with `echo`, expression statements' values are shown
    /// (the REPL and `--echo`).
    pub fn run(&mut self, src: &str, echo: bool) -> Result<()> {
        let program = parse_program(src)?;
        self.source = Rc::from(src);
        self.run_stmts(&program, echo, |_, _| {})
    }

    /// Evaluate `src`, which must be one expression (for `:graph EXPR` and friends).
    pub fn eval_src(&mut self, src: &str) -> Result<Value> {
        let program = parse_program(src)?;
        self.source = Rc::from(src);
        match program.as_slice() {
            [stmt] if matches!(stmt.kind, crate::syntax::ast::StmtKind::Expr(_)) => {
                Ok(self.exec_top(stmt)?.unwrap_or(Value::None))
            }
            _ => Err(crate::error::Error::new(
                crate::error::ErrorKind::Syntax,
                "expected one expression",
            )
            .hint("e.g. :graph loss")),
        }
    }

    /// The name a tensor is bound to at top level, if any.
    pub fn name_of(&self, t: &crate::tensor::Tensor) -> Option<String> {
        let mut names: Vec<&Rc<str>> = self
            .globals
            .iter()
            .filter(|(_, v)| matches!(v, Value::Tensor(o) if o.same_tensor(t)))
            .map(|(k, _)| k)
            .collect();
        names.sort();
        names.first().map(|n| n.to_string())
    }

    /// Run parsed statements; `before` is called with each top-level statement
    /// (the transcript mode prints its source there).
    pub fn run_stmts(
        &mut self,
        program: &[Stmt],
        echo: bool,
        mut before: impl FnMut(&mut Interp, &Stmt),
    ) -> Result<()> {
        for stmt in program {
            before(self, stmt);
            let result = self.exec_traced(stmt, echo);
            result?;
        }
        Ok(())
    }

    /// Run `src` as a notebook cell runs (IPython's rule): nothing is echoed, and
    /// the value of the last statement, when it is an expression, is returned
    /// for the caller to show.
    pub fn run_keep_last(&mut self, src: &str) -> Result<Option<Value>> {
        let program = parse_program(src)?;
        self.source = Rc::from(src);
        let mut last = None;
        for stmt in &program {
            last = self.exec_traced(stmt, false)?;
        }
        Ok(last)
    }

    /// One top-level statement, with its `:trace` lines and, with `echo`, its value shown.
    fn exec_traced(&mut self, stmt: &Stmt, echo: bool) -> Result<Option<Value>> {
        if self.settings.trace {
            self.trace_log = Some(vec![]);
        }
        let result = self.exec_top(stmt);
        if let Ok(Some(v)) = &result
            && echo
        {
            self.echo(v);
        }
        if let Some(log) = self.trace_log.take() {
            let text = crate::teach::trace::render(&log, &self.source.clone(), self.color);
            self.out.write_str(&text);
        }
        result
    }

    pub fn echo(&mut self, v: &Value) {
        if matches!(v, Value::None) {
            return;
        }
        if matches!(v, Value::Object(o) if o.class.module)
            || (matches!(v, Value::List(_) | Value::Tuple(_)) && self.holds_module(v))
        {
            let text = self.repr_text(v);
            self.out.write_str(&text);
            self.out.write_str("\n");
            return;
        }
        let text = crate::print::value::echo(v, &self.print_opts, self.color, &self.globals);
        self.out.write_str(&text);
        self.out.write_str("\n");
        if self.settings.stats
            && let Value::Tensor(t) = v
            && t.numel() > self.print_opts.threshold
        {
            let line = crate::teach::stats::summary(t);
            self.out.write_str(&crate::teach::dim(&line, self.color));
            self.out.write_str("\n");
        }
    }

    pub fn is_no_grad(&self) -> bool {
        !crate::autograd::is_enabled()
    }
}
