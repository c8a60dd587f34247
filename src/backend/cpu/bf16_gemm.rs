//! bfloat16 matrix products on processors with AVX512-BF16, as oneDNN computes
//! PyTorch's: `vdpbf16ps` multiplies pairs of bf16 along k and adds both
//! products into f32 accumulators, twice the multiply-adds per instruction of
//! an f32 FMA (where it issues as often: Zen 4), and no conversion pass over
//! the operands. The result is rounded
//! to bf16 once, at the end.
//!
//! B is packed once into panels of `NR` columns (k pairs interleaved, as the
//! instruction reads them), A into panels of `MR` rows per block of rows;
//! the `MR × NR` microkernel keeps its 16 accumulators in registers over the
//! whole of k and rounds its tile straight into the result (a B panel is
//! 64 bytes per k pair: for k up to 512 it stays in L1, beyond that L2 feeds
//! it faster than the kernel reads). Blocks of rows run on every core.
//! Processors with AMX tiles take bf16_amx.rs's kernel instead (as oneDNN
//! does there); elsewhere (no AVX512-BF16, or an instruction slower than two
//! f32 FMAs: bf16_rate.rs) products go through f32.

use std::cell::RefCell;
use std::thread::LocalKey;

use half::bf16;

use super::scratch::Out;

/// Rows and columns of the microkernel's tile (6 rows × 4 vectors of 16:
/// 24 accumulators, 4 loads and 6 broadcasts per 24 dot products).
const MR: usize = 6;
const NR: usize = 64;
/// At most this many bytes of A packed per block of rows (it stays in L2
/// while every panel of B passes it).
const A_BLOCK_BYTES: usize = 1 << 18;

/// Rows per block of A, a multiple of the kernel's `unit` rows: a few blocks
/// per core, of equal numbers of tiles (one block more on one core would
/// leave the other idle for its length), as many as fit `A_BLOCK_BYTES`.
pub(super) fn block_rows(m: usize, k: usize, parallel: bool, unit: usize) -> usize {
    let tasks = if parallel {
        4 * crate::threads::count()
    } else {
        1
    };
    let fit = (A_BLOCK_BYTES / (2 * k.max(1)) / unit).max(1);
    m.div_ceil(unit).div_ceil(tasks).clamp(1, fit) * unit
}

/// Proof that this processor runs AVX512-BF16, which `product` needs
/// (there is no value of it elsewhere), and whether it has AMX tiles too.
#[derive(Clone, Copy)]
pub struct Bf16Dot(Isa);

#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy)]
struct Isa {
    tiles: Option<super::bf16_amx::Tiles>,
}

#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy)]
enum Isa {}

impl Bf16Dot {
    /// The proof, where this processor has the instructions and they are
    /// faster than f32 products: with AMX tiles, or where `vdpbf16ps` runs
    /// fast enough (bf16_rate.rs).
    pub fn paying() -> Option<Bf16Dot> {
        Self::detect().filter(|dot| dot.has_tiles() || super::bf16_rate::pays())
    }

    #[cfg(target_arch = "x86_64")]
    fn has_tiles(&self) -> bool {
        self.0.tiles.is_some()
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn has_tiles(&self) -> bool {
        match self.0 {}
    }

    /// The proof, where this processor has the instructions.
    pub fn detect() -> Option<Bf16Dot> {
        #[cfg(target_arch = "x86_64")]
        {
            let has = std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512bf16");
            has.then(|| {
                Bf16Dot(Isa {
                    tiles: super::bf16_amx::Tiles::detect(),
                })
            })
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            None
        }
    }
}

/// A strided matrix operand: element (i, j) at `offset + i * rows + j * cols`.
#[derive(Clone, Copy)]
pub struct Operand<'a> {
    pub data: &'a [bf16],
    pub offset: usize,
    pub rows: usize,
    pub cols: usize,
}

impl Operand<'_> {
    #[inline(always)]
    pub(super) fn at(&self, i: usize, j: usize) -> u16 {
        self.data[self.offset + i * self.rows + j * self.cols].to_bits()
    }

    /// Row `i`'s elements `j0..j0 + w`, where rows are contiguous.
    pub(super) fn row(&self, i: usize, j0: usize, w: usize) -> Option<&[bf16]> {
        (self.cols == 1).then(|| &self.data[self.offset + i * self.rows + j0..][..w])
    }
}

