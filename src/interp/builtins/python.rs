//! Python's builtins: print, len, range, abs, min, max, sum, conversions. Given a
//! tensor, the ones PyTorch overloads (abs, min, max, sum, round) act as torch's.

use super::{Builtin, torch_function};
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::{Value, range_len};
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Python,
        "dict",
        "dict(pairs=None, **items)",
        "A dict with string keys: dict(a=1, b=t), or from (key, value) pairs.",
        "d = dict(w=ones(2), b=0.5); d['w']",
        dict
    ),
    row!(
        Python,
        "print",
        "print(*values, sep=' ', end='\\n', file=sys.stdout, flush=False)",
        "Print values separated by spaces (file=sys.stderr prints on stderr).",
        "print('loss', 0.25, tensor([1, 2]))",
        print
    ),
    row!(
        Python,
        "dir",
        "dir(obj=None)",
        "The sorted names an object (or, with no argument, the current scope) holds.",
        "dir(torch.linalg)[:3]",
        dir
    ),
    row!(
        Python,
        "len",
        "len(x)",
        "Length of a list, tuple, str, shape, or a tensor's first dim.",
        "len(zeros(4, 2))",
        len
    ),
    row!(
        Python,
        "range",
        "range(stop) | range(start, stop, step=1)",
        "Integers from start up to (not including) stop.",
        "list(range(0, 10, 3))",
        range
    ),
    row!(
        Python,
        "abs",
        "abs(x)",
        "Absolute value of a number or tensor.",
        "abs(-3)",
        abs
    ),
    row!(
        Python,
        "min",
        "min(a, b, ...) | min(list) | min(tensor, dim=None)",
        "Smallest of numbers; on a tensor, torch.min.",
        "min(3, 1, 2)",
        min
    ),
    row!(
        Python,
        "max",
        "max(a, b, ...) | max(list) | max(tensor, dim=None)",
        "Largest of numbers; on a tensor, torch.max.",
        "max([3, 1, 2])",
        max
    ),
    row!(
        Python,
        "sum",
        "sum(list, start=0) | sum(tensor, dim=None)",
        "Sum of a list of numbers; on a tensor, torch.sum.",
        "sum([1, 2, 3])",
        sum
    ),
    row!(
        Python,
        "round",
        "round(x, ndigits=None)",
        "Round half to even; on a tensor, torch.round.",
        "round(2.675, 2)",
        round
    ),
    row!(
        Python,
        "int",
        "int(x, base=10)",
        "Convert to an integer (truncates floats); a string in base (0: as its literal's prefix says).",
        "int(3.9)",
        int
    ),
    row!(
        Python,
        "float",
        "float(x)",
        "Convert to a float.",
        "float('1.5')",
        float
    ),
    row!(Python, "bool", "bool(x)", "Truth value.", "bool(0)", bool_),
    row!(
        Python,
        "str",
        "str(x)",
        "The printed form of a value.",
        "str(tensor([1, 2]))",
        str_
    ),
    row!(
        Python,
        "repr",
        "repr(x)",
        "The echoed form of a value.",
        "repr('a')",
        repr
    ),
    row!(
        Python,
        "list",
        "list(iterable)",
        "A list of an iterable's items.",
        "list(tensor([1, 2]))",
        list
    ),
    row!(
        Python,
        "tuple",
        "tuple(iterable)",
        "A tuple of an iterable's items.",
        "tuple([1, 2])",
        tuple
    ),
    row!(
        Python,
        "enumerate",
        "enumerate(iterable, start=0)",
        "Pairs (index, item).",
        "list(enumerate(['a', 'b']))",
        enumerate
    ),
    row!(
        Python,
        "zip",
        "zip(a, b, ...)",
        "Tuples of items taken in step.",
        "list(zip([1, 2], ['a', 'b']))",
        zip
    ),
    row!(
        Python,
        "sorted",
        "sorted(iterable, reverse=False)",
        "A sorted list.",
        "sorted([3, 1, 2], reverse=true)",
        sorted
    ),
    row!(
        Function,
        "is_tensor",
        "is_tensor(obj)",
        "Is the value a tensor?",
        "is_tensor(zeros(2))",
        is_tensor
    ),
];

