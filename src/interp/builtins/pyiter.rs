//! More of Python's builtins that tutorial code reaches for: map, filter,
//! reversed, any/all/pow on plain values, divmod, chr/ord/hex/bin/oct, and the
//! ordering that sort keys and max/min use. Methods are in pymethods.rs.

use std::cmp::Ordering;
use std::rc::Rc;

use super::Builtin;
use crate::error::{Result, type_err, value_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;
use crate::syntax::ast::{CmpOp, Span};

pub const ROWS: &[Builtin] = &[
    row!(
        Python,
        "map",
        "map(function, *iterables)",
        "function applied to the items, lazily (a map object).",
        "list(map(lambda v: v * 2, [1, 2]))",
        map
    ),
    row!(
        Python,
        "filter",
        "filter(function, iterable)",
        "The items for which function is true (None: the true items), lazily.",
        "list(filter(None, [0, 1, 2]))",
        filter
    ),
    row!(
        Python,
        "reversed",
        "reversed(seq)",
        "The items in reverse order.",
        "list(reversed([1, 2, 3]))",
        reversed
    ),
    row!(
        Python,
        "any",
        "any(iterable)",
        "Is any item true? (On a tensor, torch.any.)",
        "any([0, 1])",
        any
    ),
    row!(
        Python,
        "all",
        "all(iterable)",
        "Is every item true? (On a tensor, torch.all.)",
        "all([1, 1])",
        all
    ),
    row!(
        Python,
        "pow",
        "pow(base, exp, mod=None)",
        "base ** exp (mod mod); on a tensor, torch.pow.",
        "pow(2, 10)",
        pow
    ),
    row!(
        Python,
        "divmod",
        "divmod(a, b)",
        "(a // b, a % b).",
        "divmod(7, 2)",
        divmod
    ),
    row!(
        Python,
        "chr",
        "chr(i)",
        "The character with this code point.",
        "chr(65)",
        chr
    ),
    row!(
        Python,
        "ord",
        "ord(c)",
        "The code point of a one-character string.",
        "ord('A')",
        ord
    ),
    row!(
        Python,
        "hex",
        "hex(i)",
        "An int in hexadecimal: '0xff'.",
        "hex(255)",
        hex
    ),
    row!(
        Python,
        "bin",
        "bin(i)",
        "An int in binary: '0b101'.",
        "bin(5)",
        bin
    ),
    row!(
        Python,
        "oct",
        "oct(i)",
        "An int in octal: '0o10'.",
        "oct(8)",
        oct
    ),
];

/// Call `f` on one value.
pub fn apply(it: &mut Interp, f: &Value, v: Value) -> Result<Value> {
    it.call(f, vec![(v, Span::default())], vec![], Span::default())
}

/// Python's ordering of two values (for sort and max with keys).
pub fn order(a: &Value, b: &Value) -> Result<Ordering> {
    // What sorts mostly sort, directly: `a < b` then `a > b` as values took
    // a tenth of a microsecond a comparison, and a tuple's did both for
    // each item.
    if let Some(o) = plain_order(a, b, 0) {
        return Ok(o);
    }
    if crate::interp::ops::compare(CmpOp::Lt, a, b)?.truthy()? {
        return Ok(Ordering::Less);
    }
    if crate::interp::ops::compare(CmpOp::Gt, a, b)?.truthy()? {
        return Ok(Ordering::Greater);
    }
    Ok(Ordering::Equal)
}

/// The order of two numbers, two strings, or two tuples (or lists) of
/// them, `depth` sequences down; None for anything else, where a NaN is
/// compared (Python orders it neither way, and a tuple holding one by
/// identity), and past `MAX_DEPTH` (a list that holds itself).
fn plain_order(a: &Value, b: &Value, depth: usize) -> Option<Ordering> {
    use crate::interp::number::{self, Num};
    const MAX_DEPTH: usize = 32;
    if let (Some(x), Some(y)) = (Num::of(a), Num::of(b)) {
        return number::order(x, y);
    }
    if depth >= MAX_DEPTH {
        return None;
    }
    match (a, b) {
        // UTF-8's byte order is the code points' order, Python's.
        (Value::Str(x), Value::Str(y)) => Some(x.as_str().cmp(y.as_str())),
        // The same sequence is equal to itself, as Python's item comparison
        // finds by identity first.
        (Value::Tuple(x), Value::Tuple(y)) if Rc::ptr_eq(x, y) => Some(Ordering::Equal),
        (Value::List(x), Value::List(y)) if Rc::ptr_eq(x, y) => Some(Ordering::Equal),
        (Value::Tuple(x), Value::Tuple(y)) => items_order(x, y, depth + 1),
        (Value::List(x), Value::List(y)) => items_order(&x.borrow(), &y.borrow(), depth + 1),
        _ => None,
    }
}

/// Python's order of sequences: at the first items that differ, else by
/// length.
fn items_order(x: &[Value], y: &[Value], depth: usize) -> Option<Ordering> {
    for (p, q) in x.iter().zip(y) {
        match plain_order(p, q, depth)? {
            Ordering::Equal => continue,
            o => return Some(o),
        }
    }
    Some(x.len().cmp(&y.len()))
}

/// Items sorted by their keys (stable), as `sorted` and `list.sort` do.
pub fn sort_items(
    it: &mut Interp,
    items: Vec<Value>,
    key: Option<&Value>,
    reverse: bool,
) -> Result<Vec<Value>> {
    let Some(f) = key.filter(|f| !matches!(f, Value::None)) else {
        // Without a key the items are their own keys: sorted where they are.
        let mut items = items;
        sort_by_order(&mut items, |v| v, reverse)?;
        return Ok(items);
    };
    let mut keyed = Vec::with_capacity(items.len());
    for v in items {
        keyed.push((apply(it, f, v.clone())?, v));
    }
    sort_by_order(&mut keyed, |(k, _)| k, reverse)?;
    Ok(keyed.into_iter().map(|(_, v)| v).collect())
}

/// A stable sort of `xs` by Python's order of `key(x)`; the first error a
/// comparison raised, once the sort is done.
fn sort_by_order<T>(xs: &mut [T], key: impl Fn(&T) -> &Value, reverse: bool) -> Result<()> {
    let mut err = None;
    xs.sort_by(|x, y| {
        let o = order(key(x), key(y)).unwrap_or_else(|e| {
            err.get_or_insert(e);
            Ordering::Equal
        });
        if reverse { o.reverse() } else { o }
    });
    err.map_or(Ok(()), Err)
}

/// `map(f, *iterables)`: lazy, as Python's map object (so it works over an
/// endless iterator, and f runs only as items are asked for).
fn map(it: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.value("function")?;
    let mut srcs = a
        .rest()
        .iter()
        .map(|(v, _)| it.iterate(v))
        .collect::<Result<Vec<_>>>()?;
    a.finish()?;
    if srcs.is_empty() {
        return Err(type_err("map() must have at least two arguments."));
    }
    it.native_iter("map object".into(), move |it| {
        loop {
            let mut args = Vec::with_capacity(srcs.len());
            for src in srcs.iter_mut() {
                match src.next() {
                    Some(v) => args.push((v?, Span::default())),
                    None => return Ok(()),
                }
            }
            let v = it.call(&f, args, vec![], Span::default())?;
            it.yield_value(v)?;
        }
    })
}

/// `filter(f, iterable)`: lazy, as Python's filter object.
fn filter(it: &mut Interp, mut a: Args) -> Result<Value> {
    let f = a.value("function")?;
    let mut items = it.iterate(&a.value("iterable")?)?;
    a.finish()?;
    it.native_iter("filter object".into(), move |it| {
        for v in items.by_ref() {
            let v = v?;
            let keep = match &f {
                Value::None => v.truthy()?,
                f => apply(it, f, v.clone())?.truthy()?,
            };
            if keep {
                it.yield_value(v)?;
            }
        }
        Ok(())
    })
}

fn reversed(it: &mut Interp, mut a: Args) -> Result<Value> {
    let mut items = it.iterate_items(&a.value("seq")?)?;
    a.finish()?;
    items.reverse();
    Ok(Value::list(items))
}

fn truth(it: &mut Interp, a: Args, name: &str, want: bool) -> Result<Value> {
    if super::python::first_is_tensor(&a) {
        return super::python::torch(it, name, a);
    }
    let mut a = a;
    let items = it.iterate_items(&a.value("iterable")?)?;
    a.finish()?;
    for v in items {
        if v.truthy()? == want {
            return Ok(Value::Bool(want));
        }
    }
    Ok(Value::Bool(!want))
}

fn any(it: &mut Interp, a: Args) -> Result<Value> {
    truth(it, a, "any", true)
}

fn all(it: &mut Interp, a: Args) -> Result<Value> {
    truth(it, a, "all", false)
}

fn pow(it: &mut Interp, a: Args) -> Result<Value> {
    if super::python::first_is_tensor(&a) {
        return super::python::torch(it, "pow", a);
    }
    let mut a = a;
    let base = a.value("base")?;
    let exp = a.value("exp")?;
    let modulus = a.take("mod").map(|(v, _)| v);
    a.finish()?;
    match modulus {
        None | Some(Value::None) => {
            crate::interp::ops::binary(crate::syntax::ast::BinOp::Pow, &base, &exp)
        }
        Some(m) => {
            let (Value::Int(b), Value::Int(e), Value::Int(m)) = (base, exp, m) else {
                return Err(type_err(
                    "pow() 3rd argument not allowed unless all arguments are integers",
                ));
            };
            if m == 0 {
                return Err(value_err("pow() 3rd argument cannot be 0"));
            }
            if e < 0 {
                return Err(value_err(
                    "pow() negative exponent with a modulus is not supported by tsh",
                ));
            }
            let (mut result, mut b, mut e) =
                (1i128 % m as i128, (b as i128).rem_euclid(m as i128), e);
            while e > 0 {
                if e & 1 == 1 {
                    result = result * b % m as i128;
                }
                b = b * b % m as i128;
                e >>= 1;
            }
            Ok(Value::Int(
                result.rem_euclid(m as i128) as i64 + if m < 0 && result != 0 { m } else { 0 },
            ))
        }
    }
}

fn divmod(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.value("a")?;
    let y = a.value("b")?;
    a.finish()?;
    let q = crate::interp::ops::binary(crate::syntax::ast::BinOp::FloorDiv, &x, &y)?;
    let r = crate::interp::ops::binary(crate::syntax::ast::BinOp::Mod, &x, &y)?;
    Ok(Value::tuple(vec![q, r]))
}

fn chr(_: &mut Interp, mut a: Args) -> Result<Value> {
    let i = a.int("i")?;
    a.finish()?;
    let c = u32::try_from(i)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| value_err("chr() arg not in range(0x110000)"))?;
    Ok(Value::Str(c.into()))
}

fn ord(_: &mut Interp, mut a: Args) -> Result<Value> {
    let s = a.string("c")?;
    a.finish()?;
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Ok(Value::Int(c as i64)),
        _ => Err(type_err(format!(
            "ord() expected a character, but string of length {} found",
            s.chars().count()
        ))),
    }
}

fn radix(mut a: Args, prefix: &str, f: fn(u64) -> String) -> Result<Value> {
    let i = a.int("i")?;
    a.finish()?;
    let sign = if i < 0 { "-" } else { "" };
    Ok(Value::Str(
        format!("{sign}{prefix}{}", f(i.unsigned_abs())).into(),
    ))
}

fn hex(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0x", |v| format!("{v:x}"))
}

fn bin(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0b", |v| format!("{v:b}"))
}

fn oct(_: &mut Interp, a: Args) -> Result<Value> {
    radix(a, "0o", |v| format!("{v:o}"))
}
