//! Calls: builtins (arguments bound by their rows), methods and user functions
//! (a new scope, the call depth limit, and the traceback an error carries out).

use std::collections::HashMap;
use std::rc::Rc;

use super::args::Args;
use super::builtins::Builtin;
use super::eval::Exec;
use super::value::{NamedTuple, Value};
use super::{Interp, MAX_CALL_DEPTH};
use crate::error::{Error, ErrorKind, Result, type_err};
use crate::syntax::ast::*;

impl Interp {
    /// Call any callable value.
    pub fn call(
        &mut self,
        f: &Value,
        mut positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        match f {
            Value::Builtin(b) => self.call_builtin(b, positional, keywords, span),
            Value::Method(m) => {
                let (recv, b) = (&m.0, m.1);
                positional.insert(0, (recv.clone(), span));
                self.call_builtin(b, positional, keywords, span)
            }
            Value::Function(def) => self.call_user(def, positional, keywords, span),
            Value::DType(d) => {
                // `torch.float32(x)` is not PyTorch, but `float(x)` style casts are common.
                Err(type_err(format!("a dtype ({d}) is not callable"))
                    .hint(format!("to convert a tensor use t.to({d})")))
            }
            other => Err(type_err(format!("{} is not callable", other.a_type_name()))),
        }
    }

    pub(super) fn call_builtin(
        &mut self,
        b: &'static Builtin,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        // What the call was given (reference counts only): its tensors are
        // unpacked for :trace, or for :why when the call fails, not on every call.
        let given: Vec<(Value, Span)> = positional
            .iter()
            .cloned()
            .chain(keywords.iter().map(|(_, v, s)| (v.clone(), *s)))
            .collect();
        let args = Args::new(b.name, positional, keywords, span);
        let result = if self.trace_log.is_some() {
            let operands = super::observe::call_operands(&given);
            let refs: Vec<(&Value, Option<Span>)> = operands.iter().map(|(v, s)| (v, *s)).collect();
            self.traced(span, b.name, &refs, |it| (b.func)(it, args))
        } else {
            (b.func)(self, args).map_err(|e| {
                let operands = super::observe::call_operands(&given);
                let refs: Vec<(&Value, Option<Span>)> =
                    operands.iter().map(|(v, s)| (v, *s)).collect();
                super::observe::with_operands(e, b.name, &refs)
            })
        };
        // Warnings the call raised show even when it then failed, as in PyTorch.
        let warned = self.show_warnings(span);
        let out = result?;
        warned?;
        // Long builtins (loops inside an op) answer Ctrl-C as soon as they return.
        crate::interrupt::check().map_err(|e| e.at(span))?;
        Ok(out)
    }

    pub(super) fn call_user(
        &mut self,
        def: &Rc<FnDef>,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Error::new(
                ErrorKind::Recursion,
                format!(
                    "maximum recursion depth ({MAX_CALL_DEPTH} calls) exceeded in {}()",
                    def.name
                ),
            )
            .hint("check that the recursion has a base case that is reached"));
        }
        if positional.len() > def.params.len() {
            return Err(type_err(format!(
                "{}() takes {} argument{} but {} were given",
                def.name,
                def.params.len(),
                if def.params.len() == 1 { "" } else { "s" },
                positional.len()
            )));
        }
        let mut scope: HashMap<Rc<str>, Value> = HashMap::new();
        for (p, (v, _)) in def.params.iter().zip(positional) {
            scope.insert(p.name.clone(), v);
        }
        for (k, v, s) in keywords {
            let Some(p) = def.params.iter().find(|p| *p.name == *k) else {
                return Err(type_err(format!(
                    "{}() got an unexpected keyword argument '{k}'",
                    def.name
                ))
                .at(s));
            };
            if scope.contains_key(&p.name) {
                return Err(type_err(format!(
                    "{}() got multiple values for argument '{k}'",
                    def.name
                ))
                .at(s));
            }
            scope.insert(p.name.clone(), v);
        }
        let through = |e: Error| e.through_call(&def.name, &def.source, def.span, span);
        for p in &def.params {
            if !scope.contains_key(&p.name) {
                match &p.default {
                    Some(d) => {
                        let v = self.eval(d).map_err(through)?;
                        scope.insert(p.name.clone(), v);
                    }
                    None => {
                        return Err(type_err(format!(
                            "{}() missing required argument '{}'",
                            def.name, p.name
                        ))
                        .at(span));
                    }
                }
            }
        }
        self.locals.push(scope);
        self.depth += 1;
        // Spans in the body point into the function's own text (:trace and the
        // broadcast check quote it).
        let caller_source = std::mem::replace(&mut self.source, def.source.clone());
        let r = self.exec_block(&def.body);
        self.source = caller_source;
        self.depth -= 1;
        self.locals.pop();
        match r.map_err(through)? {
            Exec::Return(v) => Ok(v),
            _ => Ok(Value::None),
        }
    }
}

pub fn named(name: &'static str, fields: Vec<(&'static str, Value)>) -> Value {
    Value::Named(Rc::new(NamedTuple { name, fields }))
}
