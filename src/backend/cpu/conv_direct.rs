//! conv2d's float32 forward straight from the image, for small images whose
//! window has at most 512 taps and whose output channels fill vectors of 16
//! (LeNet's second convolution: 16 channels of 10×10 from 6 of 14×14).
//! There im2col wrote each window's short rows (ten floats) one by one, and
//! the product of a 16-row weight was too thin for gemm's kernel: together
//! twice oneDNN's time.
//!
//! Here eight output positions at a time keep sixteen channels each in a
//! vector, and each tap adds its weight vector times the position's input.
//! The taps run in im2col's row order (channel, kernel row, kernel column)
//! into one sum per output, as gemm's kernel runs its depth within a block
//! (and a window of at most 512 taps is one block), so the bits are those of
//! unfold then matmul.

use super::scratch::{Out, filled_vec};
use super::split::side_by_side;
use super::strided::contiguous;
use crate::backend::Window;
use crate::tensor::layout::Layout;

/// Output channels a vector holds.
const LANES: usize = 16;
/// Output positions a pass sums at once: eight running vectors keep both
/// FMA ports busy through the FMA's latency.
const GROUP: usize = 8;
/// Up to this many output positions an image (a 16×16 output): past it,
/// the product is wide enough for gemm's kernel.
const SMALL_IMAGE: usize = 256;

/// Whether the direct loop runs this convolution: `o` output channels, a
/// window of `depth` taps, `l` output positions an image.
pub fn suits(o: usize, depth: usize, l: usize) -> bool {
    // Without AVX-512 the loop has neither the registers nor the fused
    // multiply-add it is built around.
    super::simd::isa() == super::simd::Isa::Avx512
        && o > 0
        && o.is_multiple_of(LANES)
        && depth > 0
        && depth <= 512
        && l > 1
        && l <= SMALL_IMAGE
}

/// `[N, C, H, W]` ⊛ `[O, C, kh, kw]` over `win`: `[N, O, oh, ow]` (the
/// caller checked `suits`).
pub fn conv2d(x: &[f32], lx: &Layout, w: &[f32], lw: &Layout, win: &Window) -> Vec<f32> {
    let (x, w) = (contiguous(x, lx), contiguous(w, lw));
    let (n, c, h, wd) = (lx.shape[0], lx.shape[1], lx.shape[2], lx.shape[3]);
    let o = lw.shape[0];
    let plane = Plane::new(win, h, wd);
    let l = win.out[0] * win.out[1];
    let depth = c * win.kernel[0] * win.kernel[1];
    // The weight tap by tap: row t holds every output channel's weight, a
    // vector's worth at a time.
    let blocks = o / LANES;
    let mut wt = vec![[0.0f32; LANES]; depth * blocks];
    for (ch, row) in w.chunks_exact(depth).enumerate() {
        for (t, &v) in row.iter().enumerate() {
            wt[t * blocks + ch / LANES][ch % LANES] = v;
        }
    }
    let offsets = plane.tap_offsets(win, c);
    let bases = plane.position_bases(win);
    filled_vec(n * o * l, |out| {
        // Images side by side on the kernel threads where the batch's work
        // is worth it (as im2col's path decides), else all on this one.
        let per_thread = match side_by_side(n, o * l * depth) {
            true => n.div_ceil(crate::threads::count()),
            false => n.max(1),
        };
        let runs = crate::threads::ChunksMut::new(out, per_thread * o * l);
        crate::threads::zip(runs, |r, dsts| {
            // The border stays zero: each image writes only the inside.
            let mut padded = vec![0.0f32; c * plane.size()];
            for (i, dst) in dsts.chunks_exact_mut(o * l).enumerate() {
                let image = &x[(r * per_thread + i) * c * h * wd..][..c * h * wd];
                plane.fill(image, h, wd, &mut padded);
                one_image(&padded, &offsets, &wt, &bases, dst);
            }
        });
    })
}

/// An image's planes with the padding written out as zeros, so that every
/// tap of every position reads inside it.
struct Plane {
    rows: usize,
    cols: usize,
    top: usize,
    left: usize,
}

impl Plane {
    fn new(win: &Window, h: usize, wd: usize) -> Plane {
        // The last position's last tap, where the output size asks more
        // than the padding gives.
        let reach = |d: usize| {
            (win.out[d].max(1) - 1) * win.stride[d] + (win.kernel[d] - 1) * win.dilation[d] + 1
        };
        Plane {
            rows: (h + win.pad_total[0]).max(reach(0)),
            cols: (wd + win.pad_total[1]).max(reach(1)),
            top: win.pad_before[0],
            left: win.pad_before[1],
        }
    }

    fn size(&self) -> usize {
        self.rows * self.cols
    }

