//! torch.cat in one pass: every element of the result written once, straight
//! from its part (a zero-filled result copied into part by part spent a third
//! of its time clearing memory that was then overwritten).

use super::elem::{CpuStorage, Element};
use super::row_copy::copy_row;
use super::strided::fill_blocks;
use crate::error::{Result, value_err};
use crate::with_storage;

/// Parts of one dtype (each a buffer, the offset where its elements start and
/// the distance between its runs) side by side: the result is `outer` rows, in
/// each of which part `p` contributes its next run of `runs[p]` elements.
pub fn concat(
    parts: &[(&CpuStorage, usize, usize)],
    runs: &[usize],
    outer: usize,
) -> Result<CpuStorage> {
    let Some(&(first, _, _)) = parts.first() else {
        return Err(value_err("internal: cat of no parts reached the backend"));
    };
    with_storage!(first, v => concat_typed(&v[..0], parts, runs, outer).map(Element::wrap))
}

/// `concat` for element type T (`_like` only names it).
fn concat_typed<T: Element>(
    _like: &[T],
    parts: &[(&CpuStorage, usize, usize)],
    runs: &[usize],
    outer: usize,
) -> Result<Vec<T>> {
    let slices = parts
        .iter()
        .zip(runs)
        .map(|(&(s, offset, stride), &run)| {
            // The span from the first run's start to the last run's end.
            let span = (outer.max(1) - 1) * stride + run;
            match T::slice(s) {
                // An empty part adds nothing, wherever its view starts (a view
                // of an empty tensor may start past its storage's end).
                Some(v) if outer * run == 0 => Ok(&v[..0]),
                Some(v) if v.len() >= offset + span => Ok(&v[offset..offset + span]),
                _ => Err(value_err(
                    "internal: cat's parts reached the backend unprepared",
                )),
            }
        })
        .collect::<Result<Vec<&[T]>>>()?;
    let strides: Vec<usize> = parts.iter().map(|p| p.2).collect();
    let width: usize = runs.iter().sum();
    // Blocks of the result, in parallel when it is big: each block walks its
    // rows, copying the stretch of whichever part each column range is in.
    Ok(fill_blocks(outer * width, &|start, dst| {
        let (mut row, mut col) = (start / width, start % width);
        let mut done = 0;
        while done < dst.len() {
            let (mut p, mut base) = (0, 0);
            while col >= base + runs[p] {
                base += runs[p];
                p += 1;
            }
            let within = col - base;
            let n = (runs[p] - within).min(dst.len() - done);
            let from = row * strides[p] + within;
            copy_row(&mut dst[done..done + n], &slices[p][from..from + n]);
            done += n;
            col += n;
            if col == width {
                (row, col) = (row + 1, 0);
            }
        }
    }))
}
