//! The process's allocator: the system's, plus a cache of large freed blocks.
//!
//! A tensor op's result is a fresh buffer. For large ones (above glibc's mmap
//! threshold) the system maps new pages on every call and the kernel zero-fills
//! each on first touch: `c = a + b` on 1e7 floats spent more time in page
//! faults than adding. Freed blocks of 1 MiB and more are kept here, bucketed
//! by size class, and handed to the next request of the same class, as
//! PyTorch's CUDA caching allocator does for device memory. Live tensors still
//! decide the peak: a block is only cached once freed, and the cache holds at
//! most `CAP` bytes (beyond it, frees go back to the system).

use std::alloc::{GlobalAlloc, Layout};

/// The allocator beneath the cache: mimalloc (small blocks fast, and from
/// per-thread free lists).
use mimalloc::MiMalloc as System;
use std::sync::Mutex;

/// Blocks this large or larger are cached.
const MIN: usize = 1 << 20;
/// Bytes held in the cache at most.
const CAP: usize = 1 << 30;
/// Cached blocks at most (a fixed table: the allocator must not allocate).
const SLOTS: usize = 64;
/// Alignment every block of mimalloc's has (its smallest size class is one
/// pointer, and blocks of a class lie at multiples of its size): small
/// requests of at most this alignment take `mi_malloc`, which skips the
/// alignment checks that MiMalloc's GlobalAlloc impl always makes.
const SMALL_ALIGN: usize = std::mem::size_of::<usize>();
/// Alignment of every cached block (a cached block may be handed to any
/// request whose alignment is at most this).
const ALIGN: usize = 64;

/// A size rounded up to its class: eight classes per power of two, so a
/// block serves requests up to 12.5% smaller than itself.
fn class(size: usize) -> usize {
    let top = usize::BITS - 1 - size.leading_zeros();
    let step = 1usize << top.saturating_sub(3);
    size.div_ceil(step) * step
}

struct Cache {
    /// (address, class size, when freed); address 0 = empty.
    blocks: [(usize, usize, u64); SLOTS],
    held: usize,
    frees: u64,
}

static CACHE: Mutex<Cache> = Mutex::new(Cache {
    blocks: [(0, 0, 0); SLOTS],
    held: 0,
    frees: 0,
});

pub struct CachingAlloc;

impl CachingAlloc {
    /// A block for `layout`: the system's for small ones; for large ones a
    /// cached block of the class (cleared when `zero`), else a fresh one.
    ///
    /// # Safety
    /// As GlobalAlloc::alloc: `layout` has a non-zero size.
    unsafe fn get(&self, layout: Layout, zero: bool) -> *mut u8 {
        if layout.size() < MIN && layout.align() <= SMALL_ALIGN {
            // SAFETY: a non-zero size; mimalloc's blocks are all aligned to
            // at least SMALL_ALIGN, so the unaligned entry serves this layout.
            return unsafe {
                (if zero {
                    libmimalloc_sys::mi_zalloc(layout.size())
                } else {
                    libmimalloc_sys::mi_malloc(layout.size())
                }) as *mut u8
            };
        }
        let system = |l: Layout| {
            // SAFETY: a valid, non-zero layout; fresh pages are zero.
            unsafe {
                if zero {
                    System.alloc_zeroed(l)
                } else {
                    System.alloc(l)
                }
            }
        };
        if !Self::cached(&layout) {
            return system(layout);
        }
        let size = class(layout.size());
        if let Some(p) = Self::take(size) {
            if zero {
                // SAFETY: the block has at least layout.size() bytes.
                unsafe { std::ptr::write_bytes(p, 0, layout.size()) };
            }
            return p;
        }
        match Layout::from_size_align(size, ALIGN) {
            Ok(l) => system(l),
            Err(_) => std::ptr::null_mut(),
        }
    }

    fn cached(layout: &Layout) -> bool {
        layout.size() >= MIN && layout.align() <= ALIGN
    }

    fn take(size: usize) -> Option<*mut u8> {
        let mut c = CACHE.lock().ok()?;
        // The most recently freed block of the class: it is likely still in
        // cache (a loop's `c = a + b` then writes to hot lines, not cold ones).
        let (slot, _) = (c.blocks.iter().enumerate())
            .filter(|(_, b)| b.0 != 0 && b.1 == size)
            .max_by_key(|(_, b)| b.2)?;
        let (addr, _, _) = std::mem::take(&mut c.blocks[slot]);
        c.held -= size;
        Some(addr as *mut u8)
    }

