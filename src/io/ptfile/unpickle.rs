//! The data.pkl half of a torch checkpoint, reading side: a restricted
//! unpickler that, like `torch.load(weights_only=True)`, only knows a fixed
//! set of globals and never runs anything.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::pickle::*;
use super::{DType, PyObj, TensorData};

/// A value on the unpickler's stack or in its memo. Clones are cheap (`Rc`),
/// because BINGET copies values.
#[derive(Clone)]
enum Val {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Tuple(Rc<Seq>),
    List(Rc<RefCell<Seq>>),
    Dict(Rc<RefCell<Map>>),
    /// The data is shared so a Parameter can wrap a memoised tensor uncopied.
    Tensor {
        t: Rc<TensorData>,
        requires_grad: bool,
        parameter: bool,
    },
    Global(Global),
    Storage {
        dtype: DType,
        bytes: Rc<Vec<u8>>,
        numel: usize,
    },
}

/// Items of a list or tuple. `depth` is the nesting below it; `sealed` is set
/// once it is placed inside another container: pickles fill a container
/// before nesting it, so refusing later changes keeps `depth` exact (which
/// bounds recursion) and rules out cycles.
struct Seq {
    items: Vec<Val>,
    depth: usize,
    sealed: bool,
}

struct Map {
    items: Vec<(Val, Val)>,
    depth: usize,
    sealed: bool,
    ordered: bool,
}

/// The globals a checkpoint may name (torch's weights_only allow-list, cut
/// down to what PyObj can hold).
#[derive(Clone, Copy, Debug)]
enum Global {
    OrderedDict,
    RebuildTensor,
    RebuildParameter,
    StorageClass(DType),
    Device,
}

/// Resolves GLOBAL module.name against the allow-list.
fn resolve_global(module: &str, name: &str) -> Result<Global, String> {
    match (module, name) {
        ("collections", "OrderedDict") => Ok(Global::OrderedDict),
        ("torch._utils", "_rebuild_tensor_v2") => Ok(Global::RebuildTensor),
        ("torch._utils", "_rebuild_parameter") => Ok(Global::RebuildParameter),
        ("torch", "device") => Ok(Global::Device),
        ("torch", class) if class.ends_with("Storage") => DType::from_storage_class(class)
            .map(Global::StorageClass)
            .ok_or_else(|| format!("unsupported tensor dtype: storage class torch.{class}")),
        _ => Err(format!(
            "Weights only load failed: Unsupported global: GLOBAL {module}.{name} \
             (only tensors, parameters and plain containers can be read)"
        )),
    }
}

/// Unpickles data.pkl; `storages` are the `data/<key>` records by key.
/// `budget` caps the bytes of tensors and strings produced.
pub(super) fn load(
    pkl: &[u8],
    storages: &HashMap<String, Rc<Vec<u8>>>,
    big_endian: bool,
    budget: u64,
) -> Result<PyObj, String> {
    let mut u = Unpickler {
        input: pkl,
        pos: 0,
        stack: Vec::new(),
        marks: Vec::new(),
        memo: HashMap::new(),
        storages,
        big_endian,
        budget,
    };
    let root = u.run()?;
    let mut budget = u.budget;
    // Dropping the memo and stack leaves `root` the only owner of unshared
    // values, so their data moves into the result instead of being copied.
    drop(u);
    into_pyobj(root, 0, &mut budget)
}

struct Unpickler<'a> {
    input: &'a [u8],
    pos: usize,
    stack: Vec<Val>,
    /// Stack lengths at each MARK.
    marks: Vec<usize>,
    memo: HashMap<u32, Val>,
    storages: &'a HashMap<String, Rc<Vec<u8>>>,
    big_endian: bool,
    budget: u64,
}

impl<'a> Unpickler<'a> {
    fn run(&mut self) -> Result<Val, String> {
        loop {
            let at = self.pos;
            let op = self.byte()?;
            match op {
                STOP => return self.pop(),
                _ => self
                    .step(op)
                    .map_err(|e| format!("{e} (data.pkl byte {at})"))?,
            }
        }
    }

