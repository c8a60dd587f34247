//! conv2d's forward an image at a time: the image's windows (im2col) into a
//! buffer of the thread's own that stays in the second-level cache, then the
//! weight times them into the image's output. The whole batch's windows went
//! out to memory and back (a 5x5 kernel's are 25 times its input: LeNet's
//! second convolution wrote 3.8 MB of them). The products are the batched
//! matmul's, so the bits are the same as unfold then matmul.

use super::elem::{CpuStorage, Element};
use super::gemv::Num;
use super::matmul::row_major_product;
use super::scratch::{Out, filled_vec};
use super::split::side_by_side;
use super::strided::contiguous;
use super::window::{taps, unfold_plane};
use crate::backend::Window;
use crate::tensor::layout::Layout;

/// `[N, C, H, W]` x times the `[O, C, kh, kw]` weight w over the windows
/// `win` (groups of 1, no bias): `[N, O, oh, ow]`, or None for dtypes other
/// than float32 and float64.
pub fn conv2d(
    x: &CpuStorage,
    lx: &Layout,
    w: &CpuStorage,
    lw: &Layout,
    win: &Window,
) -> Option<CpuStorage> {
    let depth = lw.shape[1..].iter().product();
    let direct = super::conv_direct::suits(lw.shape[0], depth, win.out[0] * win.out[1]);
    match (x, w) {
        (CpuStorage::F32(a), CpuStorage::F32(b)) if direct => Some(CpuStorage::F32(
            super::conv_direct::conv2d(a, lx, b, lw, win),
        )),
        (CpuStorage::F32(a), CpuStorage::F32(b)) => Some(CpuStorage::F32(typed(a, lx, b, lw, win))),
        (CpuStorage::F64(a), CpuStorage::F64(b)) => Some(CpuStorage::F64(typed(a, lx, b, lw, win))),
        _ => None,
    }
}

/// Columns of output a product should have at least: a small image's
/// product is too narrow for gemm's kernel (LeNet's second convolution, 16
/// by 150 by 100 an image, ran 1.5× slower than 16 by 150 by 800), so up to
/// this many columns' worth of images share one product, their windows side
/// by side in one buffer.
const BLOCK_COLUMNS: usize = 512;

/// Slots after each buffer row for a short row's 64-byte copy to run into.
const SLACK: usize = 16;

/// How many images share a product. One where the product is a vector's
/// (a single output channel or position), which takes another path, and
/// where a window is longer than gemm's depth block (512): then gemm's
/// blocks of the sum depend on the product's shape, and the bits would no
/// longer be the batched matmul's.
fn images_per_product(o: usize, l: usize, depth: usize, images: usize) -> usize {
    if o <= 1 || l <= 1 || depth > 512 {
        return 1;
    }
    (BLOCK_COLUMNS / l).clamp(1, images.max(1))
}

pub(super) fn typed<T: Element + Num>(
    x: &[T],
    lx: &Layout,
    w: &[T],
    lw: &Layout,
    win: &Window,
) -> Vec<T> {
    let (x, w) = (contiguous(x, lx), contiguous(w, lw));
    let (n, c, h, wd) = (lx.shape[0], lx.shape[1], lx.shape[2], lx.shape[3]);
    let o = lw.shape[0];
    let l = win.out[0] * win.out[1];
    let kk = win.kernel[0] * win.kernel[1];
    let per = c * kk;
    let taps = taps(win, h, wd);
    let pad = T::from_f64(0.0);
    // Images first..first+count into dst ([count, O, l]): their windows,
    // a tap's positions a row, the images side by side along it; then one
    // product, written straight to dst for one image, else through `wide`.
    let block = |first: usize, dst: &mut [Out<T>], bufs: &mut Buffers<T>, parallel: bool| {
        let count = dst.len() / (o * l);
        let ld = if count == 1 { l } else { count * l + SLACK };
        let cols = &mut bufs.cols[..per * ld];
        for b in 0..count {
            for ch in 0..c {
                let plane = &x[((first + b) * c + ch) * h * wd..][..h * wd];
                let rows = &mut cols[ch * kk * ld + b * l..];
                unfold_plane(plane, &taps, wd, win, pad, rows, ld);
            }
        }
        if count > 1 {
            for row in cols.chunks_exact_mut(ld) {
                row[count * l..].fill(Out::new(pad));
            }
        }
        // SAFETY: unfold_plane wrote each row's count·l slots, the loop
        // above the rest.
        let cols = unsafe { super::scratch::written(cols) };
        if count == 1 {
            return row_major_product(&w, (cols, ld), [o, per, l], dst, parallel);
        }
        let wide = &mut bufs.wide[..o * count * l];
        row_major_product(&w, (cols, ld), [o, per, count * l], wide, parallel);
        // SAFETY: the product wrote every slot of wide.
        let wide = unsafe { super::scratch::written(wide) };
        for (ch, row) in wide.chunks_exact(count * l).enumerate() {
            for (b, part) in row.chunks_exact(l).enumerate() {
                let to = &mut dst[(b * o + ch) * l..][..l];
                for (d, &v) in to.iter_mut().zip(part) {
                    d.write(v);
                }
            }
        }
    };
    filled_vec(n * o * l, |out| {
        if o * l == 0 {
            return;
        }
        // As the batched matmul splits: images side by side, one per core,
        // or each product on every core.
        if side_by_side(n, o * l * per) {
            // Each thread's images in one run, through one buffer.
            let per_thread = n.div_ceil(crate::threads::count());
            let k = images_per_product(o, l, per, per_thread);
            let runs = crate::threads::ChunksMut::new(out, per_thread * o * l);
            crate::threads::zip(runs, |r, dsts| {
                let mut bufs = Buffers::new(per, o, l, k);
                for (i, dst) in dsts.chunks_mut(k * o * l).enumerate() {
                    block(r * per_thread + i * k, dst, &mut bufs, false);
                }
            });
        } else {
            let k = images_per_product(o, l, per, n);
            let mut bufs = Buffers::new(per, o, l, k);
            for (i, dst) in out.chunks_mut(k * o * l).enumerate() {
                block(i * k, dst, &mut bufs, true);
            }
        }
    })
}

/// A thread's buffers for blocks of up to `k` images: their windows and,
/// for more than one image, their product before it goes to each image's
/// place.
struct Buffers<T> {
    cols: Vec<Out<T>>,
    wide: Vec<Out<T>>,
}

impl<T> Buffers<T> {
    fn new(per: usize, o: usize, l: usize, k: usize) -> Buffers<T> {
        let (ld, wide) = if k == 1 {
            (l, 0)
        } else {
            (k * l + SLACK, o * k * l)
        };
        let uninit = |len: usize| (0..len).map(|_| Out::uninit()).collect();
        Buffers {
            cols: uninit(per * ld),
            wide: uninit(wide),
        }
    }
}
