//! Calls: builtins (arguments bound by their rows), methods and user functions
//! (a new scope, the call depth limit, and the traceback an error carries out).

use std::rc::Rc;

use super::args::Args;
use super::builtins::Builtin;
use super::eval::Exec;
use super::value::{NamedTuple, Scope, Value, Vars};
use super::{Interp, MAX_CALL_DEPTH};
use crate::error::{Error, ErrorKind, Result, type_err};
use crate::syntax::ast::*;
use std::cell::RefCell;

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
                positional.insert(0, (m.0.clone(), span));
                self.call_method_value(m, positional, keywords, span)
            }
            Value::Function(def) => self.call_user(def, positional, keywords, span),
            Value::Class(c) => self.instantiate(c, positional, keywords, span),
            Value::Object(o) => self.call_object(o, positional, keywords, span),
            Value::Bound(b) => {
                let (obj, func, class) = (b.obj.clone(), b.func.clone(), b.class.clone());
                self.call_bound(&obj, &func, &class, positional, keywords, span)
            }
            Value::DType(d) => {
                // `torch.float32(x)` is not PyTorch, but `float(x)` style casts are common.
                Err(type_err(format!("a dtype ({d}) is not callable"))
                    .hint(format!("to convert a tensor use t.to({d})")))
            }
            other => Err(type_err(format!("{} is not callable", other.a_type_name()))),
        }
    }

    /// `obj.name(args)`. A tensor's, list's, dict's or str's method takes the receiver as its first
    /// argument directly: the bound method that `obj.name` alone gives (an Rc,
    /// and a Vec insert for the receiver) was two allocations of a small op.
    /// Anything else is looked up and called as `f = obj.name; f(args)`.
    pub(super) fn call_attr(
        &mut self,
        (obj, name, attr_span): (&Expr, &str, Span),
        args: &[Arg],
        span: Span,
    ) -> Result<Value> {
        let o = self.eval(obj)?;
        if let Some(b) = super::builtins::receiver_method(&o, name) {
            let (positional, keywords) = self.eval_args_after(args, (o, span))?;
            return self.call_builtin_as(b, positional, keywords, span, true);
        }
        // A user class's method, likewise: no bound method made, and the
        // receiver placed first, not inserted before the arguments.
        if let Value::Object(ob) = &o
            && let Some((class, f)) = super::classes::plain_method(ob, name)
        {
            let args = self.eval_args_after(args, (o.clone(), span))?;
            return self.call_method(&o, &f, &class, args, span);
        }
        let mut f = super::builtins::get_attr(self, &o, name);
        if let Err(err) = &mut f
            && err.span.is_none()
        {
            err.span = Some(attr_span);
        }
        let f = f?;
        // A builtin's bound method takes its receiver first, placed there
        // (an insert before the arguments moved them into a bigger block).
        if let Value::Method(m) = &f {
            let (positional, keywords) = self.eval_args_after(args, (m.0.clone(), span))?;
            return self.call_method_value(m, positional, keywords, span);
        }
        let (positional, keywords) = self.eval_args(args)?;
        self.call(&f, positional, keywords, span)
    }

    /// A builtin's method bound to its receiver, `positional` led by the
    /// receiver.
    fn call_method_value(
        &mut self,
        m: &(Value, &'static Builtin),
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        let (recv, b) = (&m.0, m.1);
        let out = self.call_builtin_as(b, positional, keywords, span, true)?;
        // A method of an array gives an array back.
        match recv {
            Value::Array(_) if b.name != "tolist" && b.name != "item" => super::numpy::wrap(out),
            _ => Ok(out),
        }
    }

    pub(super) fn call_builtin(
        &mut self,
        b: &'static Builtin,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        self.call_builtin_as(b, positional, keywords, span, false)
    }

    fn call_builtin_as(
        &mut self,
        b: &'static Builtin,
        positional: Vec<(Value, Span)>,
        mut keywords: Vec<(String, Value, Span)>,
        span: Span,
        method: bool,
    ) -> Result<Value> {
        // `out=`: the result is written into the given tensor (or array), as
        // PyTorch's and NumPy's functions do, and that is what the call returns.
        if let Some(i) = keywords.iter().position(|(k, _, _)| k == "out") {
            let (_, out, out_span) = keywords.remove(i);
            let result = self.call_builtin_as(b, positional, keywords, span, method)?;
            return super::ops::write_out(&out, &result).map_err(|e| e.at(out_span));
        }
        // `generator=`: the call draws from that generator's stream.
        if let Some(i) = keywords.iter().position(|(k, _, _)| k == "generator") {
            let (_, g, g_span) = keywords.remove(i);
            return match g {
                Value::None => self.call_builtin_as(b, positional, keywords, span, method),
                Value::Generator(state) => {
                    let mut st = state.borrow_mut();
                    crate::tensor::ops::creation::with_generator(&mut st, || {
                        self.call_builtin_as(b, positional, keywords, span, method)
                    })
                }
                other => Err(type_err(format!(
                    "{}(): argument 'generator' must be torch.Generator, not {}",
                    b.name,
                    other.type_name()
                ))
                .at(g_span)),
            };
        }
        // What the call was given that may hold tensors (reference counts
        // only): its tensors are unpacked for :trace, or for :why when the call
        // fails, not on every call. Numbers and strings are left out (no clone
        // to make and drop). Inline for a few arguments: a heap block per call
        // was a small op's cost. (Two plain loops: the chained iterator's
        // collect was twice the code.)
        let mut given: smallvec::SmallVec<[(Value, Span); 4]> = smallvec::SmallVec::new();
        let operand = |v: &Value| matches!(v, Value::Tensor(_) | Value::List(_) | Value::Tuple(_));
        for (v, s) in &positional {
            if operand(v) {
                given.push((v.clone(), *s));
            }
        }
        for (_, v, s) in &keywords {
            if operand(v) {
                given.push((v.clone(), *s));
            }
        }
        let mut args = Args::new(b.name, positional, keywords, span);
        args.method = method;
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
        func: &Rc<super::value::Func>,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        let def: &FnDef = &func.def;
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
        let scope = self.new_scope(func.env.clone(), def.params.len());
        self.bind_params(
            def,
            &func.defaults,
            (positional, keywords),
            span,
            &mut scope.vars.borrow_mut(),
        )?;
        if def.is_generator {
            return self.make_generator(func.clone(), scope, span);
        }
        let through = |e: Error| e.through_call(&def.name, &def.source, def.span, span);
        self.locals.push(scope);
        self.declared.push(Default::default());
        self.depth += 1;
        // Spans in the body point into the function's own text (:trace and the
        // broadcast check quote it).
        let caller_source = std::mem::replace(&mut self.source, def.source.clone());
        let mode = func.grad_mode.map(crate::autograd::NoGradGuard::set);
        let r = self.exec_block(&def.body);
        drop(mode);
        self.source = caller_source;
        self.depth -= 1;
        if let Some(scope) = self.locals.pop() {
            self.recycle_scope(scope);
        }
        self.declared.pop();
        let r = r.map_err(through)?;
        match r {
            Exec::Return(v) => Ok(v),
            _ => Ok(Value::None),
        }
    }
}

