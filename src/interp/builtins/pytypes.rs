//! Python's types and strings: `type`, `isinstance`, `id`, `format`, `getattr`,
//! `hasattr`, and the str methods tutorials use (`format`, `join`, `split`, ...).

use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Python,
        "type",
        "type(x)",
        "The class of a value, as Python names it.",
        "type(zeros(2))",
        type_
    ),
    row!(
        Python,
        "isinstance",
        "isinstance(x, classes)",
        "Is x of this class (or one of a tuple of them)?",
        "isinstance(zeros(2), torch.Tensor), isinstance(1.5, (int, float))",
        isinstance
    ),
    row!(
        Python,
        "id",
        "id(x)",
        "A number that identifies an object while it lives (tensors that share a name share it).",
        "a = zeros(2); b = a; id(a) == id(b)",
        id
    ),
    row!(
        Python,
        "format",
        "format(value, spec='')",
        "A value formatted by a format spec, as in f'{x:.3f}'.",
        "format(3.14159, '.2f')",
        format
    ),
    row!(
        Python,
        "hasattr",
        "hasattr(obj, name)",
        "Does the value have this attribute or method?",
        "hasattr(zeros(2), 'shape')",
        hasattr
    ),
    row!(
        Python,
        "getattr",
        "getattr(obj, name, default)",
        "The attribute by name (or default when it has none).",
        "getattr(zeros(2), 'ndim')",
        getattr
    ),
    row!(
        Python,
        "iter",
        "iter(iterable)",
        "An iterator over the items: next() hands them out one at a time.",
        "it = iter([1, 2]); next(it), next(it)",
        iter
    ),
    row!(
        Python,
        "next",
        "next(iterator, default)",
        "The iterator's next item (or default when it is exhausted).",
        "next(iter(['a', 'b']))",
        next
    ),
    row!(
        Python,
        "callable",
        "callable(x)",
        "Can the value be called?",
        "callable(print)",
        callable
    ),
    row!(
        Python,
        "staticmethod",
        "staticmethod(function)",
        "A method called without the instance (as a decorator: @staticmethod).",
        "staticmethod",
        staticmethod
    ),
    row!(
        Python,
        "classmethod",
        "classmethod(function)",
        "A method called with the class first (as a decorator: @classmethod).",
        "classmethod",
        classmethod
    ),
    row!(
        Python,
        "property",
        "property(fget, fset=None)",
        "An attribute computed by a method (as a decorator: @property; `@name.setter` adds what assignment calls).",
        "property",
        property
    ),
];

/// What a property offers: `@name.setter` (a decorator that returns the
/// property with a setter).
pub const PROPERTY_METHODS: &[Builtin] = &[row!(
    Method,
    "setter",
    "prop.setter(fset)",
    "The property with `fset` called on assignment (as a decorator: @name.setter).",
    "property",
    property_setter
)];

fn staticmethod(_: &mut Interp, a: Args) -> Result<Value> {
    rebind(a, crate::interp::value::Binding::Static)
}

fn classmethod(_: &mut Interp, a: Args) -> Result<Value> {
    rebind(a, crate::interp::value::Binding::Class)
}

fn property(_: &mut Interp, mut a: Args) -> Result<Value> {
    let getter = a.take("fget");
    let setter = a.take("fset");
    let _ = a.take("fdel");
    let _ = a.take("doc");
    a.finish()?;
    let Some((Value::Function(f), _)) = getter else {
        return Err(type_err("property() needs a getter defined with def"));
    };
    let mut p = f.rebound(crate::interp::value::Binding::Property);
    p.setter = match setter {
        None | Some((Value::None, _)) => None,
        Some((Value::Function(s), _)) => Some(s),
        Some((other, span)) => {
            return Err(type_err(format!(
                "a property's setter must be a function defined with def, not {}",
                other.a_type_name()
            ))
            .at(span));
        }
    };
    Ok(Value::Function(Rc::new(p)))
}

fn property_setter(_: &mut Interp, mut a: Args) -> Result<Value> {
    let prop = a.take("self");
    let setter = a.take("fset");
    a.finish()?;
    match (prop, setter) {
        (Some((Value::Function(p), _)), Some((Value::Function(s), _))) => {
            let mut p = p.rebound(p.binding);
            p.setter = Some(s);
            Ok(Value::Function(Rc::new(p)))
        }
        _ => Err(type_err(
            "@name.setter decorates a function defined with def",
        )),
    }
}

