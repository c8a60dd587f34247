//! LAPACK's potrf (the Cholesky factor L of a symmetric positive-definite
//! matrix, A = L Lᵀ) on a row-major matrix, in the tensor's own precision
//! as PyTorch computes it. Blocked as getrf.rs is: a panel of columns is
//! copied column-major and factored column by column (each column less the
//! multiples of the panel's columns before it, then divided by the square
//! root of its diagonal element), and the matrix below and right of it is
//! updated by one product, where nearly all of the work is. Only the lower
//! triangle is read; the upper one is left as scratch for the caller to
//! clear.

use faer::MatRef;

use super::getrf::{
    Cols, Left, LuFloat, PANEL, add_multiple, less_product, read_panel, write_panel,
};

/// Factors the n×n row-major `a` in place (L in its lower triangle).
/// Returns info: 0, or the 1-based order of the first leading minor that is
/// not positive-definite, where the factorisation stopped (that column
/// holds its non-positive pivot).
pub(super) fn potrf<T: LuFloat>(a: &mut [T], n: usize) -> i32 {
    let mut panel = vec![T::ZERO; n * PANEL.min(n)];
    for j0 in (0..n).step_by(PANEL) {
        let end = (j0 + PANEL).min(n);
        let (w, rows) = (end - j0, n - j0);
        let cols = Cols { j0, end, m: n, n };
        let p = &mut panel[..rows * w];
        read_panel(a, p, cols);
        let mut info = 0;
        for jj in 0..w {
            if !factor_column(p, rows, jj) {
                info = (j0 + jj) as i32 + 1;
                break;
            }
        }
        write_panel(a, p, cols, &[]);
        if info > 0 {
            return info;
        }
        if end < n {
            // A22 -= L21 L21ᵀ, L21 read from the panel's copy (rows w.. of
            // each column), so that the rows written are not also read.
            let l21 = MatRef::from_column_major_slice_with_stride(&p[w..], rows - w, w, rows);
            less_product(&mut a[end * n..], n, end, Left::Other(l21), l21.transpose());
        }
    }
    0
}

crate::multiversion! {
    /// Column jj of a column-major panel of `rows` rows: less the multiples
    /// of the panel's columns before it (each by the element of its row jj),
    /// then divided by the square root of its diagonal element. False when
    /// that element is not positive (it is left in place, as potf2 leaves it).
    fn factor_column<T: LuFloat>(p: &mut [T], rows: usize, jj: usize) -> bool {
        let (before, here) = p.split_at_mut(jj * rows);
        let col = &mut here[jj..rows];
        for q in 0..jj {
            let prev = &before[q * rows..(q + 1) * rows];
            add_multiple(col, &prev[jj..], -prev[jj]);
        }
        let d = col[0];
        // `!(d > 0)`: a NaN stops it too.
        if d.partial_cmp(&T::ZERO) != Some(std::cmp::Ordering::Greater) {
            return false;
        }
        let d = d.root();
        col[0] = d;
        let inv = T::ONE / d;
        col[1..].iter_mut().for_each(|x| *x *= inv);
        true
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn factor_times_its_transpose_is_the_matrix() {
            let mut seed = 5u64;
            let mut next = || {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
            };
            for n in [1, 2, 5, 16, 33, 70] {
                let x: Vec<f64> = (0..n * n).map(|_| next()).collect();
                // A = X Xᵀ + n I, its upper triangle poisoned: potrf reads the lower.
                let mut a = vec![0.0; n * n];
                for i in 0..n {
                    for j in 0..n {
                        let s: f64 = (0..n).map(|q| x[i * n + q] * x[j * n + q]).sum();
                        a[i * n + j] = if j > i {
                            f64::NAN
                        } else {
                            s + if i == j { n as f64 } else { 0.0 }
                        };
                    }
                }
                let orig = a.clone();
                assert_eq!(potrf(&mut a, n), 0);
                for i in 0..n {
                    for j in 0..=i {
                        let s: f64 = (0..=j).map(|q| a[i * n + q] * a[j * n + q]).sum();
                        assert!(
                            (s - orig[i * n + j]).abs() < 1e-9 * n as f64,
                            "{n}: ({i},{j})"
                        );
                    }
                }
            }
        }

        fn a_matrix_that_is_not_positive_definite_names_its_minor() {
            // The leading 2×2 minor [[1, 2], [2, 1]] has a negative determinant.
            let mut a: Vec<f32> = vec![1.0, 0.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0];
            assert_eq!(potrf(&mut a, 3), 2);
            assert_eq!(a[4], -3.0);
        }
    }
}