/// `dst = a @ b` for an `[m, k] @ [k, n]` product, `dst` row-major `[m, n]`.
#[allow(clippy::too_many_arguments)]
pub fn product(
    dot: Bf16Dot,
    a: Operand,
    b: Operand,
    m: usize,
    k: usize,
    n: usize,
    dst: &mut [Out<bf16>],
    parallel: bool,
) {
    if m * n == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if let Some(tiles) = dot.0.tiles
        && super::bf16_amx::suits(m, k, n)
    {
        return super::bf16_amx::product(tiles, a, b, m, k, n, dst, parallel);
    }
    let kp = k.div_ceil(2);
    let mc = block_rows(m, k, parallel, MR);
    drive(b, k, n, NR, kp, mc, dst, parallel, |i0, packed_b, rows| {
        row_block(dot, a, i0, k, n, packed_b, rows)
    });
}

/// The frame both kernels share: B packed once into panels of `nr` columns
/// by `pairs` k pairs, then the result in blocks of `mc` rows, each computed
/// by `block(first row, packed B, rows)`; on every core where `parallel`.
#[allow(clippy::too_many_arguments)]
pub(super) fn drive(
    b: Operand,
    k: usize,
    n: usize,
    nr: usize,
    pairs: usize,
    mc: usize,
    dst: &mut [Out<bf16>],
    parallel: bool,
    block: impl Fn(usize, &[u32], &mut [Out<bf16>]) + Sync,
) {
    with_buffer(&PACKED_B, n.div_ceil(nr) * nr * pairs, |packed_b| {
        each_chunk(parallel, packed_b, nr * pairs.max(1), |jp, panel| {
            pack_b(b, k, n, jp * nr, nr, panel)
        });
        let packed_b = &*packed_b;
        each_chunk(parallel, dst, mc * n, |blk, rows| {
            block(blk * mc, packed_b, rows)
        });
    })
}

/// `f(index, chunk)` for each `len`-long chunk of `v`, on every core where
/// `parallel`.
fn each_chunk<T: Send>(
    parallel: bool,
    v: &mut [T],
    len: usize,
    f: impl Fn(usize, &mut [T]) + Sync,
) {
    if parallel {
        crate::threads::zip(crate::threads::ChunksMut::new(v, len), f);
    } else {
        v.chunks_mut(len).enumerate().for_each(|(i, c)| f(i, c));
    }
}

thread_local! {
    /// Packing space, kept between products (zeroing it anew cost a tenth of a
    /// 512² product); the packers write every slot they hand on.
    pub(super) static PACKED_A: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    pub(super) static PACKED_B: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// Buffers up to this many words are kept between products; a bigger one
/// (B of a product beyond ~4096²) is given back, not held for the session.
const KEPT_WORDS: usize = 1 << 21;

/// `f` with `len` slots of this thread's buffer `key`.
pub(super) fn with_buffer<R>(
    key: &'static LocalKey<RefCell<Vec<u32>>>,
    len: usize,
    f: impl FnOnce(&mut [u32]) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut v) => {
            if v.len() < len {
                v.resize(len, 0);
            }
            let r = f(&mut v[..len]);
            if v.len() > KEPT_WORDS {
                *v = Vec::new();
            }
            r
        }
        // Taken further up this thread's stack (a nested product): a fresh one.
        Err(_) => f(&mut vec![0; len]),
    })
}

/// The product's rows from `i0` (as many as `rows` holds), A's rows packed
/// here and B from its packed panels.
fn row_block(
    dot: Bf16Dot,
    a: Operand,
    i0: usize,
    k: usize,
    n: usize,
    packed_b: &[u32],
    rows: &mut [Out<bf16>],
) {
    let kp = k.div_ceil(2);
    let h = rows.len() / n;
    with_buffer(&PACKED_A, h.div_ceil(MR) * MR * kp, |packed_a| {
        for (ip, panel) in packed_a.chunks_mut(MR * kp.max(1)).enumerate() {
            pack_a(a, i0 + ip * MR, (h - ip * MR).min(MR), k, panel);
        }
        for jp in 0..n.div_ceil(NR) {
            let panel = &packed_b[jp * NR * kp..][..NR * kp];
            for ip in 0..h.div_ceil(MR) {
                let tile = tile(dot, &packed_a[ip * MR * kp..][..MR * kp], panel, kp);
                store_tile(&tile, rows, n, ip * MR, jp * NR);
            }
        }
    })
}

