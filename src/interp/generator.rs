//! Python generators, run lazily. A generator function's body runs on a stack
//! of its own (a corosensei coroutine) and suspends at each `yield`, so a
//! `while True: yield i` hands out items one at a time, and prints in the body
//! interleave with the consumer's as in Python.
//!
//! Safety: the body runs on the interpreter that made the generator, through a
//! raw pointer. The interpreter does not move while it runs, outlives its
//! values, and is single-threaded: a body runs only while a resume (from
//! inside that interpreter) waits for it, so no two stacks use it at once.
//! After each suspension the body re-reads the pointer opaquely, so nothing
//! it cached about the interpreter before the switch is trusted after it.

use std::cell::RefCell;
use std::rc::Rc;

use corosensei::{Coroutine, CoroutineResult, Yielder};

use super::value::{Func, Iter, Scope};
use super::{Interp, Value};
use crate::error::{Error, ErrorKind, Result};
use crate::syntax::ast::{CompFor, Expr, Span};

/// Address space for one generator's stack. Pages are only touched as the
/// body recurses, so this is the deepest a body may go, not what it costs.
const STACK_BYTES: usize = 256 << 20;

type Body = Coroutine<(), Value, Result<()>, corosensei::stack::DefaultStack>;

/// A suspended generator body (`None` only while it is being dropped).
pub struct Lazy {
    body: Option<Body>,
}

impl Lazy {
    /// Run the body to its next `yield`: `None` once it has returned.
    fn resume(&mut self) -> Option<Result<Value>> {
        match self.body.as_mut()?.resume(()) {
            CoroutineResult::Yield(v) => Some(Ok(v)),
            CoroutineResult::Return(Ok(())) => None,
            CoroutineResult::Return(Err(e)) => Some(Err(e)),
        }
    }
}

impl Drop for Lazy {
    /// A body left suspended is unwound (its values dropped), as the
    /// coroutine's own drop would; its stack then goes back to the pool.
    fn drop(&mut self) {
        if let Some(mut body) = self.body.take() {
            body.force_unwind();
            if body.done() {
                stacks::give_back(body.into_stack());
            }
        }
    }
}

/// Generator stacks kept for the next generator. Making one is an mmap and
/// an mprotect of 256 MiB, and its first frames fault their pages in; an
/// unmap follows when it goes. A generator expression per item (a
/// dataset's `tuple(t[i] for t in self.tensors)`) paid ~30 µs for that.
mod stacks {
    use std::cell::RefCell;

    use corosensei::stack::DefaultStack;

    /// Stacks kept at most: generators alive at once beyond this many still
    /// get fresh ones. A kept stack keeps the pages its deepest body touched,
    /// as a thread's stack does, but no body goes deep: calls stop at
    /// MAX_CALL_DEPTH (about 4 KiB of stack a call) and expressions at the
    /// parser's nesting limit, so that is under a few MiB a stack. Dropping
    /// the pages (madvise) cost more than the whole pool saves.
    const KEPT: usize = 8;

    thread_local! {
        static FREE: RefCell<Vec<DefaultStack>> = const { RefCell::new(Vec::new()) };
    }

    pub fn take(bytes: usize) -> std::io::Result<DefaultStack> {
        match FREE.with(|f| f.borrow_mut().pop()) {
            Some(stack) => Ok(stack),
            None => DefaultStack::new(bytes),
        }
    }

    /// Keep `stack` for the next generator, or unmap it (the pool is full,
    /// or the thread is exiting and its pool already gone).
    pub fn give_back(stack: DefaultStack) {
        let _ = FREE.try_with(|f| {
            let mut free = f.borrow_mut();
            if free.len() < KEPT {
                free.push(stack);
            }
        });
    }
}

/// The next item of an iterator: buffered items first, then the generator
/// body's next yield. The body runs with the iterator unborrowed, so it may
/// print or inspect its own generator.
pub fn pull(cell: &Rc<RefCell<Iter>>) -> Option<Result<Value>> {
    let mut lazy = {
        let Ok(mut it) = cell.try_borrow_mut() else {
            return Some(Err(running()));
        };
        if it.pos < it.items.len() {
            it.pos += 1;
            return Some(Ok(it.items[it.pos - 1].clone()));
        }
        if it.running {
            return Some(Err(running()));
        }
        let lazy = it.lazy.take()?;
        it.running = true;
        lazy
    };
    let out = lazy.resume();
    let mut it = cell.borrow_mut();
    it.running = false;
    if matches!(out, Some(Ok(_))) {
        it.lazy = Some(lazy);
    }
    out
}

/// Everything an iterator has left (a generator runs to its end; one that
/// never ends meets the item limit, or Ctrl-C).
pub fn drain(cell: &Rc<RefCell<Iter>>) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    while let Some(v) = pull(cell) {
        out.push(v?);
        if out.len() % 4096 == 0 {
            super::value::check_items(out.len() as u128 + 1)?;
            crate::interrupt::check()?;
        }
    }
    Ok(out)
}

fn running() -> Error {
    Error::new(ErrorKind::Value, "generator already executing")
}

