//! Python's statements beyond tsh's own: `with`, `try/except`, `import`, `pass`,
//! `raise`, `del`, `global`.

use std::rc::Rc;

use super::Interp;
use super::eval::Exec;
use super::value::Value;
use crate::error::{Error, ErrorKind, Result, name_err, type_err};
use crate::syntax::ast::*;

/// The modules an import can name, by dotted path.
const IMPORTABLE: &[&str] = &[
    "torch",
    "torch.nn",
    "torch.nn.functional",
    "torch.nn.init",
    "torch.nn.utils",
    "torch.optim",
    "torch.optim.lr_scheduler",
    "math",
    "numpy",
    "torch.distributions",
    "torch.linalg",
    "torch.autograd",
    "torch.special",
    "torch.random",
    "torch.autograd.functional",
    "random",
    "time",
    "copy",
    "itertools",
    "warnings",
    "sys",
    "timeit",
    "statistics",
    "gc",
    "os",
    "os.path",
    "torch.utils",
    "torch.utils.data",
    "torch.utils.benchmark",
];

/// Imports that change nothing in tsh.
const IGNORED: &[&str] = &["__future__"];

impl Interp {
    pub(super) fn exec_python(&mut self, stmt: &Stmt) -> Result<Exec> {
        match &stmt.kind {
            StmtKind::Pass => {}
            StmtKind::With(ctx, bound, body) => return self.exec_with(ctx, bound, body),
            StmtKind::Try {
                body,
                handlers,
                finally,
            } => return self.exec_try(body, handlers, finally.as_deref()),
            StmtKind::Import(items) => {
                for (path, alias) in items {
                    let module = import(path).map_err(|e| e.at(stmt.span))?;
                    match alias {
                        Some(a) => self.set_var(a.clone(), module),
                        // `import torch.nn` binds `torch`.
                        None => {
                            let top = path.split('.').next().unwrap_or(path);
                            self.set_var(Rc::from(top), import(top).map_err(|e| e.at(stmt.span))?)
                        }
                    }
                }
            }
            StmtKind::FromImport(module, names) => {
                if IGNORED.contains(&module.as_ref()) {
                    return Ok(Exec::Normal);
                }
                let m = import(module).map_err(|e| e.at(stmt.span))?;
                for (name, alias) in names {
                    let v = super::builtins::get_attr(self, &m, name).map_err(|_| {
                        Error::new(
                            ErrorKind::Name,
                            format!("cannot import name '{name}' from '{module}'"),
                        )
                        .at(stmt.span)
                    })?;
                    self.set_var(alias.clone().unwrap_or_else(|| name.clone()), v);
                }
                if names.is_empty() {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        format!("`from {module} import *` is not supported by tsh"),
                    )
                    .at(stmt.span)
                    .hint(format!(
                        "import the names you use: from {module} import a, b"
                    )));
                }
            }
            StmtKind::Raise(e) => return Err(self.raised(e.as_ref(), stmt.span)),
            StmtKind::Del(targets) => {
                for t in targets {
                    self.delete(t)?;
                }
            }
            StmtKind::Global { names, nonlocal } => {
                if let Some(frame) = self.declared.last_mut() {
                    let set = match nonlocal {
                        true => &mut frame.nonlocal,
                        false => &mut frame.global,
                    };
                    set.extend(names.iter().cloned());
                }
            }
            // Unreachable: exec sends only the kinds matched above here.
            _ => unreachable!("exec_python is called for Python's statements only"),
        }
        Ok(Exec::Normal)
    }

    fn exec_with(&mut self, ctx: &Expr, bound: &Option<Rc<str>>, body: &[Stmt]) -> Result<Exec> {
        let v = self.eval(ctx)?;
        let Value::GradMode(mode) = v else {
            return Err(type_err(format!(
                "'{}' object does not support the context manager protocol",
                v.type_name()
            ))
            .at(ctx.span)
            .hint("tsh's `with` takes torch.no_grad(), torch.enable_grad(), torch.inference_mode() or torch.set_grad_enabled(b)"));
        };
        if let Some(name) = bound {
            self.set_var(name.clone(), v.clone());
        }
        let guard = crate::autograd::NoGradGuard::set(mode.enabled());
        let r = self.exec_block(body);
        drop(guard);
        if let super::value::GradMode::Set { before, .. } = mode {
            crate::autograd::set_enabled(before);
        }
        r
    }

    fn exec_try(
        &mut self,
        body: &[Stmt],
        handlers: &[Handler],
        finally: Option<&[Stmt]>,
    ) -> Result<Exec> {
        let mut r = self.exec_block(body);
        if let Err(e) = &r {
            for h in handlers {
                if !catches(h.kinds.as_ref(), e) {
                    continue;
                }
                let e = e.clone();
                if let Some(n) = &h.name {
                    self.set_var(n.clone(), Value::Exception(std::rc::Rc::new(e.clone())));
                }
                self.handling.push(e);
                r = self.exec_block(&h.body);
                self.handling.pop();
                break;
            }
        }
        if let Some(f) = finally {
            match self.exec_block(f)? {
                Exec::Normal => {}
                other => return Ok(other),
            }
        }
        r
    }

    /// The error a `raise` statement makes.
    fn raised(&mut self, e: Option<&Expr>, span: Span) -> Error {
        let Some(e) = e else {
            return match self.handling.last() {
                Some(current) => current.clone(),
                None => Error::new(ErrorKind::Value, "No active exception to reraise").at(span),
            };
        };
        // `raise e` of a caught exception raises it again.
        if let ExprKind::Name(..) = &e.kind
            && let Ok(Value::Exception(caught)) = self.eval(e)
        {
            return (*caught).clone().at(span);
        }
        let (class, message) = match &e.kind {
            ExprKind::Call { func, args } => {
                let text = match args.first() {
                    Some(a) => match self.eval(&a.value) {
                        Ok(v) => self.str_text(&v),
                        Err(err) => return err,
                    },
                    None => String::new(),
                };
                (dotted_name(func), text)
            }
            _ => (dotted_name(e), String::new()),
        };
        let kind = class
            .as_deref()
            .and_then(kind_of_class)
            .unwrap_or(ErrorKind::Value);
        let mut err = Error::new(kind, message).at(span);
        err.class = class.map(|c| c.rsplit('.').next().unwrap_or(&c).into());
        err
    }

    fn delete(&mut self, t: &Expr) -> Result<()> {
        match &t.kind {
            ExprKind::Name(n, _) => {
                let removed = match self.locals.last() {
                    Some(scope) => scope.vars.borrow_mut().shift_remove(n),
                    None => self.globals.shift_remove(n),
                };
                if removed.is_none() {
                    return Err(name_err(format!("name '{n}' is not defined")).at(t.span));
                }
                Ok(())
            }
            ExprKind::Index(obj, subs) => {
                let container = self.eval(obj)?;
                self.del_item(&container, subs).map_err(|e| e.at(t.span))
            }
            _ => Err(Error::new(ErrorKind::Syntax, "cannot delete this expression").at(t.span)),
        }
    }

    fn del_item(&mut self, container: &Value, subs: &[Subscript]) -> Result<()> {
        let [Subscript::Expr(key)] = subs else {
            return Err(type_err("del takes one index"));
        };
        let k = self.eval(key)?;
        match (container, &k) {
            (Value::Dict(d), key) => {
                if d.borrow_mut().remove_key(key).is_none() {
                    return Err(Error::new(
                        ErrorKind::Index,
                        format!("KeyError: {}", self.repr_text(key)),
                    ));
                }
                Ok(())
            }
            (Value::List(l), Value::Int(i)) => {
                let mut l = l.borrow_mut();
                let n = l.len() as i64;
                let at = if *i < 0 { i + n } else { *i };
                if at < 0 || at >= n {
                    return Err(Error::new(
                        ErrorKind::Index,
                        "list assignment index out of range",
                    ));
                }
                l.remove(at as usize);
                Ok(())
            }
            _ => Err(type_err(format!(
                "'{}' object does not support item deletion",
                container.type_name()
            ))),
        }
    }
}