    fn step(&mut self, op: u8) -> Result<(), String> {
        match op {
            PROTO => {
                let version = self.byte()?;
                if version > 5 {
                    return Err(format!("unsupported pickle protocol {version}"));
                }
            }
            FRAME => {
                self.take(8)?; // frames only matter for streaming readers
            }
            MARK => self.marks.push(self.stack.len()),
            POP => {
                self.pop()?;
            }
            POP_MARK => {
                self.pop_mark()?;
            }
            DUP => {
                let top = self.top()?.clone();
                self.stack.push(top);
            }
            NONE => self.stack.push(Val::None),
            NEWTRUE => self.stack.push(Val::Bool(true)),
            NEWFALSE => self.stack.push(Val::Bool(false)),
            BININT1 => {
                let v = self.byte()?;
                self.stack.push(Val::Int(v.into()));
            }
            BININT2 => {
                let v = u16::from_le_bytes(self.array()?);
                self.stack.push(Val::Int(v.into()));
            }
            BININT => {
                let v = i32::from_le_bytes(self.array()?);
                self.stack.push(Val::Int(v.into()));
            }
            LONG1 => {
                let n = self.byte()?.into();
                self.long(n)?;
            }
            LONG4 => {
                let n = u32::from_le_bytes(self.array()?) as usize;
                self.long(n)?;
            }
            BINFLOAT => {
                let v = f64::from_be_bytes(self.array()?);
                self.stack.push(Val::Float(v));
            }
            SHORT_BINUNICODE => {
                let n = self.byte()?.into();
                self.string(n)?;
            }
            BINUNICODE => {
                let n = u32::from_le_bytes(self.array()?) as usize;
                self.string(n)?;
            }
            BINUNICODE8 => {
                let n = usize::try_from(u64::from_le_bytes(self.array()?))
                    .map_err(|_| "string too long")?;
                self.string(n)?;
            }
            EMPTY_TUPLE => self.stack.push(new_tuple(Vec::new())?),
            TUPLE1 | TUPLE2 | TUPLE3 => {
                let items = self.pop_n(usize::from(op - TUPLE1 + 1))?;
                self.stack.push(new_tuple(items)?);
            }
            TUPLE => {
                let items = self.pop_mark()?;
                self.stack.push(new_tuple(items)?);
            }
            EMPTY_LIST => self.stack.push(Val::List(Rc::new(RefCell::new(Seq {
                items: Vec::new(),
                depth: 0,
                sealed: false,
            })))),
            EMPTY_DICT => self.stack.push(new_dict(false)),
            APPEND => {
                let item = self.pop()?;
                self.append(vec![item])?;
            }
            APPENDS => {
                let items = self.pop_mark()?;
                self.append(items)?;
            }
            SETITEM => {
                let value = self.pop()?;
                let key = self.pop()?;
                self.set_items(vec![key, value])?;
            }
            SETITEMS => {
                let items = self.pop_mark()?;
                self.set_items(items)?;
            }
            BINPUT => {
                let idx = self.byte()?.into();
                self.memo_put(idx)?;
            }
            LONG_BINPUT => {
                let idx = u32::from_le_bytes(self.array()?);
                self.memo_put(idx)?;
            }
            MEMOIZE => {
                let idx = u32::try_from(self.memo.len()).map_err(|_| "memo overflow")?;
                self.memo_put(idx)?;
            }
            BINGET => {
                let idx = self.byte()?.into();
                self.memo_get(idx)?;
            }
            LONG_BINGET => {
                let idx = u32::from_le_bytes(self.array()?);
                self.memo_get(idx)?;
            }
            GLOBAL => {
                let module = self.line()?;
                let name = self.line()?;
                self.stack.push(Val::Global(resolve_global(module, name)?));
            }
            STACK_GLOBAL => {
                let name = self.pop()?;
                let module = self.pop()?;
                let (Val::Str(module), Val::Str(name)) = (module, name) else {
                    return Err("STACK_GLOBAL needs two strings".into());
                };
                self.stack
                    .push(Val::Global(resolve_global(&module, &name)?));
            }
            REDUCE => {
                let args = self.pop()?;
                let callable = self.pop()?;
                let (Val::Global(g), Val::Tuple(args)) = (callable, args) else {
                    return Err("REDUCE needs a global and an argument tuple".into());
                };
                let result = self.call(g, &args.items)?;
                self.stack.push(result);
            }
            BINPERSID => {
                let pid = self.pop()?;
                let storage = self.persistent_load(pid)?;
                self.stack.push(storage);
            }
            BUILD => {
                // Only OrderedDict state (state_dict's `_metadata`) and tensor
                // state occur; neither has a place in PyObj, so drop it.
                self.pop()?;
                if !matches!(self.top()?, Val::Dict(_) | Val::Tensor { .. }) {
                    return Err("BUILD on an unsupported object".into());
                }
            }
            _ => {
                return Err(format!(
                    "unsupported pickle opcode {} (0x{op:02x})",
                    opcode_name(op)
                ));
            }
        }
        Ok(())
    }

