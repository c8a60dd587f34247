//! Average pooling (avg_pool2d and adaptive_avg_pool2d) in one pass over
//! `[N, C, H, W]` planes. ATen's CPU kernels (`cpu_avg_pool`,
//! `cpu_adaptive_avg_pool`) are the model for the bits: each window's sum
//! starts at 0 and adds its elements row by row, left to right, in float32
//! (float64 for float64), then is divided by the window's count (avg_pool2d)
//! or by its height and then its width (the adaptive one). Done as im2col
//! and a sum over the taps, the sum's own order gave other bits, and three
//! passes over memory.

use half::{bf16, f16};

use super::elem::{CpuStorage, Element};
use super::pool::{each_plane, plane_runs};
use super::scratch::{Out, filled_vec};
use super::strided::contiguous;
use crate::backend::{AvgWindows, AxisWindow};
use crate::error::{Result, dtype_err};
use crate::tensor::layout::Layout;
use crate::threads::ChunksMut;

pub fn avg_pool(s: &CpuStorage, l: &Layout, a: &AvgWindows) -> Result<CpuStorage> {
    let planes = l.shape[0] * l.shape[1];
    let plan = Plan::new(a, [l.shape[2], l.shape[3]]);
    by_dtype(
        s,
        l,
        "average pooling",
        |v| pool_typed(v, planes, &plan),
        |v| pool_typed(v, planes, &plan),
    )
}

/// avg_pool's gradient (ATen's `cpu_avg_pool_backward`): output by output,
/// its gradient divided as its window's sum was and added to each element
/// of the window, in the dtype (float32 for the halves).
pub fn avg_pool_backward(
    g: &CpuStorage,
    l: &Layout,
    a: &AvgWindows,
    hw: [usize; 2],
) -> Result<CpuStorage> {
    let planes = l.shape[0] * l.shape[1];
    let plan = Plan::new(a, hw);
    by_dtype(
        g,
        l,
        "average pooling's gradient",
        |v| unpool_typed(v, planes, &plan),
        |v| unpool_typed(v, planes, &plan),
    )
}

/// `f32` or `f64` of the layout's elements, contiguous, by dtype; the halves
/// through float32, as ATen's opmath computes them.
fn by_dtype(
    s: &CpuStorage,
    l: &Layout,
    what: &str,
    f32: impl Fn(&[f32]) -> Vec<f32>,
    f64: impl Fn(&[f64]) -> Vec<f64>,
) -> Result<CpuStorage> {
    Ok(match s {
        CpuStorage::F32(v) => CpuStorage::F32(f32(&contiguous(v, l))),
        CpuStorage::F64(v) => CpuStorage::F64(f64(&contiguous(v, l))),
        CpuStorage::F16(v) => CpuStorage::F16(halves(v, l, f32, f16::from_f32)),
        CpuStorage::BF16(v) => CpuStorage::BF16(halves(v, l, f32, bf16::from_f32)),
        other => {
            return Err(dtype_err(format!(
                "{what} is for floating-point tensors, not {}",
                other.dtype()
            )));
        }
    })
}

fn unpool_typed<A: Acc>(g: &[A], planes: usize, plan: &Plan) -> Vec<A> {
    let [h, w] = plan.hw;
    let ow = plan.cols.len();
    let (plane, per) = (h * w, plan.rows.len() * ow);
    let divisors = Divisors::<A>::new(plan);
    let mut out = vec![A::from_f64(0.0); planes * plane];
    if plane == 0 || per == 0 {
        return out;
    }
    let reg = plan.regular;
    // Side by side (stride at least the width), a regular window's columns
    // are added tap by tap; overlapping ones output by output, so that each
    // element takes its windows' gradients in output order.
    let apart = reg.stride >= reg.width;
    let job = |p: usize, dst: &mut [A]| {
        let g = &g[p * per..(p + 1) * per];
        let mut delta = vec![A::from_f64(0.0); ow];
        for (oy, r) in plan.rows.iter().enumerate() {
            let at = oy * ow..(oy + 1) * ow;
            let row = g[at.clone()].iter().zip(&divisors.first[at.clone()]);
            for ((d, (&v, &d1)), &d2) in delta.iter_mut().zip(row).zip(&divisors.second[at]) {
                *d = if divisors.twice { v / d1 / d2 } else { v / d1 };
            }
            for line in dst[r.lo * w..r.hi * w].chunks_mut(w) {
                let (first, end) = if apart {
                    (reg.first, reg.end)
                } else {
                    (ow, ow)
                };
                for kx in 0..reg.width {
                    for (j, &d) in delta[first..end].iter().enumerate() {
                        line[reg.start + kx + j * reg.stride] += d;
                    }
                }
                let rest = (0..first).chain(end..ow);
                for (o, c) in rest.map(|o| (o, plan.cols[o])) {
                    for x in &mut line[c.lo..c.hi] {
                        *x += delta[o];
                    }
                }
            }
        }
    };
    each_plane(&mut out, plane, job);
    out
}

