//! pest pairs → AST: the driver (line joining, Python's blocks, spans mapped back
//! to the source) and the statements. Expressions are in exprs.rs.
//!
//! The `expect`s and `unreachable!`s below ask for children that the grammar
//! requires of a rule (a `while_stmt` always holds its condition and body): pest
//! only hands back trees the grammar accepted, so no input reaches them; only a
//! grammar edit that forgets this builder could. The fuzz tests parse millions of
//! random and damaged programs through here.

use std::cell::RefCell;
use std::rc::Rc;

use pest::Parser;
use pest::iterators::Pair;

use super::ast::*;
use super::exprs::{build_expr, build_expr_list, build_postfix, build_targets, check_target};
use super::indent::{Offsets, python_blocks};
use super::lines::join_bracketed_lines;
use crate::error::{Error, ErrorKind, Result};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/tsh.pest"]
pub(super) struct TshParser;

/// Parse a whole program (a script, a `-c` string or one REPL entry).
pub fn parse_program(src: &str) -> Result<Vec<Stmt>> {
    let joined = join_bracketed_lines(src);
    if let Some(span) = joined.too_deep {
        return Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "brackets nested more than {} deep",
                super::lines::MAX_NESTING
            ),
        )
        .at(span));
    }
    if let Some(span) = joined.unterminated_string {
        return Err(Error::new(ErrorKind::Syntax, "unterminated string literal")
            .at(span)
            .hint(
                "a string ends on the line it starts: close it with the same quote it opened with",
            ));
    }
    if let Some((span, c)) = joined.unmatched {
        return Err(Error::new(ErrorKind::Syntax, format!("unmatched '{c}'")).at(span));
    }
    let indented = python_blocks(&joined)?;
    if let Some(e) = indented.unfinished {
        return Err(e);
    }
    let text = indented.text.as_str();
    let _parsing = Parsing::begin(src, indented.offsets.clone());
    let mut pairs = TshParser::parse(Rule::program, text)
        .map_err(|e| unsupported_python(src, syntax_error(&e, 0)))?;
    let program = pairs
        .next()
        .expect("pest returns the program rule it was asked for");
    let stmts = program.into_inner().next().expect("program holds stmts");
    build_stmts(stmts)
}

/// Is a Python block still open at the end of `src` (a header with no body yet,
/// or an indented body)? The REPL keeps reading lines until a blank one.
pub fn python_block_open(src: &str) -> bool {
    // A decorator waits for the `def` it decorates.
    ends_with_decorator(src)
        || python_blocks(&join_bracketed_lines(src)).is_ok_and(|i| i.open_block)
}

/// Is the last line of code a decorator (`@torch.no_grad()`)?
pub fn ends_with_decorator(src: &str) -> bool {
    src.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| l.trim_start().starts_with('@'))
}

struct State {
    /// The text being parsed: each function keeps it, so an error inside the
    /// function, called from a later REPL entry, still shows the function's lines.
    source: Rc<str>,
    offsets: Offsets,
    /// Where the text being parsed starts in the rewritten program (f-string
    /// fields are parsed on their own).
    base: usize,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State {
        source: Rc::from(""),
        offsets: Offsets::default(),
        base: 0,
    });
}

/// The parse in progress; its state is cleared when it ends.
struct Parsing;

impl Parsing {
    fn begin(src: &str, offsets: Offsets) -> Parsing {
        STATE.with(|s| {
            *s.borrow_mut() = State {
                source: Rc::from(src),
                offsets,
                base: 0,
            }
        });
        Parsing
    }
}

impl Drop for Parsing {
    fn drop(&mut self) {
        STATE.with(|s| {
            let mut s = s.borrow_mut();
            s.source = Rc::from("");
            s.offsets = Offsets::default();
        });
    }
}

pub(super) fn source() -> Rc<str> {
    STATE.with(|s| s.borrow().source.clone())
}

/// Parse a piece of the rewritten text on its own (an f-string field), with its
/// spans still pointing into the source.
pub(super) fn parse_piece<T>(
    rule: Rule,
    text: &str,
    base: usize,
    build: impl FnOnce(Pair<Rule>) -> Result<T>,
) -> Result<T> {
    let outer = STATE.with(|s| std::mem::replace(&mut s.borrow_mut().base, base));
    let result = match TshParser::parse(rule, text) {
        Ok(mut pairs) => build(
            pairs
                .next()
                .expect("pest returns the rule it was asked for"),
        ),
        Err(e) => Err(syntax_error(&e, base)),
    };
    STATE.with(|s| s.borrow_mut().base = outer);
    result
}