    // ---- input

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.pos.checked_add(n).filter(|&e| e <= self.input.len());
        let end = end.ok_or("data.pkl ends early (truncated checkpoint?)")?;
        let bytes = &self.input[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let bytes = self.take(N)?;
        bytes
            .try_into()
            .map_err(|_| "data.pkl ends early".to_string())
    }

    /// A newline-terminated GLOBAL argument.
    fn line(&mut self) -> Result<&'a str, String> {
        let rest = &self.input[self.pos..];
        let len = rest
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("GLOBAL without newline")?;
        let text = std::str::from_utf8(&rest[..len]).map_err(|_| "GLOBAL name is not UTF-8")?;
        self.pos += len + 1;
        Ok(text)
    }

    /// LONG1/LONG4: little-endian two's complement, at most 8 bytes here.
    fn long(&mut self, n: usize) -> Result<(), String> {
        if n > 8 {
            return Err("integer does not fit in 64 bits".into());
        }
        let bytes = self.take(n)?;
        let fill = if bytes.last().is_some_and(|&b| b >= 0x80) {
            0xff
        } else {
            0
        };
        let mut full = [fill; 8];
        full[..n].copy_from_slice(bytes);
        self.stack.push(Val::Int(i64::from_le_bytes(full)));
        Ok(())
    }

    fn string(&mut self, n: usize) -> Result<(), String> {
        let bytes = self.take(n)?;
        let s = std::str::from_utf8(bytes).map_err(|_| "string is not valid UTF-8")?;
        self.stack.push(Val::Str(s.into()));
        Ok(())
    }

    // ---- stack and memo

    /// Values above the innermost MARK can be used; as in Python, those
    /// below it are out of reach until the mark is consumed.
    fn available(&self) -> usize {
        self.stack.len() - self.marks.last().map_or(0, |&m| m.min(self.stack.len()))
    }

    fn pop(&mut self) -> Result<Val, String> {
        if self.available() == 0 {
            return Err("stack underflow".into());
        }
        self.stack.pop().ok_or_else(|| "stack underflow".into())
    }

    fn pop_n(&mut self, n: usize) -> Result<Vec<Val>, String> {
        if n > self.available() {
            return Err("stack underflow".into());
        }
        Ok(self.stack.split_off(self.stack.len() - n))
    }

    fn top(&self) -> Result<&Val, String> {
        if self.available() == 0 {
            return Err("stack underflow".into());
        }
        self.stack.last().ok_or_else(|| "stack underflow".into())
    }

    fn pop_mark(&mut self) -> Result<Vec<Val>, String> {
        let mark = self.marks.pop().ok_or("missing MARK")?;
        if mark > self.stack.len() {
            return Err("stack underflow".into());
        }
        Ok(self.stack.split_off(mark))
    }

    fn memo_put(&mut self, idx: u32) -> Result<(), String> {
        let top = self.top()?.clone();
        self.memo.insert(idx, top);
        Ok(())
    }

    fn memo_get(&mut self, idx: u32) -> Result<(), String> {
        let v = self
            .memo
            .get(&idx)
            .ok_or_else(|| format!("memo key {idx} missing"))?;
        self.stack.push(v.clone());
        Ok(())
    }

    // ---- containers

    fn append(&mut self, items: Vec<Val>) -> Result<(), String> {
        let depth = seal_all(&items)?;
        let Val::List(list) = self.top()? else {
            return Err("APPEND to something that is not a list".into());
        };
        let mut list = list.try_borrow_mut().map_err(|_| "recursive list")?;
        if list.sealed {
            return Err(
                "list changed after being nested (recursive or shared lists are not supported)"
                    .into(),
            );
        }
        list.depth = list.depth.max(depth + 1);
        list.items.extend(items);
        Ok(())
    }

    /// `items` alternates key, value.
    fn set_items(&mut self, items: Vec<Val>) -> Result<(), String> {
        if !items.len().is_multiple_of(2) {
            return Err("SETITEMS with an odd number of items".into());
        }
        let depth = seal_all(&items)?;
        let Val::Dict(dict) = self.top()? else {
            return Err("SETITEM on something that is not a dict".into());
        };
        let mut dict = dict.try_borrow_mut().map_err(|_| "recursive dict")?;
        if dict.sealed {
            return Err(
                "dict changed after being nested (recursive or shared dicts are not supported)"
                    .into(),
            );
        }
        dict.depth = dict.depth.max(depth + 1);
        let mut items = items.into_iter();
        while let (Some(key), Some(value)) = (items.next(), items.next()) {
            dict.items.push((key, value));
        }
        Ok(())
    }

    // ---- torch semantics

    /// REDUCE: calls an allowed global.
    fn call(&mut self, g: Global, args: &[Val]) -> Result<Val, String> {
        match (g, args) {
            (Global::OrderedDict, []) => Ok(new_dict(true)),
            (Global::RebuildTensor, _) => self.rebuild_tensor(args),
            (Global::RebuildParameter, [Val::Tensor { t, .. }, Val::Bool(rg), ..]) => {
                Ok(Val::Tensor {
                    t: t.clone(),
                    requires_grad: *rg,
                    parameter: true,
                })
            }
            (Global::Device, [Val::Str(kind)]) => Ok(Val::Str(kind.clone())),
            (Global::Device, [Val::Str(kind), Val::Int(index)]) => {
                Ok(Val::Str(format!("{kind}:{index}").into()))
            }
            _ => Err(format!(
                "unsupported call of {g:?} with {} arguments",
                args.len()
            )),
        }
    }

    /// BINPERSID: `('storage', torch.<X>Storage, key, location, numel)`.
    /// The location (e.g. 'cuda:0') is ignored: everything loads to the CPU.
    fn persistent_load(&mut self, pid: Val) -> Result<Val, String> {
        let Val::Tuple(pid) = pid else {
            return Err("persistent id is not a tuple".into());
        };
        let [
            Val::Str(tag),
            Val::Global(Global::StorageClass(dtype)),
            Val::Str(key),
            Val::Str(_),
            Val::Int(numel),
        ] = pid.items.as_slice()
        else {
            return Err("unsupported persistent id (expected a tensor storage)".into());
        };
        if &**tag != "storage" {
            return Err(format!("unsupported persistent id type '{tag}'"));
        }
        let bytes = self
            .storages
            .get(&**key)
            .ok_or_else(|| format!("checkpoint lacks storage record data/{key}"))?;
        let numel = usize::try_from(*numel).map_err(|_| "negative storage size")?;
        let fits = numel
            .checked_mul(dtype.size())
            .is_some_and(|n| n <= bytes.len());
        if !fits {
            return Err(format!(
                "storage data/{key} is shorter than its {numel} elements"
            ));
        }
        Ok(Val::Storage {
            dtype: *dtype,
            bytes: bytes.clone(),
            numel,
        })
    }

    /// `_rebuild_tensor_v2(storage, offset, size, stride, requires_grad,
    /// backward_hooks[, metadata])`; hooks and metadata are ignored.
    fn rebuild_tensor(&mut self, args: &[Val]) -> Result<Val, String> {
        let [
            Val::Storage {
                dtype,
                bytes,
                numel,
            },
            Val::Int(offset),
            Val::Tuple(size),
            Val::Tuple(stride),
            Val::Bool(rg),
            _hooks,
            ..,
        ] = args
        else {
            return Err("malformed _rebuild_tensor_v2 arguments".into());
        };
        let offset = usize::try_from(*offset).map_err(|_| "negative storage offset")?;
        let shape = usize_items(&size.items)?;
        let strides = usize_items(&stride.items)?;
        if shape.len() != strides.len() {
            return Err("tensor size and stride differ in length".into());
        }
        let esize = dtype.size();
        let total = shape.iter().try_fold(esize, |acc, &d| acc.checked_mul(d));
        let total = total.ok_or("tensor too large")?;
        spend(&mut self.budget, total)?;
        let storage = &bytes[..numel * esize];
        let mut data = gather(storage, esize, offset, &shape, &strides)?;
        if self.big_endian {
            data.chunks_exact_mut(esize).for_each(<[u8]>::reverse);
        }
        let t = TensorData {
            dtype: *dtype,
            shape,
            data,
            requires_grad: false,
            parameter: false,
        };
        Ok(Val::Tensor {
            t: Rc::new(t),
            requires_grad: *rg,
            parameter: false,
        })
    }
}

