//! The one error type. Every failure the user can cause is a value with a kind, a
//! message, an optional source span and an optional hint; `print::error` renders it.

use std::rc::Rc;

use crate::syntax::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Syntax,
    Name,
    Type,
    Shape,
    Dtype,
    Device,
    Index,
    Value,
    Memory,
    Io,
    Interrupt,
    Assert,
    Recursion,
    /// `sys.exit(code)` / `raise SystemExit(code)`: not a failure, the end of
    /// the script (the message is the code as text; see `exit_status`).
    Exit,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax",
            ErrorKind::Name => "name",
            ErrorKind::Type => "type",
            ErrorKind::Shape => "shape",
            ErrorKind::Dtype => "dtype",
            ErrorKind::Device => "device",
            ErrorKind::Index => "index",
            ErrorKind::Value => "value",
            ErrorKind::Memory => "memory",
            ErrorKind::Io => "io",
            ErrorKind::Interrupt => "interrupt",
            ErrorKind::Assert => "assert",
            ErrorKind::Recursion => "recursion",
            ErrorKind::Exit => "exit",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    pub span: Option<Span>,
    pub hint: Option<String>,
    /// The operation and the tensors it was given, where an op failed on them
    /// (`:why` draws them).
    pub context: Option<Box<OpContext>>,
    /// Set when the error happened inside a user function: where, and the calls
    /// that led there.
    pub traceback: Option<Box<Traceback>>,
    /// The Python exception class it was raised as (`raise KeyError(...)`, or a
    /// class the user wrote); None for tsh's own errors, whose class follows
    /// from the kind.
    pub class: Option<Rc<str>>,
}

/// The way into a function that failed. The error's span points into `source`
/// (the function's text) rather than into the entry being run.
#[derive(Clone, Debug, Default)]
pub struct Traceback {
    pub source: Option<Rc<str>>,
    /// The function the error's span is in.
    pub function: Option<Rc<str>>,
    /// The calls on the way, innermost first.
    pub calls: Vec<Frame>,
}

/// One call on the way to an error.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The call expression.
    pub span: Span,
    /// The text the span points into; None for the entry or script being run.
    pub source: Option<Rc<str>>,
    /// The function the call is written in; None at top level.
    pub function: Option<Rc<str>>,
}

/// What `:why` needs to explain a failed op: its name and its tensor operands.
#[derive(Clone, Debug)]
pub struct OpContext {
    /// `+`, `@`, `matmul`, `cat`...
    pub op: String,
    pub operands: Vec<OperandInfo>,
}

#[derive(Clone, Debug)]
pub struct OperandInfo {
    /// Where the operand was written, if it was.
    pub span: Option<Span>,
    pub shape: Vec<usize>,
    pub dtype: crate::tensor::DType,
    pub device: crate::tensor::Device,
    /// A Python scalar (promotion treats it apart from tensors).
    pub scalar: bool,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            span: None,
            hint: None,
            context: None,
            traceback: None,
            class: None,
        }
    }

    /// The error as Python code sees it raised: class `class` (PyTorch raises
    /// some errors of a kind under another class than the kind's own).
    pub fn raised_as(mut self, class: &str) -> Error {
        self.class = Some(class.into());
        self
    }

    /// For a `sys.exit`, what Python does with its code: the process's exit
    /// status, and the text to print on stderr first (a code that is not an
    /// integer is printed, and the status is 1; no code is status 0).
    pub fn exit_status(&self) -> Option<(u8, Option<&str>)> {
        if self.kind != ErrorKind::Exit {
            return None;
        }
        let code = self.message.as_str();
        Some(match code.parse::<i64>() {
            _ if code.is_empty() || code == "None" => (0, None),
            Ok(n) => (n.rem_euclid(256) as u8, None),
            Err(_) => (1, Some(code)),
        })
    }

    /// The Python class name an `except` clause and `type(e)` see.
    pub fn py_class(&self) -> Rc<str> {
        if let Some(c) = &self.class {
            return c.clone();
        }
        let name = match self.kind {
            ErrorKind::Syntax => "SyntaxError",
            ErrorKind::Name if self.message.contains("has no attribute") => "AttributeError",
            ErrorKind::Name if self.message.starts_with("No module named") => "ModuleNotFoundError",
            ErrorKind::Name => "NameError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Index
                if self.message.starts_with("KeyError") || self.message.starts_with("no key") =>
            {
                "KeyError"
            }
            ErrorKind::Index => "IndexError",
            ErrorKind::Value if self.message.contains("by zero") => "ZeroDivisionError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Shape | ErrorKind::Dtype | ErrorKind::Device => "RuntimeError",
            ErrorKind::Memory => "MemoryError",
            ErrorKind::Io => "OSError",
            ErrorKind::Interrupt => "KeyboardInterrupt",
            ErrorKind::Assert => "AssertionError",
            ErrorKind::Recursion => "RecursionError",
            ErrorKind::Exit => "SystemExit",
        };
        name.into()
    }

    /// The error left the body of function `name` (parsed from `source`), which
    /// was called at `call`: its location so far is inside that function.
    pub fn through_call(
        mut self,
        name: &Rc<str>,
        source: &Rc<str>,
        def: Span,
        call: Span,
    ) -> Error {
        // An error without a place inside the body points at the function itself.
        if self.span.is_none() {
            self.span = Some(def);
        }
        let tb = self.traceback.get_or_insert_with(Box::default);
        if tb.source.is_none() {
            tb.source = Some(source.clone());
            tb.function = Some(name.clone());
        }
        for f in tb.calls.iter_mut().filter(|f| f.source.is_none()) {
            f.source = Some(source.clone());
            f.function = Some(name.clone());
        }
        tb.calls.push(Frame {
            span: call,
            source: None,
            function: None,
        });
        self
    }
    /// Point the error at `span`, unless a more precise span is already set.
    pub fn at(mut self, span: Span) -> Error {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
    /// Attach the failed op and its operands, unless an inner op already did.
    pub fn with_context(mut self, ctx: impl FnOnce() -> OpContext) -> Error {
        if self.context.is_none() {
            self.context = Some(Box::new(ctx()));
        }
        self
    }
    pub fn hint(mut self, hint: impl Into<String>) -> Error {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error[{}]: {}", self.kind.name(), self.message)
    }
}

macro_rules! err_fn {
    ($name:ident, $kind:ident) => {
        pub fn $name(message: impl Into<String>) -> Error {
            Error::new(ErrorKind::$kind, message)
        }
    };
}
err_fn!(shape_err, Shape);
err_fn!(dtype_err, Dtype);
err_fn!(type_err, Type);
err_fn!(value_err, Value);
err_fn!(index_err, Index);
err_fn!(device_err, Device);
err_fn!(name_err, Name);
err_fn!(io_err, Io);

/// A factorisation that failed on its input (a singular matrix, one that is
/// not positive-definite): PyTorch's `torch.linalg.LinAlgError`, a
/// RuntimeError whose class is named `_LinAlgError`.
pub fn linalg_err(message: impl Into<String>) -> Error {
    value_err(message).raised_as("_LinAlgError")
}
