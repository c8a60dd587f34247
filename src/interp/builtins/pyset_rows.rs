//! The set methods as builtin rows (the set itself is interp/pyset.rs), and
//! the `set`/`frozenset` constructors.

use super::Builtin;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::row;

pub const ROWS: &[Builtin] = &[
    row!(
        Python,
        "set",
        "set(iterable=())",
        "A set: each item once.",
        "set([3, 1, 3])",
        construct
    ),
    row!(
        Python,
        "frozenset",
        "frozenset(iterable=())",
        "A set (tsh does not freeze it).",
        "frozenset([1, 2])",
        construct
    ),
];

const METHOD_ROWS: &[Builtin] = &[
    row!(
        Method,
        "add",
        "set.add(x)",
        "Put x in the set.",
        "s = {1, 2}; s.add(2)",
        |it, a| call(it, a, "add")
    ),
    row!(
        Method,
        "update",
        "set.update(*others)",
        "Add every item of the iterables.",
        "s = {1, 2}; s.update({2, 3})",
        |it, a| call(it, a, "update")
    ),
    row!(
        Method,
        "remove",
        "set.remove(x)",
        "Take x out (KeyError if absent).",
        "s = {1, 2}; s.remove(2)",
        |it, a| call(it, a, "remove")
    ),
    row!(
        Method,
        "discard",
        "set.discard(x)",
        "Take x out if present.",
        "s = {1, 2}; s.discard(2)",
        |it, a| call(it, a, "discard")
    ),
    row!(
        Method,
        "pop",
        "set.pop()",
        "Remove and return a member.",
        "s = {1, 2}; s.pop()",
        |it, a| call(it, a, "pop")
    ),
    row!(
        Method,
        "clear",
        "set.clear()",
        "Remove every member.",
        "s = {1, 2}; s.clear()",
        |it, a| call(it, a, "clear")
    ),
    row!(
        Method,
        "copy",
        "set.copy()",
        "A shallow copy.",
        "s = {1, 2}; s.copy()",
        |it, a| call(it, a, "copy")
    ),
    row!(
        Method,
        "union",
        "set.union(*others)",
        "Members of the set or any of the others.",
        "s = {1, 2}; s.union({2, 3})",
        |it, a| call(it, a, "union")
    ),
    row!(
        Method,
        "intersection",
        "set.intersection(*others)",
        "Members of the set and all the others.",
        "s = {1, 2}; s.intersection({2, 3})",
        |it, a| call(it, a, "intersection")
    ),
    row!(
        Method,
        "difference",
        "set.difference(*others)",
        "Members of the set in none of the others.",
        "s = {1, 2}; s.difference({2, 3})",
        |it, a| call(it, a, "difference")
    ),
    row!(
        Method,
        "symmetric_difference",
        "set.symmetric_difference(x)",
        "Members of exactly one of the two.",
        "s = {1, 2}; s.symmetric_difference({2, 3})",
        |it, a| call(it, a, "symmetric_difference")
    ),
    row!(
        Method,
        "issubset",
        "set.issubset(x)",
        "Is every member in the other?",
        "s = {1, 2}; s.issubset({2, 3})",
        |it, a| call(it, a, "issubset")
    ),
    row!(
        Method,
        "issuperset",
        "set.issuperset(x)",
        "Is every member of the other in this set?",
        "s = {1, 2}; s.issuperset({2, 3})",
        |it, a| call(it, a, "issuperset")
    ),
    row!(
        Method,
        "isdisjoint",
        "set.isdisjoint(x)",
        "No member in common?",
        "s = {1, 2}; s.isdisjoint({2, 3})",
        |it, a| call(it, a, "isdisjoint")
    ),
];

/// The row of a set method.
pub fn method(name: &str) -> Option<&'static Builtin> {
    METHOD_ROWS.iter().find(|b| b.name == name)
}

pub fn all_methods() -> impl Iterator<Item = &'static Builtin> {
    METHOD_ROWS.iter()
}

fn call(_: &mut Interp, mut a: Args, name: &str) -> Result<Value> {
    let s = a.value("self")?;
    let rest: Vec<Value> = a.rest_values();
    a.finish()?;
    match s {
        Value::Set(s) => crate::interp::pyset::method(&s, name, &rest),
        other => Err(crate::error::type_err(format!(
            "set.{name}() needs a set, not {}",
            other.type_name()
        ))),
    }
}

fn construct(_: &mut Interp, mut a: Args) -> Result<Value> {
    let items = match a.take("iterable") {
        Some((v, _)) => v.iter_items()?,
        None => vec![],
    };
    a.finish()?;
    crate::interp::pyset::from_items(items)
}