fn rebind(mut a: Args, binding: crate::interp::value::Binding) -> Result<Value> {
    let (f, span) = a
        .take("function")
        .ok_or_else(|| type_err("expected a function"))?;
    a.finish()?;
    match f {
        Value::Function(f) => Ok(Value::Function(Rc::new(f.rebound(binding)))),
        other => Err(type_err(format!(
            "a method decorator applies to a function defined with def, not {}",
            other.a_type_name()
        ))
        .at(span)),
    }
}

/// `torch.return_types.NAME` for a named tuple (`linalg.slogdet` gives
/// `linalg_slogdet`); each name is made once and kept.
fn return_type(name: &'static str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<HashMap<&'static str, &'static str>>> = OnceLock::new();
    let mut names = NAMES
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    names.entry(name).or_insert_with(|| {
        Box::leak(format!("torch.return_types.{}", name.replace('.', "_")).into_boxed_str())
    })
}

/// Python's class name of a value.
pub fn class_of(v: &Value) -> &'static str {
    match v {
        Value::None => "NoneType",
        Value::Bool(_) => "bool",
        Value::Int(_) => "int",
        Value::Float(_) => "float",
        Value::Complex(..) => "complex",
        Value::Exception(e) => exception_class(&e.py_class()),
        Value::Set(_) => "set",
        Value::DictView(v) => v.class_name(),
        Value::Str(_) => "str",
        Value::List(_) => "list",
        Value::Tuple(_) => "tuple",
        Value::Named(n) => return_type(n.name),
        Value::Range(..) => "range",
        Value::Ellipsis => "ellipsis",
        Value::Tensor(t) if crate::nn::parameter::is_parameter(t) => "torch.nn.parameter.Parameter",
        Value::Tensor(_) | Value::Sparse(_) | Value::QTensor(_) => "torch.Tensor",
        Value::Layout(_) => "torch.layout",
        Value::DType(_) | Value::QDType(_) => "torch.dtype",
        Value::QScheme(_) => "torch.qscheme",
        Value::Device(_) | Value::DeviceType(_) => "torch.device",
        Value::Shape(_) => "torch.Size",
        Value::Function(_) => "function",
        Value::Builtin(_) | Value::Method(_) => "builtin_function_or_method",
        Value::Module(_) => "module",
        Value::GradFn(n) => n.name(),
        Value::Optimizer(o) => match o.name {
            "SGD" => "torch.optim.sgd.SGD",
            "Adam" => "torch.optim.adam.Adam",
            "AdamW" => "torch.optim.adamw.AdamW",
            "RMSprop" => "torch.optim.rmsprop.RMSprop",
            "Adagrad" => "torch.optim.adagrad.Adagrad",
            "Adadelta" => "torch.optim.adadelta.Adadelta",
            "Adamax" => "torch.optim.adamax.Adamax",
            "NAdam" => "torch.optim.nadam.NAdam",
            _ => "torch.optim.Optimizer",
        },
        Value::Generator(_) => "torch.Generator",
        Value::Progress(_) => "progress",
        Value::Dict(d) if d.borrow().ordered => "collections.OrderedDict",
        Value::Dict(_) => "dict",
        Value::GradMode(g) => g.class(),
        Value::Type(_) => "type",
        Value::Array(_) => "numpy.ndarray",
        Value::Opaque(name) => name,
        Value::Class(_) => "type",
        Value::Object(_) => "object",
        Value::Bound(_) => "method",
        Value::Super(_) => "super",
        Value::Iter(it) if it.borrow().label.starts_with("generator") => "generator",
        Value::Iter(_) => "list_iterator",
        Value::Distribution(d) => match d.kind {
            super::distributions::Kind::Normal => "torch.distributions.normal.Normal",
            super::distributions::Kind::Bernoulli => "torch.distributions.bernoulli.Bernoulli",
            super::distributions::Kind::Categorical => {
                "torch.distributions.categorical.Categorical"
            }
            super::distributions::Kind::Multinomial => {
                "torch.distributions.multinomial.Multinomial"
            }
            super::distributions::Kind::Uniform => "torch.distributions.uniform.Uniform",
        },
    }
}

