//! The list, dict and str methods beyond the basic ones (append, keys, split...).

use std::rc::Rc;

use super::Builtin;
use super::pyiter::sort_items;
use crate::error::{Result, index_err, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

/// List methods beyond append/pop/extend.
pub const LIST_ROWS: &[Builtin] = &[
    row!(
        Method,
        "sort",
        "list.sort(key=None, reverse=False)",
        "Sort the list in place (stable).",
        "l = [3, 1, 2]; l.sort(); l",
        list_sort
    ),
    row!(
        Method,
        "insert",
        "list.insert(i, x)",
        "Put x before position i.",
        "l = [1, 3]; l.insert(1, 2); l",
        list_insert
    ),
    row!(
        Method,
        "remove",
        "list.remove(x)",
        "Remove the first item equal to x.",
        "l = [1, 2, 1]; l.remove(1); l",
        list_remove
    ),
    row!(
        Method,
        "reverse",
        "list.reverse()",
        "Reverse the list in place.",
        "l = [1, 2]; l.reverse(); l",
        list_reverse
    ),
    row!(
        Method,
        "index",
        "list.index(x)",
        "Position of the first item equal to x.",
        "[5, 6, 7].index(6)",
        list_index
    ),
    row!(
        Method,
        "count",
        "list.count(x)",
        "How many items equal x.",
        "[1, 2, 1].count(1)",
        list_count
    ),
    row!(
        Method,
        "clear",
        "list.clear()",
        "Remove every item.",
        "l = [1]; l.clear(); l",
        list_clear
    ),
    row!(
        Method,
        "copy",
        "list.copy()",
        "A shallow copy.",
        "[1, 2].copy()",
        list_copy
    ),
];

/// Dict methods beyond keys/values/items/get.
pub const DICT_ROWS: &[Builtin] = &[
    row!(
        Method,
        "update",
        "dict.update(other=None, **items)",
        "Add (or replace) the items of other and the keywords.",
        "d = {'a': 1}; d.update(b=2); d",
        dict_update
    ),
    row!(
        Method,
        "pop",
        "dict.pop(key, default)",
        "Remove a key and return its value (or default).",
        "d = {'a': 1}; d.pop('a'), d",
        dict_pop
    ),
    row!(
        Method,
        "popitem",
        "dict.popitem()",
        "Remove the last item added and return it as a (key, value) pair.",
        "d = {'a': 1, 'b': 2}; d.popitem(), d",
        dict_popitem
    ),
    row!(
        Method,
        "setdefault",
        "dict.setdefault(key, default=None)",
        "The value of key, set to default first when missing.",
        "d = {}; d.setdefault('a', []).append(1); d",
        dict_setdefault
    ),
    row!(
        Method,
        "copy",
        "dict.copy()",
        "A shallow copy.",
        "{'a': 1}.copy()",
        dict_copy
    ),
    row!(
        Method,
        "clear",
        "dict.clear()",
        "Remove every item.",
        "d = {'a': 1}; d.clear(); d",
        dict_clear
    ),
];

/// String methods beyond the basic ones.
pub const STR_ROWS: &[Builtin] = &[
    row!(
        Method,
        "title",
        "str.title()",
        "Each word capitalised.",
        "'hello world'.title()",
        str_title
    ),
    row!(
        Method,
        "capitalize",
        "str.capitalize()",
        "First letter capital, the rest small.",
        "'hELLO'.capitalize()",
        str_capitalize
    ),
    row!(
        Method,
        "center",
        "str.center(width, fillchar=' ')",
        "Centred in width.",
        "'x'.center(5, '*')",
        str_center
    ),
    row!(
        Method,
        "ljust",
        "str.ljust(width, fillchar=' ')",
        "Padded on the right to width.",
        "'x'.ljust(3, '.')",
        str_ljust
    ),
    row!(
        Method,
        "rjust",
        "str.rjust(width, fillchar=' ')",
        "Padded on the left to width.",
        "'x'.rjust(3, '.')",
        str_rjust
    ),
    row!(
        Method,
        "zfill",
        "str.zfill(width)",
        "Padded with zeros on the left.",
        "'7'.zfill(3)",
        str_zfill
    ),
    row!(
        Method,
        "count",
        "str.count(sub)",
        "How many times sub occurs.",
        "'a,b,c'.count(',')",
        str_count
    ),
    row!(
        Method,
        "find",
        "str.find(sub)",
        "Position of sub, or -1.",
        "'abc'.find('c')",
        str_find
    ),
    row!(
        Method,
        "isdigit",
        "str.isdigit()",
        "Only digits?",
        "'12'.isdigit()",
        str_isdigit
    ),
    row!(
        Method,
        "isalpha",
        "str.isalpha()",
        "Only letters?",
        "'ab'.isalpha()",
        str_isalpha
    ),
    row!(
        Method,
        "lstrip",
        "str.lstrip()",
        "Without spaces on the left.",
        "'  a'.lstrip()",
        str_lstrip
    ),
    row!(
        Method,
        "rstrip",
        "str.rstrip()",
        "Without spaces on the right.",
        "'a  '.rstrip()",
        str_rstrip
    ),
];

use super::attrs::{dict_of, list_of};

type ListRef = Rc<std::cell::RefCell<Vec<Value>>>;

fn list_sort(it: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let key = a.take_kw("key").map(|(v, _)| v);
    let reverse = a.kw_flag("reverse", false)?;
    a.finish()?;
    let items = l.borrow().clone();
    let sorted = sort_items(it, items, key.as_ref(), reverse)?;
    *l.borrow_mut() = sorted;
    Ok(Value::None)
}

fn position(l: &ListRef, x: &Value) -> Option<usize> {
    l.borrow()
        .iter()
        .position(|v| crate::interp::ops::values_equal(v, x))
}

fn list_insert(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let i = a.int("i")?;
    let x = a.value("x")?;
    a.finish()?;
    let n = l.borrow().len() as i64;
    let at = if i < 0 { (i + n).max(0) } else { i.min(n) } as usize;
    l.borrow_mut().insert(at, x);
    Ok(Value::None)
}

fn list_remove(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let x = a.value("x")?;
    a.finish()?;
    let i = position(&l, &x).ok_or_else(|| value_err("list.remove(x): x not in list"))?;
    l.borrow_mut().remove(i);
    Ok(Value::None)
}

fn list_reverse(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    a.finish()?;
    l.borrow_mut().reverse();
    Ok(Value::None)
}

fn list_index(it: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let x = a.value("x")?;
    a.finish()?;
    position(&l, &x)
        .map(|i| Value::Int(i as i64))
        .ok_or_else(|| value_err(format!("{} is not in list", it.repr_text(&x))))
}

fn list_count(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    let x = a.value("x")?;
    a.finish()?;
    let n = l
        .borrow()
        .iter()
        .filter(|v| crate::interp::ops::values_equal(v, &x))
        .count();
    Ok(Value::Int(n as i64))
}

fn list_clear(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    a.finish()?;
    l.borrow_mut().clear();
    Ok(Value::None)
}

fn list_copy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let l = list_of(&mut a)?;
    a.finish()?;
    let items = l.borrow().clone();
    Ok(Value::list(items))
}