/// `f` of a half-precision layout, computed in float32.
fn halves<T: Element>(
    v: &[T],
    l: &Layout,
    f: impl Fn(&[f32]) -> Vec<f32>,
    back: fn(f32) -> T,
) -> Vec<T> {
    let wide: Vec<f32> = contiguous(v, l).iter().map(|x| x.to_f64() as f32).collect();
    f(&wide).into_iter().map(back).collect()
}

/// How a window's sum becomes its mean.
#[derive(Clone, Copy)]
enum Divide {
    /// By the product of the axes' counts (avg_pool2d).
    Count,
    /// By a fixed divisor (divisor_override).
    By(i64),
    /// By the row count, then by the column count (adaptive pooling).
    RowsThenColumns,
}

/// Columns whose windows are `width` wide and `stride` apart, output
/// `first..end`, the first starting at input column `start`: their sums run
/// a vector of columns at a time, tap by tap.
#[derive(Clone, Copy)]
struct Regular {
    first: usize,
    end: usize,
    start: usize,
    stride: usize,
    width: usize,
}

/// The windows of every plane.
struct Plan {
    rows: Vec<AxisWindow>,
    cols: Vec<AxisWindow>,
    regular: Regular,
    divide: Divide,
    hw: [usize; 2],
}

impl Plan {
    fn new(a: &AvgWindows, hw: [usize; 2]) -> Plan {
        let (rows, cols) = (a.axis(0, hw[0]), a.axis(1, hw[1]));
        let (divide, stride, width, pad) = match a {
            AvgWindows::Fixed { win, divisor, .. } => (
                divisor.map_or(Divide::Count, Divide::By),
                win.stride[1],
                win.kernel[1],
                win.pad_before[1],
            ),
            // Regular only where the sizes divide: elsewhere neighbouring
            // windows share a column, and the gradient's adds must go output
            // by output.
            AvgWindows::Adaptive { out } if out[1] > 0 && hw[1].is_multiple_of(out[1]) => {
                let k = hw[1] / out[1];
                (Divide::RowsThenColumns, k, k, 0)
            }
            AvgWindows::Adaptive { .. } => (Divide::RowsThenColumns, 1, 0, 0),
        };
        // The run of columns whose whole window lies at its place inside the
        // row (all of them, for adaptive pooling where the sizes divide).
        let fits = |o: usize| {
            let c = cols[o];
            (o * stride) as i64 - pad as i64 == c.lo as i64 && c.hi - c.lo == width && width > 0
        };
        let first = (0..cols.len()).find(|&o| fits(o)).unwrap_or(cols.len());
        let end = first + (first..cols.len()).take_while(|&o| fits(o)).count();
        let start = cols.get(first).map_or(0, |c| c.lo);
        Plan {
            rows,
            cols,
            regular: Regular {
                first,
                end,
                start,
                stride,
                width,
            },
            divide,
            hw,
        }
    }
}

/// What the sums are kept in: float32 or float64.
trait Acc: Element + std::ops::AddAssign + std::ops::Div<Output = Self> {}
impl<A: Element + std::ops::AddAssign + std::ops::Div<Output = A>> Acc for A {}

/// Outputs summed at once: a block's sums stay in registers across its taps
/// (kept in memory, each tap's adds waited on the last tap's stores).
const ROUND: usize = 16;