/// The class a value used as a class stands for: `int`, `torch.Tensor`, `type(x)`.
fn as_class(v: &Value) -> Option<&'static str> {
    match v {
        Value::Type(c) => Some(c),
        Value::Builtin(b) => Some(match b.name {
            "int" => "int",
            "float" => "float",
            "str" => "str",
            "bool" => "bool",
            "list" => "list",
            "tuple" => "tuple",
            "dict" => "dict",
            "range" => "range",
            "type" => "type",
            "Tensor" => "torch.Tensor",
            "nn.Parameter" => "torch.nn.parameter.Parameter",
            _ => return None,
        }),
        _ => None,
    }
}

/// `type(t) == torch.Tensor`, `type(x) is int`.
pub fn same_class(a: &Value, b: &Value) -> Option<bool> {
    match (a, b) {
        (Value::Type(_), _) | (_, Value::Type(_)) => {
            Some(as_class(a).is_some() && as_class(a) == as_class(b))
        }
        _ => None,
    }
}

fn type_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    if let Value::Object(o) = &v {
        return Ok(Value::Class(o.class.clone()));
    }
    Ok(Value::Type(class_of(&v)))
}

fn isinstance(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    let classes = a.value("classes")?;
    a.finish()?;
    let wanted: Vec<Value> = match &classes {
        Value::Tuple(items) => items.as_ref().clone(),
        other => vec![other.clone()],
    };
    let class = class_of(&v);
    let mut hit = false;
    for w in &wanted {
        if let (Value::Object(o), Value::Class(c)) = (&v, w) {
            hit |= derives(&o.class, c);
            continue;
        }
        let Some(c) = as_class(w) else {
            return Err(type_err(
                "isinstance() arg 2 must be a type, a tuple of types, or a union",
            ));
        };
        // bool is a subclass of int, as in Python.
        // bool is a subclass of int, and Parameter of Tensor, as in Python.
        hit |= c == class
            || (c == "int" && class == "bool")
            || (c == "torch.Tensor" && class == "torch.nn.parameter.Parameter");
    }
    Ok(Value::Bool(hit))
}

/// Is `c` the class `of`, or one of its bases?
fn derives(c: &Rc<crate::interp::classes::Class>, of: &Rc<crate::interp::classes::Class>) -> bool {
    Rc::ptr_eq(c, of) || c.bases.iter().any(|b| derives(b, of))
}

fn id(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    let address = match &v {
        Value::Tensor(t) => t.identity(),
        Value::List(l) => Rc::as_ptr(l) as *const () as usize,
        Value::Dict(d) => Rc::as_ptr(d) as *const () as usize,
        Value::Tuple(t) => Rc::as_ptr(t) as *const () as usize,
        Value::Str(s) => s.address(),
        Value::Function(f) => Rc::as_ptr(f) as usize,
        // Numbers and the rest are values, not objects: equal values share an id.
        other => {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            crate::print::value::plain(other).hash(&mut h);
            (h.finish() >> 16) as usize
        }
    };
    Ok(Value::Int(address as i64))
}

fn format(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("value")?;
    let spec = match a.take("spec") {
        Some((Value::Str(s), _)) => s.to_string(),
        None => String::new(),
        Some((other, s)) => {
            return Err(type_err(format!(
                "format() argument 2 must be str, not {}",
                other.type_name()
            ))
            .at(s));
        }
    };
    a.finish()?;
    Ok(Value::Str(
        crate::interp::format::format_value(it, &v, &spec)?.into(),
    ))
}

fn hasattr(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("obj")?;
    let name = a.string("name")?;
    a.finish()?;
    Ok(Value::Bool(super::get_attr(it, &v, &name).is_ok()))
}

fn getattr(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("obj")?;
    let name = a.string("name")?;
    let default = a.take("default");
    a.finish()?;
    match (super::get_attr(it, &v, &name), default) {
        (Ok(x), _) => Ok(x),
        (Err(_), Some((d, _))) => Ok(d),
        (Err(e), None) => Err(e),
    }
}

fn iter(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("iterable")?;
    a.finish()?;
    if let Value::Iter(_) = v {
        return Ok(v);
    }
    let label = format!(
        "{}_iterator object",
        class_of(&v).rsplit('.').next().unwrap_or("list")
    );
    Ok(crate::interp::value::Iter::value(
        label,
        it.iterate_items(&v)?,
    ))
}

