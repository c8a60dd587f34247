//! Rearranging elements: movedim, tile, rot90, unflatten, repeat_interleave,
//! meshgrid, diff, kron, cross and cdist. Composites over views, indexing and
//! arithmetic, so gradients flow and every device runs them.

use crate::autograd::composite::composite;
use crate::error::{Result, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, ReduceOp};
use crate::tensor::ops::arith::{bin, mul, sub};
use crate::tensor::ops::join::cat;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::ops::view::{
    expand, flip, narrow, permute, repeat, reshape, transpose, unsqueeze,
};
use crate::tensor::shape::{existing_dim, infer_shape, normalize_dim, sizes};

/// torch.movedim: dims `source` moved to `destination`, the rest in order.
pub fn movedim(t: &Tensor, source: &[i64], destination: &[i64]) -> Result<Tensor> {
    if source.len() != destination.len() {
        return Err(value_err(format!(
            "movedim: Invalid source or destination dims: source ({:?} dims) should contain the same number of dims as destination ({:?} dims)",
            source, destination
        )));
    }
    let n = t.ndim();
    let src: Vec<usize> = source
        .iter()
        .map(|&d| existing_dim(d, n))
        .collect::<Result<_>>()?;
    let dst: Vec<usize> = destination
        .iter()
        .map(|&d| existing_dim(d, n))
        .collect::<Result<_>>()?;
    let mut order: Vec<Option<usize>> = vec![None; n];
    for (&s, &d) in src.iter().zip(&dst) {
        order[d] = Some(s);
    }
    let mut rest = (0..n).filter(|d| !src.contains(d));
    let perm: Vec<i64> = order
        .into_iter()
        .map(|o| o.or_else(|| rest.next()).unwrap_or(0) as i64)
        .collect();
    permute(t, &perm)
}

/// torch.tile: repeat, with missing leading repetitions taken as 1.
pub fn tile(t: &Tensor, dims: &[i64]) -> Result<Tensor> {
    let mut reps = vec![1; t.ndim().saturating_sub(dims.len())];
    reps.extend_from_slice(dims);
    repeat(t, &reps)
}

/// torch.rot90: k quarter turns from the first dim towards the second.
pub fn rot90(t: &Tensor, k: i64, dims: &[i64]) -> Result<Tensor> {
    if dims.len() != 2 {
        return Err(value_err(format!(
            "expected total rotation dims == 2, but got dims = {}",
            dims.len()
        )));
    }
    let (a, b) = (dims[0], dims[1]);
    if t.ndim() < 2 || normalize_dim(a, t.ndim())? == normalize_dim(b, t.ndim())? {
        return Err(value_err(format!(
            "expected total dims >= 2 and rotation dims to be different, but got total dims = {}, rotation dims = {a} and {b}",
            t.ndim()
        )));
    }
    composite("Rot90Backward0", &[t], |x| match k.rem_euclid(4) {
        1 => transpose(&flip(&x[0], &[b])?, a, b),
        2 => flip(&x[0], &[a, b]),
        3 => transpose(&flip(&x[0], &[a])?, a, b),
        _ => Ok(x[0].clone()),
    })
}

/// Tensor.unflatten: dim split into `sizes` (one may be -1).
pub fn unflatten(t: &Tensor, dim: i64, parts: &[i64]) -> Result<Tensor> {
    let d = existing_dim(dim, t.ndim())?;
    let inner = infer_shape(parts, t.shape()[d]).map_err(|_| {
        shape_err(format!(
            "unflatten: Provided sizes {parts:?} don't multiply up to the size of dim {dim} ({}) in the input tensor",
            t.shape()[d]
        ))
    })?;
    let mut shape = sizes(&t.shape()[..d]);
    shape.extend(sizes(&inner));
    shape.extend(sizes(&t.shape()[d + 1..]));
    crate::tensor::ops::view::view(t, &shape)
}

/// torch.repeat_interleave with one count for every element: each element
/// (slice along dim; of the flattened tensor without dim) repeated in place.
pub fn repeat_interleave(t: &Tensor, repeats: usize, dim: Option<i64>) -> Result<Tensor> {
    let Some(dim) = dim else {
        let flat = reshape(t, &[-1])?;
        let n = flat.numel() as i64;
        let r = expand(&unsqueeze(&flat, 1)?, &[n, repeats as i64])?;
        return reshape(&r, &[-1]);
    };
    let d = existing_dim(dim, t.ndim().max(1))?;
    let t = if t.ndim() == 0 {
        reshape(t, &[1])?
    } else {
        t.clone()
    };
    let mut shape = sizes(t.shape());
    let u = unsqueeze(&t, d as i64 + 1)?;
    let mut big = shape.clone();
    big.insert(d + 1, repeats as i64);
    let e = expand(&u, &big)?;
    shape[d] *= repeats as i64;
    reshape(&e, &shape)
}

