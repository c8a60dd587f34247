//! LAPACK's geqrf (the QR decomposition by Householder reflectors), orgqr
//! (Q from the reflectors) and the least-squares solves built on them, on
//! column-major matrices in the tensor's own precision: float32 stays
//! float32, as in PyTorch (faer ran these in f64, 2-3× behind MKL).
//!
//! Blocked as LAPACK blocks them: a panel of columns is reduced one
//! reflector at a time (geqr2), its reflectors gathered into the compact
//! form I - V T Vᵀ (larft), and the rest of the matrix updated by that form
//! in three products (larfb), where nearly all of the work is. Each
//! reflector is LAPACK's (larfg): β = -sign(α)·‖(α, x)‖, τ = (β - α)/β and
//! v = x/(α - β), so R's diagonal has LAPACK's (and PyTorch's) signs.

use faer::{Accum, Mat, MatMut, MatRef, Par};

use super::getrf::{LuFloat, PANEL, add_multiple, split_items};

/// The element types the reflectors run in.
pub(super) trait QrFloat: LuFloat {
    /// LAPACK's relative machine precision (slamch('E'): half an ulp of 1).
    const EPS: Self;
    /// The Euclidean norm, without overflow or underflow on the way.
    fn norm(x: &[Self]) -> Self;
    fn hypot(self, other: Self) -> Self;
}

impl QrFloat for f32 {
    const EPS: f32 = f32::EPSILON / 2.0;
    fn norm(x: &[f32]) -> f32 {
        // Squares in f64 neither overflow nor underflow for any f32.
        sum_squares(x, f64::from).sqrt() as f32
    }
    fn hypot(self, other: f32) -> f32 {
        (f64::from(self)).hypot(f64::from(other)) as f32
    }
}

impl QrFloat for f64 {
    const EPS: f64 = f64::EPSILON / 2.0;
    fn norm(x: &[f64]) -> f64 {
        let sum = sum_squares(x, |v| v);
        if sum.is_finite() && sum > f64::MIN_POSITIVE / f64::EPSILON {
            return sum.sqrt();
        }
        // Overflowed or lost to underflow: scale by the largest magnitude.
        let big = x.iter().fold(0f64, |m, v| m.max(v.abs()));
        if big == 0.0 || !big.is_finite() {
            return if x.iter().any(|v| v.is_nan()) {
                f64::NAN
            } else {
                big
            };
        }
        big * sum_squares(x, |v| v / big).sqrt()
    }
    fn hypot(self, other: f64) -> f64 {
        f64::hypot(self, other)
    }
}

/// Σ f(x)² in f64, eight running sums.
#[inline(always)]
fn sum_squares<T: Copy>(x: &[T], f: impl Fn(T) -> f64) -> f64 {
    let mut acc = [0f64; 8];
    let (chunks, tail) = x.as_chunks::<8>();
    for c in chunks {
        for (a, &v) in acc.iter_mut().zip(c) {
            *a += f(v) * f(v);
        }
    }
    acc.iter().sum::<f64>() + tail.iter().map(|&v| f(v) * f(v)).sum::<f64>()
}

/// Σ x·y, sixteen running sums.
#[inline(always)]
fn dot<T: LuFloat>(x: &[T], y: &[T]) -> T {
    let len = x.len().min(y.len());
    let mut acc = [T::ZERO; 16];
    let (xs, x_tail) = x[..len].as_chunks::<16>();
    let (ys, y_tail) = y[..len].as_chunks::<16>();
    for (xc, yc) in xs.iter().zip(ys) {
        for ((a, &x), &y) in acc.iter_mut().zip(xc).zip(yc) {
            *a = x.fma(y, *a);
        }
    }
    let mut s = acc.iter().fold(T::ZERO, |s, &a| s + a);
    for (&x, &y) in x_tail.iter().zip(y_tail) {
        s = x.fma(y, s);
    }
    s
}

