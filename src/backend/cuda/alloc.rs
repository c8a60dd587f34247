//! A caching allocator, as PyTorch's CUDA one: a freed buffer goes back to its
//! device's pool by size class and the next request of that class takes it,
//! so a training loop stops calling the driver (and synchronising on frees)
//! after its first step. `torch.cuda.empty_cache()` gives the pool back.

use std::collections::HashMap;
use std::sync::Arc;

use cudarc::driver::{CudaSlice, DevicePtr};

use super::device::{Gpu, driver_err};
use crate::error::{Error, ErrorKind, Result};

/// Freed buffers by size class, and what is handed out.
#[derive(Default)]
pub struct Pool {
    free: HashMap<usize, Vec<CudaSlice<u8>>>,
    /// Bytes in live buffers (torch.cuda.memory_allocated).
    pub allocated: usize,
    /// Bytes held from the driver, live or cached (torch.cuda.memory_reserved).
    pub reserved: usize,
    pub peak: usize,
}

/// The size class of a request: 512-byte multiples up to 1 MiB in powers of
/// two, then whole 2 MiB pages (whole words, so narrow atomics may use them).
fn class(bytes: usize) -> usize {
    let b = bytes.max(1);
    if b <= 1 << 20 {
        b.next_power_of_two().max(512)
    } else {
        b.div_ceil(2 << 20) * (2 << 20)
    }
}

/// Device memory of one tensor's storage; dropping it returns it to the pool.
pub struct DeviceBuffer {
    /// Taken out only in Drop, to go back to the pool.
    slice: std::mem::ManuallyDrop<CudaSlice<u8>>,
    class: usize,
    pub(super) gpu: Arc<Gpu>,
}

impl std::fmt::Debug for DeviceBuffer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeviceBuffer({} bytes on cuda:{})",
            self.class, self.gpu.index
        )
    }
}

impl DeviceBuffer {
    /// At least `bytes` of uninitialised device memory.
    pub fn new(gpu: &Arc<Gpu>, bytes: usize) -> Result<DeviceBuffer> {
        let class = class(bytes);
        let mut pool = gpu.pool.lock().unwrap_or_else(|p| p.into_inner());
        let slice = match pool.free.get_mut(&class).and_then(|v| v.pop()) {
            Some(s) => s,
            None => {
                // SAFETY: the memory is written before it is read (every
                // kernel fills its whole output).
                let fresh = unsafe { gpu.stream.alloc::<u8>(class) };
                let s = match fresh {
                    Ok(s) => s,
                    Err(_) => {
                        // Out of memory with buffers cached: give them back, try once more.
                        let cached = std::mem::take(&mut pool.free);
                        pool.reserved -= cached.values().flatten().map(|s| s.len()).sum::<usize>();
                        drop(cached);
                        unsafe { gpu.stream.alloc::<u8>(class) }.map_err(|e| oom(bytes, gpu, e))?
                    }
                };
                pool.reserved += class;
                s
            }
        };
        pool.allocated += class;
        pool.peak = pool.peak.max(pool.allocated);
        Ok(DeviceBuffer {
            slice: std::mem::ManuallyDrop::new(slice),
            class,
            gpu: gpu.clone(),
        })
    }

    /// The device address of the first byte.
    pub fn ptr(&self) -> u64 {
        // With event tracking off the guard does nothing.
        self.slice.device_ptr(&self.gpu.stream).0
    }

    pub fn slice_mut(&mut self) -> &mut CudaSlice<u8> {
        &mut self.slice
    }

    pub fn slice(&self) -> &CudaSlice<u8> {
        &self.slice
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: the slice is taken once, here, and never used again.
        let s = unsafe { std::mem::ManuallyDrop::take(&mut self.slice) };
        let mut pool = self.gpu.pool.lock().unwrap_or_else(|p| p.into_inner());
        pool.allocated -= self.class;
        pool.free.entry(self.class).or_default().push(s);
    }
}

fn oom(bytes: usize, gpu: &Gpu, e: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::Memory,
        format!(
            "CUDA out of memory. Tried to allocate {} on cuda:{} ({e})",
            crate::tensor::core::human_bytes(bytes as u128),
            gpu.index
        ),
    )
    .hint("free tensors you no longer need (del x), call torch.cuda.empty_cache(), or use smaller batches")
}

/// torch.cuda.memory_allocated / memory_reserved / max_memory_allocated.
pub fn stats(gpu: &Gpu) -> (usize, usize, usize) {
    let p = gpu.pool.lock().unwrap_or_else(|p| p.into_inner());
    (p.allocated, p.reserved, p.peak)
}

/// torch.cuda.empty_cache: give every cached buffer back to the driver.
pub fn empty_cache(gpu: &Gpu) -> Result<()> {
    let cached = {
        let mut p = gpu.pool.lock().unwrap_or_else(|p| p.into_inner());
        let cached = std::mem::take(&mut p.free);
        p.reserved -= cached.values().flatten().map(|s| s.len()).sum::<usize>();
        cached
    };
    drop(cached);
    gpu.stream
        .synchronize()
        .map_err(|e| driver_err("empty_cache", e))
}
