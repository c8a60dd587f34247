//! Runtime values of the language.

use std::cell::RefCell;
use std::hash::BuildHasherDefault;
use std::rc::Rc;

use crate::error::{Result, type_err, value_err};
use crate::syntax::ast::{FnDef, Slot};
use crate::tensor::{DType, Device, Tensor};

use super::builtins::Builtin;
use super::pyhash::{Fx, Key, Probe, StrProbe};

#[derive(Clone)]
pub enum Value {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A Python complex number (re, im).
    Complex(f64, f64),
    /// A Python set (insertion-ordered; members compare as `==` does).
    Set(Rc<RefCell<crate::interp::pyset::Members>>),
    /// A caught exception (`except E as e`): the error, which `raise e` raises again.
    Exception(Rc<crate::error::Error>),
    Str(crate::interp::pystr::PyStr),
    List(Rc<RefCell<Vec<Value>>>),
    Tuple(Rc<Vec<Value>>),
    /// `torch.return_types.max(values=..., indices=...)` and friends.
    Named(Rc<NamedTuple>),
    Range(i64, i64, i64),
    /// `...` as a value (it indexes like `...` inside brackets).
    Ellipsis,
    Tensor(Tensor),
    /// A sparse tensor (COO, CSR, CSC, BSR or BSC): its indices and values
    /// are dense tensors (tensor/sparse).
    Sparse(Rc<crate::tensor::sparse::SparseTensor>),
    /// `torch.strided`, `torch.sparse_coo`...: a tensor layout, by PyTorch's name.
    Layout(&'static str),
    /// A quantized tensor (`torch.quantize_per_tensor`): integers, scale, zero point.
    QTensor(crate::tensor::quantized::QTensor),
    DType(DType),
    /// `torch.quint8`, `torch.qint8`, `torch.qint32`: the quantized dtypes.
    QDType(crate::tensor::quantized::QDType),
    /// `torch.per_tensor_affine` and the other quantization schemes.
    QScheme(crate::tensor::quantized::QScheme),
    Device(Device),
    /// `torch.device("cuda")`: a device named by its type alone. Tensors made
    /// on it go to the current device (cuda:0), but it prints, and compares, as
    /// PyTorch's index-less device.
    DeviceType(Device),
    Shape(Rc<Vec<usize>>),
    Function(Rc<Func>),
    Builtin(&'static Builtin),
    /// A method bound to its receiver: `t.sum` before it is called.
    Method(Rc<(Value, &'static Builtin)>),
    /// A namespace such as `torch` or `torch.nn.functional`.
    Module(&'static str),
    /// `t.grad_fn`: the autograd node that made a tensor.
    GradFn(std::sync::Arc<crate::autograd::Node>),
    /// `SGD([w], lr=0.1)` and the other optimizers.
    Optimizer(Rc<crate::interp::builtins::optim::OptimizerValue>),
    /// `progress(range(n))`: iterates as its inner value, drawing a bar.
    Progress(Rc<Value>),
    /// A dict with string keys in insertion order (`load("d.npz")`, `dict(a=1)`).
    Dict(Rc<RefCell<Dict>>),
    /// `d.keys()`, `d.values()`, `d.items()`: live views of a dict.
    DictView(Rc<DictView>),
    /// `torch.no_grad()` and the other grad-mode contexts, for `with`.
    GradMode(GradMode),
    /// `type(x)`: a class, by Python's name for it (`torch.Tensor`, `float`).
    Type(&'static str),
    /// A NumPy ndarray: a tensor with NumPy's face (interp/numpy.rs).
    Array(Tensor),
    /// A class (`nn.Module`, `nn.Linear`, or one the user wrote).
    Class(Rc<crate::interp::classes::Class>),
    /// An instance of a class.
    Object(Rc<crate::interp::classes::Object>),
    /// A method of an instance, before it is called.
    Bound(Rc<crate::interp::classes::Bound>),
    /// `super()`: the instance, seen from a class's bases.
    Super(Rc<(Value, Rc<crate::interp::classes::Class>)>),
    /// `iter(xs)`, or what calling a generator function gave.
    Iter(Rc<RefCell<Iter>>),
    /// An object tsh only names: `torch.manual_seed` returns the generator.
    Opaque(&'static str),
    /// `torch.Generator()`: a random stream of its own, for `generator=`.
    Generator(Rc<RefCell<crate::tensor::ops::creation::GeneratorState>>),
    /// `torch.distributions.Normal(0., 1.)` and the others.
    Distribution(Rc<crate::interp::builtins::distributions::Dist>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GradMode {
    NoGrad,
    EnableGrad,
    InferenceMode,
    /// `set_grad_enabled(on)`, which already switched; `before` is put back after a `with`.
    Set {
        on: bool,
        before: bool,
    },
}

impl GradMode {
    /// Grad mode inside the `with` block.
    pub fn enabled(self) -> bool {
        match self {
            GradMode::NoGrad | GradMode::InferenceMode => false,
            GradMode::EnableGrad => true,
            GradMode::Set { on, .. } => on,
        }
    }

    /// PyTorch's class for it.
    pub fn class(self) -> &'static str {
        match self {
            GradMode::NoGrad => "torch.autograd.grad_mode.no_grad",
            GradMode::EnableGrad => "torch.autograd.grad_mode.enable_grad",
            GradMode::InferenceMode => "torch.autograd.grad_mode.inference_mode",
            GradMode::Set { .. } => "torch.autograd.grad_mode.set_grad_enabled",
        }
    }
}

/// A user function: its definition and, when it was made inside another
/// function's call, that call's scope (a closure: names resolve there, live).
pub struct Func {
    pub def: Rc<FnDef>,
    pub env: Option<Rc<Scope>>,
    /// Parameter defaults, evaluated once when the function was made (as Python does).
    pub defaults: Vec<Option<Value>>,
    /// Grad mode while it runs (`@torch.no_grad()` above the def).
    pub grad_mode: Option<bool>,
    /// What looking it up on a class or instance binds it to.
    pub binding: Binding,
    /// A property's setter (`@x.setter`), called on assignment to the name.
    pub setter: Option<Rc<Func>>,
}

/// `@staticmethod` and `@classmethod` change what a method is called with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Binding {
    /// The instance it is looked up on (a plain method).
    Instance,
    /// Nothing.
    Static,
    /// The class.
    Class,
    /// `@property`: called with the instance when the name is read.
    Property,
}

impl Func {
    /// The same function, bound differently (`staticmethod(f)`).
    pub fn rebound(&self, binding: Binding) -> Func {
        Func {
            def: self.def.clone(),
            env: self.env.clone(),
            defaults: self.defaults.clone(),
            grad_mode: self.grad_mode,
            binding,
            setter: self.setter.clone(),
        }
    }
}

impl std::ops::Deref for Func {
    type Target = FnDef;
    fn deref(&self) -> &FnDef {
        &self.def
    }
}

/// Items handed out one at a time by `next`; `for` takes the rest.
pub struct Iter {
    /// What its repr calls it: `list_iterator`, `generator object f`.
    pub label: String,
    pub items: Vec<Value>,
    pub pos: usize,
    /// A generator's body, suspended at its last `yield` (after `items`).
    pub lazy: Option<super::generator::Lazy>,
    /// The body is running now (it may not resume itself).
    pub running: bool,
}

impl Iter {
    pub fn value(label: String, items: Vec<Value>) -> Value {
        Value::Iter(Rc::new(RefCell::new(Iter {
            label,
            items,
            pos: 0,
            lazy: None,
            running: false,
        })))
    }

    /// A generator whose items its body makes on demand.
    pub fn lazy(label: String, body: super::generator::Lazy) -> Value {
        Value::Iter(Rc::new(RefCell::new(Iter {
            label,
            items: Vec::new(),
            pos: 0,
            lazy: Some(body),
            running: false,
        })))
    }
}

/// Variables by name, in the order they were first bound (Python's `locals()`
/// order), each at a stable index that a name's `Slot` remembers. Hashed with
/// FxHash (rustc's hasher: a multiply and a rotate per word), not SipHash: names
/// are the program's own, not hostile input, and a loop's every statement looks
/// names up.
pub type Vars = indexmap::IndexMap<Rc<str>, Value, BuildHasherDefault<FxHasher>>;

/// The variable at `slot` in `vars` when it is `name`'s; else `name`'s own, by
/// hash, with `slot` updated for the next time.
pub fn slotted<'a>(vars: &'a Vars, name: &Rc<str>, slot: &Slot) -> Option<&'a Value> {
    if let Some((key, v)) = vars.get_index(slot.get())
        && (Rc::ptr_eq(key, name) || **key == **name)
    {
        return Some(v);
    }
    let (i, _, v) = vars.get_full(&**name)?;
    slot.set(i);
    Some(v)
}

/// The variable at `slot` in `vars` when it is `name`'s, else `name`'s own by
/// hash (`slot` updated), for writing in place.
pub fn slotted_mut<'a>(vars: &'a mut Vars, name: &Rc<str>, slot: &Slot) -> Option<&'a mut Value> {
    let i = match vars.get_index(slot.get()) {
        Some((key, _)) if Rc::ptr_eq(key, name) || **key == **name => slot.get(),
        _ => {
            let i = vars.get_index_of(&**name)?;
            slot.set(i);
            i
        }
    };
    vars.get_index_mut(i).map(|(_, v)| v)
}

/// Bind `name` in `vars`: in place at `slot` when that is `name`'s, else by hash
/// (a new name goes at the end).
#[inline]
pub fn bind_slotted(vars: &mut Vars, name: &Rc<str>, slot: &Slot, v: Value) {
    // A name already bound (a loop's variables) is overwritten where it is:
    // no key to hash in and drop again.
    if let Some(old) = slotted_mut(vars, name, slot) {
        *old = v;
        return;
    }
    let (i, _) = vars.insert_full(name.clone(), v);
    slot.set(i);
}

#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

impl std::hash::Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0xf1357aea2e62a9c5;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
            self.0 = (self.0.rotate_left(26) ^ w).wrapping_mul(K);
        }
        let mut tail = 0u64;
        for (i, &b) in chunks.remainder().iter().enumerate() {
            tail |= (b as u64) << (8 * i);
        }
        self.0 = (self.0.rotate_left(26) ^ tail).wrapping_mul(K);
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(26) ^ i as u64).wrapping_mul(0xf1357aea2e62a9c5);
    }
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// One function call's variables, and the scope its function was made in.
/// (A function stored in the scope it closes over makes a cycle that is never
/// freed; such functions are small.)
#[derive(Default)]
pub struct Scope {
    pub vars: RefCell<crate::interp::value::Vars>,
    pub parent: Option<Rc<Scope>>,
}

