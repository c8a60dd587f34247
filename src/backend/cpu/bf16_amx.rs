//! bfloat16 matrix products on AMX tiles (Intel Sapphire Rapids and later),
//! where oneDNN computes PyTorch's: `tdpbf16ps` multiplies a 16 × 32 tile of
//! A by a 32 × 16 tile of B (k pairs interleaved, as bf16_gemm.rs packs them)
//! into a 16 × 16 tile of f32 sums, 16 times the work of one `vdpbf16ps`.
//!
//! The kernel keeps a 32 × 32 block of the result in four tiles over the
//! whole of k, with two tiles of A and two of B per step of 32 along k, and
//! rounds the block to bf16 once at the end. B is packed once into panels of
//! 32 columns, A per block of rows into panels of 32 rows; both are padded
//! with zeros to whole tiles, so every tile has the one shape configured.
//!
//! Linux lends a thread the tile registers only after the process asks for
//! them (`arch_prctl(ARCH_REQ_XCOMP_PERM)`); where it refuses, or the
//! processor has no tiles, products stay on `vdpbf16ps`. Stable Rust has no
//! AMX intrinsics, so the instructions are written as inline assembly.

use std::arch::asm;
use std::arch::x86_64::*;
use std::sync::OnceLock;

use half::bf16;

use super::bf16_gemm::{Operand, PACKED_A, block_rows, drive, pair, with_buffer};
use super::scratch::Out;

/// Rows of a tile (of A and of the result) and k pairs of a tile of B.
const T: usize = 16;
/// Rows and columns of the kernel's block of the result: 2 × 2 tiles.
const PM: usize = 2 * T;
const PN: usize = 2 * T;
/// k per step: a tile row of A holds 32 bf16 (64 bytes).
const TK: usize = 2 * T;

/// Proof that this thread's process may use AMX tiles for bf16 products,
/// on a processor that also runs AVX512-BF16 (for rounding results).
#[derive(Clone, Copy)]
pub struct Tiles(());

impl Tiles {
    /// The proof, asked of the processor and of Linux once per process.
    pub fn detect() -> Option<Tiles> {
        static GRANTED: OnceLock<bool> = OnceLock::new();
        GRANTED.get_or_init(granted).then_some(Tiles(()))
    }
}

/// The processor runs AVX512-BF16, CPUID leaf 7 reports AMX-TILE (EDX bit
/// 24) and AMX-BF16 (bit 22), and Linux grants the tile data state to this
/// process.
fn granted() -> bool {
    if !(std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512bf16")) {
        return false;
    }
    // CPUID leaf 7 exists on every processor with AVX-512.
    let leaf = __cpuid_count(7, 0);
    let has = leaf.edx & (1 << 24) != 0 && leaf.edx & (1 << 22) != 0;
    has && request_tile_data()
}

#[cfg(target_os = "linux")]
fn request_tile_data() -> bool {
    const ARCH_REQ_XCOMP_PERM: libc::c_long = 0x1023;
    const XFEATURE_XTILEDATA: libc::c_long = 18;
    // SAFETY: a plain system call with integer arguments; it only changes
    // which register state this process may use.
    unsafe {
        libc::syscall(
            libc::SYS_arch_prctl,
            ARCH_REQ_XCOMP_PERM,
            XFEATURE_XTILEDATA,
        ) == 0
    }
}

#[cfg(not(target_os = "linux"))]
fn request_tile_data() -> bool {
    false
}

/// Whether a product is worth the tiles: both sides at least a tile wide
/// (a matrix-vector product would waste all but one of a tile's rows).
pub fn suits(m: usize, k: usize, n: usize) -> bool {
    m >= T && n >= T && k >= T
}

/// `dst = a @ b` for an `[m, k] @ [k, n]` product, `dst` row-major `[m, n]`.
#[allow(clippy::too_many_arguments)]
pub fn product(
    tiles: Tiles,
    a: Operand,
    b: Operand,
    m: usize,
    k: usize,
    n: usize,
    dst: &mut [Out<bf16>],
    parallel: bool,
) {
    let steps = k.div_ceil(TK);
    let mc = block_rows(m, k, parallel, PM);
    drive(
        b,
        k,
        n,
        T,
        steps * T,
        mc,
        dst,
        parallel,
        |i0, packed_b, rows| row_block(tiles, a, i0, k, n, packed_b, rows),
    );
}