fn dict_update(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    let other = a.take("other").map(|(v, _)| v);
    let keywords = a.keywords_left();
    a.finish()?;
    match other {
        None | Some(Value::None) => {}
        Some(Value::Dict(o)) => {
            let items: Vec<(Value, Value)> = o
                .borrow()
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            for (k, v) in items {
                d.borrow_mut().insert_key(k, v);
            }
        }
        Some(pairs) => {
            for pair in it.iterate_items(&pairs)? {
                let kv = pair.iter_items()?;
                let [k, v] = kv.as_slice() else {
                    return Err(value_err(
                        "dictionary update sequence element has the wrong length",
                    ));
                };
                crate::interp::value::check_hashable(k)?;
                d.borrow_mut().insert_key(k.clone(), v.clone());
            }
        }
    }
    for (k, v) in keywords {
        d.borrow_mut().insert(k.into(), v);
    }
    Ok(Value::None)
}

fn dict_pop(it: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    let key = a.value("key")?;
    let default = a.take("default").map(|(v, _)| v);
    a.finish()?;
    let found = d.borrow().get_key(&key).cloned();
    match (found, default) {
        (Some(v), _) => {
            d.borrow_mut().remove_key(&key);
            Ok(v)
        }
        (None, Some(v)) => Ok(v),
        (None, None) => Err(index_err(format!("KeyError: {}", it.repr_text(&key)))),
    }
}

fn dict_popitem(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    a.finish()?;
    let last = d.borrow_mut().pop_last();
    let (k, v) = last.ok_or_else(|| index_err("KeyError: 'popitem(): dictionary is empty'"))?;
    Ok(Value::tuple(vec![k, v]))
}

