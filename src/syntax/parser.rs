//! pest pairs → AST. Operator precedence is Python's, declared once in `pratt()`.
//!
//! The `expect`s and `unreachable!`s below ask for children that the grammar
//! requires of a rule (a `while_stmt` always holds its condition and body): pest
//! only hands back trees the grammar accepted, so no input reaches them; only a
//! grammar edit that forgets this builder could. The fuzz tests parse millions of
//! random and damaged programs through here.

use std::rc::Rc;
use std::sync::OnceLock;

use pest::Parser;
use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::ast::*;
use super::lines::join_bracketed_lines;
use crate::error::{Error, ErrorKind, Result};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/tsh.pest"]
struct TshParser;

/// Deepest expression tree accepted (chains like `1+1+...+1` included).
const MAX_EXPR_DEPTH: usize = 400;

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        // Lowest precedence first, as in Python's grammar.
        PrattParser::new()
            .op(Op::infix(Rule::op_or, Assoc::Left))
            .op(Op::infix(Rule::op_and, Assoc::Left))
            .op(Op::prefix(Rule::op_not))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left)
                | Op::infix(Rule::op_in, Assoc::Left)
                | Op::infix(Rule::op_not_in, Assoc::Left)
                | Op::infix(Rule::op_is, Assoc::Left)
                | Op::infix(Rule::op_is_not, Assoc::Left))
            .op(Op::infix(Rule::op_bitor, Assoc::Left))
            .op(Op::infix(Rule::op_bitxor, Assoc::Left))
            .op(Op::infix(Rule::op_bitand, Assoc::Left))
            .op(Op::infix(Rule::op_lshift, Assoc::Left) | Op::infix(Rule::op_rshift, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_matmul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_floordiv, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left))
            .op(Op::prefix(Rule::op_neg) | Op::prefix(Rule::op_pos) | Op::prefix(Rule::op_inv))
            .op(Op::infix(Rule::op_pow, Assoc::Right))
    })
}

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
    let mut pairs = TshParser::parse(Rule::program, &joined.text).map_err(|e| syntax_error(&e))?;
    let program = pairs
        .next()
        .expect("pest returns the program rule it was asked for");
    let stmts = program.into_inner().next().expect("program holds stmts");
    SOURCE.with(|s| *s.borrow_mut() = Rc::from(src));
    let built = build_stmts(stmts);
    SOURCE.with(|s| *s.borrow_mut() = Rc::from(""));
    built
}

thread_local! {
    /// The text being parsed: each function keeps it, so an error inside the
    /// function, called from a later REPL entry, still shows the function's lines.
    static SOURCE: std::cell::RefCell<Rc<str>> = std::cell::RefCell::new(Rc::from(""));
}

fn syntax_error(e: &pest::error::Error<Rule>) -> Error {
    let pos = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    let message = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => describe_expected(positives),
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    Error::new(ErrorKind::Syntax, message).at(Span::new(pos, pos + 1))
}

fn describe_expected(positives: &[Rule]) -> String {
    let mut names: Vec<&str> = positives
        .iter()
        .filter_map(|r| match r {
            Rule::expr | Rule::postfix_expr | Rule::expr_list => Some("an expression"),
            Rule::block => Some("a `{ ... }` block"),
            Rule::ident => Some("a name"),
            Rule::call | Rule::index | Rule::attr => Some("an operator"),
            Rule::EOI => Some("the end of the statement"),
            Rule::stmts => Some("a statement"),
            r if format!("{r:?}").starts_with("op_") => Some("an operator"),
            Rule::kw_in => Some("`in`"),
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

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn build_stmts(pair: Pair<Rule>) -> Result<Vec<Stmt>> {
    pair.into_inner().map(build_stmt).collect()
}

fn build_block(pair: Pair<Rule>) -> Result<Vec<Stmt>> {
    let stmts = pair.into_inner().next().expect("block holds stmts");
    build_stmts(stmts)
}

fn build_stmt(pair: Pair<Rule>) -> Result<Stmt> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    let kind = match rule {
        Rule::expr_stmt => StmtKind::Expr(build_expr_list(inner.next().expect("expr_stmt"))?),
        Rule::assign => {
            let targets = build_targets(inner.next().expect("targets"))?;
            let value = build_expr_list(inner.next().expect("value"))?;
            StmtKind::Assign(targets, value)
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
        Rule::if_stmt => {
            let mut branches = Vec::new();
            let mut otherwise = None;
            let parts: Vec<Pair<Rule>> = inner
                .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_else))
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
            StmtKind::If(branches, otherwise)
        }
        Rule::while_stmt => {
            inner.next();
            let cond = build_expr(inner.next().expect("cond"))?;
            StmtKind::While(cond, build_block(inner.next().expect("body"))?)
        }
        Rule::for_stmt => {
            inner.next();
            let targets = build_targets(inner.next().expect("targets"))?;
            inner.next();
            let iter = build_expr(inner.next().expect("iter"))?;
            StmtKind::For(targets, iter, build_block(inner.next().expect("body"))?)
        }
        Rule::fn_def => {
            inner.next();
            let name: Rc<str> = inner.next().expect("name").as_str().into();
            let mut params = Vec::new();
            let mut body = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::param => {
                        let mut pi = p.into_inner();
                        let pname: Rc<str> = pi.next().expect("param name").as_str().into();
                        let default = pi.next().map(build_expr).transpose()?;
                        params.push(Param {
                            name: pname,
                            default,
                        });
                    }
                    _ => body = build_block(p)?,
                }
            }
            StmtKind::FnDef(Rc::new(FnDef {
                name,
                params,
                body,
                span,
                source: SOURCE.with(|s| s.borrow().clone()),
            }))
        }
        Rule::return_stmt => {
            inner.next();
            StmtKind::Return(inner.next().map(build_expr_list).transpose()?)
        }
        Rule::break_stmt => StmtKind::Break,
        Rule::continue_stmt => StmtKind::Continue,
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
        r => unreachable!("grammar has no statement rule {r:?}"),
    };
    Ok(Stmt { kind, span })
}