fn print(it: &mut Interp, mut a: Args) -> Result<Value> {
    let sep = match a.take_kw("sep") {
        Some((Value::Str(s), _)) => s.to_string(),
        _ => " ".to_string(),
    };
    let end = match a.take_kw("end") {
        Some((Value::Str(s), _)) => s.to_string(),
        _ => "\n".to_string(),
    };
    // tsh writes its output at once: flush=True asks for nothing more.
    let _ = a.take_kw("flush");
    let to_stderr = match a.take_kw("file") {
        None | Some((Value::None, _)) | Some((Value::Module("sys.stdout"), _)) => false,
        Some((Value::Module("sys.stderr"), _)) => true,
        Some((v, span)) => {
            return Err(type_err(format!(
                "print(file=...): tsh prints to sys.stdout or sys.stderr, not to {}",
                v.a_type_name()
            ))
            .at(span));
        }
    };
    let values = a.rest();
    a.finish()?;
    let text: Vec<String> = values.iter().map(|(v, _)| it.str_text(v)).collect();
    let line = format!("{}{}", text.join(&sep), end);
    if to_stderr {
        // stderr's text goes where warnings go (see sys.stderr.write).
        it.out.write_warning(&line);
    } else {
        it.out.write_str(&line);
    }
    Ok(Value::None)
}

fn a_span() -> crate::syntax::ast::Span {
    crate::syntax::ast::Span::default()
}

pub fn len_of(v: &Value) -> Result<i64> {
    Ok(match v {
        Value::Str(s) => s.char_len() as i64,
        Value::List(l) => l.borrow().len() as i64,
        Value::Dict(d) => d.borrow().len() as i64,
        Value::Set(s) => s.borrow().len() as i64,
        Value::DictView(v) => v.dict.borrow().len() as i64,
        Value::Tuple(t) => t.len() as i64,
        Value::Named(n) => n.fields.len() as i64,
        Value::Shape(s) => s.len() as i64,
        Value::Range(a, b, s) => range_len(*a, *b, *s),
        Value::Tensor(t) | Value::Array(t) => {
            if t.ndim() == 0 {
                return Err(type_err("len() of a 0-d tensor")
                    .hint("a 0-d tensor has no length; use .item() or .numel()"));
            }
            t.shape()[0] as i64
        }
        other => return Err(type_err(format!("{} has no len()", other.a_type_name()))),
    })
}

fn dir(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a
        .take("obj")
        .map(|(v, _)| v)
        .filter(|v| !matches!(v, Value::None));
    a.finish()?;
    let names = match v {
        Some(v) => super::attrs::attr_names(&v),
        None => {
            let mut names: Vec<String> = match it.locals.last() {
                Some(scope) => scope.vars.borrow().keys().map(|k| k.to_string()).collect(),
                None => it.globals.keys().map(|k| k.to_string()).collect(),
            };
            names.sort();
            names
        }
    };
    Ok(Value::list(
        names.into_iter().map(|n| Value::str(&n)).collect(),
    ))
}

fn len(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("obj")?;
    a.finish()?;
    if let Value::Object(o) = &v
        && let Some(f) = crate::interp::classes::object_attr(o, "__len__")
    {
        return it.call(&f, vec![], vec![], a_span());
    }
    len_of(&v).map(Value::Int)
}

fn range(_: &mut Interp, mut a: Args) -> Result<Value> {
    let first = a.int("start")?;
    let second = a.opt_int("stop")?;
    let step = a.int_or("step", 1)?;
    a.finish()?;
    if step == 0 {
        return Err(value_err("range() step must not be zero"));
    }
    let (start, stop) = match second {
        Some(s) => (first, s),
        None => (0, first),
    };
    Ok(Value::Range(start, stop, step))
}

/// Call the torch builtin of this name with the same arguments.
pub(super) fn torch(it: &mut Interp, name: &str, a: Args) -> Result<Value> {
    let b = torch_function(name).ok_or_else(|| type_err(format!("no torch function {name}")))?;
    (b.func)(it, a)
}

pub(super) fn first_is_tensor(a: &Args) -> bool {
    matches!(a.positional.first(), Some((Value::Tensor(_), _)))
        || a.keywords
            .iter()
            .any(|(k, v, _)| k == "input" && matches!(v, Value::Tensor(_)))
}