impl Interp {
    /// A call's scope, under `parent`: a spare one when there is one, else a
    /// new one with room for the parameters and a few locals (none for a
    /// function of no parameters: a lambda's body binds nothing).
    fn new_scope(&mut self, parent: Option<Rc<Scope>>, params: usize) -> Rc<Scope> {
        if let Some(mut scope) = self.spare_scopes.pop()
            && let Some(s) = Rc::get_mut(&mut scope)
        {
            s.parent = parent;
            return scope;
        }
        let room = if params == 0 { 0 } else { params + 4 };
        Rc::new(Scope {
            vars: RefCell::new(Vars::with_capacity_and_hasher(room, Default::default())),
            parent,
        })
    }

    /// A returned call's scope, kept for the next call when nothing else
    /// holds it (a closure made in the call keeps it alive instead).
    fn recycle_scope(&mut self, mut scope: Rc<Scope>) {
        const SPARE: usize = 16;
        if self.spare_scopes.len() < SPARE
            && let Some(s) = Rc::get_mut(&mut scope)
        {
            s.vars.get_mut().clear();
            s.parent = None;
            self.spare_scopes.push(scope);
        }
    }

    /// A user function's scope: positionals in order, `*args` takes the rest,
    /// keywords by name, `**kwargs` the unknown ones, then the defaults.
    fn bind_params(
        &mut self,
        def: &FnDef,
        defaults: &[Option<Value>],
        (positional, keywords): super::pyexpr::CallArgs,
        span: Span,
        scope: &mut Vars,
    ) -> Result<()> {
        // The common call, f(a, b) to def f(x, y, z=1): one binding per
        // parameter, without the bookkeeping that keywords and stars need.
        let n = positional.len();
        let defaulted = |i: usize| matches!(defaults.get(i), Some(Some(_)));
        if keywords.is_empty()
            && n <= def.params.len()
            && def.params.iter().all(|p| p.star == Star::None)
            && (n..def.params.len()).all(defaulted)
        {
            for (p, (v, _)) in def.params.iter().zip(positional) {
                scope.insert(p.name.clone(), v);
            }
            // The parameters left take their defaults, in order (as below).
            for (i, p) in def.params.iter().enumerate().skip(n) {
                if let Some(Some(v)) = defaults.get(i) {
                    scope.insert(p.name.clone(), v.clone());
                }
            }
            return Ok(());
        }
        let plain: Vec<&Param> = def.params.iter().filter(|p| p.star == Star::None).collect();
        // Parameters after `*args` (or a bare `*`) are keyword-only.
        let star_at = def.params.iter().position(|p| p.star == Star::One);
        let by_position: Vec<&Param> = def
            .params
            .iter()
            .enumerate()
            .filter(|(i, p)| p.star == Star::None && star_at.is_none_or(|s| *i < s))
            .map(|(_, p)| p)
            .collect();
        let star = def
            .params
            .iter()
            .find(|p| p.star == Star::One && !p.name.is_empty());
        let star_star = def.params.iter().find(|p| p.star == Star::Two);
        if positional.len() > by_position.len() && star.is_none() {
            return Err(type_err(format!(
                "{}() takes {} positional argument{} but {} were given",
                def.name,
                by_position.len(),
                if by_position.len() == 1 { "" } else { "s" },
                positional.len()
            )));
        }
        let mut extra = vec![];
        for (i, (v, _)) in positional.into_iter().enumerate() {
            match by_position.get(i) {
                Some(p) => {
                    scope.insert(p.name.clone(), v);
                }
                None => extra.push(v),
            }
        }
        if let Some(p) = star {
            scope.insert(p.name.clone(), Value::tuple(extra));
        }
        let mut unknown = super::value::Dict::default();
        for (k, v, s) in keywords {
            let Some(p) = plain.iter().find(|p| *p.name == *k) else {
                if star_star.is_some() {
                    unknown.insert(k.as_str().into(), v);
                    continue;
                }
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
        if let Some(p) = star_star {
            scope.insert(
                p.name.clone(),
                Value::Dict(Rc::new(std::cell::RefCell::new(unknown))),
            );
        }
        for p in plain {
            if !scope.contains_key(&p.name) {
                let i = def
                    .params
                    .iter()
                    .position(|q| std::ptr::eq(q, p))
                    .unwrap_or(0);
                match defaults.get(i).cloned().flatten() {
                    Some(v) => {
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
        Ok(())
    }
}

pub fn named(name: &'static str, fields: Vec<(&'static str, Value)>) -> Value {
    Value::Named(Rc::new(NamedTuple { name, fields }))
}
