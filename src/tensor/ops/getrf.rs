//! LAPACK's getrf (the LU decomposition with partial pivoting) and getrs
//! (the two triangular solves after it) on row-major matrices, in the
//! tensor's own precision as PyTorch computes them: float32 stays float32.
//!
//! Up to 16 columns the factorisation is getf2's column-by-column order,
//! which is what MKL's sgetrf does there, to the bit (found by modelling it
//! against PyTorch on random matrices; dgetrf agreed where checked): each multiplier
//! is the column's value times the pivot's reciprocal (a quotient for the
//! last one of a square matrix of at most 4 rows), and each update one fused
//! multiply-add. So a small matrix factors, and its det and slogdet come out,
//! with PyTorch's last digits (`det` of a 3×3 integer matrix prints
//! `-1.0000` where PyTorch does). Wider matrices are blocked, as getrf is:
//! a panel of columns factored in getf2's order, the block row of U right of
//! it solved against the panel's unit lower triangle, and the rest updated
//! by one matrix product, where nearly all of the work is.

use faer::{Accum, MatMut, MatRef, Par};

/// The element types the factorisation runs in.
pub(super) trait LuFloat:
    faer::traits::ComplexField
    + Copy
    + PartialOrd
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
    + std::ops::MulAssign
    + std::ops::DivAssign
    + Send
    + Sync
{
    const ZERO: Self;
    const ONE: Self;
    /// The smallest normal value: LAPACK divides by a smaller pivot rather
    /// than multiply by its reciprocal, which would overflow.
    const SAFE_MIN: Self;
    fn magnitude(self) -> Self;
    fn root(self) -> Self;
    fn fma(self, b: Self, c: Self) -> Self;
}

macro_rules! lu_float {
    ($t:ty) => {
        impl LuFloat for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const SAFE_MIN: Self = <$t>::MIN_POSITIVE;
            #[inline(always)]
            fn magnitude(self) -> Self {
                self.abs()
            }
            #[inline(always)]
            fn root(self) -> Self {
                self.sqrt()
            }
            #[inline(always)]
            fn fma(self, b: Self, c: Self) -> Self {
                self.mul_add(b, c)
            }
        }
    };
}
lu_float!(f32);
lu_float!(f64);

/// Matrices up to this many columns factor in getf2's order in one panel.
const SMALL: usize = 16;
/// Columns per panel of wider matrices.
pub(super) const PANEL: usize = 32;

/// One m×n row-major matrix factored in place: the unit lower factor below
/// the diagonal, U on and above it. Returns the pivots (1-based, LAPACK's)
/// and info (the 1-based column of the first zero pivot, 0 if none).
pub(super) fn getrf<T: LuFloat>(a: &mut [T], m: usize, n: usize) -> (Vec<i32>, i32) {
    let k = m.min(n);
    let width = if n <= SMALL { k.max(1) } else { PANEL };
    // MKL's kernel for square matrices of up to 4 rows divides the last
    // multiplier instead of using the reciprocal.
    let divide_single = m == n && n <= 4;
    let mut piv = Vec::with_capacity(k);
    let mut info = 0;
    let mut panel = vec![T::ZERO; m * width.min(k)];
    for j0 in (0..k).step_by(width) {
        let end = (j0 + width).min(k);
        let cols = Cols { j0, end, m, n };
        let rows = m - j0;
        let p = &mut panel[..rows * (end - j0)];
        read_panel(a, p, cols);
        for jj in 0..end - j0 {
            let (r, zero) = factor_column(p, rows, jj, end - j0, divide_single && m - j0 - jj == 2);
            piv.push((j0 + r) as i32 + 1);
            if zero && info == 0 {
                info = (j0 + jj) as i32 + 1;
            }
        }
        write_panel(a, p, cols, &piv[j0..end]);
        if end < n {
            unit_lower_rows(a, n, j0, end);
            if end < m {
                let (top, bottom) = a.split_at_mut(end * n);
                let u12 =
                    MatRef::from_row_major_slice(&top[j0 * n..], end - j0, n).subcols(end, n - end);
                less_product(bottom, n, end, Left::Own(j0, end - j0), u12);
            }
        }
    }
    (piv, info)
}