fn new_dict(ordered: bool) -> Val {
    Val::Dict(Rc::new(RefCell::new(Map {
        items: Vec::new(),
        depth: 0,
        sealed: false,
        ordered,
    })))
}

fn new_tuple(items: Vec<Val>) -> Result<Val, String> {
    let depth = seal_all(&items)? + 1;
    Ok(Val::Tuple(Rc::new(Seq {
        items,
        depth,
        sealed: true,
    })))
}

/// Marks `items` as nested and returns their greatest depth.
fn seal_all(items: &[Val]) -> Result<usize, String> {
    let mut depth = 0;
    for item in items {
        let d = match item {
            Val::Tuple(t) => t.depth,
            Val::List(l) => {
                let mut l = l.try_borrow_mut().map_err(|_| "recursive list")?;
                l.sealed = true;
                l.depth
            }
            Val::Dict(d) => {
                let mut d = d.try_borrow_mut().map_err(|_| "recursive dict")?;
                d.sealed = true;
                d.depth
            }
            _ => 0,
        };
        depth = depth.max(d);
    }
    if depth >= MAX_DEPTH {
        return Err("containers nested too deeply".into());
    }
    Ok(depth)
}

fn usize_items(items: &[Val]) -> Result<Vec<usize>, String> {
    items
        .iter()
        .map(|v| match v {
            Val::Int(i) => {
                usize::try_from(*i).map_err(|_| "negative tensor size or stride".to_string())
            }
            _ => Err("tensor size or stride is not an integer".to_string()),
        })
        .collect()
}