fn next(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("iterator")?;
    let default = a.take("default").map(|(d, _)| d);
    a.finish()?;
    let Value::Iter(it) = v else {
        return Err(
            type_err(format!("'{}' object is not an iterator", class_of(&v)))
                .hint("make one with iter(x)"),
        );
    };
    if let Some(v) = crate::interp::generator::pull(&it) {
        return v;
    }
    default.ok_or_else(|| value_err("StopIteration: the iterator is exhausted"))
}

fn callable(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    Ok(Value::Bool(matches!(
        v,
        Value::Function(_) | Value::Builtin(_) | Value::Method(_) | Value::Type(_)
    )))
}

/// Methods of strings.
pub const STR_ROWS: &[Builtin] = &[
    row!(
        Method,
        "format",
        "str.format(*args, **kwargs)",
        "Fill the {} fields of a string, as Python does.",
        "'{} = {:.2f}'.format('x', 3.14159)",
        str_format
    ),
    row!(
        Method,
        "join",
        "str.join(items)",
        "The items (strings) joined with this string between them.",
        "', '.join(['a', 'b'])",
        str_join
    ),
    row!(
        Method,
        "split",
        "str.split(sep=None)",
        "The parts between separators (runs of spaces by default).",
        "'a b  c'.split()",
        str_split
    ),
    row!(
        Method,
        "splitlines",
        "str.splitlines(keepends=False)",
        "The lines of a string (without their line breaks unless keepends).",
        "'a\\nb'.splitlines()",
        str_splitlines
    ),
    row!(
        Method,
        "strip",
        "str.strip()",
        "Without spaces at either end.",
        "'  a '.strip()",
        str_strip
    ),
    row!(
        Method,
        "upper",
        "str.upper()",
        "In capitals.",
        "'ab'.upper()",
        str_upper
    ),
    row!(
        Method,
        "lower",
        "str.lower()",
        "In small letters.",
        "'AB'.lower()",
        str_lower
    ),
    row!(
        Method,
        "replace",
        "str.replace(old, new)",
        "Every `old` replaced by `new`.",
        "'a-b'.replace('-', '+')",
        str_replace
    ),
    row!(
        Method,
        "startswith",
        "str.startswith(prefix)",
        "Does it start with prefix?",
        "'torch'.startswith('to')",
        str_startswith
    ),
    row!(
        Method,
        "endswith",
        "str.endswith(suffix)",
        "Does it end with suffix?",
        "'a.py'.endswith('.py')",
        str_endswith
    ),
];

fn receiver_str(a: &mut Args) -> Result<String> {
    a.string("self")
}

fn str_format(it: &mut Interp, mut a: Args) -> Result<Value> {
    let template = receiver_str(&mut a)?;
    let positional: Vec<Value> = a.rest_values();
    let keywords: Vec<(String, Value)> = a.keywords_left();
    let mut out = String::new();
    let mut auto = 0;
    let chars: Vec<char> = template.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '{' || c == '}') && chars.get(i + 1) == Some(&c) {
            out.push(c);
            i += 2;
            continue;
        }
        if c == '}' {
            return Err(value_err("Single '}' encountered in format string"));
        }
        if c != '{' {
            out.push(c);
            i += 1;
            continue;
        }
        let end = (i..chars.len())
            .find(|&j| chars[j] == '}')
            .ok_or_else(|| value_err("Single '{' encountered in format string"))?;
        let field: String = chars[i + 1..end].iter().collect();
        let (name, spec) = field.split_once(':').unwrap_or((&field, ""));
        let (name, conversion) = match name.split_once('!') {
            Some((n, c)) => (n, c.chars().next()),
            None => (name, None),
        };
        let key: String = name
            .chars()
            .take_while(|c| *c != '.' && *c != '[')
            .collect();
        let mut v = if key.is_empty() {
            auto += 1;
            positional.get(auto - 1).cloned().ok_or_else(|| {
                crate::error::Error::new(
                    crate::error::ErrorKind::Index,
                    format!(
                        "Replacement index {} out of range for positional args tuple",
                        auto - 1
                    ),
                )
            })?
        } else if let Ok(k) = key.parse::<usize>() {
            positional.get(k).cloned().ok_or_else(|| {
                crate::error::Error::new(
                    crate::error::ErrorKind::Index,
                    format!("Replacement index {k} out of range for positional args tuple"),
                )
            })?
        } else {
            keywords
                .iter()
                .find(|(n, _)| *n == key)
                .map(|(_, v)| v.clone())
                .ok_or_else(|| {
                    crate::error::Error::new(
                        crate::error::ErrorKind::Index,
                        format!("KeyError: '{key}'"),
                    )
                })?
        };
        // `.attr` after the name.
        for attr in name[key.len()..].split('.').filter(|s| !s.is_empty()) {
            v = super::get_attr(it, &v, attr)?;
        }
        let v = match conversion {
            Some('r') | Some('a') => Value::Str(it.repr_text(&v).into()),
            Some('s') => Value::Str(it.str_text(&v).into()),
            _ => v,
        };
        out.push_str(&crate::interp::format::format_value(it, &v, spec)?);
        i = end + 1;
    }
    Ok(Value::Str(out.into()))
}