/// A panel: columns j0..end of an m×n matrix, from row j0 down.
#[derive(Clone, Copy)]
pub(super) struct Cols {
    pub(super) j0: usize,
    pub(super) end: usize,
    pub(super) m: usize,
    pub(super) n: usize,
}

/// The panel copied column-major into `p`: its pivot searches, multipliers
/// and updates then run down contiguous columns.
/// (Sixteen rows at a time, so that each column's stores fill whole lines.)
pub(super) fn read_panel<T: LuFloat>(a: &[T], p: &mut [T], c: Cols) {
    let (n, rows) = (c.n, c.m - c.j0);
    for i0 in (0..rows).step_by(16) {
        let h = (rows - i0).min(16);
        let src = &a[(c.j0 + i0) * n..(c.j0 + i0 + h) * n];
        for q in 0..c.end - c.j0 {
            let dst = &mut p[q * rows + i0..q * rows + i0 + h];
            for (x, row) in dst.iter_mut().zip(src.chunks_exact(n)) {
                *x = row[c.j0 + q];
            }
        }
    }
}

/// The factored panel written back, and its row swaps (`piv`, 1-based rows
/// of the whole matrix) applied to the columns left and right of it.
pub(super) fn write_panel<T: LuFloat>(a: &mut [T], p: &[T], c: Cols, piv: &[i32]) {
    let (n, rows) = (c.n, c.m - c.j0);
    for (jj, &r) in piv.iter().enumerate() {
        let (j, r) = (c.j0 + jj, r as usize - 1);
        if r != j {
            let (top, bottom) = a.split_at_mut(r * n);
            let (x, y) = (&mut top[j * n..j * n + n], &mut bottom[..n]);
            x[..c.j0].swap_with_slice(&mut y[..c.j0]);
            x[c.end..].swap_with_slice(&mut y[c.end..]);
        }
    }
    for i0 in (0..rows).step_by(16) {
        let h = (rows - i0).min(16);
        let dst = &mut a[(c.j0 + i0) * n..(c.j0 + i0 + h) * n];
        for q in 0..c.end - c.j0 {
            let src = &p[q * rows + i0..q * rows + i0 + h];
            for (&x, row) in src.iter().zip(dst.chunks_exact_mut(n)) {
                row[c.j0 + q] = x;
            }
        }
    }
}

/// Where the left factor of a `less_product` lies.
#[derive(Clone, Copy)]
pub(super) enum Left<'a, T> {
    /// These columns of the updated rows themselves (getrf's L21).
    Own(usize, usize),
    /// A matrix beside them, row for row (getrs's blocks of L and U).
    Other(MatRef<'a, T>),
}

/// `rows[.., at..] -= left · right` for the row-major rows of width n in
/// `rows` (A22 -= L21 U12; getrs's block updates), the rows split between
/// the kernel threads when the product is large enough.
pub(super) fn less_product<T: LuFloat>(
    rows: &mut [T],
    n: usize,
    at: usize,
    left: Left<'_, T>,
    right: MatRef<'_, T>,
) {
    let work = rows.len() / n.max(1) * (n - at) * right.nrows();
    split_items(rows, n, work, |first, chunk| {
        let here = chunk.len() / n;
        let (own, dst) = MatMut::from_row_major_slice_mut(chunk, here, n).split_at_col_mut(at);
        let l = match left {
            Left::Own(c0, cols) => own.as_ref().subcols(c0, cols),
            Left::Other(m) => m.subrows(first, here),
        };
        faer::linalg::matmul::matmul(dst, Accum::Add, l, right, -T::ONE, Par::Seq);
    });
}

/// `f(first, chunk)` over `data`'s items of `width` elements: on the calling
/// thread alone, or, for at least 2^21 multiply-adds of `work`, in one run
/// of whole items per kernel thread (`first`: the run's first item).
pub(super) fn split_items<T: Send>(
    data: &mut [T],
    width: usize,
    work: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    let count = data.len() / width.max(1);
    let threads = if work >= 1 << 21 {
        crate::threads::count()
    } else {
        1
    };
    if threads == 1 || count == 0 {
        return f(0, data);
    }
    let per = count.div_ceil(threads);
    let runs = crate::threads::ChunksMut::new(data, per * width);
    crate::threads::zip(runs, |i, chunk| f(i * per, chunk));
}