fn dict_setdefault(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    let key = a.value("key")?;
    let default = a.take("default").map(|(v, _)| v).unwrap_or(Value::None);
    a.finish()?;
    crate::interp::value::check_hashable(&key)?;
    if let Some(v) = d.borrow().get_key(&key) {
        return Ok(v.clone());
    }
    d.borrow_mut().insert_key(key, default.clone());
    Ok(default)
}

fn dict_copy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    a.finish()?;
    let copy = d.borrow().clone();
    Ok(Value::Dict(Rc::new(std::cell::RefCell::new(copy))))
}

fn dict_clear(_: &mut Interp, mut a: Args) -> Result<Value> {
    let d = dict_of(&mut a)?;
    a.finish()?;
    d.borrow_mut().clear();
    Ok(Value::None)
}

fn text(s: impl Into<crate::interp::pystr::PyStr>) -> Result<Value> {
    Ok(Value::Str(s.into()))
}

fn str_title(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    a.finish()?;
    let mut out = String::new();
    let mut start = true;
    for c in s.chars() {
        if c.is_alphabetic() {
            if start {
                out.extend(c.to_uppercase());
            } else {
                out.extend(c.to_lowercase());
            }
            start = false;
        } else {
            out.push(c);
            start = true;
        }
    }
    text(out)
}

fn str_capitalize(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    a.finish()?;
    let mut chars = s.chars();
    let out: String = match chars.next() {
        Some(c) => c
            .to_uppercase()
            .chain(chars.flat_map(|c| c.to_lowercase()))
            .collect(),
        None => String::new(),
    };
    text(out)
}

fn padded(mut a: Args, how: char) -> Result<Value> {
    let s = a.string("self")?;
    let width = a.int("width")?.max(0) as usize;
    let fill = match a.take("fillchar") {
        Some((Value::Str(f), _)) if f.chars().count() == 1 => f.chars().next().unwrap_or(' '),
        None => ' ',
        Some(_) => {
            return Err(type_err(
                "The fill character must be exactly one character long",
            ));
        }
    };
    a.finish()?;
    let n = s.chars().count();
    if n >= width {
        return text(s);
    }
    let gap = width - n;
    let run = |k: usize| std::iter::repeat_n(fill, k).collect::<String>();
    text(match how {
        '<' => format!("{s}{}", run(gap)),
        '>' => format!("{}{s}", run(gap)),
        // Python puts the odd fill on the right, unless the width is odd and the text even.
        _ => {
            let left = gap / 2 + (gap & width & 1);
            format!("{}{s}{}", run(left), run(gap - left))
        }
    })
}

fn str_center(_: &mut Interp, a: Args) -> Result<Value> {
    padded(a, '^')
}

fn str_ljust(_: &mut Interp, a: Args) -> Result<Value> {
    padded(a, '<')
}

fn str_rjust(_: &mut Interp, a: Args) -> Result<Value> {
    padded(a, '>')
}

fn str_zfill(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    let width = a.int("width")?.max(0) as usize;
    a.finish()?;
    let n = s.chars().count();
    if n >= width {
        return text(s);
    }
    let (sign, digits) = match s.strip_prefix(['-', '+']) {
        Some(rest) => (&s[..1], rest),
        None => ("", s.as_str()),
    };
    text(format!("{sign}{}{digits}", "0".repeat(width - n)))
}

fn str_count(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    let sub = a.string("sub")?;
    a.finish()?;
    let n = if sub.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(sub.as_str()).count()
    };
    Ok(Value::Int(n as i64))
}

fn str_find(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    let sub = a.string("sub")?;
    a.finish()?;
    Ok(Value::Int(match s.find(sub.as_str()) {
        Some(byte) => s[..byte].chars().count() as i64,
        None => -1,
    }))
}

fn str_test(mut a: Args, f: fn(char) -> bool) -> Result<Value> {
    let s = a.string("self")?;
    a.finish()?;
    Ok(Value::Bool(!s.is_empty() && s.chars().all(f)))
}

fn str_isdigit(_: &mut Interp, a: Args) -> Result<Value> {
    str_test(a, |c| c.is_ascii_digit())
}

fn str_isalpha(_: &mut Interp, a: Args) -> Result<Value> {
    str_test(a, char::is_alphabetic)
}

fn str_lstrip(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    a.finish()?;
    text(s.trim_start())
}

fn str_rstrip(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("self")?;
    a.finish()?;
    text(s.trim_end())
}