/// A position of the text pest is parsing → its position in the rewritten program.
pub(super) fn absolute(pos: usize) -> usize {
    STATE.with(|s| s.borrow().base + pos)
}

/// A position of the text pest parsed → a byte offset of the source.
fn source_pos_rel(pos: usize, is_end: bool) -> usize {
    STATE.with(|s| {
        let s = s.borrow();
        s.offsets.map(s.base + pos, is_end)
    })
}

/// A position of the rewritten program → a byte offset of the source.
pub(super) fn source_pos(absolute: usize) -> usize {
    STATE.with(|s| s.borrow().offsets.map(absolute, false))
}

pub(super) fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(
        source_pos_rel(s.start(), false),
        source_pos_rel(s.end(), true),
    )
}

fn syntax_error(e: &pest::error::Error<Rule>, base: usize) -> Error {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    let at = STATE.with(|s| s.borrow().offsets.map(base + pos, false));
    Error::new(ErrorKind::Syntax, message).at(Span::new(at, at + 1))
}

/// Python that tsh does not have says so, rather than "invalid syntax".
fn unsupported_python(src: &str, e: Error) -> Error {
    let Some(span) = e.span else {
        return e;
    };
    let line_start = src[..span.start.min(src.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line = src[line_start..].trim_start();
    let word: String = line
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let (what, hint) = match word.as_str() {
        "async" | "await" => (
            "async code is not supported by tsh",
            "run the code without async",
        ),
        "match" if line.trim_end().ends_with(':') => (
            "match statements are not supported by tsh",
            "use if/elif/else",
        ),
        _ => return e,
    };
    let start = line_start + (src[line_start..].len() - line.len());
    Error::new(ErrorKind::Syntax, what)
        .at(Span::new(start, start + word.len()))
        .hint(hint)
}

fn describe_expected(positives: &[Rule]) -> String {
    let mut names: Vec<&str> = positives
        .iter()
        .filter_map(|r| match r {
            Rule::expr | Rule::arith | Rule::postfix_expr | Rule::expr_list => {
                Some("an expression")
            }
            Rule::block => Some("a `{ ... }` block or `:` and an indented block"),
            Rule::ident => Some("a name"),
            Rule::call | Rule::index | Rule::attr => Some("an operator"),
            Rule::EOI => Some("the end of the statement"),
            Rule::stmts => Some("a statement"),
            r if format!("{r:?}").starts_with("op_") => Some("an operator"),
            Rule::kw_in => Some("`in`"),
            Rule::kw_import => Some("`import`"),
            Rule::kw_else => Some("`else`"),
            _ => None,
        })
        .collect();
    names.dedup();
    let mut seen = Vec::new();
    for n in names {
        if !seen.contains(&n) {
            seen.push(n);
        }
    }
    if seen.is_empty() {
        "invalid syntax".to_string()
    } else {
        format!("invalid syntax: expected {}", seen.join(" or "))
    }
}

fn build_stmts(pair: Pair<Rule>) -> Result<Vec<Stmt>> {
    pair.into_inner().map(build_stmt).collect()
}

pub(super) fn build_block(pair: Pair<Rule>) -> Result<Vec<Stmt>> {
    let stmts = pair.into_inner().next().expect("block holds stmts");
    build_stmts(stmts)
}

fn name(pair: Pair<Rule>) -> Rc<str> {
    super::ast::intern(pair.as_str())
}

fn build_stmt(pair: Pair<Rule>) -> Result<Stmt> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let kind = match rule {
        Rule::expr_stmt => StmtKind::Expr(build_expr_list(inner.next().expect("expr_stmt"))?),
        Rule::assign => {
            // `a = b = value`: every pair but the last holds targets.
            let parts: Vec<_> = inner.collect();
            let Some((value, targets)) = parts.split_last() else {
                return Err(Error::new(ErrorKind::Syntax, "an assignment needs a value"));
            };
            let value = build_expr_list(value.clone())?;
            let mut groups = targets
                .iter()
                .map(|t| build_targets(t.clone()))
                .collect::<Result<Vec<_>>>()?;
            if groups.len() == 1 {
                StmtKind::Assign(groups.remove(0), value)
            } else {
                StmtKind::AssignChain(groups, value)
            }
        }
        Rule::aug_assign => {
            let target = build_postfix(inner.next().expect("target"))?;
            check_target(&target)?;
            let op = match inner.next().expect("op").as_str() {
                "+=" => BinOp::Add,
                "-=" => BinOp::Sub,
                "*=" => BinOp::Mul,
                "/=" => BinOp::Div,
                "//=" => BinOp::FloorDiv,
                "%=" => BinOp::Mod,
                "**=" => BinOp::Pow,
                "@=" => BinOp::MatMul,
                "&=" => BinOp::BitAnd,
                "|=" => BinOp::BitOr,
                _ => BinOp::BitXor,
            };
            StmtKind::AugAssign(target, op, build_expr(inner.next().expect("value"))?)
        }
        Rule::if_stmt => build_if(inner)?,
        Rule::while_stmt => {
            inner.next();
            let cond = build_expr(inner.next().expect("cond"))?;
            StmtKind::While(cond, build_block(inner.next().expect("body"))?)
        }
        Rule::for_stmt => {
            inner.next();
            let targets = build_targets(inner.next().expect("targets"))?;
            inner.next();
            let iter = build_expr_list(inner.next().expect("iter"))?;
            StmtKind::For(targets, iter, build_block(inner.next().expect("body"))?)
        }
        Rule::class_def => {
            inner.next();
            let cname = name(inner.next().expect("a class has a name"));
            let mut bases = vec![];
            let mut body = vec![];
            for p in inner {
                match p.as_rule() {
                    Rule::expr => bases.push(build_expr(p)?),
                    Rule::block => body = build_block(p)?,
                    _ => {}
                }
            }
            StmtKind::ClassDef {
                name: cname,
                bases,
                body,
            }
        }
        Rule::decorated => {
            let mut decorators = vec![];
            let mut def = None;
            for p in inner {
                match p.as_rule() {
                    Rule::decorator => {
                        let e = p
                            .into_inner()
                            .next()
                            .expect("a decorator holds an expression");
                        decorators.push(build_expr(e)?);
                    }
                    _ => def = Some(build_stmt(p)?),
                }
            }
            let def = def.expect("a decorated statement holds a def");
            let StmtKind::FnDef(f) = def.kind else {
                unreachable!("decorated holds fn_def")
            };
            let f = Rc::try_unwrap(f).unwrap_or_else(|_| unreachable!("just built"));
            StmtKind::FnDef(Rc::new(FnDef { decorators, ..f }))
        }
        Rule::fn_def => {
            inner.next();
            let fname = name(inner.next().expect("name"));
            let mut params = Vec::new();
            let mut body = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::param => params.push(build_param(p)?),
                    Rule::block => body = build_block(p)?,
                    // The return annotation is documentation only.
                    _ => {}
                }
            }
            let is_generator = yields(&body);
            StmtKind::FnDef(Rc::new(FnDef {
                name: fname,
                decorators: vec![],
                is_generator,
                params,
                body,
                span,
                source: source(),
            }))
        }
        Rule::return_stmt => {
            inner.next();
            StmtKind::Return(inner.next().map(build_expr_list).transpose()?)
        }
        Rule::yield_stmt => {
            inner.next();
            match inner.next() {
                None => StmtKind::Yield(None, false),
                Some(p) if p.as_rule() == Rule::yield_from => {
                    let e = p
                        .into_inner()
                        .nth(1)
                        .expect("yield from holds an expression");
                    StmtKind::Yield(Some(build_expr(e)?), true)
                }
                Some(p) => StmtKind::Yield(Some(build_expr_list(p)?), false),
            }
        }
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
        Rule::pass_stmt => StmtKind::Pass,
        Rule::no_grad_stmt => {
            inner.next();
            StmtKind::NoGrad(build_block(inner.next().expect("block"))?)
        }
        Rule::assert_stmt => {
            inner.next();
            let cond = build_expr(inner.next().expect("cond"))?;
            let msg = inner.next().map(build_expr).transpose()?;
            StmtKind::Assert(cond, msg)
        }
        Rule::with_stmt => {
            inner.next();
            let ctx = build_expr(inner.next().expect("context"))?;
            let mut bound = None;
            let mut body = vec![];
            for p in inner {
                match p.as_rule() {
                    Rule::ident => bound = Some(name(p)),
                    Rule::block => body = build_block(p)?,
                    _ => {}
                }
            }
            StmtKind::With(ctx, bound, body)
        }
        Rule::try_stmt => build_try(inner)?,
        Rule::import_stmt => {
            inner.next();
            let mut items = vec![];
            for item in inner {
                let mut parts = item.into_inner();
                let path = name(parts.next().expect("dotted"));
                let alias = parts.find(|p| p.as_rule() == Rule::ident).map(name);
                items.push((path, alias));
            }
            StmtKind::Import(items)
        }
        Rule::from_stmt => {
            inner.next();
            let module = name(inner.next().expect("module"));
            let mut names = vec![];
            for p in inner {
                if p.as_rule() == Rule::name_as {
                    let mut parts = p.into_inner();
                    let n = name(parts.next().expect("name"));
                    let alias = parts.find(|p| p.as_rule() == Rule::ident).map(name);
                    names.push((n, alias));
                }
            }
            StmtKind::FromImport(module, names)
        }
        Rule::raise_stmt => {
            inner.next();
            StmtKind::Raise(inner.next().map(build_expr).transpose()?)
        }
        Rule::del_stmt => {
            inner.next();
            StmtKind::Del(build_targets(inner.next().expect("targets"))?)
        }
        Rule::global_stmt => StmtKind::Global {
            nonlocal: inner.peek().map(|p| p.as_rule()) == Some(Rule::kw_nonlocal),
            names: inner
                .filter(|p| p.as_rule() == Rule::ident)
                .map(name)
                .collect(),
        },
        r => unreachable!("grammar has no statement rule {r:?}"),
    };
    Ok(Stmt { kind, span })
}

