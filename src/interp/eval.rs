//! Evaluation of statements and expressions over the AST.

use std::collections::HashMap;
use std::rc::Rc;

use super::args::Args;
use super::builtins::{self, Builtin};
use super::convert;
use super::value::{NamedTuple, Value};
use super::{Interp, MAX_CALL_DEPTH};
use crate::error::{Error, ErrorKind, Result, index_err, name_err, type_err};
use crate::syntax::ast::*;
use crate::tensor::ops::index::{Idx, index, index_put};

/// How a statement finished.
pub enum Exec {
    Normal,
    Break,
    Continue,
    Return(Value),
}

impl Interp {
    /// Run one top-level statement; an expression statement yields its value.
    pub(super) fn exec_top(&mut self, stmt: &Stmt) -> Result<Option<Value>> {
        if let StmtKind::Expr(e) = &stmt.kind {
            return self.eval(e).map(Some);
        }
        match self.exec(stmt)? {
            Exec::Normal => Ok(None),
            Exec::Break | Exec::Continue => {
                Err(Error::new(ErrorKind::Syntax, "break/continue outside a loop").at(stmt.span))
            }
            Exec::Return(_) => {
                Err(Error::new(ErrorKind::Syntax, "return outside a function").at(stmt.span))
            }
        }
    }

