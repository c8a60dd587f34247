//! Python's `copy` module: `copy.deepcopy` (what PyTorch's TransformerEncoder
//! clones its layer with, and what training loops keep their best
//! `state_dict()` with) and the shallow `copy.copy`.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::Builtin;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::classes::Object;
use crate::interp::value::{Dict, Value};
use crate::row;
use crate::tensor::Tensor;

pub const ROWS: &[Builtin] = &[
    row!(
        Module,
        "copy.deepcopy",
        "copy.deepcopy(x)",
        "A copy of x and of everything it holds: tensors get their own data, modules their own parameters.",
        "import copy; copy.deepcopy([torch.ones(2)])",
        deepcopy
    ),
    row!(
        Module,
        "copy.copy",
        "copy.copy(x)",
        "A shallow copy: a new list, dict or object holding the same items.",
        "import copy; copy.copy([1, 2])",
        shallow
    ),
];

fn deepcopy(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.value("x")?;
    a.finish()?;
    Copier::default().value(&x)
}

fn shallow(_: &mut Interp, mut a: Args) -> Result<Value> {
    let x = a.value("x")?;
    a.finish()?;
    Ok(match &x {
        Value::List(l) => Value::List(Rc::new(RefCell::new(l.borrow().clone()))),
        Value::Dict(d) => Value::Dict(Rc::new(RefCell::new(d.borrow().clone()))),
        Value::Object(o) => Value::Object(Rc::new(Object {
            class: o.class.clone(),
            attrs: RefCell::new(o.attrs.borrow().clone()),
        })),
        _ => x.clone(),
    })
}

/// Deep copies, each shared value copied once (Python's memo): a tensor or
/// module held twice is still one, shared, in the copy.
#[derive(Default)]
struct Copier {
    memo: HashMap<usize, Value>,
}

impl Copier {
    fn value(&mut self, v: &Value) -> Result<Value> {
        let key = match v {
            Value::List(l) => Rc::as_ptr(l) as *const u8 as usize,
            Value::Dict(d) => Rc::as_ptr(d) as *const u8 as usize,
            Value::Object(o) => Rc::as_ptr(o) as *const u8 as usize,
            Value::Tensor(t) => t.identity(),
            _ => return self.fresh(v),
        };
        if let Some(done) = self.memo.get(&key) {
            return Ok(done.clone());
        }
        // Containers enter the memo before their items are copied, so a cycle
        // meets the copy under way.
        let out = match v {
            Value::List(l) => {
                let out = Rc::new(RefCell::new(vec![]));
                self.memo.insert(key, Value::List(out.clone()));
                let items = l.borrow().clone();
                for item in &items {
                    let c = self.value(item)?;
                    out.borrow_mut().push(c);
                }
                Value::List(out)
            }
            Value::Dict(d) => {
                let src = d.borrow().clone();
                let mut empty = Dict::default();
                empty.ordered = src.ordered;
                let out = Rc::new(RefCell::new(empty));
                self.memo.insert(key, Value::Dict(out.clone()));
                for (k, item) in src.iter() {
                    let (k, c) = (self.value(k)?, self.value(item)?);
                    out.borrow_mut().insert_key(k, c);
                }
                Value::Dict(out)
            }
            Value::Object(o) => {
                let out = Rc::new(Object {
                    class: o.class.clone(),
                    attrs: RefCell::new(vec![]),
                });
                self.memo.insert(key, Value::Object(out.clone()));
                let attrs = o.attrs.borrow().clone();
                for (name, item) in &attrs {
                    let c = self.value(item)?;
                    out.attrs.borrow_mut().push((name.clone(), c));
                }
                Value::Object(out)
            }
            Value::Tensor(t) => Value::Tensor(tensor(t)?),
            // The keyed kinds are all above; anything else copies as a value.
            other => return self.fresh(other),
        };
        self.memo.insert(key, out.clone());
        Ok(out)
    }

    fn fresh(&mut self, v: &Value) -> Result<Value> {
        Ok(match v {
            Value::Tuple(items) => Value::Tuple(Rc::new(
                items.iter().map(|i| self.value(i)).collect::<Result<_>>()?,
            )),
            Value::Array(t) => Value::Array(t.detached().deep_clone()?),
            // Numbers, strings, functions, classes and the rest are immutable
            // or shared, as in Python.
            other => other.clone(),
        })
    }
}

/// PyTorch's Tensor.__deepcopy__: new data; a leaf keeps requires_grad, a
/// parameter stays a parameter.
fn tensor(t: &Tensor) -> Result<Tensor> {
    let out = t.detached().deep_clone()?;
    if t.requires_grad() {
        out.set_requires_grad(true);
    }
    if crate::nn::parameter::is_parameter(t) {
        crate::nn::parameter::mark(&out);
    }
    Ok(out)
}
