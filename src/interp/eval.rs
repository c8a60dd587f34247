//! Running statements: blocks, loops, assignment. Expressions are in expr.rs,
//! indexing in subscript.rs, calls in call.rs.

use std::ops::ControlFlow;
use std::rc::Rc;

use super::Interp;
use super::builtins::{self};
use super::pystr::PyStr;
use super::value::Value;
use crate::error::{Error, ErrorKind, Result};
use crate::syntax::ast::*;

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

    pub(super) fn exec_block(&mut self, stmts: &[Stmt]) -> Result<Exec> {
        for s in stmts {
            match self.exec(s)? {
                Exec::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Exec::Normal)
    }

    /// A `for` loop's iterations; `Some` when the body returned from its
    /// function. A progress bar ticks after each item.
    fn for_items(
        &mut self,
        stmt: &Stmt,
        targets: &[Expr],
        iter: &Expr,
        body: &[Stmt],
        seq: &Value,
        bar: &mut Option<crate::teach::progress::Bar>,
    ) -> Result<Option<Exec>> {
        if let (
            &Value::Range(start, stop, step),
            [
                Expr {
                    kind: ExprKind::Name(n, slot),
                    ..
                },
            ],
        ) = (seq, targets)
        {
            // A range's ints bound straight into the loop variable: no boxed
            // iterator of `Result<Value>`s (see fast.rs).
            for i in 0..super::value::range_len(start, stop, step) {
                crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
                self.set_slotted(
                    n,
                    slot,
                    Value::Int(start.wrapping_add(i.wrapping_mul(step))),
                );
                if let ControlFlow::Break(done) = self.iteration(body, bar)? {
                    return Ok(done);
                }
            }
            return Ok(None);
        }
        let items = self.iterate(seq).map_err(|e| e.at(iter.span))?;
        for item in items {
            crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
            let item = item.map_err(|e| e.at(iter.span))?;
            if targets.len() == 1 {
                self.assign(&targets[0], item)?;
            } else {
                self.assign_unpack(targets, item, iter.span)?;
            }
            if let ControlFlow::Break(done) = self.iteration(body, bar)? {
                return Ok(done);
            }
        }
        Ok(None)
    }

    /// One pass of a `for` body, the progress bar ticked after it: Break where
    /// the loop ends (with the body's `return`, if it returned).
    #[inline(always)]
    fn iteration(
        &mut self,
        body: &[Stmt],
        bar: &mut Option<crate::teach::progress::Bar>,
    ) -> Result<ControlFlow<Option<Exec>>> {
        let step = self.exec_block(body);
        if let Some(line) = bar.as_mut().and_then(|b| b.tick()) {
            self.out.write_progress(&line, false);
        }
        Ok(match step? {
            Exec::Break => ControlFlow::Break(None),
            Exec::Return(v) => ControlFlow::Break(Some(Exec::Return(v))),
            _ => ControlFlow::Continue(()),
        })
    }

    pub(super) fn exec(&mut self, stmt: &Stmt) -> Result<Exec> {
        crate::interrupt::check().map_err(|e| e.at(stmt.span))?;
        match &stmt.kind {
            StmtKind::Expr(e) => {
                self.eval(e)?;
            }
            StmtKind::Assign(targets, value) => {
                if self.number_assign(targets, value) || self.concat_assign(targets, value)? {
                    return Ok(Exec::Normal);
                }
                let v = self.eval(value)?;
                if targets.len() == 1 {
                    self.assign(&targets[0], v)?;
                } else {
                    self.assign_unpack(targets, v, value.span)?;
                }
            }
            StmtKind::AssignChain(groups, value) => {
                let v = self.eval(value)?;
                for targets in groups {
                    if targets.len() == 1 {
                        self.assign(&targets[0], v.clone())?;
                    } else {
                        self.assign_unpack(targets, v.clone(), value.span)?;
                    }
                }
            }
            StmtKind::AugAssign(target, op, value) => self.aug_assign(target, *op, value)?,
            StmtKind::If(branches, otherwise) => {
                for (cond, body) in branches {
                    if self.condition(cond)? {
                        return self.exec_block(body);
                    }
                }
                if let Some(body) = otherwise {
                    return self.exec_block(body);
                }
            }
            StmtKind::While(cond, body) => {
                while self.condition(cond)? {
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
                let looped = self.for_items(stmt, targets, iter, body, &seq, &mut bar);
                if let Some(b) = bar {
                    self.out.write_progress(&b.finish(), true);
                }
                if let Some(done) = looped? {
                    return Ok(done);
                }
            }
            StmtKind::FnDef(def) => {
                let f = self.make_function(def)?;
                self.set_var(def.name.clone(), f)
            }
            StmtKind::Yield(e, from) => {
                let v = match e {
                    Some(e) => self.eval(e)?,
                    None => Value::None,
                };
                if *from {
                    let items = self.iterate(&v).map_err(|err| err.at(stmt.span))?;
                    for item in items {
                        self.yield_value(item?).map_err(|err| err.at(stmt.span))?;
                    }
                } else {
                    self.yield_value(v).map_err(|err| err.at(stmt.span))?;
                }
            }
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
            StmtKind::ClassDef { name, bases, body } => self.exec_class(name, bases, body)?,
            StmtKind::With(..)
            | StmtKind::Try { .. }
            | StmtKind::Pass
            | StmtKind::Import(_)
            | StmtKind::FromImport(..)
            | StmtKind::Raise(_)
            | StmtKind::Del(_)
            | StmtKind::Global { .. } => return self.exec_python(stmt),
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

    /// What a `for` walks. Ranges and tensors are walked lazily, so `for i in
    /// range(10**12)` and `for row in big` need no memory up front.
    pub(super) fn iterate(
        &mut self,
        seq: &Value,
    ) -> Result<Box<dyn Iterator<Item = Result<Value>>>> {
        // An object walks what its `__iter__` gives (a generator's items).
        if let Value::Object(o) = seq
            && let Some(f) = super::classes::object_attr(o, "__iter__")
        {
            let items = self.call(&f, vec![], vec![], Span::default())?;
            return self.iterate(&items);
        }
        // Without __iter__, Python walks __getitem__ from 0 (here up to __len__).
        if let Value::Object(o) = seq
            && let (Some(get), Some(len)) = (
                super::classes::object_attr(o, "__getitem__"),
                super::classes::object_attr(o, "__len__"),
            )
        {
            let n = match self.call(&len, vec![], vec![], Span::default())? {
                Value::Int(n) => n,
                other => {
                    return Err(crate::error::type_err(format!(
                        "__len__ gave {}",
                        other.type_name()
                    )));
                }
            };
            let mut items = Vec::with_capacity(n.max(0) as usize);
            for i in 0..n {
                items.push(self.call(
                    &get,
                    vec![(Value::Int(i), Span::default())],
                    vec![],
                    Span::default(),
                )?);
            }
            return self.iterate(&Value::list(items));
        }
        Ok(match seq {
            &Value::Range(a, b, st) => Box::new(
                (0..super::value::range_len(a, b, st))
                    .map(move |i| Ok(Value::Int(a.wrapping_add(i.wrapping_mul(st))))),
            ),
            Value::Tensor(t) if t.ndim() > 0 => {
                let t = t.clone();
                Box::new(
                    (0..t.shape()[0] as i64).map(move |i| {
                        crate::tensor::ops::view::select(&t, 0, i).map(Value::Tensor)
                    }),
                )
            }
            Value::Iter(cell) => {
                let cell = cell.clone();
                Box::new(std::iter::from_fn(move || super::generator::pull(&cell)))
            }
            other => Box::new(other.iter_items()?.into_iter().map(Ok)),
        })
    }

    /// Every item of an iterable, at once.
    pub fn iterate_items(&mut self, seq: &Value) -> Result<Vec<Value>> {
        match seq {
            Value::Object(_) => self.iterate(seq)?.collect(),
            // Sized sequences check their length against the item limit first.
            other => other.iter_items(),
        }
    }

    /// A variable of the innermost scope (or a global at the top level).
    pub(super) fn local_or_global(&self, name: &str) -> Option<Value> {
        match self.locals.last() {
            Some(scope) => scope.vars.borrow().get(name).cloned(),
            None => self.globals.get(name).cloned(),
        }
    }

    /// Put back what `local_or_global` saw (removing the name if it had none).
    pub(super) fn restore_var(&mut self, name: Rc<str>, v: Option<Value>) {
        let mut local;
        let scope = match self.locals.last() {
            Some(scope) => {
                local = scope.vars.borrow_mut();
                &mut *local
            }
            None => &mut self.globals,
        };
        match v {
            Some(v) => {
                scope.insert(name, v);
            }
            None => {
                scope.shift_remove(&name);
            }
        }
    }

    /// A function value for a definition: its defaults evaluated now, closing
    /// over the scope it is made in.
    pub(super) fn make_function(&mut self, def: &Rc<FnDef>) -> Result<Value> {
        let defaults = def
            .params
            .iter()
            .map(|p| p.default.as_ref().map(|d| self.eval(d)).transpose())
            .collect::<Result<_>>()?;
        let mut f = Value::Function(Rc::new(super::value::Func {
            def: def.clone(),
            env: self.capture(),
            defaults,
            grad_mode: None,
            binding: super::value::Binding::Instance,
            setter: None,
        }));
        // `@d def f` is `f = d(f)`, innermost decorator first.
        for d in def.decorators.iter().rev() {
            let dv = self.eval(d)?;
            f = match (&dv, &f) {
                (Value::GradMode(mode), Value::Function(func)) => {
                    let mut f = func.rebound(func.binding);
                    f.grad_mode = Some(mode.enabled());
                    Value::Function(Rc::new(f))
                }
                (Value::GradMode(_), _) => {
                    return Err(crate::error::type_err(
                        "a grad-mode decorator applies to a function",
                    )
                    .at(d.span));
                }
                _ => self.call(&dv, vec![(f.clone(), d.span)], vec![], d.span)?,
            };
        }
        Ok(f)
    }

    /// The scope a function made now closes over (none at the top level).
    pub(super) fn capture(&self) -> Option<Rc<super::value::Scope>> {
        self.locals.last().cloned()
    }

    pub fn set_var(&mut self, name: Rc<str>, v: Value) {
        self.set_slotted(&name, &Slot::default(), v);
    }

    /// `f` on the innermost scope's variable `name` (a global at the top
    /// level), in place: one look-up where reading and then binding took two.
    /// False, with nothing done, where the scope has no such variable, where
    /// the name is declared `global` or `nonlocal`, or where `f` declines.
    #[inline]
    pub(super) fn update_slotted(
        &mut self,
        name: &Rc<str>,
        slot: &Slot,
        f: impl FnOnce(&mut Value) -> bool,
    ) -> bool {
        if self.declared.last().is_some_and(|g| !g.is_empty()) {
            return false;
        }
        let found = |vars: &mut super::value::Vars| {
            super::value::slotted_mut(vars, name, slot).is_some_and(f)
        };
        match self.locals.last() {
            Some(scope) => found(&mut scope.vars.borrow_mut()),
            None => found(&mut self.globals),
        }
    }

    /// Bind a name the program wrote (`slot` is its node's guess of where it is).
    /// Compiled in line (a loop binds its variable every iteration); the
    /// `global`/`nonlocal` routing is out of line.
    #[inline]
    pub(super) fn set_slotted(&mut self, name: &Rc<str>, slot: &Slot, v: Value) {
        if self.declared.last().is_some_and(|d| !d.is_empty()) {
            return self.set_declared(name, slot, v);
        }
        self.bind_innermost(name, slot, v)
    }

    /// Bind in the innermost scope (the globals at the top level).
    #[inline]
    fn bind_innermost(&mut self, name: &Rc<str>, slot: &Slot, v: Value) {
        match self.locals.last() {
            Some(scope) => super::value::bind_slotted(&mut scope.vars.borrow_mut(), name, slot, v),
            None => super::value::bind_slotted(&mut self.globals, name, slot, v),
        }
    }

    /// A bind in a function that declared names `global` or `nonlocal`.
    #[cold]
    fn set_declared(&mut self, name: &Rc<str>, slot: &Slot, v: Value) {
        if let Some(d) = self.declared.last() {
            if d.global.contains(name) {
                self.globals.insert(name.clone(), v);
                return;
            }
            if d.nonlocal.contains(name)
                && let Some(scope) = self.enclosing(name)
            {
                scope.vars.borrow_mut().insert(name.clone(), v);
                return;
            }
        }
        self.bind_innermost(name, slot, v)
    }

    /// The nearest scope a running function closes over that binds `name`
    /// (where its `nonlocal name` writes).
    fn enclosing(&self, name: &str) -> Option<Rc<super::value::Scope>> {
        let mut scope = self.locals.last()?.parent.clone();
        while let Some(s) = scope {
            if s.vars.borrow().contains_key(name) {
                return Some(s);
            }
            scope = s.parent.clone();
        }
        None
    }

    pub fn lookup(&self, name: &str) -> Option<Value> {
        self.local_or_global(name)
            .or_else(|| self.outer(name, None))
    }

    /// `lookup` of a name the program wrote: the innermost scope at the
    /// node's slot when it still holds the name.
    pub(super) fn lookup_slotted(&self, name: &Rc<str>, slot: &Slot) -> Option<Value> {
        self.innermost(name, slot, Value::clone)
            .or_else(|| self.outer(name, Some((name, slot))))
    }

    /// The innermost scope's variable (a global at the top level), read in
    /// place through `f`, at `slot` when that still holds `name`.
    pub(super) fn innermost<R>(
        &self,
        name: &Rc<str>,
        slot: &Slot,
        f: impl FnOnce(&Value) -> R,
    ) -> Option<R> {
        match self.locals.last() {
            Some(scope) => super::value::slotted(&scope.vars.borrow(), name, slot).map(f),
            None => super::value::slotted(&self.globals, name, slot).map(f),
        }
    }

    /// A name beyond the innermost scope: the scopes a function closes over
    /// and the globals (inside a function), then the builtins. A name node's
    /// slot, given, finds its global: a function's reference to a global
    /// misses the function's own scope every time, so the slot is free to
    /// remember where the global is.
    pub(super) fn outer(&self, name: &str, slot: Option<(&Rc<str>, &Slot)>) -> Option<Value> {
        let Some(scope) = self.locals.last() else {
            return builtins::global(name);
        };
        scope
            .parent
            .as_ref()
            .and_then(|p| p.find(name))
            .or_else(|| match slot {
                Some((key, slot)) => super::value::slotted(&self.globals, key, slot).cloned(),
                None => self.globals.get(name).cloned(),
            })
            .or_else(|| builtins::global(name))
    }

    pub(super) fn assign_unpack(&mut self, targets: &[Expr], v: Value, span: Span) -> Result<()> {
        let items = v.iter_items().map_err(|e| e.at(span))?;
        // `a, *rest, z = xs`: the starred name takes what the others leave, as a list.
        if let Some(star) = targets
            .iter()
            .position(|t| matches!(t.kind, ExprKind::Starred(_)))
        {
            let after = targets.len() - star - 1;
            if items.len() < targets.len() - 1 {
                return Err(crate::error::value_err(format!(
                    "not enough values to unpack (expected at least {}, got {})",
                    targets.len() - 1,
                    items.len()
                ))
                .at(span));
            }
            let mut items = items;
            let tail = items.split_off(items.len() - after);
            let middle = items.split_off(star);
            for (t, item) in targets[..star].iter().zip(items) {
                self.assign(t, item)?;
            }
            if let ExprKind::Starred(inner) = &targets[star].kind {
                self.assign(inner, Value::list(middle))?;
            }
            for (t, item) in targets[star + 1..].iter().zip(tail) {
                self.assign(t, item)?;
            }
            return Ok(());
        }
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

    pub(super) fn assign(&mut self, target: &Expr, v: Value) -> Result<()> {
        match &target.kind {
            ExprKind::Name(n, slot) => {
                self.set_slotted(n, slot, v);
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
            ExprKind::Tuple(items) | ExprKind::List(items) => {
                self.assign_unpack(items, v, target.span)
            }
            _ => Err(
                Error::new(ErrorKind::Syntax, "cannot assign to this expression").at(target.span),
            ),
        }
    }

    /// An `if`'s or `while`'s condition, as Python's truth of its value.
    fn condition(&mut self, cond: &Expr) -> Result<bool> {
        if let Some(b) = self.number_truth(cond) {
            return Ok(b);
        }
        self.eval(cond)?.truthy().map_err(|e| e.at(cond.span))
    }

    /// `xs += items`, `xs *= n` and a set's `|= &= -= ^=` change the object
    /// itself, as Python's in-place operators do: every name for it sees the
    /// change, and a loop of `xs += [x]` stays linear. False for the rest.
    fn inplace_container(&mut self, current: &Value, op: BinOp, rhs: &Value) -> Result<bool> {
        match (current, op, rhs) {
            (Value::List(l), BinOp::Add, _) => {
                let items = self.iterate_items(rhs)?;
                l.borrow_mut().extend(items);
            }
            (Value::List(l), BinOp::Mul, _) => {
                let Value::List(repeated) = super::ops::binary(op, current, rhs)? else {
                    return Ok(false);
                };
                let items = std::mem::take(&mut *repeated.borrow_mut());
                *l.borrow_mut() = items;
            }
            (
                Value::Set(s),
                BinOp::BitOr | BinOp::BitAnd | BinOp::Sub | BinOp::BitXor,
                Value::Set(o),
            ) => {
                let members = super::pyset::combine(op, &s.borrow(), &o.borrow())?;
                *s.borrow_mut() = members;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    pub(super) fn aug_assign(&mut self, target: &Expr, op: BinOp, value: &Expr) -> Result<()> {
        if self.number_aug_assign(target, op, value) {
            return Ok(());
        }
        let current = self.eval(target)?;
        let rhs = self.eval(value)?;
        let span = target.span.to(value.span);
        let current = if op == BinOp::Add && appends(target, &current, &rhs) {
            match self.append_in_place(target, current, &rhs) {
                None => return Ok(()),
                Some(current) => current,
            }
        } else {
            current
        };
        if let Value::Tensor(t) | Value::Array(t) = &current {
            // `t += x` updates the tensor in place (every name for it sees the change).
            return super::ops::inplace(t, op, &rhs).map_err(|e| {
                let operands = [(&current, Some(target.span)), (&rhs, Some(value.span))];
                e.at(span).with_context(|| {
                    super::session::op_context(&format!("{}=", op.symbol()), &operands)
                })
            });
        }
        if self
            .inplace_container(&current, op, &rhs)
            .map_err(|e| e.at(span))?
        {
            // The same object, bound again (as Python's `+=` does after `__iadd__`).
            return self.assign(target, current);
        }
        let result = super::ops::binary(op, &current, &rhs).map_err(|e| e.at(span))?;
        self.assign(target, result)
    }

    /// `s = s + t`: when both are strings, as `s += t` (CPython takes the
    /// same shortcut); false, with nothing done, for any other statement.
    fn concat_assign(&mut self, targets: &[Expr], value: &Expr) -> Result<bool> {
        let ([target], ExprKind::Binary(BinOp::Add, l, r)) = (targets, &value.kind) else {
            return Ok(false);
        };
        let (ExprKind::Name(n, _), ExprKind::Name(m, _)) = (&target.kind, &l.kind) else {
            return Ok(false);
        };
        if n != m {
            return Ok(false);
        }
        let lv = self.eval(l)?;
        let rv = self.eval(r)?;
        let lv = if appends(target, &lv, &rv) {
            match self.append_in_place(target, lv, &rv) {
                None => return Ok(true),
                Some(lv) => lv,
            }
        } else {
            lv
        };
        let v = self
            .binary_of(value.span, BinOp::Add, (&lv, l.span), (&rv, r.span))
            .map_err(|e| e.at(value.span))?;
        self.assign(target, v)?;
        Ok(true)
    }

    /// `name += tail` on strings, `read` being what the statement read from
    /// the name: where the variable still holds that text (the right side
    /// may have rebound the name) and nothing else does, the read's
    /// reference is let go and the text grows where it lies (a loop that
    /// builds a string would otherwise copy it whole every time). None when
    /// done; else `read` back, nothing done.
    fn append_in_place(&mut self, target: &Expr, read: Value, tail: &Value) -> Option<Value> {
        let (ExprKind::Name(n, slot), Value::Str(tail)) = (&target.kind, tail) else {
            return Some(read);
        };
        let mut read = Some(read);
        let grown = |v: &mut Value| {
            let (Value::Str(s), Some(Value::Str(was))) = (v, &read) else {
                return false;
            };
            if !PyStr::ptr_eq(s, was) || s.holders() != 2 {
                return false;
            }
            // The variable's is now the only reference: the append happens.
            read = None;
            s.append_if_unique(tail)
        };
        if self.update_slotted(n, slot, grown) {
            return None;
        }
        read
    }
}

/// Whether `target += b` (or `target = target + b`) with `target` holding
/// `a` may append in place: a name, and two strings.
fn appends(target: &Expr, a: &Value, b: &Value) -> bool {
    matches!(target.kind, ExprKind::Name(..)) && matches!((a, b), (Value::Str(_), Value::Str(_)))
}