/// The product's rows from `i0` (as many as `rows` holds), A's rows packed
/// here and B from its packed panels.
fn row_block(
    tiles: Tiles,
    a: Operand,
    i0: usize,
    k: usize,
    n: usize,
    packed_b: &[u32],
    rows: &mut [Out<bf16>],
) {
    let steps = k.div_ceil(TK);
    let h = rows.len() / n;
    let panel_a = PM * T * steps;
    let panel_b = T * T * steps;
    let panels_b = n.div_ceil(T);
    // Row-major A with whole steps along k is read in place, but for a last
    // panel of fewer than PM rows; anything else is packed first.
    let direct = a.cols == 1 && k.is_multiple_of(TK);
    let packed_panels = if direct {
        usize::from(!h.is_multiple_of(PM))
    } else {
        h.div_ceil(PM)
    };
    with_buffer(&PACKED_A, packed_panels * panel_a, |packed_a| {
        let first_packed = h.div_ceil(PM) - packed_panels;
        for (ip, panel) in packed_a.chunks_mut(panel_a).enumerate() {
            let ip = first_packed + ip;
            pack_a(a, i0 + ip * PM, (h - ip * PM).min(PM), k, panel);
        }
        let reads = |ip: usize| {
            if ip < first_packed {
                let start = a.offset + (i0 + ip * PM) * a.rows;
                let len = (PM - 1) * a.rows + k;
                ARows::new(&a.data[start..][..len], 2 * a.rows, 2 * TK)
            } else {
                let panel = &packed_a[(ip - first_packed) * panel_a..][..panel_a];
                ARows::new(panel, 4 * T, 4 * PM * T)
            }
        };
        let _configured = Configured::new(tiles);
        let mut sums = [0f32; PM * PN];
        for jp in 0..n.div_ceil(PN) {
            // The block's two panels of 16 columns of B; past n's last
            // panel, that panel again (the columns it sums are not stored).
            let b = [2 * jp, (2 * jp + 1).min(panels_b - 1)]
                .map(|p| &packed_b[p * panel_b..][..panel_b]);
            for ip in 0..h.div_ceil(PM) {
                // SAFETY: the tiles are configured on this thread
                // (`_configured`).
                unsafe { block(reads(ip), b, steps, &mut sums) };
                store(tiles, &sums, rows, n, ip * PM, jp * PN);
            }
        }
    })
}

/// Where the kernel reads A's panel: row r of step s's tiles (rows 0–15,
/// then 16–31) at byte `s * step + r * row`, 64 bytes each.
#[derive(Clone, Copy)]
struct ARows<'a> {
    bytes: &'a [u8],
    row: usize,
    step: usize,
}