/// repeat_interleave with a count per element: the index each output takes.
pub fn repeat_index(counts: &[i64], device: crate::tensor::Device) -> Result<Tensor> {
    if counts.iter().any(|&c| c < 0) {
        return Err(value_err("repeats can not be negative"));
    }
    let idx: Vec<i64> = counts
        .iter()
        .enumerate()
        .flat_map(|(i, &c)| std::iter::repeat_n(i as i64, c as usize))
        .collect();
    let n = idx.len();
    Tensor::from_vec(idx, &[n]).to_device(device)
}

/// torch.meshgrid: each 1-d tensor expanded across the grid of all of them
/// ("ij": dim i is tensor i; "xy" swaps the first two).
pub fn meshgrid(tensors: &[Tensor], xy: bool) -> Result<Vec<Tensor>> {
    let mut ts: Vec<Tensor> = tensors
        .iter()
        .map(|t| reshape(t, &[-1]))
        .collect::<Result<_>>()?;
    if xy && ts.len() >= 2 {
        ts.swap(0, 1);
    }
    let grid: Vec<i64> = ts.iter().map(|t| t.numel() as i64).collect();
    let mut out: Vec<Tensor> = ts
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let mut shape = vec![1; ts.len()];
            shape[i] = -1;
            expand(&reshape(t, &shape)?, &grid)
        })
        .collect::<Result<_>>()?;
    if xy && out.len() >= 2 {
        out.swap(0, 1);
    }
    Ok(out)
}

/// torch.diff: the n-th forward difference along dim, after prepend/append.
pub fn diff(
    t: &Tensor,
    n: i64,
    dim: i64,
    prepend: Option<&Tensor>,
    append: Option<&Tensor>,
) -> Result<Tensor> {
    if t.ndim() == 0 {
        return Err(shape_err(
            "diff expects input to be at least one-dimensional",
        ));
    }
    let d = existing_dim(dim, t.ndim())? as i64;
    let mut x = t.clone();
    if prepend.is_some() || append.is_some() {
        let parts: Vec<Tensor> = prepend
            .into_iter()
            .chain([t])
            .chain(append)
            .cloned()
            .collect();
        x = cat(&parts, d)?;
    }
    for _ in 0..n.max(0) {
        let len = x.shape()[d as usize] as i64;
        if len == 0 {
            break;
        }
        let (hi, lo) = (narrow(&x, d, 1, len - 1)?, narrow(&x, d, 0, len - 1)?);
        x = if x.dtype() == DType::Bool {
            bin(BinaryOp::Ne, &hi, &lo)?
        } else {
            sub(&hi, &lo)?
        };
    }
    Ok(x)
}

/// torch.kron: every element of a times all of b, in blocks.
pub fn kron(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let n = a.ndim().max(b.ndim());
    let pad = |t: &Tensor| -> Vec<i64> {
        let mut s = vec![1; n - t.ndim()];
        s.extend(sizes(t.shape()));
        s
    };
    let (sa, sb) = (pad(a), pad(b));
    let mut ra = vec![];
    let mut rb = vec![];
    for i in 0..n {
        ra.extend([sa[i], 1]);
        rb.extend([1, sb[i]]);
    }
    let prod = mul(&reshape(a, &ra)?, &reshape(b, &rb)?)?;
    let out: Vec<i64> = (0..n).map(|i| sa[i] * sb[i]).collect();
    Ok(crate::autograd::relabel(
        reshape(&prod, &out)?,
        "UnsafeViewBackward0",
    ))
}

/// torch.linalg.cross: the 3-vector cross product along dim (inputs broadcast).
pub fn cross(a: &Tensor, b: &Tensor, dim: i64) -> Result<Tensor> {
    if a.ndim() != b.ndim() {
        return Err(shape_err(
            "linalg.cross: inputs must have the same number of dimensions.",
        ));
    }
    let shape = crate::tensor::shape::broadcast_shapes(a.shape(), b.shape())?;
    let d = existing_dim(dim, shape.len())?;
    if shape[d] != 3 {
        return Err(shape_err(format!(
            "linalg.cross: inputs dimension {dim} must have length 3. Got {} and {}",
            a.shape().get(d).copied().unwrap_or(0),
            b.shape().get(d).copied().unwrap_or(0)
        )));
    }
    let (a, b) = (expand(a, &sizes(&shape))?, expand(b, &sizes(&shape))?);
    composite("LinalgCrossBackward0", &[&a, &b], |x| {
        let part = |t: &Tensor, i: i64| narrow(t, d as i64, i, 1);
        let term = |i: i64, j: i64| -> Result<Tensor> {
            sub(
                &mul(&part(&x[0], i)?, &part(&x[1], j)?)?,
                &mul(&part(&x[0], j)?, &part(&x[1], i)?)?,
            )
        };
        cat(&[term(1, 2)?, term(2, 0)?, term(0, 1)?], d as i64)
    })
}

