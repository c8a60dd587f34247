//! Expressions: operators by Python's precedence (declared once in `pratt()`),
//! postfix calls/indexing/attributes, atoms, comprehensions and lambdas.
//!
//! As in parser.rs, the `expect`s and `unreachable!`s ask for children that the
//! grammar requires of a rule (a `dict_entry` always holds a key and a value):
//! pest only hands back trees the grammar accepted, so no input reaches them.

use std::rc::Rc;
use std::sync::OnceLock;

use pest::iterators::Pair;
use pest::pratt_parser::{Assoc, Op, PrattParser};

use super::ast::*;
use super::parser::{Rule, build_param, source, span_of};
use crate::error::{Error, ErrorKind, Result};

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

pub(super) fn check_target(e: &Expr) -> Result<()> {
    match &e.kind {
        ExprKind::Starred(inner) => check_target(inner),
        ExprKind::Name(..) | ExprKind::Attr(..) | ExprKind::Index(..) => Ok(()),
        ExprKind::Tuple(items) | ExprKind::List(items) => items.iter().try_for_each(check_target),
        _ => Err(Error::new(ErrorKind::Syntax, "cannot assign to this expression").at(e.span)),
    }
}

pub(super) fn build_targets(pair: Pair<Rule>) -> Result<Vec<Expr>> {
    // `x, = items` unpacks one item: a lone target with a comma is a tuple.
    let lone_tuple = pair.as_str().trim_end().ends_with(',');
    let whole = span_of(&pair);
    let mut targets: Vec<Expr> = pair
        .into_inner()
        .map(|p| {
            if p.as_rule() == Rule::star_target {
                let span = span_of(&p);
                let inner = build_postfix(p.into_inner().next().expect("a starred target"))?;
                Ok(Expr {
                    kind: ExprKind::Starred(Box::new(inner)),
                    span,
                })
            } else {
                build_postfix(p)
            }
        })
        .collect::<Result<_>>()?;
    if targets
        .iter()
        .filter(|t| matches!(t.kind, ExprKind::Starred(_)))
        .count()
        > 1
    {
        return Err(Error::new(
            ErrorKind::Syntax,
            "multiple starred expressions in assignment",
        ));
    }
    if lone_tuple && targets.len() == 1 {
        targets = vec![Expr {
            kind: ExprKind::Tuple(targets),
            span: whole,
        }];
    }
    for t in &targets {
        check_target(t)?;
    }
    Ok(targets)
}

/// `a, b` at statement level is a tuple, as in Python.
pub(super) fn build_expr_list(pair: Pair<Rule>) -> Result<Expr> {
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

/// An `expr` (with `lambda` and `a if c else b`) or a bare `arith`.
pub(super) fn build_expr(pair: Pair<Rule>) -> Result<Expr> {
    if pair.as_rule() == Rule::arith {
        return build_arith(pair);
    }
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let first = inner.next().expect("expr holds an operand");
    if first.as_rule() == Rule::lambda_expr {
        return build_lambda(first);
    }
    let then = build_arith(first)?;
    let Some(cond) = inner.next() else {
        return Ok(then);
    };
    let mut parts = cond
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::kw_if | Rule::kw_else));
    let test = build_expr(parts.next().expect("condition"))?;
    let otherwise = build_expr(parts.next().expect("else value"))?;
    Ok(Expr {
        kind: ExprKind::Conditional {
            cond: Box::new(test),
            then: Box::new(then),
            otherwise: Box::new(otherwise),
        },
        span,
    })
}

fn build_lambda(pair: Pair<Rule>) -> Result<Expr> {
    let span = span_of(&pair);
    let mut params = vec![];
    let mut body = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::lambda_param => params.push(build_param(p)?),
            Rule::expr => body = Some(build_expr(p)?),
            _ => {}
        }
    }
    let body = body.expect("a lambda has a body");
    let ret = Stmt {
        span: body.span,
        kind: StmtKind::Return(Some(body)),
    };
    Ok(Expr {
        kind: ExprKind::Lambda(Rc::new(FnDef {
            name: Rc::from("<lambda>"),
            decorators: vec![],
            is_generator: false,
            params,
            body: vec![ret],
            span,
            source: source(),
        })),
        span,
    })
}

