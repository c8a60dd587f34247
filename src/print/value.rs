//! How values print: `print(...)` forms, the REPL echo (a tensor with its footer),
//! and Python-style reprs inside lists and tuples.

use std::rc::Rc;

use super::number::py_float_repr;
use super::tensor::{PrintOptions, format_tensor};
use crate::interp::Value;
use crate::tensor::shape::fmt_shape;
use crate::tensor::{Device, Tensor};

/// The form `print` uses (Python's `str`): strings bare, a device as `cpu`,
/// everything else as its repr.
pub fn plain(v: &Value) -> String {
    plain_with(v, &PrintOptions::default())
}

pub fn plain_with(v: &Value, opts: &PrintOptions) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        // str(e) of an exception is its message; a KeyError's is the key's repr.
        Value::Exception(e) => e.message.clone(),
        Value::Device(d) => d.to_string(),
        Value::DeviceType(d) => d.kind().to_string(),
        Value::Array(t) => {
            super::numpy::str_of(t).unwrap_or_else(|e| format!("<array: {}>", e.message))
        }
        other => repr_with(other, opts),
    }
}

fn quote(s: &str) -> String {
    if s.contains('\'') && !s.contains('"') {
        format!("\"{s}\"")
    } else {
        format!(
            "'{}'",
            s.replace('\\', "\\\\")
                .replace('\'', "\\'")
                .replace('\n', "\\n")
        )
    }
}