/// The first dim of size 3 (torch.cross without dim, deprecated in PyTorch).
pub fn first_dim_of_3(a: &Tensor, b: &Tensor) -> Result<i64> {
    let shape = crate::tensor::shape::broadcast_shapes(a.shape(), b.shape())?;
    crate::warnings::warn(
        crate::warnings::WarningKind::User,
        "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree with that of linalg.cross in a future release.",
    );
    shape
        .iter()
        .position(|&s| s == 3)
        .map(|d| d as i64)
        .ok_or_else(|| shape_err("no dimension of size 3 in input"))
}

/// torch.cdist: the p-norm distance between every row of x1 and every row of x2
/// (batched over leading dims).
pub fn cdist(x1: &Tensor, x2: &Tensor, p: f64) -> Result<Tensor> {
    if x1.ndim() < 2 || x2.ndim() < 2 {
        return Err(shape_err(format!(
            "cdist only supports at least 2D tensors, X1 got: {}D",
            x1.ndim().min(x2.ndim())
        )));
    }
    if x1.shape()[x1.ndim() - 1] != x2.shape()[x2.ndim() - 1] {
        return Err(shape_err(format!(
            "X1 and X2 must have the same number of columns. X1: {} X2: {}",
            x1.shape()[x1.ndim() - 1],
            x2.shape()[x2.ndim() - 1]
        )));
    }
    if p < 0.0 {
        return Err(value_err("cdist only supports non-negative p values"));
    }
    if super::euclidean_dist::suits(x1, x2, p) {
        return super::euclidean_dist::euclidean_dist(x1, x2);
    }
    composite("CdistBackward0", &[x1, x2], |x| {
        let d = sub(&unsqueeze(&x[0], -2)?, &unsqueeze(&x[1], -3)?)?;
        reduce(&d, ReduceOp::Norm(p), Some(&[-1]), false)
    })
}

/// torch.cartesian_prod: every tuple of one element from each 1-d tensor, as
/// the rows of a matrix (a single tensor is returned as it is).
pub fn cartesian_prod(tensors: &[Tensor]) -> Result<Tensor> {
    for t in tensors {
        expect_vector(t)?;
    }
    if let [one] = tensors {
        return Ok(one.clone());
    }
    if tensors.windows(2).any(|w| w[0].dtype() != w[1].dtype()) {
        return Err(value_err(
            "meshgrid expects all tensors to have the same dtype",
        ));
    }
    let columns: Vec<Tensor> = meshgrid(tensors, false)?
        .iter()
        .map(|g| reshape(g, &[-1]))
        .collect::<Result<_>>()?;
    crate::tensor::ops::join::stack(&columns, 1)
}

/// torch.combinations: the r-long combinations of a 1-d tensor's elements in
/// itertools' order, as rows. Which positions to take depends only on the
/// length, so the positions are counted here and the elements gathered on
/// the tensor's device (and the gradient flows through the gather).
pub fn combinations(t: &Tensor, r: i64, with_replacement: bool) -> Result<Tensor> {
    expect_vector(t)?;
    if r < 0 {
        return Err(value_err(format!(
            "Expect a non-negative number, but got {r}"
        )));
    }
    if r == 0 {
        return crate::tensor::ops::view::narrow(t, 0, 0, 0);
    }
    let (n, r) = (t.numel(), r as usize);
    let mut idx: Vec<i64> = vec![];
    let mut ix: Vec<usize> = if with_replacement {
        vec![0; r]
    } else {
        (0..r).collect()
    };
    let fits = if with_replacement { n > 0 } else { r <= n };
    // No combination at all when r exceeds n (or n is 0 with replacement).
    let mut more = fits;
    while more {
        idx.extend(ix.iter().map(|&i| i as i64));
        if idx.len() % 4096 < r {
            crate::tensor::core::check_alloc(&[idx.len()], DType::I64)?;
            crate::interrupt::check()?;
        }
        // The last position that can still move on, and everything after it reset.
        let last = |i: usize| if with_replacement { n - 1 } else { i + n - r };
        let Some(i) = (0..r).rev().find(|&i| ix[i] != last(i)) else {
            more = false;
            continue;
        };
        ix[i] += 1;
        for j in i + 1..r {
            ix[j] = if with_replacement {
                ix[i]
            } else {
                ix[j - 1] + 1
            };
        }
    }
    let rows = idx.len() / r;
    let index = Tensor::from_vec(idx, &[rows * r]).to_device(t.device())?;
    reshape(
        &crate::tensor::ops::select::index_select(t, 0, &index)?,
        &[rows as i64, r as i64],
    )
}

fn expect_vector(t: &Tensor) -> Result<()> {
    if t.ndim() != 1 {
        return Err(value_err(format!(
            "Expect a 1D vector, but got shape {:?}",
            t.shape()
        )));
    }
    Ok(())
}
