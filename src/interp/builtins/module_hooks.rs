//! A module's forward hooks: `register_forward_pre_hook` and
//! `register_forward_hook`, run around `forward` by `module(...)` as
//! PyTorch's Module.__call__ runs them. The hooks live on the module as lists
//! of (id, hook) pairs, which the RemovableHandle they return edits.

use std::cell::RefCell;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::classes::Object;
use crate::interp::value::Value;
use crate::row;

pub const PRE: &str = "_forward_pre_hooks";
pub const POST: &str = "_forward_hooks";

pub const METHODS: &[Builtin] = &[
    row!(
        Method,
        "register_forward_pre_hook",
        "module.register_forward_pre_hook(hook, *, prepend=False, with_kwargs=False)",
        "Call hook(module, args) before each forward; a tuple it returns replaces the arguments.",
        "nn.Linear(2, 1).register_forward_pre_hook(lambda m, args: None)",
        register_pre
    ),
    row!(
        Method,
        "register_forward_hook",
        "module.register_forward_hook(hook, *, prepend=False, with_kwargs=False, always_call=False)",
        "Call hook(module, args, output) after each forward; a value it returns replaces the output.",
        "nn.Linear(2, 1).register_forward_hook(lambda m, args, out: None)",
        register_post
    ),
];

thread_local! {
    static NEXT_ID: std::cell::Cell<i64> = const { std::cell::Cell::new(0) };
}

fn register_pre(it: &mut Interp, a: Args) -> Result<Value> {
    register(it, a, PRE)
}

fn register_post(it: &mut Interp, a: Args) -> Result<Value> {
    register(it, a, POST)
}

fn register(it: &mut Interp, mut a: Args, which: &str) -> Result<Value> {
    let module = match a.value("self")? {
        Value::Object(o) => o,
        other => return Err(type_err(format!("{} is not a module", other.a_type_name()))),
    };
    let hook = a.value("hook")?;
    let prepend = a.kw_flag("prepend", false)?;
    if a.kw_flag("with_kwargs", false)? {
        return Err(value_err(
            "tsh's forward hooks do not take with_kwargs=True yet",
        ));
    }
    let _ = a.kw_flag("always_call", false)?;
    a.finish()?;
    let hooks = hook_list(&module, which);
    let id = NEXT_ID.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    let entry = Value::tuple(vec![Value::Int(id), hook]);
    if prepend {
        hooks.borrow_mut().insert(0, entry);
    } else {
        hooks.borrow_mut().push(entry);
    }
    super::autograd_fn::removable_handle(it, Value::None, id, Value::List(hooks))
}

/// The module's list of hooks of one kind, made on first use.
fn hook_list(module: &Rc<Object>, which: &str) -> Rc<RefCell<Vec<Value>>> {
    if let Some(Value::List(l)) = module.get(which) {
        return l;
    }
    let l = Rc::new(RefCell::new(vec![]));
    module.set(Rc::from(which), Value::List(l.clone()));
    l
}

/// The hooks of one kind, in order (none when the module has no list).
pub fn hooks(module: &Rc<Object>, which: &str) -> Vec<Value> {
    match module.get(which) {
        Some(Value::List(l)) => l
            .borrow()
            .iter()
            .filter_map(|e| match e {
                Value::Tuple(pair) if pair.len() == 2 => Some(pair[1].clone()),
                _ => None,
            })
            .collect(),
        _ => vec![],
    }
}
