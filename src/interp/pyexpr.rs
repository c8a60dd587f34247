//! Python's expression forms beyond operators: `a if c else b`, lambdas, dict
//! literals, comprehensions, f-strings and call arguments with `*`/`**`.

use std::rc::Rc;

use super::Interp;
use super::value::{Dict, Value};
use crate::error::{Result, type_err};
use crate::syntax::ast::*;

impl Interp {
    pub(super) fn eval_python(&mut self, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                if self.eval(cond)?.truthy().map_err(|err| err.at(cond.span))? {
                    self.eval(then)
                } else {
                    self.eval(otherwise)
                }
            }
            ExprKind::Lambda(def) => self.make_function(def),
            ExprKind::Dict(entries) => {
                let mut d = Dict::default();
                for (k, v) in entries {
                    let key = self.eval(k)?;
                    super::value::check_hashable(&key).map_err(|err| err.at(k.span))?;
                    let value = self.eval(v)?;
                    d.insert_key(key, value);
                }
                Ok(Value::Dict(Rc::new(std::cell::RefCell::new(d))))
            }
            ExprKind::Comprehension {
                kind,
                item,
                value,
                clauses,
            } => self.comprehension(*kind, item, value.as_deref(), clauses),
            ExprKind::FString(parts) => Ok(Value::Str(self.fstring(parts)?.into())),
            // Unreachable: eval_inner sends only the kinds matched above here.
            _ => unreachable!("eval_python is called for Python's forms only"),
        }
    }

    /// Comprehensions run in their own scope, as in Python 3: their loop names
    /// do not leak into (or clobber) the surrounding ones.
    fn comprehension(
        &mut self,
        kind: CompKind,
        item: &Expr,
        value: Option<&Expr>,
        clauses: &[CompFor],
    ) -> Result<Value> {
        if kind == CompKind::Generator {
            return self.make_genexp(item.clone(), clauses.to_vec());
        }
        let names: Vec<Rc<str>> = clauses
            .iter()
            .flat_map(|c| c.targets.iter())
            .flat_map(target_names)
            .collect();
        let saved: Vec<(Rc<str>, Option<Value>)> = names
            .iter()
            .map(|n| (n.clone(), self.local_or_global(n)))
            .collect();
        let mut out = vec![];
        let result = self.comprehend(clauses, &mut |it| {
            // Checked a block ahead (the check reads the memory left; per item it is slow).
            if out.len().is_multiple_of(1 << 16) {
                super::value::check_items(out.len() as u128 + (1 << 16))?;
            }
            let k = it.eval(item)?;
            match value {
                Some(v) => {
                    let v = it.eval(v)?;
                    out.push(Value::tuple(vec![k, v]));
                }
                None => out.push(k),
            }
            Ok(())
        });
        for (n, v) in saved {
            self.restore_var(n, v);
        }
        result?;
        Ok(match kind {
            CompKind::List | CompKind::Generator => Value::list(out),
            CompKind::Set => super::pyset::from_items(out)?,
            CompKind::Dict => {
                let mut d = Dict::default();
                for pair in out {
                    let mut kv = pair.iter_items()?.into_iter();
                    let (Some(k), Some(v)) = (kv.next(), kv.next()) else {
                        continue;
                    };
                    super::value::check_hashable(&k)?;
                    d.insert_key(k, v);
                }
                Value::Dict(Rc::new(std::cell::RefCell::new(d)))
            }
        })
    }

    pub(super) fn comprehend(
        &mut self,
        clauses: &[CompFor],
        emit: &mut dyn FnMut(&mut Interp) -> Result<()>,
    ) -> Result<()> {
        let Some((first, rest)) = clauses.split_first() else {
            return emit(self);
        };
        let seq = self.eval(&first.iter)?;
        let items = self.iterate(&seq).map_err(|e| e.at(first.iter.span))?;
        'items: for item in items {
            crate::interrupt::check().map_err(|e| e.at(first.iter.span))?;
            let item = item.map_err(|e| e.at(first.iter.span))?;
            if first.targets.len() == 1 {
                self.assign(&first.targets[0], item)?;
            } else {
                self.assign_unpack(&first.targets, item, first.iter.span)?;
            }
            for c in &first.conds {
                if !self.eval(c)?.truthy().map_err(|e| e.at(c.span))? {
                    continue 'items;
                }
            }
            self.comprehend(rest, emit)?;
        }
        Ok(())
    }

    fn fstring(&mut self, parts: &[FPart]) -> Result<String> {
        let mut out = String::new();
        for p in parts {
            match p {
                FPart::Text(t) => out.push_str(t),
                FPart::Field {
                    expr,
                    conversion,
                    spec,
                    echo,
                } => {
                    if let Some(text) = echo {
                        out.push_str(text);
                    }
                    let v = self.eval(expr)?;
                    let spec = self.fstring(spec)?;
                    let v = match conversion {
                        Some('r') | Some('a') => Value::Str(self.repr_text(&v).into()),
                        Some(_) => Value::Str(self.str_text(&v).into()),
                        None => v,
                    };
                    let text = super::format::format_value(self, &v, &spec)
                        .map_err(|e| e.at(expr.span))?;
                    out.push_str(&text);
                }
            }
        }
        Ok(out)
    }

    /// Call arguments, with `*list` and `**dict` spread.
    pub(super) fn eval_args(&mut self, args: &[Arg]) -> Result<CallArgs> {
        self.eval_args_into(args, Vec::with_capacity(args.len()))
    }

    /// A method call's arguments, led by its receiver.
    pub(super) fn eval_args_after(
        &mut self,
        args: &[Arg],
        receiver: (Value, Span),
    ) -> Result<CallArgs> {
        let mut positional = Vec::with_capacity(args.len() + 1);
        positional.push(receiver);
        self.eval_args_into(args, positional)
    }

    /// `eval_args`, its positionals after those given.
    fn eval_args_into(
        &mut self,
        args: &[Arg],
        mut positional: Vec<(Value, Span)>,
    ) -> Result<CallArgs> {
        let mut keywords = Vec::new();
        for a in args {
            let v = self.eval(&a.value)?;
            let span = a.value.span;
            match (&a.name, a.star) {
                (Some(n), _) => keywords.push((n.to_string(), v, span)),
                (None, Star::None) => positional.push((v, span)),
                (None, Star::One) => {
                    for item in v.iter_items().map_err(|e| e.at(span))? {
                        positional.push((item, span));
                    }
                }
                (None, Star::Two) => {
                    let Value::Dict(d) = &v else {
                        return Err(type_err(format!(
                            "argument after ** must be a dict, not {}",
                            v.type_name()
                        ))
                        .at(span));
                    };
                    for (k, item) in d.borrow().iter() {
                        let Value::Str(k) = k else {
                            return Err(type_err("keywords must be strings").at(span));
                        };
                        keywords.push((k.to_string(), item.clone(), span));
                    }
                }
            }
        }
        Ok((positional, keywords))
    }
}

/// A call's positional and keyword arguments, each with its span.
pub(super) type CallArgs = (Vec<(Value, Span)>, Vec<(String, Value, Span)>);

/// The names a `for` target binds (`x`, `(i, x)`).
fn target_names(t: &Expr) -> Vec<Rc<str>> {
    match &t.kind {
        ExprKind::Name(n, _) => vec![n.clone()],
        ExprKind::Tuple(items) | ExprKind::List(items) => {
            items.iter().flat_map(target_names).collect()
        }
        _ => vec![],
    }
}