fn spend(budget: &mut u64, bytes: usize) -> Result<(), String> {
    *budget = budget
        .checked_sub(bytes as u64)
        .ok_or("checkpoint expands to too much data (malformed?)")?;
    Ok(())
}

/// Copies the elements of the view (offset, shape, strides in elements) of
/// `storage` into a contiguous row-major buffer.
fn gather(
    storage: &[u8],
    esize: usize,
    offset: usize,
    shape: &[usize],
    strides: &[usize],
) -> Result<Vec<u8>, String> {
    let numel: usize = shape.iter().product();
    if numel == 0 {
        return Ok(Vec::new());
    }
    // The farthest element the view touches must lie inside the storage.
    let mut last = offset;
    for (&d, &s) in shape.iter().zip(strides) {
        last = (d - 1)
            .checked_mul(s)
            .and_then(|x| x.checked_add(last))
            .ok_or("tensor view out of range")?;
    }
    if last
        .checked_add(1)
        .and_then(|n| n.checked_mul(esize))
        .is_none_or(|end| end > storage.len())
    {
        return Err("tensor view reaches past the end of its storage".into());
    }
    if strides == contiguous_strides(shape) {
        return Ok(storage[offset * esize..(offset + numel) * esize].to_vec());
    }
    let mut out = Vec::with_capacity(numel * esize);
    let mut index = vec![0usize; shape.len()];
    let mut pos = offset;
    for _ in 0..numel {
        out.extend_from_slice(&storage[pos * esize..(pos + 1) * esize]);
        // Advance the multi-index like an odometer, tracking the element position.
        // Wrapping: a size-1 dim may carry any stride; the sums stay exact.
        for dim in (0..shape.len()).rev() {
            index[dim] += 1;
            pos = pos.wrapping_add(strides[dim]);
            if index[dim] < shape[dim] {
                break;
            }
            pos = pos.wrapping_sub(strides[dim].wrapping_mul(shape[dim]));
            index[dim] = 0;
        }
    }
    Ok(out)
}