crate::multiversion! {
    /// Column jj of a column-major panel of `rows` rows and `w` columns, as
    /// getf2 steps it: the first largest |value| at or below the diagonal is
    /// the pivot (its row swapped with row jj), the column below becomes the
    /// multipliers, and the panel's columns right of it are updated. (The
    /// pivot's row, and whether it was zero.) `divide`: the multiplier is a
    /// quotient, as MKL's small kernel has it.
    fn factor_column<T: LuFloat>(
        p: &mut [T],
        rows: usize,
        jj: usize,
        w: usize,
        divide: bool,
    ) -> (usize, bool) {
        let r = jj + first_largest(&p[jj * rows + jj..(jj + 1) * rows]);
        if r != jj {
            for c in 0..w {
                p.swap(c * rows + jj, c * rows + r);
            }
        }
        let (head, right) = p.split_at_mut((jj + 1) * rows);
        let col = &mut head[jj * rows..];
        let d = col[jj];
        let zero = d == T::ZERO;
        // A zero pivot (the whole column below is zero) leaves the column as
        // it is, as getf2 does; the update still runs.
        if !zero {
            if divide || d.magnitude() < T::SAFE_MIN {
                col[jj + 1..].iter_mut().for_each(|x| *x /= d);
            } else {
                let inv = T::ONE / d;
                col[jj + 1..].iter_mut().for_each(|x| *x *= inv);
            }
        }
        let ls = &col[jj + 1..];
        for other in right[..(w - jj - 1) * rows].chunks_exact_mut(rows) {
            let u = -other[jj];
            add_multiple(&mut other[jj + 1..], ls, u);
        }
        (r, zero)
    }
}

/// x += a·y, each element by one fused multiply-add. Sixteen at a time
/// through local arrays: written as one loop over the two slices, it was
/// compiled with a run-time check of whether they overlap, which sent the
/// row updates of getrs down the one-lane path.
#[inline(always)]
pub(super) fn add_multiple<T: LuFloat>(x: &mut [T], y: &[T], a: T) {
    let len = x.len().min(y.len());
    let (xs, x_tail) = x[..len].as_chunks_mut::<16>();
    let (ys, y_tail) = y[..len].as_chunks::<16>();
    for (xc, yc) in xs.iter_mut().zip(ys) {
        let (mut xv, yv) = (*xc, *yc);
        for (x, &y) in xv.iter_mut().zip(&yv) {
            *x = y.fma(a, *x);
        }
        *xc = xv;
    }
    // Short rows (getrs with a few right-hand sides) by eights and fours.
    let (x8, x_tail) = x_tail.as_chunks_mut::<8>();
    let (y8, y_tail) = y_tail.as_chunks::<8>();
    for (xc, yc) in x8.iter_mut().zip(y8) {
        let (mut xv, yv) = (*xc, *yc);
        for (x, &y) in xv.iter_mut().zip(&yv) {
            *x = y.fma(a, *x);
        }
        *xc = xv;
    }
    for (x, &y) in x_tail.iter_mut().zip(y_tail) {
        *x = y.fma(a, *x);
    }
}

/// The index of the first largest |value| (isamax's pivot), found by
/// sixteen running maxima and then the first element equal to theirs. A NaN
/// is never larger; one in the first place stays the pivot, as in the
/// one-by-one search.
#[inline(always)]
fn first_largest<T: LuFloat>(col: &[T]) -> usize {
    let Some(&first) = col.first() else { return 0 };
    if first.magnitude() != first.magnitude() {
        return 0;
    }
    let mut lanes = [T::ZERO; 16];
    let (blocks, tail) = col.as_chunks::<16>();
    for b in blocks {
        for (m, &x) in lanes.iter_mut().zip(b) {
            if x.magnitude() > *m {
                *m = x.magnitude();
            }
        }
    }
    let mut best = first.magnitude();
    for &v in lanes.iter().chain(tail) {
        if v.magnitude() > best {
            best = v.magnitude();
        }
    }
    col.iter().position(|x| x.magnitude() == best).unwrap_or(0)
}

