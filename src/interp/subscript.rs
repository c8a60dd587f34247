//! Indexing: `x[i]` and `x[i] = v` on tensors, lists, tuples, strings and dicts.

use std::rc::Rc;

use super::Interp;
use super::convert;
use super::value::Value;
use crate::error::{Error, Result, index_err, type_err};
use crate::syntax::ast::*;
use crate::tensor::ops::index::{Idx, index, index_put};

impl Interp {
    pub(super) fn set_item(
        &mut self,
        container: &Value,
        subs: &[Subscript],
        v: Value,
    ) -> Result<()> {
        match container {
            Value::Dict(d) => {
                let key = self.dict_key(subs)?;
                d.borrow_mut().insert_key(key, v);
                Ok(())
            }
            Value::Tensor(t) | Value::Array(t) => {
                let idx = self.eval_indices(subs)?;
                let value = convert::to_tensor_arg(&v, "index assignment", "value")?;
                index_put(t, &idx, &value)
            }
            Value::List(l) => {
                if subs.len() != 1 {
                    return Err(type_err("lists take a single index"));
                }
                let i = match &subs[0] {
                    Subscript::Expr(e) => convert::to_int(&self.eval(e)?, "list index", "index")?,
                    _ => return Err(type_err("slice assignment to lists is not supported")),
                };
                let mut items = l.borrow_mut();
                let n = items.len() as i64;
                let j = if i < 0 { i + n } else { i };
                if j < 0 || j >= n {
                    return Err(index_err(format!(
                        "list index {i} out of range for a list of {n}"
                    )));
                }
                items[j as usize] = v;
                Ok(())
            }
            other => Err(type_err(format!(
                "{} does not support item assignment",
                other.a_type_name()
            ))),
        }
    }

    pub(super) fn eval_indices(&mut self, subs: &[Subscript]) -> Result<Vec<Idx>> {
        let mut out = Vec::with_capacity(subs.len());
        for s in subs {
            out.push(match s {
                Subscript::Ellipsis(_) => Idx::Ellipsis,
                Subscript::Slice {
                    start, stop, step, ..
                } => {
                    let mut part = |e: &Option<Expr>| -> Result<Option<i64>> {
                        match e {
                            None => Ok(None),
                            Some(e) => match self.eval(e)? {
                                Value::None => Ok(None),
                                v => convert::to_int(&v, "slice", "bound")
                                    .map(Some)
                                    .map_err(|err| err.at(e.span)),
                            },
                        }
                    };
                    Idx::Slice(part(start)?, part(stop)?, part(step)?)
                }
                Subscript::Expr(e) => match self.eval(e)? {
                    Value::None => Idx::NewAxis,
                    Value::Ellipsis => Idx::Ellipsis,
                    Value::Int(i) => Idx::Int(i),
                    Value::Bool(b) => Idx::Tensor(crate::tensor::Tensor::scalar_i64(
                        b as i64,
                        crate::tensor::DType::Bool,
                    )),
                    Value::Tensor(t)
                        if t.ndim() == 0 && !t.dtype().is_float() && !t.dtype().is_bool() =>
                    {
                        Idx::Int(crate::tensor::ops::scalar::item_i64(&t)?)
                    }
                    Value::Tensor(t) => Idx::Tensor(t),
                    v @ (Value::List(_) | Value::Tuple(_)) => Idx::Tensor(
                        convert::tensor_from_data(&v, None).map_err(|err| err.at(e.span))?,
                    ),
                    // `y_hat[range(len(y_hat)), y]` (d2l's cross-entropy):
                    // a range picks as the list of its numbers does.
                    Value::Range(a, b, step) => {
                        let n = super::value::range_len(a, b, step);
                        super::value::check_items(n as u128).map_err(|err| err.at(e.span))?;
                        let picks: Vec<i64> = (0..n).map(|i| a + i * step).collect();
                        Idx::Tensor(crate::tensor::Tensor::from_vec(picks, &[n as usize]))
                    }
                    v => {
                        return Err(index_err(format!(
                            "{} cannot index a tensor",
                            v.a_type_name()
                        ))
                        .at(e.span)
                        .hint("indices are ints, slices, ..., none, or int/bool tensors"));
                    }
                },
            });
        }
        Ok(out)
    }