impl Scope {
    /// The innermost binding of `name` along the chain.
    pub fn find(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.vars.borrow().get(name) {
            return Some(v.clone());
        }
        self.parent.as_ref().and_then(|p| p.find(name))
    }
}

/// Keys (strings, numbers, None, tuples of them) in insertion order, as Python's
/// dict keeps them, in a hash table (`pyhash`): a lookup is one probe however
/// many keys there are.
#[derive(Clone, Default)]
pub struct Dict {
    map: indexmap::IndexMap<Key, Value, Fx>,
    /// A `collections.OrderedDict` (what state_dict() returns): printed as one.
    pub ordered: bool,
}

impl Dict {
    pub fn from_pairs(pairs: impl IntoIterator<Item = (Value, Value)>) -> Dict {
        let mut d = Dict::default();
        for (k, v) in pairs {
            d.insert_key(k, v);
        }
        d
    }
    pub fn len(&self) -> usize {
        self.map.len()
    }
    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
    /// Keys and values in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.map.iter().map(|(k, v)| (&k.0, v))
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(&StrProbe(key))
    }
    pub fn get_key(&self, key: &Value) -> Option<&Value> {
        self.map.get(&Probe(key))
    }
    pub fn get_key_mut(&mut self, key: &Value) -> Option<&mut Value> {
        self.map.get_mut(&Probe(key))
    }
    pub fn insert(&mut self, key: crate::interp::pystr::PyStr, v: Value) {
        self.insert_key(Value::Str(key), v)
    }
    /// Bind `key`; a key already there keeps its place (and its first spelling:
    /// `d[1.0] = x` after `d[1]` leaves the key `1`, as in Python).
    pub fn insert_key(&mut self, key: Value, v: Value) {
        match self.map.entry(Key(key)) {
            indexmap::map::Entry::Occupied(mut e) => *e.get_mut() = v,
            indexmap::map::Entry::Vacant(e) => {
                e.insert(v);
            }
        }
    }
    /// Remove a key (the others keep their order); its value, or None when it
    /// was not there.
    pub fn remove_key(&mut self, key: &Value) -> Option<Value> {
        self.map.shift_remove(&Probe(key))
    }
    /// The last pair, taken out (`popitem`).
    pub fn pop_last(&mut self) -> Option<(Value, Value)> {
        self.map.pop().map(|(k, v)| (k.0, v))
    }
    pub fn clear(&mut self) {
        self.map.clear()
    }
    /// The keys as printed (for suggestions in messages).
    pub fn keys(&self) -> Vec<String> {
        self.map
            .keys()
            .map(|k| crate::print::value::repr_with(&k.0, &Default::default()))
            .collect()
    }
}

