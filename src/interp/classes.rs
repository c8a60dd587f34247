//! Python classes, enough for PyTorch's `nn.Module` style: `class Net(nn.Module)`
//! with `__init__`, `forward` and `super().__init__()`; instances hold their
//! attributes in the order they were set (the module's repr and `parameters()`
//! follow it). tsh's own layers (nn.Linear, nn.ReLU, nn.Sequential...) are
//! written the same way, in Python (nn_prelude.py), on the same machinery.

use std::cell::RefCell;
use std::rc::Rc;

use super::Interp;
use super::value::{Binding, Func, Value};
use crate::error::{Error, ErrorKind, Result, type_err};
use crate::syntax::ast::{Expr, Span, Stmt};

pub struct Class {
    pub name: Rc<str>,
    /// Where Python would say it lives: `__main__`, `torch.nn.modules.linear`.
    pub path: RefCell<Rc<str>>,
    pub bases: Vec<Rc<Class>>,
    /// Derives from nn.Module (or is it).
    pub module: bool,
    pub attrs: RefCell<Vec<(Rc<str>, Value)>>,
}

pub struct Object {
    pub class: Rc<Class>,
    pub attrs: RefCell<Vec<(Rc<str>, Value)>>,
}

impl Object {
    pub fn get(&self, name: &str) -> Option<Value> {
        self.attrs
            .borrow()
            .iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v.clone())
    }

    pub fn set(&self, name: Rc<str>, v: Value) {
        let mut attrs = self.attrs.borrow_mut();
        match attrs.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = v,
            None => attrs.push((name, v)),
        }
    }
}

/// A function found on a class, bound to an instance.
pub struct Bound {
    pub obj: Value,
    pub func: Rc<Func>,
    /// The class it was found on (`super()` inside it starts after this class).
    pub class: Rc<Class>,
}

thread_local! {
    static MODULE: Rc<Class> = Rc::new(Class {
        name: Rc::from("Module"),
        path: RefCell::new(Rc::from("torch.nn.modules.module")),
        bases: vec![],
        module: true,
        attrs: RefCell::new(vec![]),
    });
}

/// `nn.Module`.
pub fn module_base() -> Rc<Class> {
    MODULE.with(|m| m.clone())
}

impl Class {
    /// An attribute along the class and its bases (depth-first, as Python's MRO
    /// is for single inheritance), with the class it was found on.
    pub fn lookup(self: &Rc<Class>, name: &str) -> Option<(Rc<Class>, Value)> {
        if let Some(v) = self
            .attrs
            .borrow()
            .iter()
            .find(|(k, _)| k.as_ref() == name)
            .map(|(_, v)| v.clone())
        {
            return Some((self.clone(), v));
        }
        self.bases.iter().find_map(|b| b.lookup(name))
    }

    /// Where `super()` inside a method of `self` looks: the bases.
    pub fn lookup_in_bases(&self, name: &str) -> Option<(Rc<Class>, Value)> {
        self.bases.iter().find_map(|b| b.lookup(name))
    }
}

impl Interp {
    /// Run a class body; its names become the class's attributes.
    pub(super) fn exec_class(
        &mut self,
        name: &Rc<str>,
        bases: &[Expr],
        body: &[Stmt],
    ) -> Result<()> {
        let mut base_classes = vec![];
        for b in bases {
            match self.eval(b)? {
                Value::Class(c) => base_classes.push(c),
                other => {
                    return Err(type_err(format!(
                        "a class derives from classes (nn.Module or your own), not {}",
                        other.a_type_name()
                    ))
                    .at(b.span));
                }
            }
        }
        let module = base_classes.iter().any(|b| b.module);
        self.locals.push(Rc::new(super::value::Scope {
            vars: RefCell::new(Default::default()),
            parent: self.capture(),
        }));
        self.declared.push(Default::default());
        let r = self.exec_block(body);
        self.declared.pop();
        // Unreachable: the scope was pushed a few lines up, and exec_block pops
        // what it pushes even when it fails.
        let scope = self.locals.pop().expect("pushed above");
        r?;
        let mut attrs: Vec<(Rc<str>, Value)> = scope.vars.borrow().clone().into_iter().collect();
        attrs.sort_by(|a, b| a.0.cmp(&b.0));
        let class = Class {
            name: name.clone(),
            path: RefCell::new(Rc::from("__main__")),
            bases: base_classes,
            module,
            attrs: RefCell::new(attrs),
        };
        self.set_var(name.clone(), Value::Class(Rc::new(class)));
        Ok(())
    }

