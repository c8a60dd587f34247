//! The data.pkl half of a torch checkpoint, writing side: a protocol-2
//! pickle writer that emits what `torch.save` emits (without the memo, as
//! nothing is shared). Also the opcode names both sides use.

use super::{PyObj, TensorData};

// Pickle opcodes (names as in Python's pickletools).
pub(super) const MARK: u8 = b'(';
pub(super) const STOP: u8 = b'.';
pub(super) const POP: u8 = b'0';
pub(super) const POP_MARK: u8 = b'1';
pub(super) const DUP: u8 = b'2';
pub(super) const BININT: u8 = b'J';
pub(super) const BININT1: u8 = b'K';
pub(super) const BININT2: u8 = b'M';
pub(super) const NONE: u8 = b'N';
pub(super) const BINPERSID: u8 = b'Q';
pub(super) const REDUCE: u8 = b'R';
pub(super) const BINUNICODE: u8 = b'X';
pub(super) const EMPTY_LIST: u8 = b']';
pub(super) const APPEND: u8 = b'a';
pub(super) const BUILD: u8 = b'b';
pub(super) const GLOBAL: u8 = b'c';
pub(super) const APPENDS: u8 = b'e';
pub(super) const BINGET: u8 = b'h';
pub(super) const LONG_BINGET: u8 = b'j';
pub(super) const BINPUT: u8 = b'q';
pub(super) const LONG_BINPUT: u8 = b'r';
pub(super) const SETITEM: u8 = b's';
pub(super) const TUPLE: u8 = b't';
pub(super) const SETITEMS: u8 = b'u';
pub(super) const EMPTY_DICT: u8 = b'}';
pub(super) const EMPTY_TUPLE: u8 = b')';
pub(super) const BINFLOAT: u8 = b'G';
pub(super) const PROTO: u8 = 0x80;
pub(super) const TUPLE1: u8 = 0x85;
pub(super) const TUPLE2: u8 = 0x86;
pub(super) const TUPLE3: u8 = 0x87;
pub(super) const NEWTRUE: u8 = 0x88;
pub(super) const NEWFALSE: u8 = 0x89;
pub(super) const LONG1: u8 = 0x8a;
pub(super) const LONG4: u8 = 0x8b;
pub(super) const SHORT_BINUNICODE: u8 = 0x8c;
pub(super) const BINUNICODE8: u8 = 0x8d;
pub(super) const STACK_GLOBAL: u8 = 0x93;
pub(super) const MEMOIZE: u8 = 0x94;
pub(super) const FRAME: u8 = 0x95;

/// Containers may nest this deep; bounds recursion when reading, writing
/// and dropping (Python's own pickler stops near 1000 frames).
pub(super) const MAX_DEPTH: usize = 200;
/// Python's pickler batches APPENDS/SETITEMS in groups of this size.
const BATCH: usize = 1000;

/// The pickle bytes for `obj`, and the storages it refers to as keys
/// "0", "1", ... (one per tensor, in order).
pub(super) fn dump(obj: &PyObj) -> Result<(Vec<u8>, Vec<&[u8]>), String> {
    let mut p = Pickler {
        out: vec![PROTO, 2],
        storages: Vec::new(),
    };
    p.obj(obj, 0)?;
    p.out.push(STOP);
    Ok((p.out, p.storages))
}

struct Pickler<'a> {
    out: Vec<u8>,
    storages: Vec<&'a [u8]>,
}