fn str_join(it: &mut Interp, mut a: Args) -> Result<Value> {
    let sep = receiver_str(&mut a)?;
    let items = a.value("items")?;
    a.finish()?;
    let mut parts = vec![];
    for item in it.iterate_items(&items)? {
        match item {
            Value::Str(s) => parts.push(s.to_string()),
            other => {
                return Err(type_err(format!(
                    "sequence item {}: expected str instance, {} found",
                    parts.len(),
                    other.type_name()
                )));
            }
        }
    }
    Ok(Value::Str(parts.join(&sep).into()))
}

fn str_split(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    let sep = match a.take("sep") {
        None | Some((Value::None, _)) => None,
        Some((Value::Str(x), _)) => Some(x.to_string()),
        Some((other, sp)) => {
            return Err(type_err(format!("must be str or None, not {}", other.type_name())).at(sp));
        }
    };
    a.finish()?;
    let parts: Vec<Value> = match sep {
        None => s.split_whitespace().map(Value::str).collect(),
        Some(p) if p.is_empty() => return Err(value_err("empty separator")),
        Some(p) => s.split(p.as_str()).map(Value::str).collect(),
    };
    Ok(Value::list(parts))
}

fn str_splitlines(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    let keep = a.flag("keepends", false)?;
    a.finish()?;
    let lines: Vec<Value> = if keep {
        s.split_inclusive('\n').map(Value::str).collect()
    } else {
        s.lines().map(Value::str).collect()
    };
    Ok(Value::list(lines))
}

fn str_map(mut a: Args, f: impl Fn(&str) -> String) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    a.finish()?;
    Ok(Value::Str(f(&s).into()))
}

fn str_strip(_: &mut Interp, a: Args) -> Result<Value> {
    str_map(a, |s| s.trim().to_string())
}

fn str_upper(_: &mut Interp, a: Args) -> Result<Value> {
    str_map(a, |s| s.to_uppercase())
}

fn str_lower(_: &mut Interp, a: Args) -> Result<Value> {
    str_map(a, |s| s.to_lowercase())
}

fn str_replace(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    let old = a.string("old")?;
    let new = a.string("new")?;
    a.finish()?;
    Ok(Value::Str(s.replace(&old, &new).into()))
}

fn str_startswith(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    let p = a.string("prefix")?;
    a.finish()?;
    Ok(Value::Bool(s.starts_with(&p)))
}

fn str_endswith(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = receiver_str(&mut a)?;
    let p = a.string("suffix")?;
    a.finish()?;
    Ok(Value::Bool(s.ends_with(&p)))
}

/// The builtin exception classes, by name (a class the user wrote answers as
/// `Exception`, since `type()` names only static classes).
fn exception_class(name: &str) -> &'static str {
    const CLASSES: &[&str] = &[
        "SyntaxError",
        "AttributeError",
        "ModuleNotFoundError",
        "ImportError",
        "NameError",
        "TypeError",
        "KeyError",
        "IndexError",
        "LookupError",
        "ZeroDivisionError",
        "ArithmeticError",
        "OverflowError",
        "ValueError",
        "RuntimeError",
        "_LinAlgError",
        "NotImplementedError",
        "StopIteration",
        "MemoryError",
        "OSError",
        "FileNotFoundError",
        "KeyboardInterrupt",
        "AssertionError",
        "RecursionError",
        "SystemExit",
    ];
    CLASSES
        .iter()
        .find(|c| **c == name)
        .copied()
        .unwrap_or("Exception")
}