    /// `Net(...)`: a new instance, made by `__init__`.
    pub(super) fn instantiate(
        &mut self,
        class: &Rc<Class>,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        let obj = Value::Object(Rc::new(Object {
            class: class.clone(),
            attrs: RefCell::new(if class.module {
                vec![(Rc::from("training"), Value::Bool(true))]
            } else {
                vec![]
            }),
        }));
        match class.lookup("__init__") {
            Some((owner, Value::Function(f))) => {
                self.call_bound(&obj, &f, &owner, positional, keywords, span)?;
            }
            _ if positional.is_empty() && keywords.is_empty() => {}
            _ => {
                return Err(type_err(format!("{}() takes no arguments", class.name)).at(span));
            }
        }
        Ok(obj)
    }

    /// Call a method with its instance first; `super()` inside it knows where it is.
    pub(super) fn call_bound(
        &mut self,
        obj: &Value,
        func: &Rc<Func>,
        class: &Rc<Class>,
        mut positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        positional.insert(0, (obj.clone(), span));
        self.call_method(obj, func, class, (positional, keywords), span)
    }

    /// A method of `class` called on `obj`, its arguments already led by `obj`.
    pub(super) fn call_method(
        &mut self,
        obj: &Value,
        func: &Rc<Func>,
        class: &Rc<Class>,
        (positional, keywords): super::pyexpr::CallArgs,
        span: Span,
    ) -> Result<Value> {
        self.method_ctx.push((obj.clone(), class.clone()));
        let r = self.call_user(func, positional, keywords, span);
        self.method_ctx.pop();
        r
    }

    /// `obj(...)`: `__call__`, or a module's `forward`.
    pub(super) fn call_object(
        &mut self,
        obj: &Rc<Object>,
        positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        let me = Value::Object(obj.clone());
        for name in ["__call__", "forward"] {
            if name == "forward" && !obj.class.module {
                break;
            }
            if let Some((owner, Value::Function(f))) = obj.class.lookup(name) {
                if name == "forward" {
                    return self.call_forward(obj, &f, &owner, positional, keywords, span);
                }
                return self.call_bound(&me, &f, &owner, positional, keywords, span);
            }
        }
        if obj.class.module {
            return Err(Error::new(
                ErrorKind::Type,
                format!("{} has no forward()", obj.class.name),
            )
            .hint("define def forward(self, x): ... in the class"));
        }
        Err(type_err(format!(
            "'{}' object is not callable",
            obj.class.name
        )))
    }