fn pool_typed<A: Acc>(x: &[A], planes: usize, plan: &Plan) -> Vec<A> {
    let [h, w] = plan.hw;
    let (plane, per) = (h * w, plan.rows.len() * plan.cols.len());
    let divisors = Divisors::new(plan);
    filled_vec(planes * per, |out| {
        if per == 0 {
            return;
        }
        let (parallel, run) = plane_runs(planes, plane);
        let job = |r: usize, out: &mut [Out<A>]| {
            let first = r * run * plane;
            pool_run(
                &x[first..first + out.len() / per * plane],
                plan,
                &divisors,
                out,
            );
        };
        if parallel {
            crate::threads::zip(ChunksMut::new(out, run * per), job);
        } else {
            job(0, out);
        }
    })
}

/// Each output's mean is its sum / first (one plane's outputs, in order):
/// its count or the divisor; adaptive pooling's is sum / first / second,
/// its row count, then its column count. A window with nothing inside the input sums to 0, and a
/// first divisor of 1 keeps it 0.
struct Divisors<A> {
    first: Vec<A>,
    second: Vec<A>,
    /// Whether any second divisor is not 1 (else one division does).
    twice: bool,
}

impl<A: Acc> Divisors<A> {
    fn new(plan: &Plan) -> Self {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for r in &plan.rows {
            for c in &plan.cols {
                let empty = r.lo >= r.hi || c.lo >= c.hi;
                let (a, b) = match plan.divide {
                    Divide::Count if empty => (1, 1),
                    Divide::Count => ((r.count * c.count) as i64, 1),
                    Divide::By(d) => (d, 1),
                    Divide::RowsThenColumns => (r.count as i64, c.count as i64),
                };
                first.push(A::from_f64(a as f64));
                second.push(A::from_f64(b as f64));
            }
        }
        let twice = matches!(plan.divide, Divide::RowsThenColumns);
        Divisors {
            first,
            second,
            twice,
        }
    }
}

crate::multiversion! {
    /// A run of whole planes (`src` and `out` hold the same ones); compiled
    /// for AVX2 and AVX-512 too (simd.rs), for the blocks' vector adds.
    fn pool_run<A: Acc>(src: &[A], plan: &Plan, divisors: &Divisors<A>, out: &mut [Out<A>]) {
        let [h, w] = plan.hw;
        let ow = plan.cols.len();
        let reg = plan.regular;
        let mut sums = vec![A::default(); ow];
        let per = plan.rows.len() * ow;
        for (plane, out) in src.chunks(h * w).zip(out.chunks_mut(per)) {
            for (oy, r) in plan.rows.iter().enumerate() {
                let lines = || plane.chunks(w).take(r.hi).skip(r.lo);
                for b in (reg.first..reg.end).step_by(ROUND) {
                    let m = ROUND.min(reg.end - b);
                    let from = reg.start + (b - reg.first) * reg.stride;
                    let block = block_sums(lines(), from, reg, m);
                    sums[b..b + m].copy_from_slice(&block[..m]);
                }
                // The other columns one by one, each row left to right.
                for o in (0..reg.first).chain(reg.end..ow) {
                    let c = plan.cols[o];
                    let mut sum = A::from_f64(0.0);
                    for line in lines() {
                        for &v in &line[c.lo..c.hi] {
                            sum += v;
                        }
                    }
                    sums[o] = sum;
                }
                let at = oy * ow..(oy + 1) * ow;
                let row = out[at.clone()].iter_mut().zip(&sums);
                let (first, second) = (&divisors.first[at.clone()], &divisors.second[at]);
                if divisors.twice {
                    for ((o, &s), (&d1, &d2)) in row.zip(first.iter().zip(second)) {
                        o.write(s / d1 / d2);
                    }
                } else {
                    for ((o, &s), &d) in row.zip(first) {
                        o.write(s / d);
                    }
                }
            }
        }
    }
}

