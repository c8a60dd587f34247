//! The one place that decides broadcasting, plus dimension normalisation.

use crate::error::{Error, Result, index_err, shape_err};

pub fn fmt_shape(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(", "))
}

/// PyTorch broadcasting: align trailing dims; each pair must match or hold a 1.
/// A shape as the i64 sizes the view ops take.
pub fn sizes(shape: &[usize]) -> Vec<i64> {
    shape.iter().map(|&s| s as i64).collect()
}

/// Whether two shapes are equal, compared inline: `==` on slices calls
/// memcmp, a fortieth of a small op (a 2×2 `a * b`).
#[inline(always)]
pub fn same_shape(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

pub fn broadcast_shapes(a: &[usize], b: &[usize]) -> Result<crate::tensor::layout::Dims> {
    if same_shape(a, b) {
        return Ok(crate::tensor::layout::Dims::from_slice(a));
    }
    let n = a.len().max(b.len());
    let mut out: crate::tensor::layout::Dims = smallvec::smallvec![0; n];
    for i in 0..n {
        let da = if i + a.len() >= n {
            a[i + a.len() - n]
        } else {
            1
        };
        let db = if i + b.len() >= n {
            b[i + b.len() - n]
        } else {
            1
        };
        out[i] = if da == db || db == 1 {
            da
        } else if da == 1 {
            db
        } else {
            return Err(broadcast_error(a, b, i as isize - n as isize, da, db));
        };
    }
    Ok(out)
}

fn broadcast_error(a: &[usize], b: &[usize], dim: isize, da: usize, db: usize) -> Error {
    let mut e = shape_err(format!(
        "shapes {} and {} cannot be broadcast: dimension {} is {} in one and {} in the other (each pair must be equal or 1)",
        fmt_shape(a),
        fmt_shape(b),
        dim,
        da,
        db
    ));
    // The classic fix: an axis that unsqueeze would supply, so sizes line up.
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if a.len() != b.len() && short.first().is_some_and(|d| long.contains(d)) {
        e = e.hint(format!(
            "broadcasting aligns shapes from the right; to line {} up with the leading dims of {}, add axes with .unsqueeze(-1) (or t[..., none])",
            fmt_shape(short),
            fmt_shape(long)
        ));
    } else {
        e = e.hint("broadcasting stretches only dimensions of size 1; use .reshape or .unsqueeze so the sizes line up");
    }
    e
}

/// Check that `from` can be broadcast to `to` (for expand, index assignment, copy_).
pub fn check_broadcast_to(from: &[usize], to: &[usize]) -> Result<()> {
    let ok = from.len() <= to.len()
        && from
            .iter()
            .rev()
            .zip(to.iter().rev())
            .all(|(&f, &t)| f == t || f == 1);
    if ok {
        Ok(())
    } else {
        Err(shape_err(format!(
            "shape {} cannot be broadcast to {}",
            fmt_shape(from),
            fmt_shape(to)
        )))
    }
}

/// A possibly negative dim → an index in `0..ndim` (a 0-d tensor accepts -1 and 0).
/// Like `normalize_dim`, for ops that take a slice along the dim, so it must
/// exist: a 0-d tensor has none (PyTorch says the same).
pub fn existing_dim(dim: i64, ndim: usize) -> Result<usize> {
    if ndim == 0 {
        return Err(index_err(format!(
            "dimension specified as {dim} but the tensor has no dimensions"
        ))
        .hint("a 0-d tensor holds one value; unsqueeze(0) makes it a 1-element vector"));
    }
    normalize_dim(dim, ndim)
}

pub fn normalize_dim(dim: i64, ndim: usize) -> Result<usize> {
    let n = ndim.max(1) as i64;
    if dim < -n || dim >= n {
        return Err(index_err(format!(
            "dimension {dim} is out of range for a tensor with {ndim} dimension{} (expected -{n}..{})",
            if ndim == 1 { "" } else { "s" },
            n - 1
        )));
    }
    Ok(if dim < 0 {
        (dim + n) as usize
    } else {
        dim as usize
    })
}

/// For ops that insert a dim (unsqueeze, stack): valid range is one wider.
pub fn normalize_insert_dim(dim: i64, ndim: usize) -> Result<usize> {
    normalize_dim(dim, ndim + 1)
}

/// Resolve a `-1` in a requested shape against the element count.
pub fn infer_shape(requested: &[i64], numel: usize) -> Result<Vec<usize>> {
    let mut infer_at = None;
    let mut known = 1usize;
    for (i, &d) in requested.iter().enumerate() {
        if d == -1 {
            if infer_at.is_some() {
                return Err(shape_err("only one dimension can be -1"));
            }
            infer_at = Some(i);
        } else if d < 0 {
            return Err(shape_err(format!("invalid shape dimension {d}")));
        } else {
            known = known.saturating_mul(d as usize);
        }
    }
    let mut shape: Vec<usize> = requested.iter().map(|&d| d.max(0) as usize).collect();
    let fail = || {
        shape_err(format!(
            "shape {} is invalid for a tensor of {} elements",
            fmt_shape_i(requested),
            numel
        ))
    };
    match infer_at {
        Some(i) => {
            if known == 0 || !numel.is_multiple_of(known) {
                return Err(fail());
            }
            shape[i] = numel / known;
        }
        None if known != numel => return Err(fail()),
        None => {}
    }
    Ok(shape)
}

fn fmt_shape_i(shape: &[i64]) -> String {
    let parts: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    format!("[{}]", parts.join(", "))
}