/// What a dict view shows of its dict.
#[derive(Clone, Copy, PartialEq)]
pub enum ViewKind {
    Keys,
    Values,
    Items,
}

/// `d.keys()` and its kin: they see the dict as it is when used (Python's
/// views), and `k in d.keys()` is a hash lookup.
pub struct DictView {
    pub dict: Rc<RefCell<Dict>>,
    pub kind: ViewKind,
}

impl DictView {
    /// `dict_keys`, `odict_values`...: Python's class name for the view.
    pub fn class_name(&self) -> &'static str {
        match (self.dict.borrow().ordered, self.kind) {
            (false, ViewKind::Keys) => "dict_keys",
            (false, ViewKind::Values) => "dict_values",
            (false, ViewKind::Items) => "dict_items",
            (true, ViewKind::Keys) => "odict_keys",
            (true, ViewKind::Values) => "odict_values",
            (true, ViewKind::Items) => "odict_items",
        }
    }

    /// The keys, values or (key, value) pairs, in the dict's order.
    pub fn items(&self) -> Vec<Value> {
        let d = self.dict.borrow();
        match self.kind {
            ViewKind::Keys => d.iter().map(|(k, _)| k.clone()).collect(),
            ViewKind::Values => d.iter().map(|(_, v)| v.clone()).collect(),
            ViewKind::Items => d
                .iter()
                .map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()]))
                .collect(),
        }
    }

    /// `x in view`: keys by hash, pairs by their key's value, values by a scan.
    pub fn contains(&self, x: &Value) -> bool {
        let d = self.dict.borrow();
        let equal = crate::interp::ops::values_equal;
        match self.kind {
            ViewKind::Keys => d.get_key(x).is_some(),
            ViewKind::Values => d.iter().any(|(_, v)| equal(v, x)),
            ViewKind::Items => match x {
                Value::Tuple(kv) if kv.len() == 2 => {
                    d.get_key(&kv[0]).is_some_and(|v| equal(v, &kv[1]))
                }
                _ => false,
            },
        }
    }
}