/// larfg on `v` = (α, x): the reflector H = I - τ (1, v')(1, v')ᵀ with
/// H (α, x) = (β, 0). Leaves β in v[0] and v' in v[1..]; returns τ (zero,
/// and v untouched, when x is already zero).
fn reflector<T: QrFloat>(v: &mut [T]) -> T {
    let Some((alpha, x)) = v.split_first_mut() else {
        return T::ZERO;
    };
    let mut xnorm = T::norm(x);
    if xnorm == T::ZERO {
        return T::ZERO;
    }
    let signed = |h: T, a: T| if a >= T::ZERO { -h } else { h };
    let mut beta = signed(alpha.hypot(xnorm), *alpha);
    // β too small to divide by safely: scale up (as larfg does), and back.
    let safe = T::SAFE_MIN / T::EPS;
    let mut scaled = 0;
    while beta.magnitude() < safe && scaled < 20 {
        let up = T::ONE / safe;
        x.iter_mut().for_each(|e| *e *= up);
        beta *= up;
        *alpha *= up;
        scaled += 1;
    }
    if scaled > 0 {
        xnorm = T::norm(x);
        beta = signed(alpha.hypot(xnorm), *alpha);
    }
    let tau = (beta - *alpha) / beta;
    let s = T::ONE / (*alpha - beta);
    x.iter_mut().for_each(|e| *e *= s);
    for _ in 0..scaled {
        beta *= safe;
    }
    *alpha = beta;
    tau
}

/// One m×n column-major matrix reduced in place: R on and above the
/// diagonal, the reflectors' vectors below it; τ of each reflector.
pub(super) fn geqrf<T: QrFloat>(a: &mut [T], m: usize, n: usize) -> Vec<T> {
    let k = m.min(n);
    let mut tau = vec![T::ZERO; k];
    for j0 in (0..k).step_by(PANEL) {
        let jb = PANEL.min(k - j0);
        factor_panel(a, m, j0, jb, &mut tau);
        if j0 + jb < n {
            let block = Block::of(a, m, j0, jb, &tau[j0..j0 + jb]);
            block.apply(&mut a[(j0 + jb) * m..], m, j0, true);
        }
    }
    tau
}

crate::multiversion! {
    /// geqr2 on columns j0..j0+jb from row j0 down: each column's reflector,
    /// applied to the panel's columns right of it.
    fn factor_panel<T: QrFloat>(a: &mut [T], m: usize, j0: usize, jb: usize, tau: &mut [T]) {
        for c in j0..j0 + jb {
            let (head, rest) = a.split_at_mut((c + 1) * m);
            let v = &mut head[c * m + c..];
            let t = reflector(v);
            tau[c] = t;
            if t == T::ZERO {
                continue;
            }
            let v = &v[1..];
            for col in rest[..(j0 + jb - c - 1) * m].chunks_exact_mut(m) {
                let y = &mut col[c..];
                let s = -(t * (y[0] + dot(v, &y[1..])));
                y[0] += s;
                add_multiple(&mut y[1..], v, s);
            }
        }
    }
}

/// LAPACK's larf in org2r: the columns of `cols` (m rows each) from row
/// `at` down times H = I - τ (1, v)(1, v)ᵀ, skipping v's trailing zeros and
/// the trailing columns that are zero where v is not. That changes results
/// only where a NaN or an infinity would meet a zero: Q of [[inf, 1],
/// [1, 2]] keeps the column [0, 1], as PyTorch's does. (MKL's geqrf does
/// not skip: that R's last column is NaN there, and so is tsh's.)
#[inline(always)]
fn apply_reflector<T: QrFloat>(v: &[T], t: T, cols: &mut [T], m: usize, at: usize) {
    let rows = v.iter().rposition(|&x| x != T::ZERO).map_or(1, |p| p + 2);
    let v = &v[..rows - 1];
    let count = cols.len() / m.max(1);
    let nonzero = |j: usize| {
        cols[j * m + at..j * m + at + rows]
            .iter()
            .any(|&x| x != T::ZERO)
    };
    let last = (0..count).rposition(nonzero).map_or(0, |j| j + 1);
    for col in cols[..last * m].chunks_exact_mut(m) {
        let y = &mut col[at..at + rows];
        let s = -(t * (y[0] + dot(v, &y[1..])));
        y[0] += s;
        add_multiple(&mut y[1..], v, s);
    }
}

/// jb reflectors in the compact form I - V T Vᵀ (larft): V their vectors
/// with the unit diagonal and zeros above written out (l × jb, column-major,
/// l the rows from the first reflector's down), T upper triangular (jb × jb).
struct Block<T> {
    v: Vec<T>,
    t: Vec<T>,
    l: usize,
    jb: usize,
}