/// The sums of `m` (at most ROUND) regular windows side by side, the first
/// starting at column `from` of each line: tap by tap, each sum adding its
/// window row by row, left to right.
#[inline(always)]
fn block_sums<'a, A: Acc>(
    lines: impl Iterator<Item = &'a [A]>,
    from: usize,
    reg: Regular,
    m: usize,
) -> [A; ROUND] {
    let mut acc = [A::from_f64(0.0); ROUND];
    for line in lines {
        for kx in 0..reg.width {
            let at = from + kx;
            // Whole blocks at strides 1 and 2 read the line as a fixed-size
            // array: loads straight into registers (a copy through `picked`
            // made each block's adds wait on its stores).
            match (m, reg.stride) {
                (ROUND, 1) => {
                    if let Ok(v) = <&[A; ROUND]>::try_from(&line[at..at + ROUND]) {
                        for i in 0..ROUND {
                            acc[i] += v[i];
                        }
                        continue;
                    }
                }
                (ROUND, 2) => {
                    if let Ok(v) = <&[A; 2 * ROUND - 1]>::try_from(&line[at..at + 2 * ROUND - 1]) {
                        for i in 0..ROUND {
                            acc[i] += v[2 * i];
                        }
                        continue;
                    }
                }
                _ => {}
            }
            // Short blocks and other strides element by element: a vector
            // add of a copied line waited on the copy's scalar stores, while
            // separate sums' adds overlap.
            for (i, a) in acc[..m].iter_mut().enumerate() {
                *a += line[at + i * reg.stride];
            }
        }
    }
    acc
}

#[doc(hidden)]
pub mod tests {
    use super::*;
    use crate::backend::Window;

    /// The definition, output by output: ATen's loops over a plane.
    fn reference(x: &[f32], hw: [usize; 2], a: &AvgWindows) -> Vec<f32> {
        let (rows, cols) = (a.axis(0, hw[0]), a.axis(1, hw[1]));
        let mut out = Vec::new();
        for r in &rows {
            for c in &cols {
                let mut sum = 0f32;
                for y in r.lo..r.hi {
                    for xx in c.lo..c.hi {
                        sum += x[y * hw[1] + xx];
                    }
                }
                out.push(match a {
                    _ if r.lo >= r.hi || c.lo >= c.hi => 0.0,
                    AvgWindows::Fixed {
                        divisor: Some(d), ..
                    } => sum / *d as f32,
                    AvgWindows::Fixed { .. } => sum / (r.count * c.count) as f32,
                    AvgWindows::Adaptive { .. } => sum / r.count as f32 / c.count as f32,
                });
            }
        }
        out
    }

    fn fixed(k: usize, s: usize, p: usize, hw: [usize; 2], include_pad: bool) -> AvgWindows {
        let out = |n: usize| (n + 2 * p - k) / s + 1;
        AvgWindows::Fixed {
            win: Window {
                kernel: [k, k],
                stride: [s, s],
                pad_before: [p, p],
                pad_total: [2 * p, 2 * p],
                dilation: [1, 1],
                out: [out(hw[0]), out(hw[1])],
            },
            include_pad,
            divisor: None,
        }
    }

    crate::unit_tests! {
        /// Strides 1 and 2, padding counted or not, a divisor, adaptive sizes
        /// that divide and that do not: the vector taps give the definition's
        /// bits.
        fn pooling_matches_the_definition() {
            let hw = [9, 37];
            let x: Vec<f32> = (0..2 * hw[0] * hw[1])
                .map(|i| ((i * 7919) % 1013) as f32 * 0.173 - 80.0)
                .collect();
            let mut cases = vec![
                fixed(3, 1, 1, hw, true),
                fixed(3, 2, 1, hw, false),
                fixed(5, 3, 2, hw, true),
                fixed(2, 2, 0, hw, true),
                AvgWindows::Adaptive { out: [3, 37] },
                AvgWindows::Adaptive { out: [4, 5] },
                AvgWindows::Adaptive { out: [12, 40] },
            ];
            if let AvgWindows::Fixed { win, .. } = fixed(4, 1, 2, hw, true) {
                cases.push(AvgWindows::Fixed {
                    win,
                    include_pad: false,
                    divisor: Some(7),
                });
            }
            for a in cases {
                let l = Layout::contiguous(&[1, 2, hw[0], hw[1]]);
                let got = avg_pool(&CpuStorage::F32(x.clone()), &l, &a).map(|s| match s {
                    CpuStorage::F32(v) => v,
                    _ => Vec::new(),
                });
                let mut want = reference(&x[..hw[0] * hw[1]], hw, &a);
                want.extend(reference(&x[hw[0] * hw[1]..], hw, &a));
                let got = got.unwrap_or_default();
                assert_eq!(got.len(), want.len(), "{a:?}");
                for (g, w) in got.iter().zip(&want) {
                    assert_eq!(g.to_bits(), w.to_bits(), "{a:?}");
                }
            }
        }
    }
}
