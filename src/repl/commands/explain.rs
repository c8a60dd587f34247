//! `:explain EXPR` (what an expression does to shapes, dtypes and memory) and
//! `:why` (the last error, expanded).

use super::{Outcome, say};
use crate::error::{Error, ErrorKind, OperandInfo, Result};
use crate::interp::session::operand_info;
use crate::interp::{Interp, Value};
use crate::syntax::ast::{BinOp, Expr, ExprKind, StmtKind};
use crate::teach::explain;
use crate::tensor::shape::fmt_shape;

fn one_expression(src: &str) -> Result<Expr> {
    let program = crate::syntax::parse_program(src)?;
    match program.as_slice() {
        [stmt] => match &stmt.kind {
            StmtKind::Expr(e) => Ok(e.clone()),
            _ => Err(Error::new(
                ErrorKind::Syntax,
                ":explain takes an expression, not a statement",
            )
            .at(stmt.span)
            .hint(":explain a + b, :explain x.T, :explain a @ b")),
        },
        _ => Err(
            Error::new(ErrorKind::Syntax, ":explain takes one expression").hint(":explain a + b"),
        ),
    }
}

/// The operands an expression applies its op to, evaluated, and its result.
struct Pieces {
    op: String,
    labels: Vec<String>,
    operands: Vec<OperandInfo>,
    result: Result<Value>,
}

fn pieces(interp: &mut Interp, src: &str, e: &Expr) -> Result<Pieces> {
    let text = |x: &Expr| src[x.span.start..x.span.end.min(src.len())].to_string();
    match &e.kind {
        ExprKind::Binary(op, l, r) => {
            let lv = interp.eval(l)?;
            let rv = interp.eval(r)?;
            let result = crate::interp::ops_binary(*op, &lv, &rv);
            Ok(Pieces {
                op: op.symbol().to_string(),
                labels: vec![text(l), text(r)],
                operands: [
                    operand_info(&lv, Some(l.span)),
                    operand_info(&rv, Some(r.span)),
                ]
                .into_iter()
                .flatten()
                .collect(),
                result,
            })
        }
        ExprKind::Call { func, args } => {
            let f = interp.eval(func)?;
            let mut positional = vec![];
            let mut keywords = vec![];
            let mut labels = vec![];
            let mut operands = vec![];
            if let Value::Method(m) = &f
                && let Value::Tensor(_) = &m.0
                && let ExprKind::Attr(recv, _) = &func.kind
            {
                labels.push(text(recv));
                operands.extend(operand_info(&m.0, Some(recv.span)));
            }
            for a in args {
                let v = interp.eval(&a.value)?;
                if let Value::Tensor(_) = v {
                    labels.push(text(&a.value));
                    operands.extend(operand_info(&v, Some(a.value.span)));
                }
                match &a.name {
                    Some(n) => keywords.push((n.to_string(), v, a.value.span)),
                    None => positional.push((v, a.value.span)),
                }
            }
            let result = interp.call(&f, positional, keywords, e.span);
            Ok(Pieces {
                op: text(func),
                labels,
                operands,
                result,
            })
        }
        _ => Ok(Pieces {
            op: String::new(),
            labels: vec![],
            operands: vec![],
            result: interp.eval(e),
        }),
    }
}

pub fn explain(interp: &mut Interp, arg: &str) -> Result<Outcome> {
    if arg.is_empty() {
        return Err(
            Error::new(ErrorKind::Syntax, ":explain needs an expression")
                .hint(":explain a + b, :explain x.T, :explain a @ b"),
        );
    }
    let e = one_expression(arg)?;
    interp.source = std::rc::Rc::from(arg);
    let p = pieces(interp, arg, &e)?;
    let mut out = String::new();
    let tensors: Vec<(&str, &OperandInfo)> = p
        .labels
        .iter()
        .map(String::as_str)
        .zip(&p.operands)
        .filter(|(_, o)| !o.scalar)
        .collect();
    let matmul_like = matches!(
        p.op.as_str(),
        "@" | "matmul" | "torch.matmul" | "mm" | "bmm"
    ) || p.op.ends_with(".matmul");
    if matmul_like && tensors.len() == 2 {
        out.push_str(&explain::matmul(
            [tensors[0].0, tensors[1].0],
            &tensors[0].1.shape,
            &tensors[1].1.shape,
        ));
    } else if p.operands.len() >= 2 {
        let labels: Vec<&str> = p.labels.iter().map(String::as_str).collect();
        let shapes: Vec<&[usize]> = p.operands.iter().map(|o| o.shape.as_slice()).collect();
        out.push_str(&explain::broadcast(&labels, &shapes));
    }
    if p.operands.len() >= 2 {
        let division = p.op == BinOp::Div.symbol();
        out.push_str(&explain::dtype_rule(&p.operands, division));
    }
    match p.result {
        Ok(Value::Tensor(t)) => {
            out.push_str(&format!(
                "result: {} {} {}\n",
                fmt_shape(t.shape()),
                t.dtype(),
                t.device()
            ));
            let (same, shared) = sharing(interp, &t);
            out.push_str(&explain::layout(&t, &same, &shared));
        }
        Ok(other) => out.push_str(&format!(
            "result: {} ({})\n",
            other.a_type_name(),
            crate::print::value::repr_with(&other, &interp.print_opts)
        )),
        Err(e) => out.push_str(&format!("result: {e}\n")),
    }
    say(interp, out.trim_end());
    Ok(Outcome::Handled)
}

/// Names bound to `t` itself, and names of other tensors on its storage.
fn sharing(interp: &Interp, t: &crate::tensor::Tensor) -> (Vec<String>, Vec<String>) {
    let (mut same, mut shared) = (vec![], vec![]);
    for (k, v) in &interp.globals {
        if let Value::Tensor(o) = v {
            if o.same_tensor(t) {
                same.push(k.to_string());
            } else if o.shares_storage(t) {
                shared.push(k.to_string());
            }
        }
    }
    same.sort();
    shared.sort();
    (same, shared)
}

pub fn why(interp: &mut Interp, _: &str) -> Result<Outcome> {
    let text = match &interp.last_error {
        None => "no error yet in this session".to_string(),
        Some(last) => crate::teach::why::explain(last),
    };
    say(interp, text.trim_end());
    Ok(Outcome::Handled)
}