impl<T: QrFloat> Block<T> {
    fn of(a: &[T], m: usize, j0: usize, jb: usize, tau: &[T]) -> Block<T> {
        let l = m - j0;
        let mut v = vec![T::ZERO; l * jb];
        for (c, dst) in v.chunks_exact_mut(l).enumerate() {
            let src = &a[(j0 + c) * m + j0..(j0 + c + 1) * m];
            dst[c] = T::ONE;
            dst[c + 1..].copy_from_slice(&src[c + 1..]);
        }
        // T's column i is -τᵢ T[..i, ..i] (V[.., ..i]ᵀ vᵢ), T[i, i] = τᵢ;
        // the products Vᵀ V in one go.
        let vr = MatRef::from_column_major_slice(&v, l, jb);
        let mut g = Mat::<T>::zeros(jb, jb);
        faer::linalg::matmul::matmul(
            g.as_mut(),
            Accum::Replace,
            vr.transpose(),
            vr,
            T::ONE,
            Par::Seq,
        );
        let t = triangular_factor(g.as_ref(), tau);
        Block { v, t, l, jb }
    }

    /// `cols` (whole columns of m rows, column-major) from row `j0` down
    /// times H = I - V T Vᵀ, or Hᵀ (larfb), the columns split between the
    /// kernel threads when the products are large enough.
    fn apply(&self, cols: &mut [T], m: usize, j0: usize, transposed: bool) {
        let work = cols.len() / m.max(1) * self.l * self.jb * 2;
        split_items(cols, m, work, |_, chunk| {
            let nc = chunk.len() / m.max(1);
            let c = MatMut::from_column_major_slice_mut(chunk, m, nc).subrows_mut(j0, self.l);
            self.apply_block(c, transposed);
        });
    }

    fn apply_block(&self, mut c: MatMut<'_, T>, transposed: bool) {
        use faer::linalg::matmul::matmul;
        let (jb, nc) = (self.jb, c.ncols());
        let v = MatRef::from_column_major_slice(&self.v, self.l, jb);
        let t = MatRef::from_column_major_slice(&self.t, jb, jb);
        let t = if transposed { t.transpose() } else { t };
        let mut w = Mat::<T>::zeros(jb, nc);
        matmul(
            w.as_mut(),
            Accum::Replace,
            v.transpose(),
            c.as_ref(),
            T::ONE,
            Par::Seq,
        );
        let mut tw = Mat::<T>::zeros(jb, nc);
        matmul(tw.as_mut(), Accum::Replace, t, w.as_ref(), T::ONE, Par::Seq);
        matmul(c.as_mut(), Accum::Add, v, tw.as_ref(), -T::ONE, Par::Seq);
    }
}

crate::multiversion! {
    /// larft's T (jb × jb, column-major) from G = Vᵀ V and the τs.
    fn triangular_factor<T: QrFloat>(g: MatRef<'_, T>, tau: &[T]) -> Vec<T> {
        let jb = tau.len();
        let mut t = vec![T::ZERO; jb * jb];
        for (i, &ti) in tau.iter().enumerate() {
            if ti == T::ZERO {
                continue;
            }
            for r in 0..i {
                let mut s = T::ZERO;
                for q in r..i {
                    s = t[r + q * jb].fma(-ti * g[(q, i)], s);
                }
                t[r + i * jb] = s;
            }
            t[i + i * jb] = ti;
        }
        t
    }
}

/// The blocks of a factorisation's k reflectors: (first column, width).
fn blocks(k: usize) -> impl DoubleEndedIterator<Item = (usize, usize)> {
    (0..k).step_by(PANEL).map(move |j0| (j0, PANEL.min(k - j0)))
}

/// Q's first `cols` columns (m × cols, column-major) from geqrf's
/// reflectors, as LAPACK's orgqr builds them: the last block by org2r over
/// every column from its first on; then, block by block towards the
/// first, the columns right of the block times the block's I - V T Vᵀ, and
/// the block's own columns by org2r.
pub(super) fn orgqr<T: QrFloat>(a: &[T], m: usize, tau: &[T], cols: usize) -> Vec<T> {
    let k = tau.len();
    let mut q = vec![T::ZERO; m * cols];
    for (j, col) in q.chunks_exact_mut(m.max(1)).enumerate() {
        if j < k {
            col.copy_from_slice(&a[j * m..(j + 1) * m]);
        } else if j < m {
            col[j] = T::ONE;
        }
    }
    let all: Vec<(usize, usize)> = blocks(k).collect();
    for (at, &(j0, jb)) in all.iter().enumerate().rev() {
        if at + 1 == all.len() {
            org2r(&mut q, m, j0, jb, cols, tau);
            continue;
        }
        Block::of(a, m, j0, jb, &tau[j0..j0 + jb]).apply(&mut q[(j0 + jb) * m..], m, j0, false);
        org2r(&mut q, m, j0, jb, j0 + jb, tau);
    }
    q
}