crate::multiversion! {
    /// U's block row right of the panel `j0..end` (rows j0..end, columns
    /// end..n): each row less the multiples of the rows above it in the
    /// panel, in getf2's order.
    fn unit_lower_rows<T: LuFloat>(a: &mut [T], n: usize, j0: usize, end: usize) {
        for r in j0 + 1..end {
            let (above, row) = a.split_at_mut(r * n);
            for q in j0..r {
                let l = -row[q];
                add_multiple(&mut row[end..n], &above[q * n + end..q * n + n], l);
            }
        }
    }
}

/// X with A X = B for A factored by `getrf` (n×n, `lu` and `piv`), B row-major
/// n×k in `b`, which becomes X: the rows permuted as the pivots say, then
/// L⁻¹ and U⁻¹ by substitution, blocked as `getrf` is.
pub(super) fn getrs<T: LuFloat>(lu: &[T], piv: &[i32], b: &mut [T], n: usize, k: usize) {
    for (i, &p) in piv.iter().enumerate() {
        let p = p as usize - 1;
        if p != i {
            let (top, bottom) = b.split_at_mut(p * k);
            top[i * k..i * k + k].swap_with_slice(&mut bottom[..k]);
        }
    }
    let width = if n <= SMALL { n.max(1) } else { PANEL };
    let lu_at = |r0: usize, rows: usize, c0: usize, cols: usize| {
        MatRef::from_row_major_slice(&lu[r0 * n..(r0 + rows) * n], rows, n).subcols(c0, cols)
    };
    // Forward, L unit lower: each block of rows solved, then taken from the rows below.
    for j0 in (0..n).step_by(width) {
        let end = (j0 + width).min(n);
        forward_block(lu, b, n, k, j0, end);
        if end < n {
            let (top, bottom) = b.split_at_mut(end * k);
            let xs = MatRef::from_row_major_slice(&top[j0 * k..], end - j0, k);
            less_product(
                bottom,
                k,
                0,
                Left::Other(lu_at(end, n - end, j0, end - j0)),
                xs,
            );
        }
    }
    // Backward, U upper: blocks from the last, each taken from the rows above.
    let starts: Vec<usize> = (0..n).step_by(width).collect();
    for &j0 in starts.iter().rev() {
        let end = (j0 + width).min(n);
        backward_block(lu, b, n, k, j0, end);
        if j0 > 0 {
            let (top, bottom) = b.split_at_mut(j0 * k);
            let xs = MatRef::from_row_major_slice(&bottom[..(end - j0) * k], end - j0, k);
            less_product(top, k, 0, Left::Other(lu_at(0, j0, j0, end - j0)), xs);
        }
    }
}

crate::multiversion! {
    /// Rows j0..end of B less the multiples of the rows above them in the
    /// block (L's unit diagonal: nothing to divide).
    fn forward_block<T: LuFloat>(lu: &[T], b: &mut [T], n: usize, k: usize, j0: usize, end: usize) {
        for r in j0 + 1..end {
            let (above, row) = b.split_at_mut(r * k);
            for q in j0..r {
                add_multiple(&mut row[..k], &above[q * k..q * k + k], -lu[r * n + q]);
            }
        }
    }
}

