//! PyTorch's own checkpoint format: the zip archive `torch.save` writes
//! (`archive/data.pkl` + one raw record per tensor storage), read with
//! `torch.load(weights_only=True)` semantics and written so torch can load it.
//!
//! `pickle.rs` writes data.pkl, `unpickle.rs` reads it; this file holds the
//! value types and the zip container.

mod pickle;
#[doc(hidden)]
pub mod tests;
mod unpickle;

use std::collections::HashMap;
use std::io::{Cursor, Read, Write};
use std::rc::Rc;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

/// The values a checkpoint holds.
#[derive(Clone, Debug, PartialEq)]
pub enum PyObj {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<PyObj>),
    Tuple(Vec<PyObj>),
    /// A plain dict, insertion order.
    Dict(Vec<(PyObj, PyObj)>),
    /// collections.OrderedDict (what state_dict() returns).
    OrderedDict(Vec<(PyObj, PyObj)>),
    Tensor(TensorData),
}

/// A dense CPU tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorData {
    pub dtype: DType,
    pub shape: Vec<usize>,
    /// Contiguous, row-major, little-endian element bytes.
    pub data: Vec<u8>,
    pub requires_grad: bool,
    /// Saved as torch.nn.Parameter (torch._utils._rebuild_parameter).
    pub parameter: bool,
}

/// The element types this module reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    F32,
    F64,
    F16,
    BF16,
    I64,
    I32,
    I16,
    I8,
    U8,
    Bool,
    C64,
    C128,
}

/// Each dtype with the legacy storage class torch names in data.pkl.
const STORAGE_CLASSES: [(DType, &str); 12] = [
    (DType::F32, "FloatStorage"),
    (DType::F64, "DoubleStorage"),
    (DType::F16, "HalfStorage"),
    (DType::BF16, "BFloat16Storage"),
    (DType::I64, "LongStorage"),
    (DType::I32, "IntStorage"),
    (DType::I16, "ShortStorage"),
    (DType::I8, "CharStorage"),
    (DType::U8, "ByteStorage"),
    (DType::Bool, "BoolStorage"),
    (DType::C64, "ComplexFloatStorage"),
    (DType::C128, "ComplexDoubleStorage"),
];

impl DType {
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            DType::C128 => 16,
            DType::F64 | DType::I64 | DType::C64 => 8,
            DType::F32 | DType::I32 => 4,
            DType::F16 | DType::BF16 | DType::I16 => 2,
            DType::I8 | DType::U8 | DType::Bool => 1,
        }
    }

    /// The `torch.<name>` storage class used for this dtype in data.pkl.
    fn storage_class(self) -> &'static str {
        STORAGE_CLASSES
            .iter()
            .find(|(d, _)| *d == self)
            .map_or("FloatStorage", |(_, name)| name)
    }

    fn from_storage_class(name: &str) -> Option<DType> {
        STORAGE_CLASSES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(d, _)| *d)
    }
}

impl TensorData {
    /// Number of elements (1 for a 0-dim tensor).
    pub fn numel(&self) -> usize {
        self.shape.iter().product()
    }
}

/// The top-level folder of every entry; torch.save to a file uses the file's
/// stem instead, torch.load accepts any single folder name.
const ARCHIVE: &str = "archive";
/// torch aligns each record's data to 64 bytes (so storages can be mmapped).
const ALIGNMENT: u16 = 64;
/// torch's padding extra-field id ("FB" little-endian).
const TORCH_PAD_FIELD: u16 = 0x4246;

/// The bytes of a .pt file holding `obj`, loadable by `torch.load`.
pub fn write(obj: &PyObj) -> Result<Vec<u8>, String> {
    let (pkl, storages) = pickle::dump(obj)?;
    let mut records: Vec<(String, &[u8])> = vec![
        ("data.pkl".into(), &pkl),
        // torch also writes ".format_version" = "1". That promises miniz's exact
        // record layout (data descriptors after each record), from which
        // torch.load may compute storage offsets (meta/fake-mode loads, or
        // config.load.calculate_storage_offsets); with the zip crate's layout
        // that reads the wrong bytes. Without it torch reads the zip headers.
        (".storage_alignment".into(), b"64"),
        ("byteorder".into(), b"little"),
    ];
    for (key, data) in storages.iter().enumerate() {
        records.push((format!("data/{key}"), data));
    }
    records.push(("version".into(), b"3\n"));
    let id = serialization_id(&pkl, &storages);
    records.push((".data/serialization_id".into(), id.as_bytes()));

    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, data) in records {
        let options = SimpleFileOptions::default()
            .compression_method(CompressionMethod::Stored)
            .with_alignment_and_header_id(ALIGNMENT, TORCH_PAD_FIELD)
            .large_file(data.len() >= u32::MAX as usize);
        zip.start_file(format!("{ARCHIVE}/{name}"), options)
            .map_err(|e| format!("writing zip entry {name}: {e}"))?;
        zip.write_all(data)
            .map_err(|e| format!("writing zip entry {name}: {e}"))?;
    }
    let cursor = zip.finish().map_err(|e| format!("finishing zip: {e}"))?;
    Ok(cursor.into_inner())
}

