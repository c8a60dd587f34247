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
    match (x, w) {
        (CpuStorage::F32(a), CpuStorage::F32(b)) => Some(CpuStorage::F32(typed(a, lx, b, lw, win))),
        (CpuStorage::F64(a), CpuStorage::F64(b)) => Some(CpuStorage::F64(typed(a, lx, b, lw, win))),
        _ => None,
    }
}

fn typed<T: Element + Num>(x: &[T], lx: &Layout, w: &[T], lw: &Layout, win: &Window) -> Vec<T> {
    let (x, w) = (contiguous(x, lx), contiguous(w, lw));
    let (n, c, h, wd) = (lx.shape[0], lx.shape[1], lx.shape[2], lx.shape[3]);
    let o = lw.shape[0];
    let l = win.out[0] * win.out[1];
    let kk = win.kernel[0] * win.kernel[1];
    let per = c * kk;
    let taps = taps(win, h, wd);
    let pad = T::from_f64(0.0);
    let image = |i: usize, cols: &mut Vec<Out<T>>, dst: &mut [Out<T>], parallel: bool| {
        for ch in 0..c {
            let plane = &x[(i * c + ch) * h * wd..][..h * wd];
            unfold_plane(
                plane,
                &taps,
                wd,
                win,
                pad,
                &mut cols[ch * kk * l..][..kk * l],
            );
        }
        // SAFETY: unfold_plane wrote every slot of each channel's part.
        let cols = unsafe { super::scratch::written(&cols[..per * l]) };
        row_major_product(&w, cols, [o, per, l], dst, parallel);
    };
    let buffer = || (0..per * l).map(|_| Out::uninit()).collect::<Vec<_>>();
    filled_vec(n * o * l, |out| {
        if o * l == 0 {
            return;
        }
        // As the batched matmul splits: images side by side, one per core,
        // or each product on every core.
        let side_by_side = side_by_side(n, o * l * per);
        if side_by_side {
            // Each thread's images in one run, through one buffer.
            let per_thread = n.div_ceil(crate::threads::count());
            let runs = crate::threads::ChunksMut::new(out, per_thread * o * l);
            crate::threads::zip(runs, |r, dsts| {
                let mut cols = buffer();
                for (i, dst) in dsts.chunks_mut(o * l).enumerate() {
                    image(r * per_thread + i, &mut cols, dst, false);
                }
            });
        } else {
            let mut cols = buffer();
            for (i, dst) in out.chunks_mut(o * l).enumerate() {
                image(i, &mut cols, dst, true);
            }
        }
    })
}