/// Python's hashable values: what a dict key may be.
pub fn check_hashable(k: &Value) -> Result<()> {
    match k {
        Value::Str(_)
        | Value::Int(_)
        | Value::Float(_)
        | Value::Bool(_)
        | Value::Complex(..)
        | Value::None => Ok(()),
        Value::Tuple(items) => items.iter().try_for_each(check_hashable),
        other => Err(type_err(format!(
            "unhashable type: '{}'",
            crate::interp::builtins::class_of(other)
        ))),
    }
}

pub struct NamedTuple {
    pub name: &'static str,
    pub fields: Vec<(&'static str, Value)>,
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Rc::new(RefCell::new(items)))
    }
    pub fn tuple(items: Vec<Value>) -> Value {
        Value::Tuple(Rc::new(items))
    }
    pub fn dict(items: Vec<(Rc<str>, Value)>) -> Value {
        let pairs = items.into_iter().map(|(k, v)| (Value::Str(k.into()), v));
        Value::Dict(Rc::new(RefCell::new(Dict::from_pairs(pairs))))
    }
    pub fn ordered_dict(items: Vec<(Value, Value)>) -> Value {
        let mut d = Dict::from_pairs(items);
        d.ordered = true;
        Value::Dict(Rc::new(RefCell::new(d)))
    }
    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }

    /// The type's name as error messages show it.
    /// The type name with its article, for messages: "an int", "a tensor".
    pub fn a_type_name(&self) -> String {
        let name = self.type_name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {name}")
    }

    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "none",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Complex(..) => "complex",
            Value::Exception(_) => "exception",
            Value::Set(_) => "set",
            Value::DictView(v) => v.class_name(),
            Value::Str(_) => "str",
            Value::List(_) => "list",
            Value::Tuple(_) => "tuple",
            Value::Named(_) => "tuple",
            Value::Range(..) => "range",
            Value::Ellipsis => "ellipsis",
            Value::Tensor(_) => "tensor",
            Value::Sparse(_) => "sparse tensor",
            Value::Layout(_) => "layout",
            Value::QTensor(_) => "quantized tensor",
            Value::DType(_) | Value::QDType(_) => "dtype",
            Value::QScheme(_) => "qscheme",
            Value::Device(_) | Value::DeviceType(_) => "device",
            Value::Shape(_) => "shape",
            Value::Function(_) => "function",
            Value::Builtin(_) => "builtin function",
            Value::Method(_) => "method",
            Value::Module(_) => "module",
            Value::GradFn(_) => "grad_fn",
            Value::Optimizer(_) => "optimizer",
            Value::Generator(_) => "torch.Generator",
            Value::Progress(_) => "progress",
            Value::Dict(_) => "dict",
            Value::GradMode(_) => "grad mode",
            Value::Type(_) => "type",
            Value::Array(_) => "ndarray",
            Value::Distribution(_) => "distribution",
            Value::Opaque(_) => "object",
            Value::Iter(_) => "iterator",
            Value::Class(_) => "class",
            Value::Object(_) => "object",
            Value::Bound(_) => "method",
            Value::Super(_) => "super",
        }
    }

    /// Python truthiness; a tensor must hold exactly one element.
    pub fn truthy(&self) -> Result<bool> {
        Ok(match self {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Dict(d) => !d.borrow().is_empty(),
            Value::Set(s) => !s.borrow().is_empty(),
            Value::DictView(v) => !v.dict.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Named(_) => true,
            Value::Range(a, b, s) => range_len(*a, *b, *s) > 0,
            Value::Shape(s) => !s.is_empty(),
            Value::Tensor(t) => {
                if t.numel() != 1 {
                    return Err(value_err(format!(
                        "the truth value of a tensor with {} elements is ambiguous",
                        t.numel()
                    ))
                    .hint("use t.any() or t.all() to reduce it to one bool"));
                }
                crate::tensor::ops::scalar::item_bool(t)?
            }
            Value::QTensor(_) => {
                return Err(type_err("a quantized tensor has no truth value in tsh")
                    .hint("test its dequantize() (or int_repr()) instead"));
            }
            _ => true,
        })
    }

    /// The length of a list, tuple, named tuple, range, shape or string
    /// (0 for anything else), as `len` gives it.
    pub fn sequence_len(&self) -> usize {
        match self {
            Value::List(l) => l.borrow().len(),
            Value::Tuple(t) => t.len(),
            Value::Named(n) => n.fields.len(),
            Value::Range(a, b, s) => range_len(*a, *b, *s) as usize,
            Value::Shape(s) => s.len(),
            Value::Str(s) => s.char_len(),
            _ => 0,
        }
    }

    /// Item `j` of what `sequence_len` measures, read in place (None past
    /// the end).
    pub fn sequence_item(&self, j: usize) -> Option<Value> {
        match self {
            Value::List(l) => l.borrow().get(j).cloned(),
            Value::Tuple(t) => t.get(j).cloned(),
            Value::Named(n) => n.fields.get(j).map(|(_, v)| v.clone()),
            Value::Range(a, b, s) => (j < range_len(*a, *b, *s) as usize)
                .then(|| Value::Int(a.wrapping_add((j as i64).wrapping_mul(*s)))),
            Value::Shape(s) => s.get(j).map(|&d| Value::Int(d as i64)),
            Value::Str(s) => s.char_at(j).map(Value::Str),
            _ => None,
        }
    }

    /// Items of an iterable value (list, tuple, range, shape, tensor's first axis, str).
    pub fn iter_items(&self) -> Result<Vec<Value>> {
        Ok(match self {
            Value::List(l) => l.borrow().clone(),
            Value::Tuple(t) => t.as_ref().clone(),
            Value::Named(n) => n.fields.iter().map(|(_, v)| v.clone()).collect(),
            Value::Range(a, b, s) => {
                let n = range_len(*a, *b, *s);
                check_items(n as u128)?;
                (0..n).map(|i| Value::Int(a + i * s)).collect()
            }
            Value::Shape(s) => s.iter().map(|&d| Value::Int(d as i64)).collect(),
            Value::Progress(inner) => inner.iter_items()?,
            Value::Iter(it) => super::generator::drain(it)?,
            Value::Dict(d) => d.borrow().iter().map(|(k, _)| k.clone()).collect(),
            Value::Set(s) => crate::interp::pyset::ordered(&s.borrow()),
            Value::DictView(v) => v.items(),
            Value::Str(s) => s.chars().map(|c| Value::Str(c.into())).collect(),
            Value::Tensor(t) => {
                if t.ndim() == 0 {
                    return Err(type_err("iteration over a 0-d tensor")
                        .hint("use .item() to get its value"));
                }
                check_items(t.shape()[0] as u128)?;
                crate::tensor::ops::split::unbind(t, 0)?
                    .into_iter()
                    .map(Value::Tensor)
                    .collect()
            }
            Value::Array(t) => crate::interp::numpy::wrap(Value::Tensor(t.clone()))
                .and_then(|_| Value::Tensor(t.clone()).iter_items())?
                .into_iter()
                .map(crate::interp::numpy::wrap)
                .collect::<Result<_>>()?,
            v => return Err(type_err(format!("{} is not iterable", v.a_type_name()))),
        })
    }
}