/// torch writes a random 40-digit id; a content hash keeps our output
/// deterministic while still differing between checkpoints.
fn serialization_id(pkl: &[u8], storages: &[&[u8]]) -> String {
    let fnv = |seed: u64| {
        let mut h = seed;
        for part in std::iter::once(pkl).chain(storages.iter().copied()) {
            for &b in part {
                h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    };
    format!(
        "{:020}{:020}",
        fnv(0xcbf2_9ce4_8422_2325),
        fnv(0x9e37_79b9_7f4a_7c15)
    )
}

/// True when `bytes` is a zip archive holding `<folder>/data.pkl`, i.e. a
/// torch.save checkpoint (or a TorchScript archive, which `read` rejects).
pub fn is_torch_zip(bytes: &[u8]) -> bool {
    if !bytes.starts_with(b"PK\x03\x04") {
        return false;
    }
    match ZipArchive::new(Cursor::new(bytes)) {
        Ok(zip) => archive_prefix(&zip).is_some(),
        Err(_) => false,
    }
}

/// The top-level folder holding data.pkl, if any.
fn archive_prefix(zip: &ZipArchive<Cursor<&[u8]>>) -> Option<String> {
    zip.file_names_raw().find_map(|raw| {
        let name = std::str::from_utf8(raw).ok()?;
        let prefix = name.strip_suffix("/data.pkl")?;
        (!prefix.is_empty() && !prefix.contains('/')).then(|| prefix.to_string())
    })
}

/// Reads a torch.save checkpoint with `torch.load(weights_only=True)`
/// semantics: only tensors, parameters and plain containers are accepted;
/// any other global in the pickle is an error. Tensors come back
/// contiguous, whatever view of a storage was saved.
pub fn read(bytes: &[u8]) -> Result<PyObj, String> {
    if !bytes.starts_with(b"PK\x03\x04") {
        return Err(not_a_zip_reason(bytes));
    }
    let mut zip = ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| format!("not a valid torch checkpoint (bad zip archive: {e})"))?;
    let prefix =
        archive_prefix(&zip).ok_or("zip archive without data.pkl: not a torch.save checkpoint")?;
    if is_torchscript(&zip, &prefix) {
        return Err(
            "this is a TorchScript archive (torch.jit.save), which is not supported; \
                    in Python, load it with torch.jit.load and torch.save its state_dict()"
                .into(),
        );
    }
    // Output may exceed the input (a saved view can be read many times), but
    // not without bound: this caps what a hostile file can make us allocate.
    let mut budget = (bytes.len() as u64)
        .saturating_mul(8)
        .saturating_add(1 << 30);
    let byteorder = format!("{prefix}/byteorder");
    // Without the record torch assumes little-endian.
    let big_endian = zip.index_for_name(&byteorder).is_some()
        && read_record(&mut zip, &byteorder, &mut budget)? == b"big";
    let pkl = read_record(&mut zip, &format!("{prefix}/data.pkl"), &mut budget)?;
    let storages = read_storages(&mut zip, &prefix, &mut budget)?;
    unpickle::load(&pkl, &storages, big_endian, budget)
}

/// Explains why a non-zip file is not accepted.
fn not_a_zip_reason(bytes: &[u8]) -> String {
    // The legacy format is a pickle of torch's magic number, 0x1950a86a20f9469cfc6c.
    const LEGACY_MAGIC: &[u8] = b"\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19";
    if bytes.starts_with(LEGACY_MAGIC) {
        "this is the legacy (pre-1.6, non-zip) torch.save format, which is not supported; \
         re-save it in Python with torch.save(torch.load(f), f2)"
            .into()
    } else if bytes.first() == Some(&0x80) {
        "this is a bare pickle, not a torch.save zip checkpoint; not supported".into()
    } else {
        "not a torch.save checkpoint (not a zip archive)".into()
    }
}

/// TorchScript archives also hold data.pkl, but tensors there are rebuilt by
/// TorchScript code and constants we cannot interpret.
fn is_torchscript(zip: &ZipArchive<Cursor<&[u8]>>, prefix: &str) -> bool {
    let constants = format!("{prefix}/constants.pkl");
    let code = format!("{prefix}/code/");
    zip.file_names_raw()
        .any(|raw| raw == constants.as_bytes() || raw.starts_with(code.as_bytes()))
}

/// Every `<prefix>/data/<key>` record, by key.
fn read_storages(
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    prefix: &str,
    budget: &mut u64,
) -> Result<HashMap<String, Rc<Vec<u8>>>, String> {
    let dir = format!("{prefix}/data/");
    let names: Vec<String> = zip
        .file_names_raw()
        .filter_map(|raw| std::str::from_utf8(raw).ok())
        .filter(|name| name.starts_with(&dir))
        .map(str::to_string)
        .collect();
    let mut storages = HashMap::new();
    for name in names {
        let data = read_record(zip, &name, budget)?;
        storages.insert(name[dir.len()..].to_string(), Rc::new(data));
    }
    Ok(storages)
}

/// One record's bytes, charged against `budget` (records may be compressed).
fn read_record(
    zip: &mut ZipArchive<Cursor<&[u8]>>,
    name: &str,
    budget: &mut u64,
) -> Result<Vec<u8>, String> {
    let mut file = zip
        .by_name(name)
        .map_err(|e| format!("checkpoint record {name}: {e}"))?;
    let size = file.size();
    if size > *budget {
        return Err(format!(
            "checkpoint record {name} is too large ({size} bytes)"
        ));
    }
    *budget -= size;
    let mut data = Vec::new();
    usize::try_from(size)
        .ok()
        .and_then(|size| data.try_reserve_exact(size).ok())
        .ok_or_else(|| format!("checkpoint record {name}: out of memory"))?;
    file.by_ref()
        .take(size)
        .read_to_end(&mut data)
        .map_err(|e| format!("checkpoint record {name}: {e}"))?;
    if data.len() as u64 != size {
        return Err(format!("checkpoint record {name} is truncated"));
    }
    Ok(data)
}