fn join(items: &[Value], opts: &PrintOptions) -> String {
    items
        .iter()
        .map(|x| repr_with(x, opts))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The repr of a value (strings quoted), as it appears inside containers.
/// A list or dict inside itself prints as `[...]` / `{...}`, as in Python; so
/// does anything nested deeper than the walk may go.
pub fn repr_with(v: &Value, opts: &PrintOptions) -> String {
    let (id, cut) = match v {
        Value::List(l) => (Rc::as_ptr(l) as *const () as usize, "[...]"),
        Value::Dict(d) => (Rc::as_ptr(d) as *const () as usize, "{...}"),
        Value::Tuple(_) | Value::Named(_) | Value::Progress(_) => (0, "(...)"),
        _ => return repr_inner(v, opts),
    };
    if id != 0 && PRINTING.with(|p| p.borrow().contains(&id)) {
        return cut.into();
    }
    let Some(_level) = crate::interp::value::Nested::enter() else {
        return cut.into();
    };
    PRINTING.with(|p| p.borrow_mut().push(id));
    let text = repr_inner(v, opts);
    PRINTING.with(|p| p.borrow_mut().pop());
    text
}

thread_local! {
    /// The lists and dicts being printed, outermost first (cycle detection).
    static PRINTING: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn repr_inner(v: &Value, opts: &PrintOptions) -> String {
    match v {
        Value::None => "None".into(),
        Value::Bool(b) => if *b { "True" } else { "False" }.into(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => py_float_repr(*f),
        Value::Complex(re, im) => crate::print::number::py_complex_repr(*re, *im),
        Value::Exception(e) => format!("{}({})", e.py_class(), quote(&e.message)),
        Value::Set(s) if s.borrow().is_empty() => "set()".into(),
        Value::DictView(v) => format!("{}([{}])", v.class_name(), join(&v.items(), opts)),
        Value::Set(s) => format!(
            "{{{}}}",
            join(&crate::interp::pyset::ordered(&s.borrow()), opts)
        ),
        Value::Str(s) => quote(s),
        Value::List(l) => format!("[{}]", join(&l.borrow(), opts)),
        Value::Tuple(t) => {
            if t.len() == 1 {
                format!("({},)", repr_with(&t[0], opts))
            } else {
                format!("({})", join(t, opts))
            }
        }
        Value::Named(n) if matches!(n.name, "finfo" | "iinfo") => {
            let fields: Vec<String> = n
                .fields
                .iter()
                .filter(|(k, _)| *k != "bits")
                .map(|(k, x)| match x {
                    Value::Float(f) => format!("{k}={}", crate::interp::builtins::g6(*f)),
                    Value::Int(i) => format!("{k}={}", crate::interp::builtins::g6(*i as f64)),
                    Value::Str(s) => format!("{k}={s}"),
                    other => format!("{k}={}", repr_with(other, opts)),
                })
                .collect();
            format!("{}({})", n.name, fields.join(", "))
        }
        Value::Named(n) if n.name == "_IncompatibleKeys" => {
            let empty = n
                .fields
                .iter()
                .all(|(_, v)| v.iter_items().is_ok_and(|i| i.is_empty()));
            let fields: Vec<String> = n
                .fields
                .iter()
                .map(|(k, x)| format!("{k}={}", repr_with(x, opts)))
                .collect();
            if empty {
                "<All keys matched successfully>".into()
            } else {
                format!("_IncompatibleKeys({})", fields.join(", "))
            }
        }
        Value::Named(n) => {
            let fields: Vec<String> = n
                .fields
                .iter()
                .map(|(k, x)| format!("{k}={}", repr_with(x, opts)))
                .collect();
            format!(
                "torch.return_types.{}(\n{})",
                n.name.replace('.', "_"),
                fields.join(",\n")
            )
        }
        Value::Range(a, b, s) => {
            if *s == 1 {
                format!("range({a}, {b})")
            } else {
                format!("range({a}, {b}, {s})")
            }
        }
        Value::Ellipsis => "...".into(),
        Value::Tensor(t) if crate::nn::parameter::is_parameter(t) => {
            format!("Parameter containing:\n{}", format_tensor(t, opts))
        }
        Value::Tensor(t) => format_tensor(t, opts),
        Value::Sparse(s) => super::sparse::format_sparse(s, opts),
        Value::Layout(name) => format!("torch.{name}"),
        Value::DType(d) => format!("torch.{}", d.name()),
        Value::QTensor(q) => super::quantized::format_qtensor(q, opts),
        Value::QDType(d) => format!("torch.{}", d.name()),
        Value::QScheme(s) => format!("torch.{}", s.name()),
        Value::Device(Device::Cpu) => "device(type='cpu')".into(),
        Value::Device(Device::Cuda(i)) => format!("device(type='cuda', index={i})"),
        Value::DeviceType(d) => format!("device(type='{}')", d.kind()),
        Value::Shape(s) => format!("torch.Size({})", fmt_shape(s)),
        Value::Function(f) => format!("<function {} at {:#x}>", f.name, Rc::as_ptr(f) as usize),
        Value::Builtin(b) => format!("<built-in function {}>", b.name),
        Value::Method(m) => format!("<method {} of {}>", m.1.name, m.0.type_name()),
        Value::Module(m) => format!("<module '{m}'>"),
        Value::Type(c) => format!("<class '{c}'>"),
        Value::Distribution(d) => d.repr(),
        Value::Class(c) => format!("<class '{}.{}'>", c.path.borrow(), c.name),
        Value::Object(o) => format!(
            "<{}.{} object at {:#x}>",
            o.class.path.borrow(),
            o.class.name,
            Rc::as_ptr(o) as *const u8 as usize
        ),
        Value::Bound(b) => format!("<bound method {}.{}>", b.class.name, b.func.name),
        Value::Super(_) => "<super object>".to_string(),
        Value::Iter(it) => {
            let label = it.borrow().label.clone();
            format!("<{label} at {:#x}>", Rc::as_ptr(it) as *const u8 as usize)
        }
        Value::Opaque(name) => format!(
            "<{name} object at {:#x}>",
            *name as *const str as *const u8 as usize
        ),
        Value::Array(t) => {
            super::numpy::repr_of(t).unwrap_or_else(|e| format!("<array: {}>", e.message))
        }
        Value::GradMode(g) => format!("<{} object at {:#x}>", g.class(), g as *const _ as usize),
        Value::GradFn(n) => format!(
            "<{} object at {:#x}>",
            n.name(),
            std::sync::Arc::as_ptr(n) as usize
        ),
        Value::Optimizer(o) => o.describe(),
        Value::Generator(g) => format!(
            "<torch._C.Generator object at {:#x}>",
            Rc::as_ptr(g) as usize
        ),
        Value::Progress(inner) => format!("progress({})", repr_with(inner, opts)),
        Value::Dict(d) if d.borrow().ordered => {
            let items: Vec<String> = d
                .borrow()
                .iter()
                .map(|(k, v)| format!("({}, {})", repr_with(k, opts), repr_with(v, opts)))
                .collect();
            if items.is_empty() {
                "OrderedDict()".into()
            } else {
                format!("OrderedDict([{}])", items.join(", "))
            }
        }
        Value::Dict(d) => {
            let items: Vec<String> = d
                .borrow()
                .iter()
                .map(|(k, v)| format!("{}: {}", repr_with(k, opts), repr_with(v, opts)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The footer under an echoed tensor: shape, dtype, device, and autograd or
/// sharing notes.
pub fn footer(t: &Tensor, globals: &crate::interp::value::Vars) -> String {
    let mut s = format!("{} {} {}", fmt_shape(t.shape()), t.dtype(), t.device());
    if let Some(node) = t.grad_fn() {
        s.push_str(&format!("  grad_fn={}", node.name()));
    } else if t.requires_grad() {
        s.push_str("  requires_grad=True");
    }
    if let Some(base) = view_base(t, globals) {
        s.push_str(&format!("  view of {base}"));
    }
    s
}

/// The variable a view was taken from: the oldest named tensor on the same
/// storage that is older than `t` (so `w = v.T` is a view of `v`, not the reverse;
/// like PyTorch's `_base`, it names the root, not the view in between).
pub fn view_base(t: &Tensor, globals: &crate::interp::value::Vars) -> Option<String> {
    if !t.is_view() {
        return None;
    }
    globals
        .iter()
        .filter_map(|(k, v)| match v {
            Value::Tensor(o) if o.shares_storage(t) && o.seq() < t.seq() => Some((o.seq(), k)),
            _ => None,
        })
        .min()
        .map(|(_, k)| k.to_string())
}

/// What the REPL (and `--echo`) shows for an expression statement's value.
pub fn echo(
    v: &Value,
    opts: &PrintOptions,
    color: bool,
    globals: &crate::interp::value::Vars,
) -> String {
    match v {
        Value::Tensor(t) => with_footer(format_tensor(t, opts), footer(t, globals), color),
        Value::Sparse(s) => {
            // As a dense tensor's footer, with the layout and the stored count.
            let f = format!(
                "{} {} {}  {} nnz={}",
                fmt_shape(s.size()),
                s.dtype(),
                s.device(),
                s.layout().name(),
                s.nnz()
            );
            with_footer(super::sparse::format_sparse(s, opts), f, color)
        }
        Value::QTensor(q) => with_footer(
            super::quantized::format_qtensor(q, opts),
            super::quantized::footer(q),
            color,
        ),
        other => repr_with(other, opts),
    }
}

/// The value's text, then its footer line (dimmed on a terminal).
fn with_footer(text: String, footer: String, color: bool) -> String {
    if color {
        format!("{text}\n\x1b[2m{footer}\x1b[0m")
    } else {
        format!("{text}\n{footer}")
    }
}
