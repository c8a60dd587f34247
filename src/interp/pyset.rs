//! Python's set: members kept once (as `==` and hashing see them), in the order
//! they were added; the operators | & - ^ and comparisons, and its methods.

use std::cell::RefCell;
use std::rc::Rc;

use crate::error::{Error, ErrorKind, Result, type_err};
use crate::interp::pyhash::{Fx, Key, Probe};
use crate::interp::value::{Value, check_hashable};
use crate::syntax::ast::BinOp;

/// A set's members in a hash table (`pyhash`), in the order they were added.
pub type Members = indexmap::IndexSet<Key, Fx>;

/// A set of these values (duplicates dropped, unhashable values refused).
pub fn from_items(items: Vec<Value>) -> Result<Value> {
    Ok(Value::Set(Rc::new(RefCell::new(members(items)?))))
}

fn members(items: Vec<Value>) -> Result<Members> {
    let mut members = Members::with_capacity_and_hasher(items.len(), Fx::default());
    for v in items {
        check_hashable(&v)?;
        members.insert(Key(v));
    }
    Ok(members)
}

/// The members in the order CPython's hash table holds them, where that order
/// is fixed: for ints (which hash to themselves) the table is replayed with
/// CPython's probing and resizing; other members (strings hash differently in
/// every Python process) keep the order they were added.
pub fn ordered(members: &Members) -> Vec<Value> {
    let ints: Option<Vec<i64>> = members
        .iter()
        .map(|v| match &v.0 {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        })
        .collect();
    let Some(ints) = ints else {
        return members.iter().map(|m| m.0.clone()).collect();
    };
    let slots = cpython_table(&ints);
    slots
        .into_iter()
        .flatten()
        .filter_map(|i| members.get_index(i).map(|m| m.0.clone()))
        .collect()
}

/// CPython's set table after adding these hashes in order: slot -> member index.
fn cpython_table(hashes: &[i64]) -> Vec<Option<usize>> {
    const LINEAR_PROBES: usize = 9;
    const PERTURB_SHIFT: u32 = 5;
    let hash = |h: i64| -> u64 { if h == -1 { -2i64 as u64 } else { h as u64 } };
    let insert = |table: &mut Vec<Option<usize>>, idx: usize| {
        let mask = table.len() - 1;
        let mut perturb = hash(hashes[idx]);
        let mut i = (perturb as usize) & mask;
        loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            for j in 0..=probes {
                if table[i + j].is_none() {
                    table[i + j] = Some(idx);
                    return;
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    };
    let mut table: Vec<Option<usize>> = vec![None; 8];
    let mut used = 0usize;
    for idx in 0..hashes.len() {
        insert(&mut table, idx);
        used += 1;
        let mask = table.len() - 1;
        if used * 5 >= mask * 3 {
            let minused = if used > 50_000 { used * 2 } else { used * 4 };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old: Vec<usize> = table.iter().flatten().copied().collect();
            table = vec![None; size];
            for i in old {
                insert(&mut table, i);
            }
        }
    }
    table
}

pub fn contains(members: &Members, v: &Value) -> bool {
    members.contains(&Probe(v))
}

/// `a op b` for two sets.
pub fn binary(op: BinOp, a: &Members, b: &Members) -> Result<Value> {
    Ok(Value::Set(Rc::new(RefCell::new(combine(op, a, b)?))))
}

/// The members of `a op b` (`|`, `&`, `-`, `^`).
pub fn combine(op: BinOp, a: &Members, b: &Members) -> Result<Members> {
    Ok(match op {
        BinOp::BitOr => a.union(b).cloned().collect(),
        BinOp::BitAnd => a.intersection(b).cloned().collect(),
        BinOp::Sub => a.difference(b).cloned().collect(),
        BinOp::BitXor => a.symmetric_difference(b).cloned().collect(),
        _ => {
            return Err(type_err(format!(
                "unsupported operand type(s) for {}: 'set' and 'set'",
                op.symbol()
            )));
        }
    })
}

/// A set's members, or those of any iterable as a set (unhashable items refused).
fn members_of(v: &Value) -> Result<Members> {
    match v {
        Value::Set(o) => Ok(o.borrow().clone()),
        other => members(other.iter_items()?),
    }
}

pub fn is_subset(a: &Members, b: &Members) -> bool {
    a.is_subset(b)
}

pub fn equal(a: &Members, b: &Members) -> bool {
    a.len() == b.len() && is_subset(a, b)
}

/// A set method called on `s` with `args`.
pub fn method(s: &Rc<RefCell<Members>>, name: &str, args: &[Value]) -> Result<Value> {
    let others = || -> Result<Vec<Members>> { args.iter().map(members_of).collect() };
    let one = || -> Result<&Value> {
        args.first()
            .ok_or_else(|| type_err(format!("set.{name}() takes exactly one argument")))
    };
    let fold = |op: BinOp| -> Result<Value> {
        let mut acc = s.borrow().clone();
        for o in others()? {
            acc = combine(op, &acc, &o)?;
        }
        Ok(Value::Set(Rc::new(RefCell::new(acc))))
    };
    match name {
        "add" => {
            let v = one()?.clone();
            check_hashable(&v)?;
            s.borrow_mut().insert(Key(v));
            Ok(Value::None)
        }
        "update" => {
            for o in others()? {
                s.borrow_mut().extend(o);
            }
            Ok(Value::None)
        }
        "remove" | "discard" => {
            let v = one()?;
            let removed = s.borrow_mut().shift_remove(&Probe(v));
            if !removed && name == "remove" {
                return Err(Error::new(
                    ErrorKind::Index,
                    format!("KeyError: {}", crate::print::value::plain(v)),
                ));
            }
            Ok(Value::None)
        }
        "pop" => {
            // The first member in table order, as CPython's pop finds it.
            let Some(first) = ordered(&s.borrow()).into_iter().next() else {
                return Err(Error::new(
                    ErrorKind::Index,
                    "KeyError: 'pop from an empty set'",
                ));
            };
            s.borrow_mut().shift_remove(&Probe(&first));
            Ok(first)
        }
        "clear" => {
            s.borrow_mut().clear();
            Ok(Value::None)
        }
        "copy" => Ok(Value::Set(Rc::new(RefCell::new(s.borrow().clone())))),
        "union" => fold(BinOp::BitOr),
        "intersection" => fold(BinOp::BitAnd),
        "difference" => fold(BinOp::Sub),
        "symmetric_difference" => fold(BinOp::BitXor),
        "issubset" => Ok(Value::Bool(is_subset(&s.borrow(), &members_of(one()?)?))),
        "issuperset" => Ok(Value::Bool(is_subset(&members_of(one()?)?, &s.borrow()))),
        "isdisjoint" => {
            let o = members_of(one()?)?;
            Ok(Value::Bool(s.borrow().is_disjoint(&o)))
        }
        _ => Err(type_err(format!("'set' object has no attribute '{name}'"))),
    }
}