crate::multiversion! {
    /// Rows j0..end of B, from the last: each less the multiples of the
    /// solved rows below it in the block (the last first, as trsm's column
    /// sweeps apply them), then times U's diagonal element's reciprocal.
    fn backward_block<T: LuFloat>(lu: &[T], b: &mut [T], n: usize, k: usize, j0: usize, end: usize) {
        for r in (j0..end).rev() {
            let (head, below) = b.split_at_mut((r + 1) * k);
            let row = &mut head[r * k..(r + 1) * k];
            for q in (r + 1..end).rev() {
                let u = -lu[r * n + q];
                add_multiple(row, &below[(q - r - 1) * k..(q - r) * k], u);
            }
            let inv = T::ONE / lu[r * n + r];
            for x in row.iter_mut() {
                *x *= inv;
            }
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }

    /// P L U rebuilt in f64 from the packed factors.
    fn rebuild(lu: &[f64], piv: &[i32], m: usize, n: usize) -> Vec<f64> {
        let k = m.min(n);
        let mut out = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                let mut s = 0.0;
                for q in 0..=i.min(j).min(k - 1) {
                    let l = if q == i { 1.0 } else { lu[i * n + q] };
                    if q <= j && q < k {
                        s += l * lu[q * n + j];
                    }
                }
                out[i * n + j] = s;
            }
        }
        for i in (0..k).rev() {
            let p = piv[i] as usize - 1;
            for j in 0..n {
                out.swap(i * n + j, p * n + j);
            }
        }
        out
    }

    crate::unit_tests! {
        fn factors_rebuild_the_matrix_at_every_blocking() {
            let mut seed = 7;
            for (m, n) in [
                (1, 1),
                (3, 3),
                (4, 4),
                (16, 16),
                (17, 17),
                (70, 70),
                (40, 90),
                (90, 40),
            ] {
                let a: Vec<f64> = (0..m * n).map(|_| lcg(&mut seed)).collect();
                let mut lu = a.clone();
                let (piv, info) = getrf(&mut lu, m, n);
                assert_eq!(info, 0);
                for (i, j) in (0..m).flat_map(|i| (0..m.min(n)).map(move |j| (i, j))) {
                    if i > j {
                        assert!(lu[i * n + j].abs() <= 1.0, "multiplier above 1 at {m}x{n}");
                    }
                }
                let back = rebuild(&lu, &piv, m, n);
                let err = a
                    .iter()
                    .zip(&back)
                    .map(|(x, y)| (x - y).abs())
                    .fold(0.0, f64::max);
                assert!(err < 1e-12, "{m}x{n}: {err}");
            }
        }

        fn getrs_solves_against_an_f64_reference() {
            let mut seed = 11;
            for (n, k) in [(1, 1), (5, 2), (16, 16), (33, 3), (100, 37)] {
                let a: Vec<f64> = (0..n * n)
                    .map(|i| lcg(&mut seed) + if i % (n + 1) == 0 { 4.0 } else { 0.0 })
                    .collect();
                let x: Vec<f64> = (0..n * k).map(|_| lcg(&mut seed)).collect();
                let mut b = vec![0.0; n * k];
                for i in 0..n {
                    for c in 0..k {
                        b[i * k + c] = (0..n).map(|q| a[i * n + q] * x[q * k + c]).sum();
                    }
                }
                let mut lu32: Vec<f32> = a.iter().map(|&v| v as f32).collect();
                let mut b32: Vec<f32> = b.iter().map(|&v| v as f32).collect();
                let (piv, _) = getrf(&mut lu32, n, n);
                getrs(&lu32, &piv, &mut b32, n, k);
                let err = x
                    .iter()
                    .zip(&b32)
                    .map(|(u, &v)| (u - v as f64).abs())
                    .fold(0.0, f64::max);
                assert!(err < 1e-4, "{n}x{k}: {err}");
            }
        }

        fn small_matrices_factor_in_mkls_order() {
            // torch.linalg.lu_factor of [[2,1,1],[1,3,2],[1,0,0]] (float32, MKL):
            // the last pivot is -0.19999999, so det prints -1.0000.
            let mut a: Vec<f32> = vec![2.0, 1.0, 1.0, 1.0, 3.0, 2.0, 1.0, 0.0, 0.0];
            let (piv, info) = getrf(&mut a, 3, 3);
            assert_eq!((piv, info), (vec![1, 2, 3], 0));
            assert_eq!(a[8], -0.19999999_f32);
            // A zero column: info names it, and the factorisation goes on.
            let mut z: Vec<f32> = vec![0.0, 1.0, 0.0, 2.0];
            let (piv, info) = getrf(&mut z, 2, 2);
            assert_eq!((piv, info), (vec![1, 2], 1));
        }
    }
}
