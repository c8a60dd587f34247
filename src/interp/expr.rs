//! Evaluating expressions.

use super::Interp;
use super::builtins::{self};
use super::value::Value;
use crate::error::{Error, Result, name_err};
use crate::syntax::ast::*;

impl Interp {
    pub fn eval(&mut self, e: &Expr) -> Result<Value> {
        // The result stays where the arm wrote it: an error gets its span in
        // place. (Moving a `Result<Value>` out and back in copies it whole, and
        // the processor stalls on copies of what was just written field by
        // field.)
        let mut r = self.eval_inner(e);
        if let Err(err) = &mut r
            && err.span.is_none()
        {
            err.span = Some(e.span);
        }
        r
    }

    /// Each arm returns its callee's result as it is, for the same reason.
    pub(super) fn eval_inner(&mut self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Int(i) => Ok(Value::Int(*i)),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Imag(f) => Ok(Value::Complex(0.0, *f)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::None => Ok(Value::None),
            ExprKind::Ellipsis => Ok(Value::Ellipsis),
            ExprKind::Name(n, slot) => self
                .lookup_slotted(n, slot)
                .ok_or_else(|| self.unknown_name(n)),
            ExprKind::List(items) => Ok(Value::list(
                items.iter().map(|x| self.eval(x)).collect::<Result<_>>()?,
            )),
            ExprKind::Tuple(items) => Ok(Value::tuple(
                items.iter().map(|x| self.eval(x)).collect::<Result<_>>()?,
            )),
            ExprKind::Set(items) => {
                let values = items
                    .iter()
                    .map(|x| self.eval(x))
                    .collect::<Result<Vec<_>>>()?;
                crate::interp::pyset::from_items(values)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                self.traced(e.span, op.symbol(), &[(&v, Some(x.span))], |_| {
                    super::ops::unary(*op, &v)
                })
            }
            ExprKind::Binary(op, l, r) => {
                let lv = self.eval(l)?;
                let rv = self.eval(r)?;
                self.binary_of(e.span, *op, (&lv, l.span), (&rv, r.span))
            }
            ExprKind::Compare { first, rest, .. } => {
                let mut left = self.eval(first)?;
                let mut result = Value::Bool(true);
                for (i, (op, right)) in rest.iter().enumerate() {
                    let rv = self.eval(right)?;
                    let r = self.compare_values(*op, &left, &rv)?;
                    if rest.len() == 1 {
                        return Ok(r);
                    }
                    // Chains `a < b < c` short-circuit like Python's.
                    if !r.truthy()? {
                        return Ok(r);
                    }
                    result = r;
                    left = rv;
                    let _ = i;
                }
                Ok(result)
            }
            ExprKind::And(l, r) => {
                let lv = self.eval(l)?;
                if !lv.truthy().map_err(|err| err.at(l.span))? {
                    Ok(lv)
                } else {
                    self.eval(r)
                }
            }
            ExprKind::Or(l, r) => {
                let lv = self.eval(l)?;
                if lv.truthy().map_err(|err| err.at(l.span))? {
                    Ok(lv)
                } else {
                    self.eval(r)
                }
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
                builtins::get_attr(self, &o, name)
            }
            ExprKind::Index(obj, subs) => {
                let o = self.eval(obj)?;
                self.get_item(&o, subs)
            }
            ExprKind::Call { func, args } => {
                if let ExprKind::Attr(obj, name) = &func.kind {
                    return self.call_attr((obj, name, func.span), args, e.span);
                }
                let f = self.eval(func)?;
                let (positional, keywords) = self.eval_args(args)?;
                self.call(&f, positional, keywords, e.span)
            }
            ExprKind::Conditional { .. }
            | ExprKind::Lambda(_)
            | ExprKind::Dict(_)
            | ExprKind::Comprehension { .. }
            | ExprKind::FString(_) => self.eval_python(e),
            ExprKind::Starred(_) => Err(Error::new(
                crate::error::ErrorKind::Syntax,
                "can't use starred expression here",
            )),
        }
    }

    pub(super) fn unknown_name(&self, n: &str) -> Error {
        let mut e = name_err(format!("name '{n}' is not defined"));
        let mut names: Vec<String> = self.globals.keys().map(|k| k.to_string()).collect();
        if let Some(scope) = self.locals.last() {
            names.extend(scope.vars.borrow().keys().map(|k| k.to_string()));
        }
        names.extend(builtins::global_names().map(|s| s.to_string()));
        if let Some(best) = crate::print::suggest::closest(n, names.iter().map(|s| s.as_str())) {
            e = e.hint(format!("did you mean `{best}`?"));
        }
        e
    }
}

impl Interp {
    /// The binary expression at `span` once its operands are evaluated.
    /// (Always in line: it was the body of `eval`'s arm, and a call of its
    /// own cost a scalar loop's binary operation a fifth more instructions.)
    #[inline(always)]
    pub(super) fn binary_of(
        &mut self,
        span: Span,
        op: BinOp,
        (lv, l): (&Value, Span),
        (rv, r): (&Value, Span),
    ) -> Result<Value> {
        // Plain numbers skip the checks tensors need; an error (division by
        // zero) takes the full path, which words it.
        if let Some(Ok(v)) = super::ops::number_binary(op, lv, rv) {
            return Ok(v);
        }
        if let (BinOp::Mod, Value::Str(template)) = (op, lv) {
            return super::format::percent(self, template, rv).map(|s| Value::Str(s.into()));
        }
        if let Some(v) = self.dunder_binary(op, lv, rv)? {
            return Ok(v);
        }
        let operands = [(lv, Some(l)), (rv, Some(r))];
        if op != BinOp::MatMul {
            self.check_broadcast(op.symbol(), &operands)?;
        }
        self.traced(span, op.symbol(), &operands, |_| {
            super::ops::binary(op, lv, rv)
        })
    }

    /// `a op b` where a user class defines it: `a.__add__(b)`, else `b.__radd__(a)`.
    fn dunder_binary(&mut self, op: BinOp, a: &Value, b: &Value) -> Result<Option<Value>> {
        if !matches!(a, Value::Object(_)) && !matches!(b, Value::Object(_)) {
            return Ok(None);
        }
        let name = match op {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::Div => "truediv",
            BinOp::FloorDiv => "floordiv",
            BinOp::Mod => "mod",
            BinOp::Pow => "pow",
            BinOp::MatMul => "matmul",
            _ => return Ok(None),
        };
        let sp = Span::default();
        if let Value::Object(o) = a
            && let Some(f) = super::classes::object_attr(o, &format!("__{name}__"))
        {
            return self.call(&f, vec![(b.clone(), sp)], vec![], sp).map(Some);
        }
        if let Value::Object(o) = b
            && let Some(f) = super::classes::object_attr(o, &format!("__r{name}__"))
        {
            return self.call(&f, vec![(a.clone(), sp)], vec![], sp).map(Some);
        }
        Ok(None)
    }

    /// A comparison; `in` asks an object's `__contains__` (ModuleDict), if it has one.
    fn compare_values(&mut self, op: CmpOp, a: &Value, b: &Value) -> Result<Value> {
        if let (CmpOp::In | CmpOp::NotIn, Value::Object(o)) = (op, b)
            && let Some(f) = super::classes::object_attr(o, "__contains__")
        {
            let found = self.call(
                &f,
                vec![(a.clone(), Span::default())],
                vec![],
                Span::default(),
            )?;
            return Ok(Value::Bool(found.truthy()? == (op == CmpOp::In)));
        }
        super::ops::compare(op, a, b)
    }
}