fn check_target(e: &Expr) -> Result<()> {
    match e.kind {
        ExprKind::Name(_) | ExprKind::Attr(..) | ExprKind::Index(..) => Ok(()),
        _ => Err(Error::new(ErrorKind::Syntax, "cannot assign to this expression").at(e.span)),
    }
}

fn build_targets(pair: Pair<Rule>) -> Result<Vec<Expr>> {
    let targets: Vec<Expr> = pair
        .into_inner()
        .map(build_postfix)
        .collect::<Result<_>>()?;
    for t in &targets {
        check_target(t)?;
    }
    Ok(targets)
}

/// `a, b` at statement level is a tuple, as in Python.
fn build_expr_list(pair: Pair<Rule>) -> Result<Expr> {
    let span = span_of(&pair);
    let mut items = Vec::new();
    let mut trailing = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::trailing_comma => trailing = true,
            _ => items.push(build_expr(p)?),
        }
    }
    if items.len() == 1 && !trailing {
        Ok(items.pop().expect("one item"))
    } else {
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }
}

fn depth_error(span: Span) -> Error {
    Error::new(
        ErrorKind::Syntax,
        format!("expression nested more than {MAX_EXPR_DEPTH} deep"),
    )
    .at(span)
}

fn build_expr(pair: Pair<Rule>) -> Result<Expr> {
    // Each partial result carries its depth so that absurdly deep trees are refused
    // before they can overflow the evaluator's stack.
    let out: Result<(Expr, usize)> = pratt()
        .map_primary(|p| Ok((build_postfix(p)?, 1)))
        .map_prefix(|op, rhs| {
            let (rhs, d) = rhs?;
            if d > MAX_EXPR_DEPTH {
                return Err(depth_error(rhs.span));
            }
            let uop = match op.as_rule() {
                Rule::op_neg => UnaryOp::Neg,
                Rule::op_pos => UnaryOp::Pos,
                Rule::op_inv => UnaryOp::Invert,
                _ => UnaryOp::Not,
            };
            let span = span_of(&op).to(rhs.span);
            Ok((
                Expr {
                    kind: ExprKind::Unary(uop, Box::new(rhs)),
                    span,
                },
                d + 1,
            ))
        })
        .map_infix(|lhs, op, rhs| {
            let (lhs, dl) = lhs?;
            let (rhs, dr) = rhs?;
            let d = dl.max(dr) + 1;
            let span = lhs.span.to(rhs.span);
            if d > MAX_EXPR_DEPTH {
                return Err(depth_error(span));
            }
            let bin =
                |b: BinOp, lhs: Expr, rhs: Expr| ExprKind::Binary(b, Box::new(lhs), Box::new(rhs));
            let cmp = |c: CmpOp, lhs: Expr, rhs: Expr| match lhs.kind {
                ExprKind::Compare {
                    first,
                    mut rest,
                    closed: false,
                } => {
                    rest.push((c, rhs));
                    ExprKind::Compare {
                        first,
                        rest,
                        closed: false,
                    }
                }
                _ => ExprKind::Compare {
                    first: Box::new(lhs),
                    rest: vec![(c, rhs)],
                    closed: false,
                },
            };
            let kind = match op.as_rule() {
                Rule::op_or => ExprKind::Or(Box::new(lhs), Box::new(rhs)),
                Rule::op_and => ExprKind::And(Box::new(lhs), Box::new(rhs)),
                Rule::op_eq => cmp(CmpOp::Eq, lhs, rhs),
                Rule::op_ne => cmp(CmpOp::Ne, lhs, rhs),
                Rule::op_lt => cmp(CmpOp::Lt, lhs, rhs),
                Rule::op_le => cmp(CmpOp::Le, lhs, rhs),
                Rule::op_gt => cmp(CmpOp::Gt, lhs, rhs),
                Rule::op_ge => cmp(CmpOp::Ge, lhs, rhs),
                Rule::op_in => cmp(CmpOp::In, lhs, rhs),
                Rule::op_not_in => cmp(CmpOp::NotIn, lhs, rhs),
                Rule::op_is => cmp(CmpOp::Is, lhs, rhs),
                Rule::op_is_not => cmp(CmpOp::IsNot, lhs, rhs),
                Rule::op_bitor => bin(BinOp::BitOr, lhs, rhs),
                Rule::op_bitxor => bin(BinOp::BitXor, lhs, rhs),
                Rule::op_bitand => bin(BinOp::BitAnd, lhs, rhs),
                Rule::op_lshift => bin(BinOp::LShift, lhs, rhs),
                Rule::op_rshift => bin(BinOp::RShift, lhs, rhs),
                Rule::op_add => bin(BinOp::Add, lhs, rhs),
                Rule::op_sub => bin(BinOp::Sub, lhs, rhs),
                Rule::op_mul => bin(BinOp::Mul, lhs, rhs),
                Rule::op_matmul => bin(BinOp::MatMul, lhs, rhs),
                Rule::op_div => bin(BinOp::Div, lhs, rhs),
                Rule::op_floordiv => bin(BinOp::FloorDiv, lhs, rhs),
                Rule::op_mod => bin(BinOp::Mod, lhs, rhs),
                _ => bin(BinOp::Pow, lhs, rhs),
            };
            Ok((Expr { kind, span }, d))
        })
        .parse(pair.into_inner());
    out.map(|(e, _)| e)
}

