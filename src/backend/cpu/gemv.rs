//! Matrix-vector products (`A @ v`, `v @ B`, a linear layer on one row):
//! memory-bound, so they run as one pass over the matrix at the memory's
//! speed on every core, either as dot products of contiguous lines or as
//! scaled rows accumulated into the result. The gemm crate packed the matrix
//! first and ran 3.7x behind PyTorch's sgemv on a 1000² `x @ v`.

use std::ops::{Add, Mul};

use super::scratch::Out;
use super::strided::parallel;
use crate::threads::ChunksMut;

/// The element types these kernels sum: f32 and f64.
pub trait Num: Copy + Default + Send + Sync + Add<Output = Self> + Mul<Output = Self> {
    /// self · a + b, rounded once (the FMA instruction in the multiversioned
    /// kernels).
    fn fma(self, a: Self, b: Self) -> Self;
}
impl Num for f32 {
    #[inline(always)]
    fn fma(self, a: f32, b: f32) -> f32 {
        self.mul_add(a, b)
    }
}
impl Num for f64 {
    #[inline(always)]
    fn fma(self, a: f64, b: f64) -> f64 {
        self.mul_add(a, b)
    }
}

/// `out[j] = Σ_p x[p] · M[p, j]` for j < `width` and p < `k`: the vector at
/// `x_off` with stride `x_step`, M[p, j] at `m_off + p * p_step + j * j_step`.
pub struct VectorProduct {
    pub k: usize,
    pub width: usize,
    pub x_off: usize,
    pub x_step: usize,
    pub m_off: usize,
    pub p_step: usize,
    pub j_step: usize,
}

impl VectorProduct {
    /// The product into `dst` (`width` slots), where M's lines along p or
    /// along j are contiguous; false (nothing written) otherwise.
    pub fn run<T: Num>(&self, x: &[T], mat: &[T], dst: &mut [Out<T>]) -> bool {
        let (k, w) = (self.k, self.width);
        if k == 0 || (self.p_step != 1 && self.j_step != 1) {
            return false;
        }
        // The vector, contiguous (k elements: small beside the matrix).
        let xs: Vec<T> = (0..k).map(|p| x[self.x_off + p * self.x_step]).collect();
        let par = parallel(w * k);
        if self.p_step == 1 {
            // Column j of M is contiguous: one dot product per output.
            let one = |j: usize, o: &mut Out<T>| {
                o.write(dot(&xs, &mat[self.m_off + j * self.j_step..][..k]));
            };
            if par {
                let per = w.div_ceil(4 * crate::threads::count());
                crate::threads::zip(ChunksMut::new(dst, per), |c, o| {
                    for (j, o) in o.iter_mut().enumerate() {
                        one(c * per + j, o);
                    }
                });
            } else {
                dst.iter_mut().enumerate().for_each(|(j, o)| one(j, o));
            }
        } else {
            // Row p of M is contiguous: rows scaled by x[p], summed, ROWS
            // rows to a pass over the sums, over one block of columns per
            // core.
            let columns = w.div_ceil(crate::threads::count()).next_multiple_of(64);
            let block = |c: usize, o: &mut [Out<T>]| {
                let row = |p: usize| &mat[self.m_off + p * self.p_step + c * columns..][..o.len()];
                let mut acc = vec![T::default(); o.len()];
                let quads = k / ROWS * ROWS;
                for p in (0..quads).step_by(ROWS) {
                    let s: [T; ROWS] = std::array::from_fn(|r| xs[p + r]);
                    axpy_rows(&mut acc, s, std::array::from_fn(|r| row(p + r)));
                }
                for (p, &s) in xs.iter().enumerate().skip(quads) {
                    axpy(&mut acc, s, row(p));
                }
                for (d, a) in o.iter_mut().zip(acc) {
                    d.write(a);
                }
            };
            if par {
                crate::threads::zip(ChunksMut::new(dst, columns), block);
            } else {
                block(0, dst);
            }
        }
        true
    }
}

crate::multiversion! {
    /// Σ x[i] y[i] in 16 running sums (one vector of f32), folded at the end.
    fn dot<T: Num>(x: &[T], y: &[T]) -> T {
        const L: usize = 16;
        let mut acc = [T::default(); L];
        let (xc, yc) = (x.chunks_exact(L), y.chunks_exact(L));
        let tail = xc
            .remainder()
            .iter()
            .zip(yc.remainder())
            .fold(T::default(), |s, (&a, &b)| s + a * b);
        for (a, b) in xc.zip(yc) {
            for l in 0..L {
                acc[l] = acc[l] + a[l] * b[l];
            }
        }
        acc.iter().fold(tail, |s, &a| s + a)
    }
}

/// Rows of M summed per pass over the sums (more streams from memory at
/// once, fewer loads and stores of the sums).
const ROWS: usize = 4;

crate::multiversion! {
    /// acc += s[0] · rows[0] + ... + s[ROWS - 1] · rows[ROWS - 1].
    fn axpy_rows<T: Num>(acc: &mut [T], s: [T; ROWS], rows: [&[T]; ROWS]) {
        let n = acc.len();
        let rows = rows.map(|r| &r[..n]);
        for i in 0..n {
            acc[i] = (0..ROWS).fold(acc[i], |a, r| s[r].fma(rows[r][i], a));
        }
    }
}

crate::multiversion! {
    /// acc += s · row.
    fn axpy<T: Num>(acc: &mut [T], s: T, row: &[T]) {
        for (a, &r) in acc.iter_mut().zip(row) {
            *a = s.fma(r, *a);
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        /// Both forms against a plain f64 sum, with strided vectors and edges
        /// of the 16-wide sums and of the column blocks.
        fn both_forms_match_a_plain_sum() {
            for &(k, w) in &[(1, 1), (17, 3), (100, 700), (33, 1030)] {
                let mat: Vec<f64> = (0..k * w).map(|i| ((i * 7 % 11) as f64) - 5.0).collect();
                let x: Vec<f64> = (0..2 * k).map(|i| ((i * 3 % 5) as f64) - 2.0).collect();
                // M[p, j] row-major (p_step w) and transposed (p_step 1).
                for (p_step, j_step) in [(w, 1), (1, k)] {
                    let spec = VectorProduct {
                        k,
                        width: w,
                        x_off: 1,
                        x_step: 2,
                        m_off: 0,
                        p_step,
                        j_step,
                    };
                    let mut out = vec![Out::new(0.0); w];
                    assert!(spec.run(&x, &mat, &mut out));
                    for (j, o) in out.iter().enumerate() {
                        let want: f64 = (0..k)
                            .map(|p| x[1 + 2 * p] * mat[p * p_step + j * j_step])
                            .sum();
                        // SAFETY: run wrote every slot.
                        assert_eq!(unsafe { o.assume_init() }, want, "k {k}, w {w}, j {j}");
                    }
                }
            }
        }
    }
}