pub fn range_len(start: i64, stop: i64, step: i64) -> i64 {
    i64::try_from(range_len_exact(start, stop, step)).unwrap_or(i64::MAX)
}

/// A range's length in i128: `range(-9 * 10**18, 9 * 10**18)` has more items
/// than an i64 counts (`range_len` saturates).
pub fn range_len_exact(start: i64, stop: i64, step: i64) -> i128 {
    let (start, stop, step) = (start as i128, stop as i128, step as i128);
    if step > 0 && stop > start {
        (stop - start + step - 1) / step
    } else if step < 0 && stop < start {
        (start - stop - step - 1) / (-step)
    } else {
        0
    }
}

/// Deepest nesting of containers that printing, comparison and conversion
/// follow. Lists can hold themselves (`x.append(x)`) or be nested a million deep
/// by a loop (`x = [x]`); past this depth a walk stops instead of overflowing
/// the stack.
pub const MAX_VALUE_DEPTH: usize = 500;

thread_local! {
    static VALUE_DEPTH: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// One level of a recursive walk over nested values; dropping it leaves the level.
pub struct Nested(());

impl Nested {
    /// None when the walk is already MAX_VALUE_DEPTH deep.
    pub fn enter() -> Option<Nested> {
        VALUE_DEPTH.with(|d| {
            if d.get() >= MAX_VALUE_DEPTH {
                None
            } else {
                d.set(d.get() + 1);
                Some(Nested(()))
            }
        })
    }
}

impl Drop for Nested {
    fn drop(&mut self) {
        VALUE_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    }
}

/// Most items a list, tuple or string may hold: beyond it, a `memory` error
/// rather than an allocation that aborts the process.
pub const MAX_ITEMS: u128 = 1 << 24;

pub fn check_items(n: u128) -> Result<()> {
    // Each item is a Value, plus whatever it holds; below ~1M items nothing to ask.
    let bytes = n * std::mem::size_of::<Value>() as u128;
    let too_big_for_memory = n > 1 << 20 && bytes > crate::tensor::core::memory_limit() as u128;
    if n > MAX_ITEMS || too_big_for_memory {
        return Err(crate::error::Error::new(
            crate::error::ErrorKind::Memory,
            format!("a sequence of {n} items is too large (the limit is {MAX_ITEMS})"),
        )
        .hint("iterate a range lazily with `for`, or build a tensor (arange) instead of a list"));
    }
    Ok(())
}