impl<'a> ARows<'a> {
    fn new<E: Copy>(data: &'a [E], row: usize, step: usize) -> ARows<'a> {
        // SAFETY: bf16 and u32 are plain data; the bytes are those of `data`.
        let bytes = unsafe {
            std::slice::from_raw_parts(data.as_ptr() as *const u8, std::mem::size_of_val(data))
        };
        ARows { bytes, row, step }
    }
}

/// A's rows `i0..i0 + h` (h ≤ PM) as one panel: per step of k, PM rows of 16
/// pairs (two tiles of 16 rows); rows past h and pairs past k are zeros.
fn pack_a(a: Operand, i0: usize, h: usize, k: usize, panel: &mut [u32]) {
    if h < PM || !k.is_multiple_of(TK) {
        panel.fill(0);
    }
    for r in 0..h {
        let slot = |p: usize| (p / T) * PM * T + r * T + p % T;
        if let Some(row) = a.row(i0 + r, 0, k) {
            for (s, part) in row.chunks(TK).enumerate() {
                let out = &mut panel[slot(s * T)..][..T];
                let pairs = part.chunks_exact(2);
                if let [x] = pairs.remainder() {
                    out[part.len() / 2] = pair(x.to_bits(), 0);
                }
                for (o, xy) in out.iter_mut().zip(pairs) {
                    *o = pair(xy[0].to_bits(), xy[1].to_bits());
                }
            }
        } else {
            for p in 0..k.div_ceil(2) {
                let hi = if 2 * p + 1 < k {
                    a.at(i0 + r, 2 * p + 1)
                } else {
                    0
                };
                panel[slot(p)] = pair(a.at(i0 + r, 2 * p), hi);
            }
        }
    }
}

/// The tile configuration (palette 1): its 8 tiles 16 rows of 64 bytes
/// (the slots of tiles 8–15 must stay zero).
#[repr(C, align(64))]
struct Config {
    palette: u8,
    start_row: u8,
    reserved: [u8; 14],
    bytes_per_row: [u16; 16],
    rows: [u8; 16],
}

/// The tiles configured on this thread until dropped (a thread that keeps
/// them configured keeps a larger register state on every context switch).
struct Configured(());

impl Configured {
    fn new(_proof: Tiles) -> Configured {
        let config = Config {
            palette: 1,
            start_row: 0,
            reserved: [0; 14],
            bytes_per_row: std::array::from_fn(|t| if t < 8 { 64 } else { 0 }),
            rows: std::array::from_fn(|t| if t < 8 { T as u8 } else { 0 }),
        };
        // SAFETY: `Tiles` proves the process may use the tiles; the
        // configuration is a valid palette-1 one of 64 bytes.
        unsafe { asm!("ldtilecfg [{}]", in(reg) &config, options(nostack, readonly)) };
        Configured(())
    }
}

impl Drop for Configured {
    fn drop(&mut self) {
        // SAFETY: releases what `new` configured.
        unsafe { asm!("tilerelease", options(nostack, nomem)) };
    }
}

/// The kernel: `sums` (PM × PN, row-major) = A's panel times B's two panels
/// of 16 columns (each step a contiguous tile: 16 k pairs × 16 columns),
/// over `steps` steps of 32 along k.
///
/// # Safety
/// The tiles must be configured on this thread as `Configured` does, and the
/// panels must hold `steps` steps (checked).
unsafe fn block(a: ARows, b: [&[u32]; 2], steps: usize, sums: &mut [f32; PM * PN]) {
    let a_end = (steps - 1) * a.step + (PM - 1) * a.row + 4 * T;
    assert!(steps > 0 && a.bytes.len() >= a_end);
    assert!(b.iter().all(|b| b.len() >= steps * T * T));
    // SAFETY (each asm block): only tile registers tmm0–tmm7 change, which
    // no compiled code uses; every load reads 16 rows of 64 bytes inside
    // the panels (asserted above), every store writes 16 rows of 64 bytes
    // inside `sums`.
    unsafe {
        asm!(
            "tilezero tmm0",
            "tilezero tmm1",
            "tilezero tmm2",
            "tilezero tmm3",
            options(nostack, nomem)
        );
        for s in 0..steps {
            let a0 = a.bytes.as_ptr().add(s * a.step);
            let b0 = b[0].as_ptr().add(s * T * T);
            asm!(
                "tileloadd tmm4, [{a0} + {sa} * 1]",
                "tileloadd tmm5, [{a1} + {sa} * 1]",
                "tileloadd tmm6, [{b0} + {sb} * 1]",
                "tileloadd tmm7, [{b1} + {sb} * 1]",
                "tdpbf16ps tmm0, tmm4, tmm6",
                "tdpbf16ps tmm1, tmm4, tmm7",
                "tdpbf16ps tmm2, tmm5, tmm6",
                "tdpbf16ps tmm3, tmm5, tmm7",
                a0 = in(reg) a0,
                a1 = in(reg) a0.add(T * a.row),
                b0 = in(reg) b0,
                b1 = in(reg) b[1].as_ptr().add(s * T * T),
                sa = in(reg) a.row,
                sb = in(reg) 4 * T,
                options(nostack, readonly)
            );
        }
        let c = sums.as_mut_ptr();
        asm!(
            "tilestored [{c0} + {s} * 1], tmm0",
            "tilestored [{c1} + {s} * 1], tmm1",
            "tilestored [{c2} + {s} * 1], tmm2",
            "tilestored [{c3} + {s} * 1], tmm3",
            c0 = in(reg) c,
            c1 = in(reg) c.add(T),
            c2 = in(reg) c.add(T * PN),
            c3 = in(reg) c.add(T * PN + T),
            s = in(reg) 4 * PN,
            options(nostack)
        );
    }
}

/// A block of sums rounded into rows of `dst` (`n` wide) at (`i`, `j`),
/// clipped to the block's rows and the matrix's columns.
fn store(
    _proof: Tiles,
    sums: &[f32; PM * PN],
    dst: &mut [Out<bf16>],
    n: usize,
    i: usize,
    j: usize,
) {
    let w = PN.min(n - j);
    let h = (dst.len() / n - i).min(PM);
    for (r, row) in sums.chunks_exact(PN).enumerate().take(h) {
        // SAFETY: `Tiles` proves AVX512-BF16 (detected with it).
        let bits = unsafe { round_row(row) };
        for (d, &x) in dst[(i + r) * n + j..][..w].iter_mut().zip(&bits) {
            d.write(bf16::from_bits(x));
        }
    }
}

/// 32 sums rounded to bf16 bits (round to nearest even, as oneDNN rounds).
#[target_feature(enable = "avx512f,avx512bw,avx512bf16")]
unsafe fn round_row(row: &[f32]) -> [u16; PN] {
    assert!(row.len() >= PN);
    let mut out = [0u16; PN];
    // SAFETY: `row` holds 32 floats (asserted), `out` 32 bf16s.
    unsafe {
        let lo = _mm512_loadu_ps(row.as_ptr());
        let hi = _mm512_loadu_ps(row.as_ptr().add(T));
        let bits = _mm512_cvtne2ps_pbh(hi, lo);
        _mm512_storeu_si512(
            out.as_mut_ptr() as *mut __m512i,
            std::mem::transmute::<__m512bh, __m512i>(bits),
        );
    }
    out
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::backend::cpu::bf16_gemm::check_against_f64;

    crate::unit_tests! {
        /// Shapes that cut every edge of the tiles and the block, with A
        /// row-major (read in place or packed) and transposed, on one core and
        /// on every core.
        fn tile_products_match_f64_on_every_edge() {
            let Some(tiles) = Tiles::detect() else {
                return;
            };
            for &(m, k, n, a_transposed) in &[
                (16, 16, 16, false),
                (17, 33, 40, false),
                (70, 300, 40, true),
                (64, 512, 96, false),
                (33, 64, 31, true),
                (40, 7, 100, false),
                (70, 64, 48, false),
            ] {
                for parallel in [false, true] {
                    check_against_f64((m, k, n), a_transposed, false, |a, b, out| {
                        product(tiles, a, b, m, k, n, out, parallel)
                    });
                }
            }
        }
    }
}