    fn exec_block(&mut self, stmts: &[Stmt]) -> Result<Exec> {
        for s in stmts {
            match self.exec(s)? {
                Exec::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Exec::Normal)
    }

    fn exec(&mut self, stmt: &Stmt) -> Result<Exec> {
        crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
            }
            StmtKind::Assign(targets, value) => {
                let v = self.eval(value)?;
                if targets.len() == 1 {
                    self.assign(&targets[0], v)?;
                } else {
                    self.assign_unpack(targets, v, value.span)?;
                }
            }
            StmtKind::AugAssign(target, op, value) => self.aug_assign(target, *op, value)?,
            StmtKind::If(branches, otherwise) => {
                for (cond, body) in branches {
                    if self.eval(cond)?.truthy().map_err(|e| e.at(cond.span))? {
                        return self.exec_block(body);
                    }
                }
                if let Some(body) = otherwise {
                    return self.exec_block(body);
                }
            }
            StmtKind::While(cond, body) => {
                while self.eval(cond)?.truthy().map_err(|e| e.at(cond.span))? {
                    crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
                    match self.exec_block(body)? {
                        Exec::Break => break,
                        Exec::Return(v) => return Ok(Exec::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::For(targets, iter, body) => {
                let mut seq = self.eval(iter)?;
                let mut bar = None;
                if let Value::Progress(inner) = &seq {
                    let total = match inner.as_ref() {
                        Value::Range(a, b, st) => {
                            Some(super::value::range_len(*a, *b, *st) as usize)
                        }
                        Value::Tensor(t) if t.ndim() > 0 => Some(t.shape()[0]),
                        other => other.iter_items().ok().map(|v| v.len()),
                    };
                    bar = Some(crate::teach::progress::Bar::new(total));
                    seq = inner.as_ref().clone();
                }
                // Ranges and tensors are walked lazily, so `for i in range(10**12)` and
                // `for row in big` need no memory up front.
                let items: Box<dyn Iterator<Item = Result<Value>>> = match seq {
                    Value::Range(a, b, st) => Box::new(
                        (0..super::value::range_len(a, b, st))
                            .map(move |i| Ok(Value::Int(a.wrapping_add(i.wrapping_mul(st))))),
                    ),
                    Value::Tensor(t) if t.ndim() > 0 => {
                        Box::new((0..t.shape()[0] as i64).map(move |i| {
                            crate::tensor::ops::view::select(&t, 0, i).map(Value::Tensor)
                        }))
                    }
                    other => Box::new(
                        other
                            .iter_items()
                            .map_err(|e| e.at(iter.span))?
                            .into_iter()
                            .map(Ok),
                    ),
                };
                for item in items {
                    crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
                    let item = item.map_err(|e| e.at(iter.span))?;
                    if targets.len() == 1 {
                        self.assign(&targets[0], item)?;
                    } else {
                        self.assign_unpack(targets, item, iter.span)?;
                    }
                    let step = self.exec_block(body);
                    if let Some(b) = &mut bar {
                        b.tick();
                    }
                    match step? {
                        Exec::Break => break,
                        Exec::Return(v) => return Ok(Exec::Return(v)),
                        _ => {}
                    }
                }
                drop(bar);
            }
            StmtKind::FnDef(def) => self.set_var(def.name.clone(), Value::Function(def.clone())),
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                return Ok(Exec::Return(v));
            }
            StmtKind::Break => return Ok(Exec::Break),
            StmtKind::Continue => return Ok(Exec::Continue),
            StmtKind::NoGrad(body) => {
                let _off = crate::autograd::NoGradGuard::new();
                return self.exec_block(body);
            }
            StmtKind::Assert(cond, msg) => {
                if !self.eval(cond)?.truthy().map_err(|e| e.at(cond.span))? {
                    let text = match msg {
                        Some(m) => crate::print::value::plain(&self.eval(m)?),
                        None => "assertion failed".to_string(),
                    };
                    return Err(Error::new(ErrorKind::Assert, text).at(cond.span));
                }
            }
        }
        Ok(Exec::Normal)
    }

    pub fn set_var(&mut self, name: Rc<str>, v: Value) {
        match self.locals.last_mut() {
            Some(scope) => {
                scope.insert(name, v);
            }
            None => {
                self.globals.insert(name, v);
            }
        }
    }

    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(scope) = self.locals.last()
            && let Some(v) = scope.get(name)
        {
            return Some(v.clone());
        }
        self.globals
            .get(name)
            .cloned()
            .or_else(|| builtins::global(name))
    }

    fn assign_unpack(&mut self, targets: &[Expr], v: Value, span: Span) -> Result<()> {
        let items = v.iter_items().map_err(|e| e.at(span))?;
        if items.len() != targets.len() {
            return Err(crate::error::value_err(format!(
                "cannot unpack {} values into {} names",
                items.len(),
                targets.len()
            ))
            .at(span));
        }
        for (t, item) in targets.iter().zip(items) {
            self.assign(t, item)?;
        }
        Ok(())
    }

    fn assign(&mut self, target: &Expr, v: Value) -> Result<()> {
        match &target.kind {
            ExprKind::Name(n) => {
                self.set_var(n.clone(), v);
                Ok(())
            }
            ExprKind::Index(obj, subs) => {
                let container = self.eval(obj)?;
                self.set_item(&container, subs, v)
                    .map_err(|e| e.at(target.span))
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
                builtins::set_attr(self, &o, name, v).map_err(|e| e.at(target.span))
            }
            _ => Err(
                Error::new(ErrorKind::Syntax, "cannot assign to this expression").at(target.span),
            ),
        }
    }

    fn aug_assign(&mut self, target: &Expr, op: BinOp, value: &Expr) -> Result<()> {
        let current = self.eval(target)?;
        let rhs = self.eval(value)?;
        let span = target.span.to(value.span);
        if let Value::Tensor(t) = &current {
            // `t += x` updates the tensor in place (every name for it sees the change).
            return super::ops::inplace(t, op, &rhs).map_err(|e| {
                let operands = [(&current, Some(target.span)), (&rhs, Some(value.span))];
                e.at(span).with_context(|| {
                    super::session::op_context(&format!("{}=", op.symbol()), &operands)
                })
            });
        }
        let result = super::ops::binary(op, &current, &rhs).map_err(|e| e.at(span))?;
        self.assign(target, result)
    }

    fn set_item(&mut self, container: &Value, subs: &[Subscript], v: Value) -> Result<()> {
        match container {
            Value::Dict(d) => {
                let key = self.dict_key(subs)?;
                d.borrow_mut().insert(key.into(), v);
                Ok(())
            }
            Value::Tensor(t) => {
                let idx = self.eval_indices(subs)?;
                let value = convert::to_tensor_arg(&v, "index assignment", "value")?;
                index_put(t, &idx, &value)
            }
            Value::List(l) => {
                if subs.len() != 1 {
                    return Err(type_err("lists take a single index"));
                }
                let i = match &subs[0] {
                    Subscript::Expr(e) => convert::to_int(&self.eval(e)?, "list index", "index")?,
                    _ => return Err(type_err("slice assignment to lists is not supported")),
                };
                let mut items = l.borrow_mut();
                let n = items.len() as i64;
                let j = if i < 0 { i + n } else { i };
                if j < 0 || j >= n {
                    return Err(index_err(format!(
                        "list index {i} out of range for a list of {n}"
                    )));
                }
                items[j as usize] = v;
                Ok(())
            }
            other => Err(type_err(format!(
                "{} does not support item assignment",
                other.a_type_name()
            ))),
        }
    }

    pub(super) fn eval_indices(&mut self, subs: &[Subscript]) -> Result<Vec<Idx>> {
        let mut out = Vec::with_capacity(subs.len());
        for s in subs {
            out.push(match s {
                Subscript::Ellipsis(_) => Idx::Ellipsis,
                Subscript::Slice {
                    start, stop, step, ..
                } => {
                    let mut part = |e: &Option<Expr>| -> Result<Option<i64>> {
                        match e {
                            None => Ok(None),
                            Some(e) => match self.eval(e)? {
                                Value::None => Ok(None),
                                v => convert::to_int(&v, "slice", "bound")
                                    .map(Some)
                                    .map_err(|err| err.at(e.span)),
                            },
                        }
                    };
                    Idx::Slice(part(start)?, part(stop)?, part(step)?)
                }
                Subscript::Expr(e) => match self.eval(e)? {
                    Value::None => Idx::NewAxis,
                    Value::Ellipsis => Idx::Ellipsis,
                    Value::Int(i) => Idx::Int(i),
                    Value::Bool(b) => Idx::Tensor(crate::tensor::Tensor::scalar_i64(
                        b as i64,
                        crate::tensor::DType::Bool,
                    )),
                    Value::Tensor(t)
                        if t.ndim() == 0 && !t.dtype().is_float() && !t.dtype().is_bool() =>
                    {
                        Idx::Int(crate::tensor::ops::scalar::item_i64(&t)?)
                    }
                    Value::Tensor(t) => Idx::Tensor(t),
                    v @ (Value::List(_) | Value::Tuple(_)) => Idx::Tensor(
                        convert::tensor_from_data(&v, None).map_err(|err| err.at(e.span))?,
                    ),
                    v => {
                        return Err(index_err(format!(
                            "{} cannot index a tensor",
                            v.a_type_name()
                        ))
                        .at(e.span)
                        .hint("indices are ints, slices, ..., none, or int/bool tensors"));
                    }
                },
            });
        }
        Ok(out)
    }

    pub fn eval(&mut self, e: &Expr) -> Result<Value> {
        self.eval_inner(e).map_err(|err| err.at(e.span))
    }

    fn eval_inner(&mut self, e: &Expr) -> Result<Value> {
        Ok(match &e.kind {
            ExprKind::Int(i) => Value::Int(*i),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Str(s) => Value::Str(s.clone()),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::None => Value::None,
            ExprKind::Ellipsis => Value::Ellipsis,
            ExprKind::Name(n) => self.lookup(n).ok_or_else(|| self.unknown_name(n))?,
            ExprKind::List(items) => {
                Value::list(items.iter().map(|x| self.eval(x)).collect::<Result<_>>()?)
            }
            ExprKind::Tuple(items) => {
                Value::tuple(items.iter().map(|x| self.eval(x)).collect::<Result<_>>()?)
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(x)?;
                self.traced(e.span, op.symbol(), &[(&v, Some(x.span))], |_| {
                    super::ops::unary(*op, &v)
                })?
            }
            ExprKind::Binary(op, l, r) => {
                let lv = self.eval(l)?;
                let rv = self.eval(r)?;
                let operands = [(&lv, Some(l.span)), (&rv, Some(r.span))];
                if *op != BinOp::MatMul {
                    self.check_broadcast(op.symbol(), &operands)?;
                }
                self.traced(e.span, op.symbol(), &operands, |_| {
                    super::ops::binary(*op, &lv, &rv)
                })?
            }
            ExprKind::Compare { first, rest, .. } => {
                let mut left = self.eval(first)?;
                let mut result = Value::Bool(true);
                for (i, (op, right)) in rest.iter().enumerate() {
                    let rv = self.eval(right)?;
                    let r = super::ops::compare(*op, &left, &rv)?;
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
                result
            }
            ExprKind::And(l, r) => {
                let lv = self.eval(l)?;
                if !lv.truthy().map_err(|err| err.at(l.span))? {
                    lv
                } else {
                    self.eval(r)?
                }
            }
            ExprKind::Or(l, r) => {
                let lv = self.eval(l)?;
                if lv.truthy().map_err(|err| err.at(l.span))? {
                    lv
                } else {
                    self.eval(r)?
                }
            }
            ExprKind::Attr(obj, name) => {
                let o = self.eval(obj)?;
                builtins::get_attr(self, &o, name)?
            }
            ExprKind::Index(obj, subs) => {
                let o = self.eval(obj)?;
                self.get_item(&o, subs)?
            }
            ExprKind::Call { func, args } => {
                let f = self.eval(func)?;
                let mut positional = Vec::new();
                let mut keywords = Vec::new();
                for a in args {
                    let v = self.eval(&a.value)?;
                    match &a.name {
                        Some(n) => keywords.push((n.to_string(), v, a.value.span)),
                        None => positional.push((v, a.value.span)),
                    }
                }
                self.call(&f, positional, keywords, e.span)?
            }
        })
    }

    fn unknown_name(&self, n: &str) -> Error {
        let mut e = name_err(format!("name '{n}' is not defined"));
        let mut names: Vec<String> = self.globals.keys().map(|k| k.to_string()).collect();
        if let Some(scope) = self.locals.last() {
            names.extend(scope.keys().map(|k| k.to_string()));
        }
        names.extend(builtins::global_names().map(|s| s.to_string()));
        if let Some(best) = crate::print::suggest::closest(n, names.iter().map(|s| s.as_str())) {
            e = e.hint(format!("did you mean `{best}`?"));
        }
        e
    }

    /// `d["key"]`: one string subscript.
    fn dict_key(&mut self, subs: &[Subscript]) -> Result<String> {
        match subs {
            [Subscript::Expr(e)] => match self.eval(e)? {
                Value::Str(s) => Ok(s.to_string()),
                other => Err(type_err(format!(
                    "dict keys are strings, not {}",
                    other.a_type_name()
                ))
                .at(e.span)),
            },
            _ => Err(type_err("a dict takes one key: d[\"name\"]")),
        }
    }

    fn get_item(&mut self, o: &Value, subs: &[Subscript]) -> Result<Value> {
        match o {
            Value::Dict(d) => {
                let key = self.dict_key(subs)?;
                let d = d.borrow();
                d.get(&key)
                    .cloned()
                    .ok_or_else(|| missing_key(&key, &d.keys()))
            }
            Value::Tensor(t) => {
                let idx = self.eval_indices(subs)?;
                Ok(Value::Tensor(index(t, &idx)?))
            }
            Value::List(_)
            | Value::Tuple(_)
            | Value::Shape(_)
            | Value::Str(_)
            | Value::Named(_)
            | Value::Range(..) => {
                if subs.len() != 1 {
                    return Err(type_err(format!(
                        "{} takes a single index",
                        o.a_type_name()
                    )));
                }
                let items = o.iter_items()?;
                let n = items.len() as i64;
                match &subs[0] {
                    Subscript::Slice { .. } => {
                        let Idx::Slice(a, b, s) = self.eval_indices(subs)?.remove(0) else {
                            return Err(type_err("bad slice"));
                        };
                        let step = s.unwrap_or(1);
                        if step == 0 {
                            return Err(crate::error::value_err("slice step cannot be zero"));
                        }
                        let picked = python_slice(n, a, b, step)
                            .into_iter()
                            .map(|i| items[i].clone())
                            .collect();
                        Ok(match o {
                            Value::Tuple(_) => Value::tuple(picked),
                            Value::Shape(_) => Value::Shape(Rc::new(
                                picked
                                    .iter()
                                    .map(|v| {
                                        if let Value::Int(i) = v {
                                            *i as usize
                                        } else {
                                            0
                                        }
                                    })
                                    .collect(),
                            )),
                            Value::Str(_) => Value::Str(
                                picked
                                    .iter()
                                    .map(super::super::print::value::plain)
                                    .collect::<String>()
                                    .into(),
                            ),
                            _ => Value::list(picked),
                        })
                    }
                    Subscript::Expr(ix) => {
                        let i = convert::to_int(&self.eval(ix)?, "index", "index")
                            .map_err(|err| err.at(ix.span))?;
                        let j = if i < 0 { i + n } else { i };
                        if j < 0 || j >= n {
                            return Err(index_err(format!(
                                "index {i} is out of range for {} of length {n}",
                                o.a_type_name()
                            )));
                        }
                        Ok(items[j as usize].clone())
                    }
                    Subscript::Ellipsis(_) => Err(type_err(format!(
                        "{} cannot be indexed with ...",
                        o.a_type_name()
                    ))),
                }
            }
            other => Err(type_err(format!(
                "{} cannot be indexed",
                other.a_type_name()
            ))),
        }
    }

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

    fn call_builtin(
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

    fn call_user(
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

/// The indices a Python slice `a:b:s` selects from a sequence of length `n`.
/// A dict has no such key: say which keys it has.
pub fn missing_key(key: &str, keys: &[String]) -> Error {
    let mut e = index_err(format!("no key {key:?} in the dict"));
    e = match crate::print::suggest::closest(key, keys.iter().map(String::as_str)) {
        Some(best) => e.hint(format!(
            "did you mean {best:?}? its keys: {}",
            keys.join(", ")
        )),
        None => e.hint(format!("its keys: {}", keys.join(", "))),
    };
    e
}

pub fn python_slice(n: i64, a: Option<i64>, b: Option<i64>, step: i64) -> Vec<usize> {
    let norm = |v: i64, lo: i64, hi: i64| {
        let v = if v < 0 { v + n } else { v };
        v.clamp(lo, hi)
    };
    let mut out = Vec::new();
    if step > 0 {
        let start = a.map_or(0, |v| norm(v, 0, n));
        let stop = b.map_or(n, |v| norm(v, 0, n));
        let mut i = start;
        while i < stop {
            out.push(i as usize);
            i += step;
        }
    } else {
        let start = a.map_or(n - 1, |v| norm(v, -1, n - 1));
        let stop = b.map_or(-1, |v| norm(v, -1, n - 1));
        let mut i = start;
        while i > stop {
            out.push(i as usize);
            i += step;
        }
    }
    out
}

pub fn named(name: &'static str, fields: Vec<(&'static str, Value)>) -> Value {
    Value::Named(Rc::new(NamedTuple { name, fields }))
}
