//! Python's set: members kept once (as `==` and hashing see them), in the order
//! they were added; the operators | & - ^ and comparisons, and its methods.

use std::cell::RefCell;
use std::rc::Rc;

use crate::error::{Error, ErrorKind, Result, type_err};
use crate::interp::ops::values_equal;
use crate::interp::value::{Value, check_hashable};
use crate::syntax::ast::BinOp;

/// A set of these values (duplicates dropped, unhashable values refused).
pub fn from_items(items: Vec<Value>) -> Result<Value> {
    let mut members: Vec<Value> = Vec::with_capacity(items.len());
    for v in items {
        check_hashable(&v)?;
        if !members.iter().any(|m| values_equal(m, &v)) {
            members.push(v);
        }
    }
    Ok(Value::Set(Rc::new(RefCell::new(members))))
}

/// The members in the order CPython's hash table holds them, where that order
/// is fixed: for ints (which hash to themselves) the table is replayed with
/// CPython's probing and resizing; other members (strings hash differently in
/// every Python process) keep the order they were added.
pub fn ordered(members: &[Value]) -> Vec<Value> {
    let ints: Option<Vec<i64>> = members
        .iter()
        .map(|v| match v {
            Value::Int(i) => Some(*i),
            Value::Bool(b) => Some(*b as i64),
            _ => None,
        })
        .collect();
    let Some(ints) = ints else {
        return members.to_vec();
    };
    let slots = cpython_table(&ints);
    slots
        .into_iter()
        .flatten()
        .map(|i| members[i].clone())
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

pub fn contains(members: &[Value], v: &Value) -> bool {
    members.iter().any(|m| values_equal(m, v))
}

/// `a op b` for two sets.
pub fn binary(op: BinOp, a: &[Value], b: &[Value]) -> Result<Value> {
    let items: Vec<Value> = match op {
        BinOp::BitOr => a.iter().chain(b).cloned().collect(),
        BinOp::BitAnd => a.iter().filter(|v| contains(b, v)).cloned().collect(),
        BinOp::Sub => a.iter().filter(|v| !contains(b, v)).cloned().collect(),
        BinOp::BitXor => a
            .iter()
            .filter(|v| !contains(b, v))
            .chain(b.iter().filter(|v| !contains(a, v)))
            .cloned()
            .collect(),
        _ => {
            return Err(type_err(format!(
                "unsupported operand type(s) for {}: 'set' and 'set'",
                op.symbol()
            )));
        }
    };
    from_items(items)
}

pub fn is_subset(a: &[Value], b: &[Value]) -> bool {
    a.iter().all(|v| contains(b, v))
}

pub fn equal(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && is_subset(a, b)
}

/// A set method called on `s` with `args`.
pub fn method(s: &Rc<RefCell<Vec<Value>>>, name: &str, args: &[Value]) -> Result<Value> {
    let others = || -> Result<Vec<Vec<Value>>> { args.iter().map(|a| a.iter_items()).collect() };
    let one = || -> Result<&Value> {
        args.first()
            .ok_or_else(|| type_err(format!("set.{name}() takes exactly one argument")))
    };
    let fold = |op: BinOp| -> Result<Value> {
        let mut acc = Value::Set(Rc::new(RefCell::new(s.borrow().clone())));
        for o in others()? {
            let cur = match &acc {
                Value::Set(c) => c.borrow().clone(),
                _ => vec![],
            };
            acc = binary(op, &cur, &o)?;
        }
        Ok(acc)
    };
    match name {
        "add" => {
            let v = one()?.clone();
            check_hashable(&v)?;
            if !contains(&s.borrow(), &v) {
                s.borrow_mut().push(v);
            }
            Ok(Value::None)
        }
        "update" => {
            for o in others()? {
                for v in o {
                    check_hashable(&v)?;
                    if !contains(&s.borrow(), &v) {
                        s.borrow_mut().push(v);
                    }
                }
            }
            Ok(Value::None)
        }
        "remove" | "discard" => {
            let v = one()?;
            let at = s.borrow().iter().position(|m| values_equal(m, v));
            match at {
                Some(i) => {
                    s.borrow_mut().remove(i);
                }
                None if name == "remove" => {
                    return Err(Error::new(
                        ErrorKind::Index,
                        format!("KeyError: {}", crate::print::value::plain(v)),
                    ));
                }
                None => {}
            }
            Ok(Value::None)
        }
        "pop" => {
            if s.borrow().is_empty() {
                return Err(Error::new(
                    ErrorKind::Index,
                    "KeyError: 'pop from an empty set'",
                ));
            }
            // The first member in table order, as CPython's pop finds it.
            let first = ordered(&s.borrow()).remove(0);
            let at = s.borrow().iter().position(|m| values_equal(m, &first));
            Ok(s.borrow_mut().remove(at.unwrap_or(0)))
        }
        "clear" => {
            s.borrow_mut().clear();
            Ok(Value::None)
        }
        "copy" => from_items(s.borrow().clone()),
        "union" => fold(BinOp::BitOr),
        "intersection" => fold(BinOp::BitAnd),
        "difference" => fold(BinOp::Sub),
        "symmetric_difference" => fold(BinOp::BitXor),
        "issubset" => Ok(Value::Bool(is_subset(&s.borrow(), &one()?.iter_items()?))),
        "issuperset" => Ok(Value::Bool(is_subset(&one()?.iter_items()?, &s.borrow()))),
        "isdisjoint" => {
            let o = one()?.iter_items()?;
            Ok(Value::Bool(!s.borrow().iter().any(|v| contains(&o, v))))
        }
        _ => Err(type_err(format!("'set' object has no attribute '{name}'"))),
    }
}