    /// Each tap's place relative to a position's first, in im2col's order.
    fn tap_offsets(&self, win: &Window, c: usize) -> Vec<usize> {
        let [kh, kw] = win.kernel;
        let mut offsets = Vec::with_capacity(c * kh * kw);
        for ch in 0..c {
            for i in 0..kh {
                for j in 0..kw {
                    offsets.push(
                        ch * self.size() + i * win.dilation[0] * self.cols + j * win.dilation[1],
                    );
                }
            }
        }
        offsets
    }

    /// Each output position's first tap.
    fn position_bases(&self, win: &Window) -> Vec<usize> {
        let [oh, ow] = win.out;
        let mut bases = Vec::with_capacity(oh * ow);
        for y in 0..oh {
            for x in 0..ow {
                bases.push(y * win.stride[0] * self.cols + x * win.stride[1]);
            }
        }
        bases
    }

    /// `image`'s planes into the inside of `padded` (whose border is zero).
    fn fill(&self, image: &[f32], h: usize, wd: usize, padded: &mut [f32]) {
        for (src, dst) in image
            .chunks_exact(h * wd)
            .zip(padded.chunks_exact_mut(self.size()))
        {
            for (y, row) in src.chunks_exact(wd).enumerate() {
                let at = (y + self.top) * self.cols + self.left;
                dst[at..at + wd].copy_from_slice(row);
            }
        }
    }
}

/// One image's `[O, l]` output from its padded planes.
fn one_image(
    p: &[f32],
    offsets: &[usize],
    wt: &[[f32; LANES]],
    bases: &[usize],
    dst: &mut [Out<f32>],
) {
    let blocks = wt.len() / offsets.len().max(1);
    let reach = offsets.iter().max().copied().unwrap_or(0);
    if bases.iter().any(|&b| b + reach >= p.len()) {
        // Plane::new sized the planes for every tap of every position.
        dst.fill(Out::new(f32::NAN));
        return;
    }
    // Two vectors of channels a pass where there are two: sixteen running
    // sums, each broadcast input used twice.
    let mut ob = 0;
    while ob < blocks {
        let taps = Taps {
            p,
            offsets,
            wt,
            blocks,
            ob,
        };
        if blocks - ob >= 2 {
            taps.pass::<2>(bases, dst);
            ob += 2;
        } else {
            taps.pass::<1>(bases, dst);
            ob += 1;
        }
    }
}

/// The taps of one image for the output channels of vectors `ob..`.
struct Taps<'a> {
    p: &'a [f32],
    offsets: &'a [usize],
    wt: &'a [[f32; LANES]],
    blocks: usize,
    ob: usize,
}

/// `B` vectors of channels at eight positions.
type Sums<const B: usize> = [[[f32; LANES]; GROUP]; B];