    /// `d["key"]`: one string subscript.
    pub(super) fn dict_key(&mut self, subs: &[Subscript]) -> Result<Value> {
        match subs {
            [Subscript::Expr(e)] => {
                let k = self.eval(e)?;
                super::value::check_hashable(&k).map_err(|err| err.at(e.span))?;
                Ok(k)
            }
            // `d[1, 2]` is the tuple key (1, 2), as in Python.
            many if many.iter().all(|s| matches!(s, Subscript::Expr(_))) => {
                let mut items = vec![];
                for s in many {
                    if let Subscript::Expr(e) = s {
                        items.push(self.eval(e)?);
                    }
                }
                let k = Value::tuple(items);
                super::value::check_hashable(&k)?;
                Ok(k)
            }
            _ => Err(type_err("a dict takes one key: d[\"name\"]")),
        }
    }

    pub(super) fn get_item(&mut self, o: &Value, subs: &[Subscript]) -> Result<Value> {
        match o {
            Value::Object(obj) => {
                let Some(f) = super::classes::object_attr(obj, "__getitem__") else {
                    return Err(type_err(format!(
                        "'{}' object is not subscriptable",
                        obj.class.name
                    )));
                };
                let key = match subs {
                    [Subscript::Expr(e)] => self.eval(e)?,
                    _ => return Err(type_err("this object takes one index")),
                };
                self.call(&f, vec![(key, Span::default())], vec![], Span::default())
            }
            Value::Dict(d) => {
                let key = self.dict_key(subs)?;
                let d = d.borrow();
                d.get_key(&key)
                    .cloned()
                    .ok_or_else(|| missing_key(&crate::print::value::plain(&key), &d.keys()))
            }
            Value::Tensor(t) => {
                let idx = self.eval_indices(subs)?;
                Ok(Value::Tensor(index(t, &idx)?))
            }
            Value::Array(t) => {
                let idx = self.eval_indices(subs)?;
                super::numpy::wrap(Value::Tensor(index(t, &idx)?))
            }
            // Indexing only picks integers: the result keeps the scale.
            Value::QTensor(q) => {
                let idx = self.eval_indices(subs)?;
                let picked = index(q.int_repr(), &idx)?;
                Ok(Value::QTensor(q.with_repr(picked, "indexing")?))
            }
            Value::List(_)
            | Value::Tuple(_)
            | Value::Shape(_)
            | Value::Str(_)
            | Value::Named(_)
            | Value::Range(..) => {
                if subs.len() != 1 {
                    return Err(type_err(format!(
                        "{} takes a single index",
                        o.a_type_name()
                    )));
                }
                match &subs[0] {
                    Subscript::Slice { .. } => {
                        let Idx::Slice(a, b, s) = self.eval_indices(subs)?.remove(0) else {
                            return Err(type_err("bad slice"));
                        };
                        let step = s.unwrap_or(1);
                        if step == 0 {
                            return Err(crate::error::value_err("slice step cannot be zero"));
                        }
                        // The picked items, read where they are: copying the
                        // whole sequence first made `xs[i:i + k]` in a loop
                        // quadratic.
                        if too_long(o) {
                            return Err(too_long_err());
                        }
                        if let Value::Range(r0, _, rs) = &o {
                            return range_slice((*r0, *rs), o.sequence_len() as i64, (a, b, step));
                        }
                        let picks = python_slice(o.sequence_len() as i64, a, b, step)?;
                        if let Value::Str(s) = &o {
                            return Ok(Value::Str(s.pick(&picks)));
                        }
                        let picked: Vec<Value> = picks
                            .into_iter()
                            .filter_map(|i| o.sequence_item(i))
                            .collect();
                        Ok(match o {
                            Value::Tuple(_) => Value::tuple(picked),
                            Value::Shape(_) => Value::Shape(Rc::new(
                                picked
                                    .iter()
                                    .map(|v| {
                                        if let Value::Int(i) = v {
                                            *i as usize
                                        } else {
                                            0
                                        }
                                    })
                                    .collect(),
                            )),
                            _ => Value::list(picked),
                        })
                    }
                    Subscript::Expr(ix) => {
                        let i = convert::to_int(&self.eval(ix)?, "index", "index")
                            .map_err(|err| err.at(ix.span))?;
                        // One item, read where it is: copying the sequence
                        // made `xs[i]` in a loop quadratic.
                        // The length only where it is needed (a string's is a
                        // count of its characters): for a negative index, and
                        // for the message.
                        let item = match usize::try_from(i) {
                            Ok(j) => o.sequence_item(j),
                            Err(_) if too_long(o) => return Err(too_long_err()),
                            Err(_) => usize::try_from(i.saturating_add(o.sequence_len() as i64))
                                .ok()
                                .and_then(|j| o.sequence_item(j)),
                        };
                        item.ok_or_else(|| {
                            index_err(format!(
                                "index {i} is out of range for {} of length {}",
                                o.a_type_name(),
                                o.sequence_len()
                            ))
                        })
                    }
                    Subscript::Ellipsis(_) => Err(type_err(format!(
                        "{} cannot be indexed with ...",
                        o.a_type_name()
                    ))),
                }
            }
            other => Err(type_err(format!(
                "{} cannot be indexed",
                other.a_type_name()
            ))),
        }
    }
}

