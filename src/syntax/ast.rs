//! The abstract syntax tree. Every node carries the byte span of its source text,
//! so that any error raised while evaluating it can point at the code.

use std::rc::Rc;

/// A half-open byte range `start..end` in the source text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    BitAnd,
    BitOr,
    BitXor,
    LShift,
    RShift,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::LShift => "<<",
            BinOp::RShift => ">>",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Is,
    IsNot,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
            CmpOp::In => "in",
            CmpOp::NotIn => "not in",
            CmpOp::Is => "is",
            CmpOp::IsNot => "is not",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
    Not,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Invert => "~",
            UnaryOp::Not => "not",
        }
    }
}

/// Where a name was last found in the innermost scope's table (variables keep
/// their insertion index there): a guess, which the lookup checks against the
/// key before trusting it, so a stale one only costs the hashed lookup it saves.
/// A loop's names are looked up millions of times; hashing them was four in ten
/// of a scalar loop's instructions.
#[derive(Clone, Debug, Default)]
pub struct Slot(std::cell::Cell<u32>);

impl Slot {
    pub fn get(&self) -> usize {
        self.0.get() as usize
    }
    pub fn set(&self, i: usize) {
        self.0.set(u32::try_from(i).unwrap_or(u32::MAX));
    }
}

/// One shared `Rc<str>` per distinct identifier text, so that a name's lookups
/// compare pointers before they compare text.
pub fn intern(text: &str) -> Rc<str> {
    thread_local! {
        static NAMES: std::cell::RefCell<std::collections::HashSet<Rc<str>>> =
            Default::default();
    }
    NAMES.with(|names| {
        let mut names = names.borrow_mut();
        if let Some(n) = names.get(text) {
            return n.clone();
        }
        let n: Rc<str> = text.into();
        names.insert(n.clone());
        n
    })
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    /// An imaginary literal: `2j` is Imag(2.0).
    Imag(f64),
    Str(crate::interp::pystr::PyStr),
    Bool(bool),
    None,
    Ellipsis,
    /// A name, and where it was last found in the innermost scope's table.
    Name(Rc<str>, Slot),
    List(Vec<Expr>),
    /// `{a, b}`: a set display.
    Set(Vec<Expr>),
    Tuple(Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a < b <= c`: Python's chained comparison; `closed` once parenthesised.
    Compare {
        first: Box<Expr>,
        rest: Vec<(CmpOp, Expr)>,
        closed: bool,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call {
        func: Box<Expr>,
        args: Vec<Arg>,
    },
    Attr(Box<Expr>, Rc<str>),
    Index(Box<Expr>, Vec<Subscript>),
    /// `a if cond else b`
    Conditional {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `lambda x: x * 2`: a function whose body returns one expression.
    Lambda(Rc<FnDef>),
    /// `{"a": 1}`
    Dict(Vec<(Expr, Expr)>),
    /// `[x * 2 for x in xs if x]`, `{k: v for ...}`, `(x for x in xs)`.
    Comprehension {
        kind: CompKind,
        /// The item (list, generator) or the key (dict).
        item: Box<Expr>,
        /// The value of a dict comprehension.
        value: Option<Box<Expr>>,
        clauses: Vec<CompFor>,
    },
    /// `f"x = {x:.3f}"`
    FString(Vec<FPart>),
    /// `*rest` in an assignment target: `a, *rest = xs`.
    Starred(Box<Expr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    List,
    Dict,
    Set,
    /// A lazy generator (`interp/generator.rs`).
    Generator,
}

/// `for targets in iter if cond ...` inside a comprehension.
#[derive(Clone, Debug)]
pub struct CompFor {
    pub targets: Vec<Expr>,
    pub iter: Expr,
    pub conds: Vec<Expr>,
}

/// A piece of an f-string.
#[derive(Clone, Debug)]
pub enum FPart {
    Text(Rc<str>),
    Field {
        expr: Expr,
        /// `!r`, `!s` or `!a`.
        conversion: Option<char>,
        /// What follows `:`, with its own fields already substituted at run time.
        spec: Vec<FPart>,
        /// `{x=}` shows the expression's text before the value.
        echo: Option<Rc<str>>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Star {
    #[default]
    None,
    /// `*args`
    One,
    /// `**kwargs`
    Two,
}

#[derive(Clone, Debug)]
pub struct Arg {
    pub name: Option<Rc<str>>,
    pub value: Expr,
    pub star: Star,
}

#[derive(Clone, Debug)]
pub enum Subscript {
    Expr(Expr),
    Slice {
        start: Option<Expr>,
        stop: Option<Expr>,
        step: Option<Expr>,
        span: Span,
    },
    Ellipsis(Span),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Assign(Vec<Expr>, Expr),
    /// `a = b = value`: one value, assigned to each group of targets in turn.
    AssignChain(Vec<Vec<Expr>>, Expr),
    AugAssign(Expr, BinOp, Expr),
    If(Vec<(Expr, Vec<Stmt>)>, Option<Vec<Stmt>>),
    While(Expr, Vec<Stmt>),
    For(Vec<Expr>, Expr, Vec<Stmt>),
    FnDef(Rc<FnDef>),
    /// `class Net(nn.Module): ...`: bases and the body that makes its attributes.
    ClassDef {
        name: Rc<str>,
        bases: Vec<Expr>,
        body: Vec<Stmt>,
    },
    Return(Option<Expr>),
    /// `yield x` (false) or `yield from xs` (true).
    Yield(Option<Expr>, bool),
    Break,
    Continue,
    NoGrad(Vec<Stmt>),
    Assert(Expr, Option<Expr>),
    /// `with torch.no_grad(): ...`
    With(Expr, Option<Rc<str>>, Vec<Stmt>),
    Try {
        body: Vec<Stmt>,
        handlers: Vec<Handler>,
        finally: Option<Vec<Stmt>>,
    },
    Pass,
    /// `import torch.nn as nn`: (dotted path, name bound).
    Import(Vec<(Rc<str>, Option<Rc<str>>)>),
    /// `from torch import nn, optim`: (module, [(name, bound as)]); no names means `*`.
    FromImport(Rc<str>, Vec<(Rc<str>, Option<Rc<str>>)>),
    Raise(Option<Expr>),
    Del(Vec<Expr>),
    /// `global a, b`; `nonlocal a, b` with `nonlocal` true.
    Global {
        names: Vec<Rc<str>>,
        nonlocal: bool,
    },
}

/// `except ValueError as e: ...`
#[derive(Clone, Debug)]
pub struct Handler {
    pub kinds: Option<Expr>,
    pub name: Option<Rc<str>>,
    pub body: Vec<Stmt>,
}

#[derive(Debug)]
pub struct FnDef {
    pub name: Rc<str>,
    /// `@torch.no_grad()` and other decorators, outermost first.
    pub decorators: Vec<Expr>,
    /// Its body yields: a call collects what it yields.
    pub is_generator: bool,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub span: Span,
    /// The text the function was parsed from (its spans point into it).
    pub source: Rc<str>,
}

#[derive(Debug)]
pub struct Param {
    pub name: Rc<str>,
    pub default: Option<Expr>,
    pub star: Star,
}