    /// A module's forward, between its forward pre-hooks (which may replace
    /// the arguments) and its forward hooks (which may replace the output).
    fn call_forward(
        &mut self,
        obj: &Rc<Object>,
        f: &Rc<Func>,
        owner: &Rc<Class>,
        mut positional: Vec<(Value, Span)>,
        keywords: Vec<(String, Value, Span)>,
        span: Span,
    ) -> Result<Value> {
        use crate::interp::builtins::module_hooks::{POST, PRE, hooks};
        let me = Value::Object(obj.clone());
        let (pre, post) = (hooks(obj, PRE), hooks(obj, POST));
        if pre.is_empty() && post.is_empty() {
            return self.call_bound(&me, f, owner, positional, keywords, span);
        }
        let args_tuple =
            |p: &[(Value, Span)]| Value::tuple(p.iter().map(|(v, _)| v.clone()).collect());
        for hook in &pre {
            let args = vec![(me.clone(), span), (args_tuple(&positional), span)];
            match self.call(hook, args, vec![], span)? {
                Value::None => {}
                Value::Tuple(items) => {
                    positional = items.iter().map(|v| (v.clone(), span)).collect()
                }
                single => positional = vec![(single, span)],
            }
        }
        let inputs = args_tuple(&positional);
        let mut out = self.call_bound(&me, f, owner, positional, keywords, span)?;
        for hook in &post {
            let args = vec![
                (me.clone(), span),
                (inputs.clone(), span),
                (out.clone(), span),
            ];
            let r = self.call(hook, args, vec![], span)?;
            if !matches!(r, Value::None) {
                out = r;
            }
        }
        Ok(out)
    }

    /// `super()` inside a method: the instance, seen from the method's class's bases.
    pub(super) fn super_proxy(&self) -> Result<Value> {
        let (obj, class) = self.method_ctx.last().cloned().ok_or_else(|| {
            Error::new(ErrorKind::Value, "super(): no arguments, outside a method")
        })?;
        Ok(Value::Super(Rc::new((obj, class))))
    }
}

/// `obj.name` for instances: its own attributes, then the class's (functions
/// bound to it), then nn.Module's methods.
pub fn object_attr(obj: &Rc<Object>, name: &str) -> Option<Value> {
    if let Some(v) = obj.get(name) {
        return Some(v);
    }
    let me = Value::Object(obj.clone());
    match obj.class.lookup(name) {
        Some((owner, Value::Function(f))) => Some(bind(me, &obj.class, f, owner)),
        Some((_, v)) => Some(v),
        None if obj.class.module => {
            super::builtins::module_method(name).map(|b| Value::Method(Rc::new((me, b))))
        }
        None => None,
    }
}

/// `obj.name` when it is a plain method (a function of its class, not
/// shadowed by the instance, not a property, static or class method): what
/// `obj.name(...)` calls directly, with `obj` first, without a bound method.
pub fn plain_method(obj: &Rc<Object>, name: &str) -> Option<(Rc<Class>, Rc<Func>)> {
    if obj.get(name).is_some() {
        return None;
    }
    match obj.class.lookup(name)? {
        (owner, Value::Function(f)) if f.binding == Binding::Instance => Some((owner, f)),
        _ => None,
    }
}

/// `super().name`.
pub fn super_attr(obj: &Value, class: &Rc<Class>, name: &str) -> Option<Value> {
    match class.lookup_in_bases(name) {
        Some((owner, Value::Function(f))) => {
            let of = match obj {
                Value::Object(o) => o.class.clone(),
                Value::Class(c) => c.clone(),
                _ => class.clone(),
            };
            Some(bind(obj.clone(), &of, f, owner))
        }
        Some((_, v)) => Some(v),
        None if class.module => {
            super::builtins::module_method(name).map(|b| Value::Method(Rc::new((obj.clone(), b))))
        }
        None => None,
    }
}

/// A function found on `class` (defined in `owner`), looked up through `obj`
/// (an instance, or the class itself): a method bound to the instance, a
/// classmethod bound to the class, a staticmethod as it is.
pub fn bind(obj: Value, class: &Rc<Class>, func: Rc<Func>, owner: Rc<Class>) -> Value {
    match func.binding {
        Binding::Static => Value::Function(func),
        Binding::Class => Value::Bound(Rc::new(Bound {
            obj: Value::Class(class.clone()),
            func,
            class: owner,
        })),
        Binding::Instance | Binding::Property if matches!(obj, Value::Class(_)) => {
            Value::Function(func)
        }
        // A property read through an instance is called by get_attr; bound
        // here, it is its getter.
        Binding::Instance | Binding::Property => Value::Bound(Rc::new(Bound {
            obj,
            func,
            class: owner,
        })),
    }
}