fn build_arith(pair: Pair<Rule>) -> Result<Expr> {
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

pub(super) fn build_postfix(pair: Pair<Rule>) -> Result<Expr> {
    let mut inner = pair.into_inner();
    let mut expr = build_atom(inner.next().expect("postfix_expr starts with an atom"))?;
    for post in inner {
        let pspan = span_of(&post);
        let span = expr.span.to(pspan);
        let kind = match post.as_rule() {
            Rule::call
                if post
                    .clone()
                    .into_inner()
                    .any(|p| p.as_rule() == Rule::comp_for) =>
            {
                let value = build_comprehension(post, CompKind::Generator)?;
                ExprKind::Call {
                    func: Box::new(expr),
                    args: vec![Arg {
                        name: None,
                        value,
                        star: Star::None,
                    }],
                }
            }
            Rule::call => {
                let mut args = Vec::new();
                for a in post.into_inner() {
                    match a.as_rule() {
                        Rule::kwarg => {
                            let at = span_of(&a);
                            let mut ki = a.into_inner();
                            let (Some(name), Some(value)) = (ki.next(), ki.next()) else {
                                return Err(Error::new(
                                    ErrorKind::Syntax,
                                    "invalid syntax: a keyword argument is `name=value`",
                                )
                                .at(at));
                            };
                            args.push(Arg {
                                name: Some(intern(name.as_str())),
                                value: build_expr(value)?,
                                star: Star::None,
                            });
                        }
                        Rule::star_arg => {
                            let mut si = a.into_inner();
                            let marker = si.next().expect("star");
                            args.push(Arg {
                                name: None,
                                star: if marker.as_str() == "**" {
                                    Star::Two
                                } else {
                                    Star::One
                                },
                                value: build_expr(si.next().expect("value"))?,
                            });
                        }
                        _ => args.push(Arg {
                            name: None,
                            value: build_expr(a)?,
                            star: Star::None,
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

fn has_comp_for(pair: &Pair<Rule>) -> bool {
    pair.clone()
        .into_inner()
        .any(|p| p.as_rule() == Rule::comp_for)
}

/// `[item for ...]`, `{key: value for ...}`, `(item for ...)`.
fn build_comprehension(pair: Pair<Rule>, kind: CompKind) -> Result<Expr> {
    let span = span_of(&pair);
    let mut item = None;
    let mut value = None;
    let mut clauses = vec![];
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::dict_entry => {
                let mut kv = p.into_inner();
                item = Some(build_expr(kv.next().expect("key"))?);
                value = kv.next().map(build_expr).transpose()?.map(Box::new);
            }
            Rule::comp_for => {
                let mut parts = p
                    .into_inner()
                    .filter(|q| !matches!(q.as_rule(), Rule::kw_for | Rule::kw_in));
                let targets = build_targets(parts.next().expect("targets"))?;
                let iter = build_expr(parts.next().expect("iterable"))?;
                let conds = parts
                    .map(|c| {
                        let cond = c.into_inner().nth(1).expect("condition");
                        build_expr(cond)
                    })
                    .collect::<Result<_>>()?;
                clauses.push(CompFor {
                    targets,
                    iter,
                    conds,
                });
            }
            _ => item = Some(build_expr(p)?),
        }
    }
    // A brace comprehension without `key: value` is a set's.
    let kind = if kind == CompKind::Dict && value.is_none() {
        CompKind::Set
    } else {
        kind
    };
    Ok(Expr {
        kind: ExprKind::Comprehension {
            kind,
            item: Box::new(item.expect("a comprehension has an item")),
            value,
            clauses,
        },
        span,
    })
}

pub(super) fn unescape(s: &str) -> String {
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
            Some('a') => out.push('\x07'),
            Some('b') => out.push('\x08'),
            Some('f') => out.push('\x0c'),
            Some('v') => out.push('\x0b'),
            // A backslash before a newline joins the lines.
            Some('\n') => {}
            Some(c @ ('x' | 'u' | 'U')) => {
                let digits = match c {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let hex: String = chars.clone().take(digits).collect();
                match u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32) {
                    Some(ch) if hex.len() == digits => {
                        out.push(ch);
                        for _ in 0..digits {
                            chars.next();
                        }
                    }
                    _ => {
                        out.push('\\');
                        out.push(c);
                    }
                }
            }
            Some(c @ ('\\' | '\'' | '"')) => out.push(c),
            // Python keeps the backslash of an escape it does not know.
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn build_atom(pair: Pair<Rule>) -> Result<Expr> {
    if matches!(pair.as_rule(), Rule::list | Rule::dict | Rule::paren) && has_comp_for(&pair) {
        let kind = match pair.as_rule() {
            Rule::list => CompKind::List,
            Rule::dict => CompKind::Dict,
            _ => CompKind::Generator,
        };
        return build_comprehension(pair, kind);
    }
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::int => ExprKind::Int(parse_int(pair.as_str(), span)?),
        Rule::imag => ExprKind::Imag(
            pair.as_str()
                .trim_end_matches(['j', 'J'])
                .replace('_', "")
                .parse::<f64>()
                .unwrap_or(f64::NAN),
        ),
        Rule::float => ExprKind::Float(
            pair.as_str()
                .replace('_', "")
                .parse::<f64>()
                .unwrap_or(f64::NAN),
        ),
        Rule::strings => {
            // Plain pieces join into one string; any f-string piece makes the
            // whole an f-string whose plain pieces are text.
            let mut parts: Vec<FPart> = vec![];
            let mut text = String::new();
            let mut formatted = false;
            for s in pair.into_inner() {
                if s.as_rule() == Rule::fstring {
                    formatted = true;
                    if !text.is_empty() {
                        parts.push(FPart::Text(std::mem::take(&mut text).into()));
                    }
                    parts.extend(fstring_parts(s)?);
                } else {
                    push_string(&mut text, s);
                }
            }
            if !formatted {
                ExprKind::Str(text.into())
            } else {
                if !text.is_empty() {
                    parts.push(FPart::Text(text.into()));
                }
                ExprKind::FString(parts)
            }
        }
        Rule::dict => {
            // `key: value` entries make a dict, bare items a set; `{}` is a dict.
            let mut entries = vec![];
            let mut items = vec![];
            for e in pair.into_inner() {
                let mut kv = e.into_inner();
                let k = build_expr(kv.next().expect("key"))?;
                match kv.next() {
                    Some(v) => entries.push((k, build_expr(v)?)),
                    None => items.push(k),
                }
            }
            match (entries.is_empty(), items.is_empty()) {
                (_, true) => ExprKind::Dict(entries),
                (true, false) => ExprKind::Set(items),
                (false, false) => {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        "invalid syntax: a display mixes `key: value` entries and bare items",
                    )
                    .at(span));
                }
            }
        }

        Rule::kw_true => ExprKind::Bool(true),
        Rule::kw_false => ExprKind::Bool(false),
        Rule::kw_none => ExprKind::None,
        Rule::ellipsis => ExprKind::Ellipsis,
        Rule::ident => ExprKind::Name(intern(pair.as_str()), Slot::default()),
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

/// A plain string literal's text, escapes resolved unless it is raw.
fn push_string(text: &mut String, s: Pair<Rule>) {
    let mut raw = false;
    for part in s.into_inner() {
        match part.as_rule() {
            Rule::raw_prefix => raw = part.as_str().eq_ignore_ascii_case("r"),
            _ if raw => text.push_str(part.as_str()),
            _ => text.push_str(&unescape(part.as_str())),
        }
    }
}

/// An f-string literal's text and fields.
fn fstring_parts(pair: Pair<Rule>) -> Result<Vec<FPart>> {
    let text = pair.as_str();
    let prefix = &text[..text.find(['"', '\'']).unwrap_or(0)];
    let raw = prefix.contains(['r', 'R']);
    let span = span_of(&pair);
    let body = pair
        .into_inner()
        .next()
        .ok_or_else(|| Error::new(ErrorKind::Syntax, "an f-string needs its quotes").at(span))?;
    let start = super::parser::absolute(body.as_span().start());
    super::fstring::parts(body.as_str(), start, raw)
}