crate::multiversion! {
    /// org2r on columns j0..end of q from row j0 down, with the reflectors
    /// j0..j0+jb stored in them: each reflector, last first, applied to the
    /// columns right of it, its own column becoming -τ v below a diagonal 1 - τ
    /// (so a zero column's reflector, τ = 0, leaves -0 below the diagonal, as
    /// LAPACK's does); the rows above j0 zero.
    fn org2r<T: QrFloat>(q: &mut [T], m: usize, j0: usize, jb: usize, end: usize, tau: &[T]) {
        for i in (j0..j0 + jb).rev() {
            let t = tau[i];
            let (head, rest) = q.split_at_mut((i + 1) * m);
            let col = &mut head[i * m..];
            if t != T::ZERO {
                apply_reflector(&col[i + 1..], t, &mut rest[..(end - i - 1) * m], m, i);
            }
            col[i + 1..].iter_mut().for_each(|x| *x *= -t);
            col[i] = T::ONE - t;
            col[..i].iter_mut().for_each(|x| *x = T::ZERO);
        }
    }
}

/// Qᵀ B in place for B m × k, column-major (ormqr): H₁ first.
pub(super) fn apply_qt<T: QrFloat>(a: &[T], m: usize, tau: &[T], b: &mut [T]) {
    for (j0, jb) in blocks(tau.len()) {
        Block::of(a, m, j0, jb, &tau[j0..j0 + jb]).apply(b, m, j0, true);
    }
}

/// Q B in place for B m × k, column-major: Hₖ first.
pub(super) fn apply_q<T: QrFloat>(a: &[T], m: usize, tau: &[T], b: &mut [T]) {
    for (j0, jb) in blocks(tau.len()).rev() {
        Block::of(a, m, j0, jb, &tau[j0..j0 + jb]).apply(b, m, j0, false);
    }
}

/// R's diagonal is far enough from zero that the least-squares problem has
/// full rank: every |Rᵢᵢ| above √ε of the largest, and the condition number
/// LINPACK's estimate gives under 1/√ε. (Problems that fail this go to
/// the SVD, which finds their rank as PyTorch's rcond defines it.)
pub(super) fn well_conditioned<T: QrFloat>(a: &[T], m: usize, k: usize) -> bool {
    if k == 0 {
        return true;
    }
    let tol = T::EPS.root();
    let diag = (0..k).map(|i| a[i * m + i].magnitude());
    let big = diag.clone().fold(T::ZERO, |b, d| if d > b { d } else { b });
    // (A NaN anywhere fails these.)
    let separated = big > T::ZERO && diag.clone().all(|d| d > tol * big);
    if !separated {
        return false;
    }
    let (norm, inverse) = condition_parts(a, m, k);
    norm * inverse < T::ONE / tol
}

crate::multiversion! {
    /// ‖R‖∞ (the largest row sum of |R|), and ‖R⁻¹‖∞ from below: back
    /// substitution against a right-hand side of ±1, each sign picked to
    /// make its unknown larger (LINPACK's estimate). Both by columns, which
    /// are contiguous.
    fn condition_parts<T: QrFloat>(a: &[T], m: usize, k: usize) -> (T, T) {
        let mut rows = vec![T::ZERO; k];
        let mut s = vec![T::ZERO; k];
        let mut largest = T::ZERO;
        for i in (0..k).rev() {
            let col = &a[i * m..i * m + i + 1];
            for (r, &x) in rows.iter_mut().zip(col) {
                *r += x.magnitude();
            }
            let e = if s[i] > T::ZERO { -T::ONE } else { T::ONE };
            let z = (e - s[i]) / col[i];
            if z.magnitude() > largest {
                largest = z.magnitude();
            }
            add_multiple(&mut s[..i], &col[..i], z);
        }
        let norm = rows.iter().fold(T::ZERO, |b, &r| if r > b { r } else { b });
        (norm, largest)
    }
}

