//! Integer reductions: one i64 per output, wrapping as PyTorch's int64
//! arithmetic. Sum, max and min fold in vector lanes; the rest one element
//! at a time.

use super::elem::Element;
use super::reduce::{Groups, by_column_blocks, each_row, fold_lanes, group_offsets, starts};
use super::strided::{PAR_MIN, parallel};
use crate::tensor::layout::Layout;
use crate::tensor::op::ReduceOp;

/// One group of integers reduced (wrapping, as PyTorch's int64 arithmetic),
/// read straight from the tensor (no copy of the group).
fn reduce_i64(op: ReduceOp, mut g: impl Iterator<Item = i64>) -> i64 {
    // The first index of the best value.
    let mut arg = |better: fn(i64, i64) -> bool| {
        let first = g.next().unwrap_or(0);
        let (mut best, mut at) = (first, 0);
        for (i, x) in g.by_ref().enumerate() {
            if better(x, best) {
                (best, at) = (x, i + 1);
            }
        }
        at as i64
    };
    match op {
        ReduceOp::ArgMax => arg(|x, best| x > best),
        ReduceOp::ArgMin => arg(|x, best| x < best),
        ReduceOp::Prod => g.fold(1i64, |a, x| a.wrapping_mul(x)),
        ReduceOp::Max => g.max().unwrap_or(i64::MIN),
        ReduceOp::Min => g.min().unwrap_or(i64::MAX),
        ReduceOp::All => g.all(|x| x != 0) as i64,
        ReduceOp::Any => g.any(|x| x != 0) as i64,
        ReduceOp::CountNonzero => g.filter(|&x| x != 0).count() as i64,
        // Sum, and the float-only reductions (the tensor layer sends those floats).
        _ => g.fold(0i64, |a, x| a.wrapping_add(x)),
    }
}

crate::multiversion! {
    /// A wrapping sum, max or min of contiguous integers in eight i64 lanes
    /// (reduce.rs's `fold_lanes`), vectorised: an
    /// iterator's `max()` ran one element at a time (int64 max of 10^6 took
    /// 0.86 ms, PyTorch's 0.2).
    fn int_lanes<T: Element>(op: ReduceOp, g: &[T]) -> i64 {
        let read = |x: T| x.to_i64();
        match op {
            ReduceOp::Max => fold_lanes::<T, i64, 8>(g, i64::MIN, read, i64::max, i64::max),
            ReduceOp::Min => fold_lanes::<T, i64, 8>(g, i64::MAX, read, i64::min, i64::min),
            _ => fold_lanes::<T, i64, 8>(g, 0, read, i64::wrapping_add, i64::wrapping_add),
        }
    }
}

crate::multiversion! {
    /// One row of integers folded into the outputs' accumulators.
    fn int_row<T: Element>(op: ReduceOp, acc: &mut [i64], row: &[T]) {
        let row = &row[..acc.len()];
        let pairs = acc.iter_mut().zip(row);
        match op {
            ReduceOp::Max => pairs.for_each(|(a, x)| *a = (*a).max(x.to_i64())),
            ReduceOp::Min => pairs.for_each(|(a, x)| *a = (*a).min(x.to_i64())),
            _ => pairs.for_each(|(a, x)| *a = a.wrapping_add(x.to_i64())),
        }
    }
}

/// Integer reductions: one i64 per output.
pub(super) fn reduce_int<T: Element>(
    v: &[T],
    l: &Layout,
    op: ReduceOp,
    dims: &[usize],
) -> Vec<i64> {
    let gr = Groups::new(l, dims);
    let (outputs, size) = (gr.outputs(), gr.size());
    if size == 0 {
        return vec![reduce_i64(op, std::iter::empty()); outputs];
    }
    let starts = starts(&gr.kept);
    let contiguous = gr.group_contiguous();
    let offs = if contiguous {
        Vec::new()
    } else {
        group_offsets(&gr.group)
    };
    let lanes = matches!(op, ReduceOp::Sum | ReduceOp::Max | ReduceOp::Min);
    // One big group: pieces on every core, combined (max, min and a wrapping
    // sum are exact in any grouping).
    if contiguous && lanes && outputs == 1 && size >= PAR_MIN {
        let group = &v[starts[0]..starts[0] + size];
        let piece = PAR_MIN / 2;
        let partial = crate::threads::map(size.div_ceil(piece), |i| {
            int_lanes(op, &group[i * piece..((i + 1) * piece).min(size)])
        });
        return vec![reduce_i64(op, partial.into_iter())];
    }
    // Groups side by side (a max over a leading dim): rows folded into the
    // outputs' accumulators, a block of columns per task.
    if lanes && !contiguous && gr.side_by_side() {
        let init = match op {
            ReduceOp::Max => i64::MIN,
            ReduceOp::Min => i64::MAX,
            _ => 0,
        };
        let mut out = vec![init; outputs];
        by_column_blocks(
            &starts,
            gr.side_run(),
            offs.len(),
            &mut out,
            |first, acc| {
                let c0 = starts[first];
                each_row(v, c0, &offs, acc.len(), |row| int_row(op, acc, row));
            },
        );
        return out;
    }
    let one = |&s: &usize| -> i64 {
        if contiguous && lanes {
            return int_lanes(op, &v[s..s + size]);
        }
        if contiguous {
            return reduce_i64(op, v[s..s + size].iter().map(|x| x.to_i64()));
        }
        reduce_i64(op, offs.iter().map(|&o| v[s + o].to_i64()))
    };
    if outputs > 1 && parallel(outputs * size) {
        crate::threads::map(starts.len(), |i| one(&starts[i]))
    } else {
        starts.iter().map(one).collect()
    }
}