fn abs(it: &mut Interp, mut a: Args) -> Result<Value> {
    if first_is_tensor(&a) {
        return torch(it, "abs", a);
    }
    let v = a.value("x")?;
    a.finish()?;
    match v {
        Value::Int(i) => i
            .checked_abs()
            .map(Value::Int)
            .ok_or_else(|| value_err("integer overflow")),
        Value::Bool(b) => Ok(Value::Int(b as i64)),
        Value::Float(f) => Ok(Value::Float(f.abs())),
        Value::Complex(re, im) => Ok(Value::Float(re.hypot(im))),
        other => Err(type_err(format!(
            "bad operand type for abs(): {}",
            other.type_name()
        ))),
    }
}

fn extreme(it: &mut Interp, a: Args, name: &str, want: std::cmp::Ordering) -> Result<Value> {
    if first_is_tensor(&a) {
        return torch(it, name, a);
    }
    let mut a = a;
    let key = a.take_kw("key").map(|(v, _)| v);
    let default = a.take_kw("default").map(|(v, _)| v);
    let values = a.rest();
    a.finish()?;
    let items: Vec<Value> = if values.len() == 1 {
        it.iterate_items(&values[0].0)?
    } else {
        values.into_iter().map(|(v, _)| v).collect()
    };
    // The first of the best, by key (max and min keep the earliest on ties).
    let mut best: Option<(Value, Value)> = None;
    for v in items {
        let k = match &key {
            Some(f) if !matches!(f, Value::None) => super::pyiter::apply(it, f, v.clone())?,
            _ => v.clone(),
        };
        best = Some(match best {
            None => (k, v),
            Some((bk, bv)) => {
                if super::pyiter::order(&k, &bk)? == want {
                    (k, v)
                } else {
                    (bk, bv)
                }
            }
        });
    }
    match (best, default) {
        (Some((_, v)), _) => Ok(v),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(value_err(format!("{name}() of an empty sequence"))),
    }
}

fn min(it: &mut Interp, a: Args) -> Result<Value> {
    extreme(it, a, "min", std::cmp::Ordering::Less)
}

fn max(it: &mut Interp, a: Args) -> Result<Value> {
    extreme(it, a, "max", std::cmp::Ordering::Greater)
}

fn sum(it: &mut Interp, mut a: Args) -> Result<Value> {
    if first_is_tensor(&a) {
        return torch(it, "sum", a);
    }
    let v = a.value("iterable")?;
    let items = it.iterate_items(&v)?;
    let mut acc = a.take("start").map(|(v, _)| v).unwrap_or(Value::Int(0));
    a.finish()?;
    for v in items {
        acc = crate::interp::ops::binary(crate::syntax::ast::BinOp::Add, &acc, &v)?;
    }
    Ok(acc)
}

fn round(it: &mut Interp, mut a: Args) -> Result<Value> {
    if first_is_tensor(&a) {
        return torch(it, "round", a);
    }
    let v = a.value("number")?;
    let nd = a.opt_int("ndigits")?;
    a.finish()?;
    let x = convert::to_float(&v, "round", "number")?;
    match nd {
        None => Ok(Value::Int(convert::float_to_int(x.round_ties_even())?)),
        Some(n) => {
            let p = 10f64.powi(n as i32);
            Ok(Value::Float((x * p).round_ties_even() / p))
        }
    }
}

fn int(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    let base = a
        .take("base")
        .map(|(b, s)| convert::to_int(&b, "int", "base").map_err(|e| e.at(s)));
    a.finish()?;
    if let Some(base) = base {
        let base = base?;
        let Value::Str(s) = &v else {
            return Err(type_err(
                "int() can't convert non-string with explicit base",
            ));
        };
        return super::pyinteger::parse_int(s, base).map(Value::Int);
    }
    Ok(Value::Int(match &v {
        Value::Int(i) => *i,
        Value::Bool(b) => *b as i64,
        Value::Float(f) => convert::float_to_int(*f)?,
        Value::Str(s) => super::pyinteger::parse_int(s, 10)?,
        Value::Tensor(t) if t.numel() == 1 => {
            if t.dtype().is_float() {
                convert::float_to_int(crate::tensor::ops::scalar::item_f64(t)?)?
            } else {
                crate::tensor::ops::scalar::item_i64(t)?
            }
        }
        other => {
            return Err(type_err(format!(
                "int() cannot convert {}",
                other.a_type_name()
            )));
        }
    }))
}

