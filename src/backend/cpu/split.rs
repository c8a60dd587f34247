//! One matrix product cut into pieces for the kernel threads, each piece a
//! block of the output that gemm (or faer) computes alone.
//!
//! gemm's own parallel loop runs on rayon, whose workers sleep between ops:
//! the MLP's 64×784 by 784×128 product paid a wake-up on every call, so it
//! ran on one thread (67 µs; PyTorch 48 on two). On the kernel threads,
//! which spin between ops, splitting pays from a million multiply-adds.
//! Every output element is still one dot product summed in gemm's order
//! (its k blocking depends on k alone), so the bits do not depend on the
//! split.

/// Products of at least this many multiply-adds are split.
pub const SPLIT_MIN: usize = 1 << 20;

/// A block of an m×n output: rows `[r0, r0 + rows)`, columns `[c0, c0 + cols)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    pub r0: usize,
    pub rows: usize,
    pub c0: usize,
    pub cols: usize,
}

/// Whether an m×k by k×n product is split between the kernel threads.
pub fn splits(m: usize, n: usize, k: usize) -> bool {
    m * n * k >= SPLIT_MIN && crate::threads::many()
}

/// The m×n output cut into one piece per thread: blocks of columns (a whole
/// number of 16-wide register tiles) where it is at least as wide as tall,
/// so that each thread packs only its share of the right operand, else
/// blocks of rows.
pub fn pieces(m: usize, n: usize, threads: usize) -> Vec<Piece> {
    let threads = threads.max(1);
    if n >= m {
        let cols = n.div_ceil(threads).next_multiple_of(16).min(n).max(1);
        (0..n)
            .step_by(cols)
            .map(|c0| Piece {
                r0: 0,
                rows: m,
                c0,
                cols: cols.min(n - c0),
            })
            .collect()
    } else {
        let rows = m.div_ceil(threads).next_multiple_of(8).min(m).max(1);
        (0..m)
            .step_by(rows)
            .map(|r0| Piece {
                r0,
                rows: rows.min(m - r0),
                c0: 0,
                cols: n,
            })
            .collect()
    }
}

/// Whether `batches` products of `macs` multiply-adds each run side by
/// side, one per core (a convolution's batch), rather than one after
/// another, each split by `splits`.
pub fn side_by_side(batches: usize, macs: usize) -> bool {
    batches > 1
        && crate::threads::many()
        && batches >= crate::threads::count()
        && batches * macs >= 1 << 18
}

/// `f(piece)` for each piece of an m×n output on the kernel threads where
/// `parallel`, else `f` of the whole output.
pub fn each_piece(m: usize, n: usize, parallel: bool, f: impl Fn(Piece) + Sync) {
    if !parallel {
        return f(Piece {
            r0: 0,
            rows: m,
            c0: 0,
            cols: n,
        });
    }
    let pieces = pieces(m, n, crate::threads::count());
    crate::threads::each(pieces.len(), |i| f(pieces[i]));
}

/// A pointer to an output block that the pieces write in parallel (each its
/// own elements).
#[derive(Clone, Copy)]
pub struct Shared<T>(*mut T);

impl<T> Shared<T> {
    pub fn new(block: *mut T) -> Self {
        Shared(block)
    }

    /// The element `offset` elements into the block.
    ///
    /// # Safety
    /// `offset` lies inside the block.
    pub unsafe fn at(&self, offset: usize) -> *mut T {
        // SAFETY: the caller's promise.
        unsafe { self.0.add(offset) }
    }
}

// SAFETY: the pieces of one product address disjoint elements of the block.
unsafe impl<T: Send> Sync for Shared<T> {}
unsafe impl<T: Send> Send for Shared<T> {}

#[doc(hidden)]
pub mod tests {
    use super::*;

    /// Every output element lies in exactly one piece.
    fn covers(m: usize, n: usize, threads: usize) {
        let mut seen = vec![0u8; m * n];
        for p in pieces(m, n, threads) {
            for r in p.r0..p.r0 + p.rows {
                for c in p.c0..p.c0 + p.cols {
                    seen[r * n + c] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1), "{m}x{n} on {threads}");
    }

    crate::unit_tests! {
        fn pieces_tile_the_output() {
            for (m, n) in [
                (64, 128),
                (784, 128),
                (1, 1),
                (5, 3),
                (1000, 17),
                (17, 1000),
            ] {
                for threads in 1..5 {
                    covers(m, n, threads);
                }
            }
        }

        fn wide_outputs_split_by_columns_tall_ones_by_rows() {
            let wide = pieces(64, 128, 2);
            assert_eq!(
                wide[1],
                Piece {
                    r0: 0,
                    rows: 64,
                    c0: 64,
                    cols: 64
                }
            );
            let tall = pieces(784, 128, 2);
            assert_eq!(
                tall[1],
                Piece {
                    r0: 392,
                    rows: 392,
                    c0: 0,
                    cols: 128
                }
            );
        }
    }
}