/// Does a body yield (outside the functions defined inside it)?
fn yields(body: &[Stmt]) -> bool {
    body.iter().any(|s| match &s.kind {
        StmtKind::Yield(..) => true,
        StmtKind::If(branches, otherwise) => {
            branches.iter().any(|(_, b)| yields(b)) || otherwise.as_deref().is_some_and(yields)
        }
        StmtKind::While(_, b)
        | StmtKind::For(_, _, b)
        | StmtKind::NoGrad(b)
        | StmtKind::With(_, _, b) => yields(b),
        StmtKind::Try {
            body,
            handlers,
            finally,
        } => {
            yields(body)
                || handlers.iter().any(|h| yields(&h.body))
                || finally.as_deref().is_some_and(yields)
        }
        _ => false,
    })
}

fn build_if(inner: pest::iterators::Pairs<Rule>) -> Result<StmtKind> {
    let mut branches = Vec::new();
    let mut otherwise = None;
    let parts: Vec<Pair<Rule>> = inner
        .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_else | Rule::kw_elif))
        .collect();
    let mut i = 0;
    while i < parts.len() {
        if parts[i].as_rule() == Rule::expr {
            let cond = build_expr(parts[i].clone())?;
            let body = build_block(parts[i + 1].clone())?;
            branches.push((cond, body));
            i += 2;
        } else {
            otherwise = Some(build_block(parts[i].clone())?);
            i += 1;
        }
    }
    Ok(StmtKind::If(branches, otherwise))
}