    /// Keep a freed block. When the table is full (or the cap reached) the
    /// least recently freed block makes room: a long session's odd sizes must
    /// not crowd out the sizes its loop frees and takes again. Returns whether
    /// the block was kept, and the evicted block, which the caller gives back
    /// to the system (outside the lock).
    fn keep(ptr: *mut u8, size: usize) -> (bool, Option<(usize, usize)>) {
        let Ok(mut c) = CACHE.lock() else {
            return (false, None);
        };
        let mut evicted = None;
        let full = c.blocks.iter().all(|b| b.0 != 0);
        if full || c.held + size > CAP {
            let oldest = (c.blocks.iter().enumerate())
                .filter(|(_, b)| b.0 != 0)
                .min_by_key(|(_, b)| b.2)
                .map(|(slot, _)| slot);
            if let Some(slot) = oldest {
                let (addr, bytes, _) = std::mem::take(&mut c.blocks[slot]);
                c.held -= bytes;
                evicted = Some((addr, bytes));
            }
        }
        if c.held + size > CAP {
            return (false, evicted);
        }
        match c.blocks.iter().position(|b| b.0 == 0) {
            Some(slot) => {
                c.frees += 1;
                c.blocks[slot] = (ptr as usize, size, c.frees);
                c.held += size;
                (true, evicted)
            }
            None => (false, evicted),
        }
    }
}

// SAFETY: every block handed out is either the system's answer to a layout of
// at least the requested size and alignment, or a cached block that was such
// an answer for the same class size and ALIGN; each is given back to the
// system with the layout it was allocated with.
unsafe impl GlobalAlloc for CachingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, passed on.
        unsafe { self.get(layout, false) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, passed on.
        unsafe { self.get(layout, true) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if !Self::cached(&layout) {
            // SAFETY: allocated by System with this layout.
            return unsafe { System.dealloc(ptr, layout) };
        }
        let size = class(layout.size());
        let (kept, evicted) = Self::keep(ptr, size);
        // SAFETY: cached blocks were allocated by System with (class size,
        // ALIGN), as `get` does.
        unsafe {
            if let Some((addr, bytes)) = evicted {
                System.dealloc(
                    addr as *mut u8,
                    Layout::from_size_align_unchecked(bytes, ALIGN),
                );
            }
            if !kept {
                System.dealloc(ptr, Layout::from_size_align_unchecked(size, ALIGN));
            }
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old_cached = Self::cached(&layout);
        // SAFETY: GlobalAlloc's contract: new_size is valid for layout's alignment.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        if !old_cached && !Self::cached(&new) {
            // SAFETY: both sizes are the system's own (uncached) blocks.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        if old_cached && Self::cached(&new) && class(layout.size()) == class(new_size) {
            return ptr;
        }
        // SAFETY: a fresh block for the new layout, the old contents copied
        // (as much as both hold), and the old block freed by its own rules.
        unsafe {
            let p = self.alloc(new);
            if !p.is_null() {
                std::ptr::copy_nonoverlapping(ptr, p, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            p
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn classes_round_up_by_at_most_an_eighth() {
            assert_eq!(class(1 << 20), 1 << 20);
            assert_eq!(class((1 << 20) + 1), (1 << 20) + (1 << 17));
            for size in [1_000_000usize, 40_000_000, 123_456_789] {
                let c = class(size);
                assert!(c >= size && c - size <= size / 8, "{size} -> {c}");
                assert_eq!(class(c), c);
            }
        }

        fn a_freed_block_serves_the_next_request_of_its_class() {
            let n = 3 << 20;
            let a: Vec<u8> = vec![7; n];
            drop(a);
            // Other tests run alongside and may take the block first; when this
            // one gets it, a zeroed request must still read as zeros.
            let b: Vec<u8> = vec![0; n];
            assert!(b.iter().all(|&x| x == 0));
            let mut c: Vec<f32> = Vec::with_capacity(n / 4);
            c.resize(n / 4, 1.5);
            assert!(c.iter().all(|&x| x == 1.5));
        }
    }
}
