//! Data in and out: NumPy's `.npy` and `.npz`, `.safetensors`, and CSV of
//! numbers. Reads check every size before allocating; writes go to a temporary
//! file that is renamed into place, so a failure never leaves half a file.

pub mod bytes;
pub mod csv;
pub mod npy;
pub mod npz;
pub mod pt;
pub(crate) mod ptfile;
pub mod safetensors;

use std::path::Path;

use crate::error::{Result, io_err};

/// The file formats `save` and `load` know, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Npy,
    Npz,
    Safetensors,
    Csv,
}

impl Format {
    /// The extension, as messages name the format.
    pub fn name(self) -> &'static str {
        match self {
            Format::Npy => ".npy",
            Format::Npz => ".npz",
            Format::Safetensors => ".safetensors",
            Format::Csv => ".csv",
        }
    }
}

pub fn format_of(path: &str) -> Option<Format> {
    let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "npy" => Format::Npy,
        "npz" => Format::Npz,
        "safetensors" => Format::Safetensors,
        "csv" | "txt" | "tsv" => Format::Csv,
        _ => return None,
    })
}

/// The format a file's first bytes show (for a name without a known extension).
pub fn sniff(bytes: &[u8]) -> Option<Format> {
    if bytes.starts_with(b"\x93NUMPY") {
        Some(Format::Npy)
    } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        Some(Format::Npz)
    } else if bytes.len() >= 9 && bytes[8] == b'{' {
        Some(Format::Safetensors)
    } else {
        None
    }
}

pub fn read(path: &str) -> Result<Vec<u8>> {
    let meta = std::fs::metadata(path).map_err(|e| io_err(format!("cannot read {path}: {e}")))?;
    if meta.is_dir() {
        return Err(io_err(format!("{path} is a directory, not a file")));
    }
    std::fs::read(path).map_err(|e| io_err(format!("cannot read {path}: {e}")))
}

/// Write `bytes` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &str, bytes: &[u8]) -> Result<()> {
    let target = Path::new(path);
    let name = target
        .file_name()
        .ok_or_else(|| io_err(format!("{path:?} is not a file name")))?;
    let tmp = target.with_file_name(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, target));
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(io_err(format!("cannot write {path}: {e}")));
    }
    Ok(())
}