fn build_try(inner: pest::iterators::Pairs<Rule>) -> Result<StmtKind> {
    let mut body = vec![];
    let mut handlers = vec![];
    let mut finally = None;
    let mut after_finally = false;
    for p in inner {
        match p.as_rule() {
            Rule::block if after_finally => finally = Some(build_block(p)?),
            Rule::block => body = build_block(p)?,
            Rule::kw_finally => after_finally = true,
            Rule::except_clause => {
                let mut kinds = None;
                let mut bound = None;
                let mut block = vec![];
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::arith => kinds = Some(build_expr(q)?),
                        Rule::ident => bound = Some(name(q)),
                        Rule::block => block = build_block(q)?,
                        _ => {}
                    }
                }
                handlers.push(Handler {
                    kinds,
                    name: bound,
                    body: block,
                });
            }
            _ => {}
        }
    }
    Ok(StmtKind::Try {
        body,
        handlers,
        finally,
    })
}

/// A parameter of `def` or `lambda`: `x`, `x=1`, `x: int = 1`, `*args`, `**kw`.
pub(super) fn build_param(p: Pair<Rule>) -> Result<Param> {
    let mut star = Star::None;
    let mut pname: Rc<str> = Rc::from("");
    let mut default = None;
    for q in p.into_inner() {
        match q.as_rule() {
            Rule::star_marker => {
                star = if q.as_str() == "**" {
                    Star::Two
                } else {
                    Star::One
                }
            }
            // A bare `*` is a star parameter without a name.
            Rule::bare_star => star = Star::One,
            Rule::ident => pname = name(q),
            Rule::expr => default = Some(build_expr(q)?),
            // An annotation (`x: int`) is documentation only.
            _ => {}
        }
    }
    Ok(Param {
        name: pname,
        default,
        star,
    })
}