fn build_postfix(pair: Pair<Rule>) -> Result<Expr> {
    let mut inner = pair.into_inner();
    let mut expr = build_atom(inner.next().expect("postfix_expr starts with an atom"))?;
    for post in inner {
        let pspan = span_of(&post);
        let span = expr.span.to(pspan);
        let kind = match post.as_rule() {
            Rule::call => {
                let mut args = Vec::new();
                for a in post.into_inner() {
                    match a.as_rule() {
                        Rule::kwarg => {
                            let mut ki = a.into_inner();
                            let name: Rc<str> = ki.next().expect("kw name").as_str().into();
                            args.push(Arg {
                                name: Some(name),
                                value: build_expr(ki.next().expect("kw value"))?,
                            });
                        }
                        _ => args.push(Arg {
                            name: None,
                            value: build_expr(a)?,
                        }),
                    }
                }
                ExprKind::Call {
                    func: Box::new(expr),
                    args,
                }
            }
            Rule::index => {
                let subs = post
                    .into_inner()
                    .map(build_subscript)
                    .collect::<Result<_>>()?;
                ExprKind::Index(Box::new(expr), subs)
            }
            _ => {
                let name: Rc<str> = post.into_inner().next().expect("attr name").as_str().into();
                ExprKind::Attr(Box::new(expr), name)
            }
        };
        expr = Expr { kind, span };
    }
    Ok(expr)
}

fn build_subscript(pair: Pair<Rule>) -> Result<Subscript> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::ellipsis => Ok(Subscript::Ellipsis(span)),
        Rule::slice => {
            let mut parts = pair
                .into_inner()
                .map(|p| p.into_inner().next().map(build_expr).transpose());
            let start = parts.next().transpose()?.flatten();
            let stop = parts.next().transpose()?.flatten();
            let step = parts.next().transpose()?.flatten();
            Ok(Subscript::Slice {
                start,
                stop,
                step,
                span,
            })
        }
        _ => Ok(Subscript::Expr(build_expr(pair)?)),
    }
}

fn parse_int(text: &str, span: Span) -> Result<i64> {
    let t = text.replace('_', "");
    let parsed = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        i64::from_str_radix(h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        i64::from_str_radix(b, 2)
    } else {
        t.parse::<i64>()
    };
    parsed.map_err(|_| {
        Error::new(
            ErrorKind::Value,
            format!("integer literal {text} does not fit in 64 bits"),
        )
        .at(span)
        .hint("tsh integers are 64-bit, like int64 tensors; write it as a float (e.g. 1e20)")
    })
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

fn build_atom(pair: Pair<Rule>) -> Result<Expr> {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(parse_int(pair.as_str(), span)?),
        Rule::float => ExprKind::Float(
            pair.as_str()
                .replace('_', "")
                .parse::<f64>()
                .unwrap_or(f64::NAN),
        ),
        Rule::string => {
            let inner = pair.into_inner().next().map(|p| p.as_str()).unwrap_or("");
            ExprKind::Str(unescape(inner).into())
        }
        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::kw_none => ExprKind::None,
        Rule::ellipsis => ExprKind::Ellipsis,
        Rule::ident => ExprKind::Name(pair.as_str().into()),
        Rule::list => ExprKind::List(pair.into_inner().map(build_expr).collect::<Result<_>>()?),
        Rule::paren => {
            let mut items = Vec::new();
            let mut commas = 0;
            for p in pair.into_inner() {
                match p.as_rule() {
                    Rule::tuple_comma => commas += 1,
                    _ => items.push(build_expr(p)?),
                }
            }
            if items.len() == 1 && commas == 0 {
                let mut e = items.pop().expect("one item");
                if let ExprKind::Compare { closed, .. } = &mut e.kind {
                    *closed = true;
                }
                e.span = span;
                return Ok(e);
            }
            ExprKind::Tuple(items)
        }
        r => unreachable!("grammar has no atom rule {r:?}"),
    };
    Ok(Expr { kind, span })
}