/// A pair of bf16 along k as one 32-bit word, the lower k in the low half
/// (what `vdpbf16ps` multiplies lane by lane); an odd k's last pair has a 0.
#[inline(always)]
pub(super) fn pair(lo: u16, hi: u16) -> u32 {
    lo as u32 | (hi as u32) << 16
}

/// B's columns `j0..j0 + nr` as one panel: k pair, then column (columns
/// past n and pairs past k are zeros).
pub(super) fn pack_b(b: Operand, k: usize, n: usize, j0: usize, nr: usize, panel: &mut [u32]) {
    let w = nr.min(n - j0);
    for (p, out) in panel.chunks_mut(nr).enumerate() {
        out[w..].fill(0);
        let (r0, r1) = (2 * p, 2 * p + 1);
        if r0 >= k {
            out.fill(0);
            continue;
        }
        match (
            b.row(r0, j0, w),
            (r1 < k).then(|| b.row(r1, j0, w)).flatten(),
        ) {
            (Some(x), Some(y)) => {
                for ((o, x), y) in out.iter_mut().zip(x).zip(y) {
                    *o = pair(x.to_bits(), y.to_bits());
                }
            }
            _ => {
                for (c, o) in out.iter_mut().enumerate().take(w) {
                    let hi = if r1 < k { b.at(r1, j0 + c) } else { 0 };
                    *o = pair(b.at(r0, j0 + c), hi);
                }
            }
        }
    }
}

/// A's rows `i0..i0 + h` (h ≤ MR) as one panel: k pair, then row (rows past
/// h are zeros).
fn pack_a(a: Operand, i0: usize, h: usize, k: usize, panel: &mut [u32]) {
    if h < MR {
        panel.fill(0);
    }
    for r in 0..h {
        if let Some(row) = a.row(i0 + r, 0, k) {
            let slots = panel[r..].iter_mut().step_by(MR);
            let pairs = row.chunks_exact(2);
            let odd = pairs.remainder().first().map(|x| pair(x.to_bits(), 0));
            let mut slots = slots.zip(
                pairs
                    .map(|xy| pair(xy[0].to_bits(), xy[1].to_bits()))
                    .chain(odd),
            );
            slots.by_ref().for_each(|(o, x)| *o = x);
        } else {
            for p in 0..k.div_ceil(2) {
                let hi = if 2 * p + 1 < k {
                    a.at(i0 + r, 2 * p + 1)
                } else {
                    0
                };
                panel[p * MR + r] = pair(a.at(i0 + r, 2 * p), hi);
            }
        }
    }
}

/// An `MR × NR` tile rounded into rows of `dst` (`n` wide) at (`i`, `j`),
/// clipped to the block's rows and the matrix's columns.
fn store_tile(tile: &[[u16; NR]; MR], dst: &mut [Out<bf16>], n: usize, i: usize, j: usize) {
    let w = NR.min(n - j);
    let h = (dst.len() / n - i).min(MR);
    for (r, row) in tile.iter().enumerate().take(h) {
        for (d, &x) in dst[(i + r) * n + j..][..w].iter_mut().zip(row) {
            d.write(bf16::from_bits(x));
        }
    }
}