fn float(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    Ok(Value::Float(match &v {
        Value::Str(s) => match s.trim() {
            "inf" | "+inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            "nan" => f64::NAN,
            t => t
                .parse::<f64>()
                .map_err(|_| value_err(format!("could not convert string to float: '{s}'")))?,
        },
        other => convert::to_float(other, "float", "x")?,
    }))
}

fn bool_(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.take("x").map(|(v, _)| v).unwrap_or(Value::Bool(false));
    a.finish()?;
    Ok(Value::Bool(v.truthy()?))
}

fn str_(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    Ok(Value::Str(it.str_text(&v).into()))
}

fn repr(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    Ok(Value::Str(it.repr_text(&v).into()))
}

fn list(it: &mut Interp, mut a: Args) -> Result<Value> {
    let items = match a.take("iterable") {
        Some((v, _)) => it.iterate_items(&v)?,
        None => vec![],
    };
    a.finish()?;
    Ok(Value::list(items))
}

fn tuple(it: &mut Interp, mut a: Args) -> Result<Value> {
    let items = match a.take("iterable") {
        Some((v, _)) => it.iterate_items(&v)?,
        None => vec![],
    };
    a.finish()?;
    Ok(Value::tuple(items))
}

fn enumerate(it: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("iterable")?;
    let items = it.iterate_items(&v)?;
    let start = a.int_or("start", 0)?;
    a.finish()?;
    Ok(Value::list(
        items
            .into_iter()
            .enumerate()
            .map(|(i, v)| Value::tuple(vec![Value::Int(start + i as i64), v]))
            .collect(),
    ))
}

fn zip(it: &mut Interp, mut a: Args) -> Result<Value> {
    // Each source is pulled one item at a time, so zip stops at the shortest
    // even when another never ends (itertools.count(), a generator).
    let mut srcs = a
        .rest()
        .iter()
        .map(|(v, _)| it.iterate(v))
        .collect::<Result<Vec<_>>>()?;
    a.finish()?;
    let mut out = vec![];
    if srcs.is_empty() {
        return Ok(Value::list(out));
    }
    'rows: loop {
        let mut row = Vec::with_capacity(srcs.len());
        for src in srcs.iter_mut() {
            match src.next() {
                Some(v) => row.push(v?),
                None => break 'rows,
            }
        }
        out.push(Value::tuple(row));
        if out.len() % 4096 == 0 {
            crate::interp::value::check_items(out.len() as u128 + 1)?;
        }
    }
    Ok(Value::list(out))
}

fn sorted(it: &mut Interp, mut a: Args) -> Result<Value> {
    let items = it.iterate_items(&a.value("iterable")?)?;
    let key = a.take_kw("key").map(|(v, _)| v);
    let reverse = a.kw_flag("reverse", false)?;
    a.finish()?;
    super::pyiter::sort_items(it, items, key.as_ref(), reverse).map(Value::list)
}

fn is_tensor(_: &mut Interp, mut a: Args) -> Result<Value> {
    let v = a.value("x")?;
    a.finish()?;
    Ok(Value::Bool(matches!(
        v,
        Value::Tensor(_) | Value::Sparse(_)
    )))
}

fn dict(_: &mut Interp, mut a: Args) -> Result<Value> {
    let mut d = crate::interp::value::Dict::default();
    if a.has_more_positional()
        && let Some((pairs, _)) = a.take("pairs")
    {
        if let Value::Dict(other) = &pairs {
            d = other.borrow().clone();
            d.ordered = false;
        }
        let pairs = if matches!(pairs, Value::Dict(_)) {
            Value::list(vec![])
        } else {
            pairs
        };
        for p in pairs.iter_items()? {
            let kv = p.iter_items()?;
            match kv.as_slice() {
                [Value::Str(k), v] => d.insert(k.clone(), v.clone()),
                _ => return Err(type_err("dict(pairs) takes (str key, value) pairs")),
            }
        }
    }
    for (k, v, _) in std::mem::take(&mut a.keywords) {
        d.insert(k.into(), v);
    }
    a.finish()?;
    Ok(Value::Dict(std::rc::Rc::new(std::cell::RefCell::new(d))))
}