/// Where a running generator body sits on the interpreter's stacks, so a
/// `yield` can hand them back to whoever resumed it.
pub(super) struct Frame {
    yielder: *const Yielder<(), Value>,
    locals: usize,
    names: usize,
    depth: usize,
    source: Rc<str>,
}

impl Interp {
    /// Calling a generator function: bind its arguments now (errors show at
    /// the call, as in Python), run nothing until the first `next`.
    pub(super) fn make_generator(
        &mut self,
        func: Rc<Func>,
        scope: Rc<Scope>,
        span: Span,
    ) -> Result<Value> {
        let label = format!("generator object {}", func.def.name);
        let source = func.def.source.clone();
        self.spawn(label, scope, source, move |it| {
            let def = &func.def;
            let r = it.exec_block(&def.body).map(|_| ());
            r.map_err(|e| e.through_call(&def.name, &def.source, def.span, span))
        })
    }

    /// `(f(x) for x in xs)`: a generator over the comprehension, its loop
    /// names in a scope of its own that closes over this one.
    pub(super) fn make_genexp(&mut self, item: Expr, clauses: Vec<CompFor>) -> Result<Value> {
        let scope = Rc::new(Scope {
            vars: Default::default(),
            parent: self.locals.last().cloned(),
        });
        let source = self.source.clone();
        self.spawn(
            "generator object <genexpr>".into(),
            scope,
            source,
            move |it| {
                it.comprehend(&clauses, &mut |it| {
                    let v = it.eval(&item)?;
                    it.yield_value(v)
                })
            },
        )
    }

    /// An iterator whose items a Rust body makes on demand, handing each out
    /// with `yield_value` (itertools' objects: `count()` never ends, so its
    /// items must be made only as they are asked for).
    pub(crate) fn native_iter(
        &mut self,
        label: String,
        run: impl FnOnce(&mut Interp) -> Result<()> + 'static,
    ) -> Result<Value> {
        let source = self.source.clone();
        self.spawn(label, Rc::new(Scope::default()), source, run)
    }

    /// A generator whose body `run` executes in `scope`, on its own stack.
    fn spawn(
        &mut self,
        label: String,
        scope: Rc<Scope>,
        source: Rc<str>,
        run: impl FnOnce(&mut Interp) -> Result<()> + 'static,
    ) -> Result<Value> {
        let stack = stacks::take(STACK_BYTES)
            .map_err(|e| Error::new(ErrorKind::Memory, format!("no stack for a generator: {e}")))?;
        let interp: *mut Interp = self;
        let body = Coroutine::with_stack(stack, move |y: &Yielder<(), Value>, ()| {
            // SAFETY: see the module comment.
            let it = unsafe { &mut *interp };
            it.enter_generator(y, scope, source);
            let r = run(it);
            // A yield may have switched stacks: read the interpreter afresh.
            reread(it).leave_generator();
            r
        });
        Ok(Iter::lazy(label, Lazy { body: Some(body) }))
    }

    fn enter_generator(&mut self, y: *const Yielder<(), Value>, scope: Rc<Scope>, source: Rc<str>) {
        self.generators.push(Frame {
            yielder: y,
            locals: self.locals.len(),
            names: self.declared.len(),
            depth: self.depth,
            source: std::mem::replace(&mut self.source, source),
        });
        self.locals.push(scope);
        self.declared.push(Default::default());
        self.depth += 1;
    }

    fn leave_generator(&mut self) {
        if let Some(f) = self.generators.pop() {
            self.locals.truncate(f.locals);
            self.declared.truncate(f.names);
            self.depth = f.depth;
            self.source = f.source;
        }
    }

    /// `yield v`: hand `v` to whoever resumed this body, with the
    /// interpreter's stacks as they were for them; take ours back on resume.
    pub(super) fn yield_value(&mut self, v: Value) -> Result<()> {
        let Some(f) = self.generators.pop() else {
            return Err(Error::new(ErrorKind::Syntax, "'yield' outside function"));
        };
        let locals = self.locals.split_off(f.locals);
        let names = self.declared.split_off(f.names);
        let depth = std::mem::replace(&mut self.depth, f.depth);
        let source = std::mem::replace(&mut self.source, f.source);
        // SAFETY: the yielder lives on this body's own stack, which is running.
        unsafe { &*f.yielder }.suspend(v);
        let this = reread(self);
        let Frame { yielder, .. } = f;
        this.generators.push(Frame {
            yielder,
            locals: this.locals.len(),
            names: this.declared.len(),
            depth: std::mem::replace(&mut this.depth, depth),
            source: std::mem::replace(&mut this.source, source),
        });
        this.locals.extend(locals);
        this.declared.extend(names);
        Ok(())
    }
}

/// The interpreter after a stack switch, through a pointer the compiler
/// cannot relate to what it knew before the switch.
fn reread(it: &mut Interp) -> &mut Interp {
    // SAFETY: the same live interpreter; see the module comment.
    unsafe { &mut *std::hint::black_box(it as *mut Interp) }
}