/// `torch.distributions`' submodules, one distribution each (tsh serves them
/// from torch.distributions itself).
pub(super) const DISTRIBUTION_MODULES: &[&str] = &[
    "normal",
    "bernoulli",
    "categorical",
    "multinomial",
    "uniform",
];

/// The module a dotted path names.
pub(super) fn import(path: &str) -> Result<Value> {
    // `torch.distributions.normal` and its siblings hold one distribution each.
    if let Some(sub) = path.strip_prefix("torch.distributions.")
        && DISTRIBUTION_MODULES.contains(&sub)
    {
        return Ok(Value::Module("torch.distributions"));
    }
    match IMPORTABLE.iter().find(|p| **p == path) {
        Some(p) => Ok(Value::Module(p)),
        None => Err(name_err(format!("No module named '{path}'"))
            .hint(format!("tsh has the modules {}", IMPORTABLE.join(", ")))),
    }
}

/// `ValueError`, `torch.cuda.OutOfMemoryError`: the name, as written.
fn dotted_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Name(n, _) => Some(n.to_string()),
        ExprKind::Attr(obj, n) => Some(format!("{}.{n}", dotted_name(obj)?)),
        _ => None,
    }
}

/// The kind of tsh error a Python exception class stands for.
fn kind_of_class(class: &str) -> Option<ErrorKind> {
    let last = class.rsplit('.').next().unwrap_or(class);
    Some(match last {
        "TypeError" => ErrorKind::Type,
        "IndexError" | "KeyError" | "LookupError" => ErrorKind::Index,
        "NameError" | "AttributeError" | "ImportError" | "ModuleNotFoundError" => ErrorKind::Name,
        "AssertionError" => ErrorKind::Assert,
        "OSError" | "IOError" | "FileNotFoundError" => ErrorKind::Io,
        "MemoryError" | "OutOfMemoryError" => ErrorKind::Memory,
        "RecursionError" => ErrorKind::Recursion,
        "SystemExit" => ErrorKind::Exit,
        "KeyboardInterrupt" => ErrorKind::Interrupt,
        "SyntaxError" => ErrorKind::Syntax,
        "ValueError"
        | "RuntimeError"
        | "Exception"
        | "ArithmeticError"
        | "ZeroDivisionError"
        | "OverflowError"
        | "NotImplementedError" => ErrorKind::Value,
        _ => return None,
    })
}