/// A dict has no such key: say which keys it has.
pub fn missing_key(key: &str, keys: &[String]) -> Error {
    let mut e = index_err(format!("no key {key:?} in the dict"));
    e = match crate::print::suggest::closest(key, keys.iter().map(String::as_str)) {
        Some(best) => e.hint(format!(
            "did you mean {best:?}? its keys: {}",
            keys.join(", ")
        )),
        None => e.hint(format!("its keys: {}", keys.join(", "))),
    };
    e
}

/// A range with more items than an i64 counts: its length (which a slice or a
/// negative index needs) is out of reach, as Python's `len()` of it is.
fn too_long(o: &Value) -> bool {
    matches!(o, Value::Range(a, b, s) if super::value::range_len_exact(*a, *b, *s) > i64::MAX as i128)
}

fn too_long_err() -> Error {
    crate::error::value_err(
        "this range has more than 2**63 - 1 items: slices and negative indices need its length",
    )
}

/// `range(...)[a:b:s]`: a range again, as in Python (never listed).
fn range_slice(
    (r0, rs): (i64, i64),
    n: i64,
    (a, b, step): (Option<i64>, Option<i64>, i64),
) -> Result<Value> {
    let (start, stop) = slice_bounds(n, a, b, step);
    let at = |i: i64| i64::try_from(r0 as i128 + i as i128 * rs as i128);
    let step = i64::try_from(rs as i128 * step as i128);
    match (at(start), at(stop), step) {
        (Ok(start), Ok(stop), Ok(step)) => Ok(Value::Range(start, stop, step)),
        _ => Err(crate::error::value_err(
            "this slice of the range is out of the int64 range",
        )),
    }
}

/// Python's `slice.indices`: a slice's start and stop, made non-negative and
/// clamped to a sequence of length `n` (-1 stands for "before the first" when
/// stepping back).
fn slice_bounds(n: i64, a: Option<i64>, b: Option<i64>, step: i64) -> (i64, i64) {
    let n = n.max(0);
    let norm = |v: i64, lo: i64, hi: i64| {
        let v = if v < 0 { v.saturating_add(n) } else { v };
        v.clamp(lo, hi)
    };
    if step > 0 {
        (
            a.map_or(0, |v| norm(v, 0, n)),
            b.map_or(n, |v| norm(v, 0, n)),
        )
    } else {
        (
            a.map_or(n - 1, |v| norm(v, -1, n - 1)),
            b.map_or(-1, |v| norm(v, -1, n - 1)),
        )
    }
}

/// The indices a Python slice `a:b:s` selects from a sequence of length `n`
/// (a memory error when they are more than a list may hold: `n` may be a
/// huge range's).
pub fn python_slice(n: i64, a: Option<i64>, b: Option<i64>, step: i64) -> Result<Vec<usize>> {
    let (start, stop) = slice_bounds(n, a, b, step);
    // How many: the distance over the step, rounded up (none when it is the
    // wrong way).
    let distance = stop as i128 - start as i128;
    let count = if distance == 0 || (distance > 0) != (step > 0) {
        0
    } else {
        (distance.unsigned_abs() - 1) / step.unsigned_abs() as u128 + 1
    };
    super::value::check_items(count)?;
    Ok((0..count as i128)
        .map(|k| (start as i128 + k * step as i128) as usize)
        .collect())
}