impl Taps<'_> {
    /// Channels `ob·16..(ob + B)·16` at every position, into dst.
    fn pass<const B: usize>(&self, bases: &[usize], dst: &mut [Out<f32>]) {
        let l = bases.len();
        #[cfg(target_arch = "x86_64")]
        let avx512 = super::simd::isa() == super::simd::Isa::Avx512;
        for first in (0..l).step_by(GROUP) {
            let count = GROUP.min(l - first);
            // A short last group repeats its last position.
            let group: [usize; GROUP] = std::array::from_fn(|j| bases[first + j.min(count - 1)]);
            #[cfg(target_arch = "x86_64")]
            // SAFETY: isa() reported AVX-512F; every base plus every offset
            // is inside p (one_image checked).
            let acc = if avx512 {
                unsafe { x86::sums::<B>(self, &group) }
            } else {
                self.sums::<B>(&group)
            };
            #[cfg(not(target_arch = "x86_64"))]
            let acc = self.sums::<B>(&group);
            // Channel by channel, the group's positions side by side.
            for (b, block) in acc.iter().enumerate() {
                for k in 0..LANES {
                    let ch = (self.ob + b) * LANES + k;
                    let row = &mut dst[ch * l + first..][..count];
                    for (d, a) in row.iter_mut().zip(block) {
                        d.write(a[k]);
                    }
                }
            }
        }
    }

    /// Each tap's weights times each position's input, added in tap order
    /// (fused multiply-adds, as the vector loop).
    fn sums<const B: usize>(&self, group: &[usize; GROUP]) -> Sums<B> {
        let mut acc = [[[0.0f32; LANES]; GROUP]; B];
        for (row, &d) in self.wt.chunks_exact(self.blocks).zip(self.offsets) {
            for (block, w) in acc.iter_mut().zip(&row[self.ob..]) {
                for (a, &b) in block.iter_mut().zip(group) {
                    let v = self.p[b + d];
                    for (s, &wk) in a.iter_mut().zip(w) {
                        *s = wk.mul_add(v, *s);
                    }
                }
            }
        }
        acc
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{GROUP, LANES, Sums, Taps};
    use std::arch::x86_64::*;

    /// Taps::sums in AVX-512 registers: the running sums stay in registers,
    /// each tap B weight loads and eight broadcasts for 8·B FMAs.
    ///
    /// # Safety
    /// The processor has AVX-512F, and every base of the group plus every
    /// offset is inside `t.p`.
    #[target_feature(enable = "avx512f")]
    pub unsafe fn sums<const B: usize>(t: &Taps, group: &[usize; GROUP]) -> Sums<B> {
        let mut acc = [[_mm512_setzero_ps(); GROUP]; B];
        for (row, &d) in t.wt.chunks_exact(t.blocks).zip(t.offsets) {
            let w: [__m512; B] = std::array::from_fn(|b| {
                // SAFETY: row[ob + b] is sixteen f32s.
                unsafe { _mm512_loadu_ps(row[t.ob + b].as_ptr()) }
            });
            for (j, &b) in group.iter().enumerate() {
                // SAFETY: the caller's promise (b + d inside p).
                let v = _mm512_set1_ps(unsafe { *t.p.get_unchecked(b + d) });
                for (a, &wb) in acc.iter_mut().zip(&w) {
                    a[j] = _mm512_fmadd_ps(wb, v, a[j]);
                }
            }
        }
        let mut out = [[[0.0f32; LANES]; GROUP]; B];
        for (o, a) in out.iter_mut().zip(acc) {
            for (o, a) in o.iter_mut().zip(a) {
                // SAFETY: o is sixteen f32s.
                unsafe { _mm512_storeu_ps(o.as_mut_ptr(), a) };
            }
        }
        out
    }
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    /// A window of kernel k, stride s, padding p each side, dilation d over
    /// an h×h image.
    fn window(h: usize, k: usize, s: usize, p: usize, d: usize) -> Window {
        let out = (h + 2 * p - d * (k - 1) - 1) / s + 1;
        Window {
            kernel: [k, k],
            stride: [s, s],
            pad_before: [p, p],
            pad_total: [2 * p, 2 * p],
            dilation: [d, d],
            out: [out, out],
        }
    }

    /// Deterministic values in (-1, 1) with every bit of the mantissa used.
    fn values(n: usize, seed: u32) -> Vec<f32> {
        let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state as f32 / u32::MAX as f32) * 2.0 - 1.0
            })
            .collect()
    }

    crate::unit_tests! {
        /// Bit for bit the im2col path's output (unfold then gemm), for one and
        /// two vectors of channels, short last groups, padding, strides and
        /// dilation.
        fn equals_unfold_then_product() {
            let shapes = [
                // n, c, h, o, k, s, p, d
                (3, 6, 14, 16, 5, 1, 0, 1),
                (2, 5, 12, 16, 3, 1, 2, 2),
                (2, 2, 7, 48, 4, 2, 1, 1),
                (1, 7, 16, 32, 3, 1, 1, 1),
                (4, 9, 11, 64, 5, 3, 2, 1),
                (2, 56, 6, 16, 3, 1, 0, 1),
                (1, 1, 3, 16, 2, 1, 0, 1),
            ];
            for (i, &(n, c, h, o, k, s, p, d)) in shapes.iter().enumerate() {
                let win = window(h, k, s, p, d);
                let l = win.out[0] * win.out[1];
                // (Direct calls: the loop's own bits also without AVX-512.)
                assert!(
                    o % LANES == 0 && c * k * k <= 512 && l <= SMALL_IMAGE,
                    "{:?}",
                    shapes[i]
                );
                let lx = Layout::contiguous(&[n, c, h, h]);
                let lw = Layout::contiguous(&[o, c, k, k]);
                let x = values(n * c * h * h, i as u32);
                let w = values(o * c * k * k, 100 + i as u32);
                let direct = conv2d(&x, &lx, &w, &lw, &win);
                let reference = super::super::conv::typed(&x, &lx, &w, &lw, &win);
                assert_eq!(direct.len(), n * o * l);
                let same = direct
                    .iter()
                    .zip(&reference)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{:?}", shapes[i]);
            }
        }

        fn takes_small_images_with_whole_vectors_of_channels() {
            let avx512 = crate::backend::cpu::simd::isa() == crate::backend::cpu::simd::Isa::Avx512;
            assert_eq!(suits(16, 150, 100), avx512);
            assert!(!suits(8, 150, 100));
            assert!(!suits(16, 576, 64));
            assert!(!suits(16, 27, 1024));
            assert!(!suits(16, 27, 1));
        }
    }
}