/// Does `except CLASSES` catch this error? PyTorch raises RuntimeError for shape,
/// dtype and device mistakes; `except Exception` catches all but Ctrl-C.
fn catches(classes: Option<&Expr>, e: &Error) -> bool {
    let Some(classes) = classes else {
        return e.kind != ErrorKind::Interrupt;
    };
    if let ExprKind::Tuple(items) = &classes.kind {
        return items.iter().any(|c| catches(Some(c), e));
    }
    let Some(class) = dotted_name(classes) else {
        return false;
    };
    let class = class.rsplit('.').next().unwrap_or(&class).to_string();
    // Raised as that class (a builtin or one the user wrote).
    if e.class.as_deref() == Some(class.as_str()) {
        return true;
    }
    use ErrorKind::*;
    match class.as_str() {
        "BaseException" => true,
        "Exception" => !matches!(e.kind, Interrupt | Exit),
        "RuntimeError" => matches!(e.kind, Shape | Dtype | Device | Value | Memory | Recursion),
        "ZeroDivisionError" => e.kind == Value && e.message.contains("by zero"),
        // `torch.linalg.LinAlgError` is the class PyTorch names `_LinAlgError`.
        "LinAlgError" => e.class.as_deref() == Some("_LinAlgError"),
        "ArithmeticError" | "OverflowError" => e.kind == Value,
        other => kind_of_class(other) == Some(e.kind),
    }
}
