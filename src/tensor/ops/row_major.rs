//! Row-major copies of the column-major right operands of CPU matrix
//! products that come back: `x @ W.T` is every linear layer's forward, and a
//! recurrent layer multiplies by the same `W_hh.T` at each of its steps.
//! The gemm crate packs a column-major right operand slowly (32×128 by
//! 128×512: 35 µs, against 19 with the same values row-major; 1600 rows: 880
//! against 530 µs), and a transposing copy per product costs about what it
//! saves. So a copy is made the second time one operand (one storage, at one
//! version, in one layout) is seen, and used while the storage is unchanged:
//! a write bumps the version and the entry goes, as it does when the
//! operand's storage is freed. Weights that change between each use (a
//! training step's forward) are not copied, but for products of 2^24
//! multiply-adds or more, where the copy is cheap beside the product and
//! keeps the digits gemm's (see `row_major`). An entry names its storage
//! weakly (`StorageRef`): it keeps no data alive, though while it is held
//! the storage does not count as its tensors' alone (`is_sole_owner`).
//! At most 16 MiB of copies are kept.

use std::sync::Mutex;

use crate::tensor::core::StorageRef;
use crate::tensor::{DType, Device, Tensor};

/// Operands smaller than this (elements) are packed quickly anyway.
const MIN_ELEMENTS: usize = 1 << 12;
/// Nor are copies of more than this many bytes made, nor kept in all.
const MAX_BYTES: usize = 16 << 20;
/// Operands remembered at most (seen once, or copied).
const SLOTS: usize = 16;

struct Entry {
    storage: StorageRef,
    version: u64,
    offset: usize,
    shape: [usize; 2],
    strides: [usize; 2],
    dtype: DType,
    /// The row-major copy, once the operand has come back.
    copy: Option<Tensor>,
    last_use: u64,
}

impl Entry {
    fn is(&self, b: &Tensor) -> bool {
        self.storage.holds(b)
            && self.version == b.version()
            && self.offset == b.offset()
            && self.shape == [b.shape()[0], b.shape()[1]]
            && self.strides == [b.strides()[0], b.strides()[1]]
            && self.dtype == b.dtype()
    }
    fn bytes(&self) -> usize {
        self.copy
            .as_ref()
            .map_or(0, |c| c.numel() * c.dtype().size())
    }
}

struct Cache {
    entries: Vec<Entry>,
    clock: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache {
    entries: Vec::new(),
    clock: 0,
});

/// Is `b` a column-major matrix worth a row-major copy (on the CPU, float32
/// or float64, the gemm crate's), multiplied into `rows` rows? Products of
/// at most 256 elements, or over 2 terms at most, run kernels of their own
/// in gemm whose sums depend on the layout: they stay as they are, so that
/// a product's digits never depend on whether a copy was made.
fn eligible(b: &Tensor, rows: usize) -> bool {
    let ([k, n], [rs, cs]) = (
        [b.shape()[0], b.shape()[1]],
        [b.strides()[0], b.strides()[1]],
    );
    b.device() == Device::Cpu
        && matches!(b.dtype(), DType::F32 | DType::F64)
        && rs == 1
        && cs >= k
        && k > 2
        && n >= 2
        && rows * n > 256
        && b.numel() >= MIN_ELEMENTS
        && b.numel() * b.dtype().size() <= MAX_BYTES
}

/// The row-major copy of `b` to multiply `rows` rows by, when it has one or
/// has just earned one; None: multiply by `b` as it is. Products of 2^24
/// multiply-adds or more always take one: the backend would run them on
/// faer's product, whose sums differ from gemm's, and `x @ W.T` must give
/// the same digits every time.
pub fn row_major(b: &Tensor, rows: usize) -> Option<Tensor> {
    if b.ndim() != 2 || !eligible(b, rows) {
        return None;
    }
    let big = rows * b.numel() >= 1 << 24;
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    cache.clock += 1;
    let now = cache.clock;
    // Entries of freed or rewritten storages are of no more use.
    cache
        .entries
        .retain(|e| e.storage.alive() && (!e.storage.holds(b) || e.version == b.version()));
    if let Some(e) = cache.entries.iter_mut().find(|e| e.is(b)) {
        e.last_use = now;
        if e.copy.is_none() {
            e.copy = b.contiguous().ok();
        }
        let copy = e.copy.clone();
        fit(&mut cache.entries);
        return copy;
    }
    let copy = if big { b.contiguous().ok() } else { None };
    cache.entries.push(Entry {
        storage: b.storage_ref(),
        version: b.version(),
        offset: b.offset(),
        shape: [b.shape()[0], b.shape()[1]],
        strides: [b.strides()[0], b.strides()[1]],
        dtype: b.dtype(),
        copy: copy.clone(),
        last_use: now,
    });
    fit(&mut cache.entries);
    copy
}

/// Drop the least recently used entries until the slots and bytes fit.
fn fit(entries: &mut Vec<Entry>) {
    while entries.len() > SLOTS || entries.iter().map(Entry::bytes).sum::<usize>() > MAX_BYTES {
        let Some(oldest) = entries
            .iter()
            .enumerate()
            .min_by_key(|(_, e)| e.last_use)
            .map(|(i, _)| i)
        else {
            return;
        };
        entries.swap_remove(oldest);
    }
}