impl<'a> Pickler<'a> {
    fn obj(&mut self, obj: &'a PyObj, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err("cannot save: containers nested too deeply".into());
        }
        match obj {
            PyObj::None => self.out.push(NONE),
            PyObj::Bool(b) => self.bool(*b),
            PyObj::Int(v) => self.int(*v),
            PyObj::Float(v) => {
                self.out.push(BINFLOAT);
                self.out.extend(v.to_be_bytes());
            }
            PyObj::Str(s) => self.str(s),
            PyObj::List(items) => {
                self.out.push(EMPTY_LIST);
                self.list_items(items, depth)?;
            }
            PyObj::Tuple(items) => self.tuple(items, depth)?,
            PyObj::Dict(items) => {
                self.out.push(EMPTY_DICT);
                self.dict_items(items, depth)?;
            }
            PyObj::OrderedDict(items) => {
                self.new_ordered_dict();
                self.dict_items(items, depth)?;
            }
            PyObj::Tensor(t) => self.tensor(t)?,
        }
        Ok(())
    }

    fn bool(&mut self, b: bool) {
        self.out.push(if b { NEWTRUE } else { NEWFALSE });
    }

    /// The shortest encoding, as Python's pickler chooses it.
    fn int(&mut self, v: i64) {
        if let Ok(b) = u8::try_from(v) {
            self.out.extend([BININT1, b]);
        } else if let Ok(h) = u16::try_from(v) {
            self.out.push(BININT2);
            self.out.extend(h.to_le_bytes());
        } else if let Ok(w) = i32::try_from(v) {
            self.out.push(BININT);
            self.out.extend(w.to_le_bytes());
        } else {
            // Minimal little-endian two's complement: drop sign-only top bytes.
            let mut bytes = v.to_le_bytes().to_vec();
            while bytes.len() > 1 {
                let (top, next) = (bytes[bytes.len() - 1], bytes[bytes.len() - 2]);
                let redundant = (top == 0 && next < 0x80) || (top == 0xff && next >= 0x80);
                if !redundant {
                    break;
                }
                bytes.pop();
            }
            self.out.extend([LONG1, bytes.len() as u8]);
            self.out.extend(bytes);
        }
    }

    fn str(&mut self, s: &str) {
        match u32::try_from(s.len()) {
            Ok(len) => {
                self.out.push(BINUNICODE);
                self.out.extend(len.to_le_bytes());
            }
            // Past protocol 2's limit; torch.load still reads protocol-4 opcodes.
            Err(_) => {
                self.out.push(BINUNICODE8);
                self.out.extend((s.len() as u64).to_le_bytes());
            }
        }
        self.out.extend(s.as_bytes());
    }

    fn global(&mut self, module: &str, name: &str) {
        self.out.push(GLOBAL);
        self.out.extend(format!("{module}\n{name}\n").as_bytes());
    }

    /// `collections.OrderedDict()`, ready for SETITEMS.
    fn new_ordered_dict(&mut self) {
        self.global("collections", "OrderedDict");
        self.out.extend([EMPTY_TUPLE, REDUCE]);
    }

    /// Closes a tuple of `n` items already written (after a MARK if n > 3).
    fn end_tuple(&mut self, n: usize) {
        self.out.push(match n {
            0 => EMPTY_TUPLE,
            1 => TUPLE1,
            2 => TUPLE2,
            3 => TUPLE3,
            _ => TUPLE,
        });
    }

    fn tuple(&mut self, items: &'a [PyObj], depth: usize) -> Result<(), String> {
        if items.len() > 3 {
            self.out.push(MARK);
        }
        for item in items {
            self.obj(item, depth + 1)?;
        }
        self.end_tuple(items.len());
        Ok(())
    }

    fn int_tuple(&mut self, values: &[usize]) -> Result<(), String> {
        if values.len() > 3 {
            self.out.push(MARK);
        }
        for &v in values {
            self.int(i64::try_from(v).map_err(|_| "cannot save: tensor too large")?);
        }
        self.end_tuple(values.len());
        Ok(())
    }

    fn list_items(&mut self, items: &'a [PyObj], depth: usize) -> Result<(), String> {
        for batch in items.chunks(BATCH) {
            if let [item] = batch {
                self.obj(item, depth + 1)?;
                self.out.push(APPEND);
                continue;
            }
            self.out.push(MARK);
            for item in batch {
                self.obj(item, depth + 1)?;
            }
            self.out.push(APPENDS);
        }
        Ok(())
    }

    fn dict_items(&mut self, items: &'a [(PyObj, PyObj)], depth: usize) -> Result<(), String> {
        for batch in items.chunks(BATCH) {
            if batch.len() > 1 {
                self.out.push(MARK);
            }
            for (key, value) in batch {
                self.obj(key, depth + 1)?;
                self.obj(value, depth + 1)?;
            }
            self.out
                .push(if batch.len() > 1 { SETITEMS } else { SETITEM });
        }
        Ok(())
    }

    /// A Parameter is `_rebuild_parameter(tensor, requires_grad, OrderedDict())`
    /// around a tensor saved without requires_grad, as torch does.
    fn tensor(&mut self, t: &'a TensorData) -> Result<(), String> {
        let expected = t.numel().checked_mul(t.dtype.size());
        if expected != Some(t.data.len()) {
            return Err(format!(
                "cannot save tensor: shape {:?} of {:?} needs {} bytes, data has {}",
                t.shape,
                t.dtype,
                expected.map_or("too many".to_string(), |n| n.to_string()),
                t.data.len()
            ));
        }
        if !t.parameter {
            return self.plain_tensor(t, t.requires_grad);
        }
        self.global("torch._utils", "_rebuild_parameter");
        self.plain_tensor(t, false)?;
        self.bool(t.requires_grad);
        self.new_ordered_dict();
        self.out.extend([TUPLE3, REDUCE]);
        Ok(())
    }

    /// `_rebuild_tensor_v2(pid, 0, size, stride, requires_grad, OrderedDict())`
    /// with pid = `('storage', torch.<X>Storage, key, 'cpu', numel)`.
    fn plain_tensor(&mut self, t: &'a TensorData, requires_grad: bool) -> Result<(), String> {
        let key = self.storages.len().to_string();
        self.storages.push(&t.data);
        self.global("torch._utils", "_rebuild_tensor_v2");
        self.out.extend([MARK, MARK]);
        self.str("storage");
        self.global("torch", t.dtype.storage_class());
        self.str(&key);
        self.str("cpu");
        self.int(i64::try_from(t.numel()).map_err(|_| "cannot save: tensor too large")?);
        self.out.extend([TUPLE, BINPERSID]);
        self.int(0); // storage offset
        self.int_tuple(&t.shape)?;
        self.int_tuple(&contiguous_strides(&t.shape))?;
        self.bool(requires_grad);
        self.new_ordered_dict(); // backward hooks
        self.out.extend([TUPLE, REDUCE]);
        Ok(())
    }
}

/// Row-major strides, in elements.
pub(super) fn contiguous_strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for i in (0..shape.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * shape[i + 1].max(1);
    }
    strides
}