/// The microkernel: Σ over `kp` pairs of A's MR rows times B's NR columns,
/// rounded to bf16 bits (`vcvtne2ps2bf16`, round to nearest even, as oneDNN
/// rounds PyTorch's).
fn tile(dot: Bf16Dot, a: &[u32], b: &[u32], kp: usize) -> [[u16; NR]; MR] {
    #[cfg(target_arch = "x86_64")]
    {
        let Bf16Dot(Isa { .. }) = dot;
        // SAFETY: `dot` proves the processor runs the instructions; the
        // slices hold kp pairs of MR rows and NR columns (checked inside).
        unsafe { x86::tile(a, b, kp) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (a, b, kp);
        match dot.0 {}
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{MR, NR};

    /// Vectors of 16 f32 across a tile's row.
    const NV: usize = NR / 16;
    use std::arch::x86_64::*;

    /// The same 512 bits, as 32 bf16.
    #[inline(always)]
    fn bh(x: __m512i) -> __m512bh {
        // SAFETY: both are 512 bits of plain data.
        unsafe { std::mem::transmute::<__m512i, __m512bh>(x) }
    }

    #[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
    pub unsafe fn tile(a: &[u32], b: &[u32], kp: usize) -> [[u16; NR]; MR] {
        assert!(a.len() >= MR * kp && b.len() >= NR * kp);
        let mut acc = [[_mm512_setzero_ps(); NV]; MR];
        let (pa, pb) = (a.as_ptr(), b.as_ptr());
        for p in 0..kp {
            // SAFETY: p < kp, and the assert above bounds both panels.
            let bs: [__m512bh; NV] = std::array::from_fn(|v| unsafe {
                bh(_mm512_loadu_si512(
                    (pb.add(p * NR) as *const __m512i).add(v),
                ))
            });
            for (r, row) in acc.iter_mut().enumerate() {
                // SAFETY: as above.
                let x = unsafe { *pa.add(p * MR + r) };
                let x = bh(_mm512_set1_epi32(x as i32));
                for (o, &y) in row.iter_mut().zip(&bs) {
                    *o = _mm512_dpbf16_ps(*o, x, y);
                }
            }
        }
        let mut out = [[0u16; NR]; MR];
        for (o, row) in out.iter_mut().zip(&acc) {
            for v in 0..NV / 2 {
                let bits = _mm512_cvtne2ps_pbh(row[2 * v + 1], row[2 * v]);
                // SAFETY: each row of `out` holds NR bf16s, 32 per step.
                unsafe {
                    let at = (o.as_mut_ptr() as *mut __m512i).add(v);
                    _mm512_storeu_si512(at, std::mem::transmute::<__m512bh, __m512i>(bits));
                }
            }
        }
        out
    }
}

/// A product checked against an f64 reference on exact operands (small
/// multiples of 1/8: every input and product is exact in f32, so the sums
/// are too, and the rounding to bf16 is the reference's).
pub(super) fn check_against_f64(
    (m, k, n): (usize, usize, usize),
    a_transposed: bool,
    b_transposed: bool,
    product: impl Fn(Operand, Operand, &mut [Out<bf16>]),
) {
    let a: Vec<bf16> = (0..m * k)
        .map(|x| bf16::from_f32(((x * 7 % 13) as f32 - 6.0) / 8.0))
        .collect();
    let b: Vec<bf16> = (0..k * n)
        .map(|x| bf16::from_f32(((x * 5 % 11) as f32 - 5.0) / 8.0))
        .collect();
    // Transposed: element (i, j) of an r × c matrix at j * r + i.
    let t = |v: &[bf16], r: usize, c: usize| -> Vec<bf16> {
        (0..r * c).map(|x| v[(x % r) * c + x / r]).collect()
    };
    let (at, bt) = (t(&a, m, k), t(&b, k, n));
    fn operand<'a>(v: &'a [bf16], vt: &'a [bf16], r: usize, c: usize, t: bool) -> Operand<'a> {
        if t {
            Operand {
                data: vt,
                offset: 0,
                rows: 1,
                cols: r,
            }
        } else {
            Operand {
                data: v,
                offset: 0,
                rows: c,
                cols: 1,
            }
        }
    }
    let mut out = vec![Out::new(bf16::ZERO); m * n];
    product(
        operand(&a, &at, m, k, a_transposed),
        operand(&b, &bt, k, n, b_transposed),
        &mut out,
    );
    for i in 0..m {
        for j in 0..n {
            let want: f64 = (0..k)
                .map(|p| a[i * k + p].to_f64() * b[p * n + j].to_f64())
                .sum();
            // SAFETY: the slots were initialised, and product rewrote them.
            let got = unsafe { out[i * n + j].assume_init() };
            assert_eq!(got, bf16::from_f64(want), "({m}, {k}, {n}) at ({i}, {j})");
        }
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn products_of_every_edge_shape_match_f64() {
            let Some(dot) = Bf16Dot::detect() else {
                return;
            };
            for &(m, k, n) in &[
                (1, 1, 1),
                (9, 7, 33),
                (70, 300, 40),
                (8, 512, 32),
                (3, 0, 5),
            ] {
                check_against_f64((m, k, n), false, true, |a, b, out| {
                    product(dot, a, b, m, k, n, out, true)
                });
            }
        }
    }
}