crate::multiversion! {
    /// X with R X = B for R the upper triangle of the k × k top of `a`
    /// (column-major, m rows) and B the top k rows of each column of `b`
    /// (column-major, `ldb` rows).
    pub(super) fn solve_upper<T: QrFloat>(a: &[T], m: usize, k: usize, b: &mut [T], ldb: usize) {
        for col in b.chunks_exact_mut(ldb.max(1)) {
            for i in (0..k).rev() {
                let x = col[i] / a[i * m + i];
                col[i] = x;
                add_multiple(&mut col[..i], &a[i * m..i * m + i], -x);
            }
        }
    }
}

crate::multiversion! {
    /// X with Rᵀ X = B for R as in solve_upper (Rᵀ lower triangular).
    pub(super) fn solve_upper_transposed<T: QrFloat>(
        a: &[T],
        m: usize,
        k: usize,
        b: &mut [T],
        ldb: usize,
    ) {
        for col in b.chunks_exact_mut(ldb.max(1)) {
            for i in 0..k {
                let s = dot(&a[i * m..i * m + i], &col[..i]);
                col[i] = (col[i] - s) / a[i * m + i];
            }
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    fn random(len: usize, seed: u64) -> Vec<f64> {
        let mut s = seed;
        (0..len)
            .map(|_| {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((s >> 11) as f64 / (1u64 << 53) as f64) - 0.5
            })
            .collect()
    }

    crate::unit_tests! {
        /// Q R rebuilds A and Q's columns are orthonormal, across the blocking.
        fn factors_rebuild_the_matrix() {
            for (m, n) in [
                (1, 1),
                (3, 2),
                (2, 3),
                (5, 5),
                (40, 33),
                (33, 40),
                (100, 70),
                (70, 100),
            ] {
                let a0 = random(m * n, (m * 131 + n) as u64);
                let mut a = a0.clone();
                let tau = geqrf(&mut a, m, n);
                let k = m.min(n);
                let q = orgqr(&a, m, &tau, k);
                for i in 0..m {
                    for j in 0..n {
                        let s: f64 = (0..k.min(j + 1)).map(|p| q[p * m + i] * a[j * m + p]).sum();
                        assert!((s - a0[j * m + i]).abs() < 1e-12, "{m}x{n} A[{i},{j}]");
                    }
                }
                for c in 0..k {
                    for d in 0..k {
                        let s: f64 = (0..m).map(|i| q[c * m + i] * q[d * m + i]).sum();
                        let want = if c == d { 1.0 } else { 0.0 };
                        assert!((s - want).abs() < 1e-12, "{m}x{n} QᵀQ[{c},{d}]");
                    }
                }
            }
        }

        /// LAPACK's signs: β = -sign(α)‖·‖, and a zero column leaves τ = 0.
        fn reflector_signs() {
            let mut a = vec![3.0f64, 4.0, 0.0, 0.0];
            let tau = geqrf(&mut a, 2, 2);
            assert_eq!(a[0], -5.0);
            assert_eq!(tau[1], 0.0);
            let mut z = vec![0.0f32; 4];
            assert_eq!(geqrf(&mut z, 2, 2), vec![0.0, 0.0]);
        }

        /// The least-squares solve through Qᵀ and R matches the normal equations.
        fn least_squares_through_qr() {
            let (m, n, k) = (90, 50, 3);
            let a0 = random(m * n, 7);
            let b0 = random(m * k, 8);
            let mut a = a0.clone();
            let tau = geqrf(&mut a, m, n);
            assert!(well_conditioned(&a, m, n));
            let mut b = b0.clone();
            apply_qt(&a, m, &tau, &mut b);
            solve_upper(&a, m, n, &mut b, m);
            // Aᵀ (A x - b) = 0 at the solution.
            for c in 0..k {
                let x = &b[c * m..c * m + n];
                let resid: Vec<f64> = (0..m)
                    .map(|i| (0..n).map(|j| a0[j * m + i] * x[j]).sum::<f64>() - b0[c * m + i])
                    .collect();
                for j in 0..n {
                    let g: f64 = (0..m).map(|i| a0[j * m + i] * resid[i]).sum();
                    assert!(g.abs() < 1e-11, "gradient {g} at {j}");
                }
            }
            let mut singular = vec![1.0f64, 2.0, 2.0, 4.0];
            geqrf(&mut singular, 2, 2);
            assert!(!well_conditioned(&singular, 2, 2));
        }
    }
}