/// Converts the unpickled value, moving data out of values no longer shared.
fn into_pyobj(v: Val, depth: usize, budget: &mut u64) -> Result<PyObj, String> {
    if depth > MAX_DEPTH {
        return Err("containers nested too deeply".into());
    }
    spend(budget, 16)?; // per node, so shared subtrees cannot explode
    let items = |items: Vec<Val>, budget: &mut u64| -> Result<Vec<PyObj>, String> {
        items
            .into_iter()
            .map(|v| into_pyobj(v, depth + 1, budget))
            .collect()
    };
    Ok(match v {
        Val::None => PyObj::None,
        Val::Bool(b) => PyObj::Bool(b),
        Val::Int(i) => PyObj::Int(i),
        Val::Float(f) => PyObj::Float(f),
        Val::Str(s) => {
            spend(budget, s.len())?;
            PyObj::Str(s.to_string())
        }
        Val::Tuple(t) => {
            let seq = Rc::try_unwrap(t)
                .map(|s| s.items)
                .unwrap_or_else(|t| t.items.clone());
            PyObj::Tuple(items(seq, budget)?)
        }
        Val::List(l) => {
            let seq = match Rc::try_unwrap(l) {
                Ok(cell) => cell.into_inner().items,
                Err(l) => l.try_borrow().map_err(|_| "recursive list")?.items.clone(),
            };
            PyObj::List(items(seq, budget)?)
        }
        Val::Dict(d) => {
            let map = match Rc::try_unwrap(d) {
                Ok(cell) => cell.into_inner(),
                Err(d) => {
                    let d = d.try_borrow().map_err(|_| "recursive dict")?;
                    Map {
                        items: d.items.clone(),
                        depth: d.depth,
                        sealed: true,
                        ordered: d.ordered,
                    }
                }
            };
            let mut pairs = Vec::with_capacity(map.items.len());
            for (k, v) in map.items {
                pairs.push((
                    into_pyobj(k, depth + 1, budget)?,
                    into_pyobj(v, depth + 1, budget)?,
                ));
            }
            if map.ordered {
                PyObj::OrderedDict(pairs)
            } else {
                PyObj::Dict(pairs)
            }
        }
        Val::Tensor {
            t,
            requires_grad,
            parameter,
        } => {
            let mut t = match Rc::try_unwrap(t) {
                Ok(t) => t,
                Err(shared) => {
                    spend(budget, shared.data.len())?;
                    (*shared).clone()
                }
            };
            t.requires_grad = requires_grad;
            t.parameter = parameter;
            PyObj::Tensor(t)
        }
        Val::Global(g) => return Err(format!("a bare {g:?} global is not a supported value")),
        Val::Storage { .. } => return Err("a bare storage is not a supported value".into()),
    })
}

/// Names for the opcodes this reader rejects, for error messages.
fn opcode_name(op: u8) -> &'static str {
    match op {
        b'I' => "INT",
        b'L' => "LONG",
        b'F' => "FLOAT",
        b'S' => "STRING",
        b'T' => "BINSTRING",
        b'U' => "SHORT_BINSTRING",
        b'V' => "UNICODE",
        b'B' => "BINBYTES",
        b'C' => "SHORT_BINBYTES",
        0x8e => "BINBYTES8",
        0x96 => "BYTEARRAY8",
        b'P' => "PERSID",
        b'g' => "GET",
        b'p' => "PUT",
        b'd' => "DICT",
        b'l' => "LIST",
        b'i' => "INST",
        b'o' => "OBJ",
        0x81 => "NEWOBJ",
        0x92 => "NEWOBJ_EX",
        0x82 => "EXT1",
        0x83 => "EXT2",
        0x84 => "EXT4",
        0x8f => "EMPTY_SET",
        0x90 => "ADDITEMS",
        0x91 => "FROZENSET",
        0x97 => "NEXT_BUFFER",
        0x98 => "READONLY_BUFFER",
        _ => "unknown",
    }
}
