//! getrf and getrs (getrf.rs) over a tensor's batch of matrices, in the
//! tensor's own precision: the factors, pivots and infos that lu_factor,
//! det, slogdet and inv are read from.

use super::getrf::{LuFloat, getrf, getrs};
use super::linalg::check_linalg_input;
use crate::backend::HostBuffer;
use crate::error::{Result, dtype_err};
use crate::tensor::{DType, Tensor};
use crate::threads::ChunksMut;

/// Every matrix of a batch factored by getrf, in the tensor's precision
/// (float32 stays float32, as in PyTorch; other dtypes go through f64).
pub(super) struct Factored {
    /// The packed factors, row-major, f32 or f64.
    data: HostBuffer,
    pub(super) pivots: Vec<i32>,
    pub(super) infos: Vec<i32>,
    pub(super) lead: Vec<usize>,
    pub(super) m: usize,
    pub(super) n: usize,
}

impl Factored {
    pub(super) fn of(a: &Tensor, what: &str) -> Result<Factored> {
        check_linalg_input(a, what, "A")?;
        let nd = a.ndim();
        let (m, n) = (a.shape()[nd - 2], a.shape()[nd - 1]);
        let lead = a.shape()[..nd - 2].to_vec();
        let count: usize = lead.iter().product();
        let mut f = Factored {
            data: a.to_dtype(compute_dtype(a))?.to_host()?,
            pivots: Vec::with_capacity(count * m.min(n)),
            infos: vec![0; count],
            lead,
            m,
            n,
        };
        match &mut f.data {
            HostBuffer::F32(d) => factor_all(d, m, n, &mut f.pivots, &mut f.infos),
            HostBuffer::F64(d) => factor_all(d, m, n, &mut f.pivots, &mut f.infos),
            _ => return Err(dtype_err(format!("linalg.{what}: unsupported dtype"))),
        }
        Ok(f)
    }

    /// The packed factors, a host tensor in the precision they ran in.
    pub(super) fn into_factors(self) -> Result<Tensor> {
        let mut shape = self.lead;
        shape.extend([self.m, self.n]);
        Ok(match self.data {
            HostBuffer::F32(d) => Tensor::from_vec(d, &shape),
            HostBuffer::F64(d) => Tensor::from_vec(d, &shape),
            _ => return Err(dtype_err("linalg: unsupported dtype")),
        })
    }

    /// The pivots as PyTorch's int32 tensor, on `like`'s device.
    pub(super) fn pivots_tensor(&self, like: &Tensor) -> Result<Tensor> {
        let mut shape = self.lead.clone();
        shape.push(self.m.min(self.n));
        Tensor::from_vec(self.pivots.clone(), &shape).to_device(like.device())
    }

    pub(super) fn infos_tensor(&self, like: &Tensor) -> Result<Tensor> {
        Tensor::from_vec(self.infos.clone(), &self.lead).to_device(like.device())
    }

    /// The first zero pivot (1-based) of the first matrix that has one.
    pub(super) fn first_zero(&self) -> Option<i32> {
        self.infos.iter().copied().find(|&i| i > 0)
    }

    /// Each square matrix's inverse, as PyTorch's linalg.inv computes it:
    /// getrs against the identity. A singular matrix's has inf and nan
    /// entries, as LAPACK's. A host tensor in the factors' precision.
    pub(super) fn inverses(&self) -> Result<Tensor> {
        let n = self.n;
        let mut shape = self.lead.clone();
        shape.extend([n, n]);
        Ok(match &self.data {
            HostBuffer::F32(d) => Tensor::from_vec(invert_all(d, &self.pivots, n), &shape),
            HostBuffer::F64(d) => Tensor::from_vec(invert_all(d, &self.pivots, n), &shape),
            _ => return Err(dtype_err("linalg: unsupported dtype")),
        })
    }
}

/// The precision a factorisation of `a` runs in: float32's own, else f64.
pub(super) fn compute_dtype(a: &Tensor) -> DType {
    if a.dtype() == DType::F32 {
        DType::F32
    } else {
        DType::F64
    }
}

/// Whether a batch of `count` matrices, each about `work` multiply-adds,
/// is worth splitting between the kernel threads a matrix at a time (the
/// factorisations of one large matrix split their products instead).
pub(super) fn split_batch(count: usize, work: usize) -> bool {
    count > 1 && count * work >= 1 << 20
}

/// `f(i, matrix)` for each of the `count` matrices of `size` elements in
/// `d`, on the kernel threads a matrix each where `split_batch` says; the
/// results in order.
pub(super) fn each_matrix<T: Send, R: Send>(
    d: &mut [T],
    count: usize,
    size: usize,
    work: usize,
    f: impl Fn(usize, &mut [T]) -> R + Sync,
) -> Vec<R> {
    if size == 0 {
        return (0..count).map(|i| f(i, &mut [])).collect();
    }
    if split_batch(count, work) {
        crate::threads::zip_map(ChunksMut::new(d, size), f)
    } else {
        d.chunks_exact_mut(size)
            .enumerate()
            .map(|(i, m)| f(i, m))
            .collect()
    }
}

fn factor_all<T: LuFloat>(
    d: &mut [T],
    m: usize,
    n: usize,
    pivots: &mut Vec<i32>,
    infos: &mut [i32],
) {
    if m * n == 0 {
        return;
    }
    let count = infos.len();
    let done = each_matrix(d, count, m * n, m * n * m.min(n), |_, mat| getrf(mat, m, n));
    for ((p, i), info) in done.into_iter().zip(infos) {
        pivots.extend(p);
        *info = i;
    }
}

fn invert_all<T: LuFloat>(lu: &[T], pivots: &[i32], n: usize) -> Vec<T> {
    let mut out = vec![T::ZERO; lu.len()];
    if n == 0 {
        return out;
    }
    let count = lu.len() / (n * n);
    each_matrix(&mut out, count, n * n, n * n * n, |i, x| {
        for d in 0..n {
            x[d * n + d] = T::ONE;
        }
        let f = &lu[i * n * n..(i + 1) * n * n];
        getrs(f, &pivots[i * n..(i + 1) * n], x, n, n);
    });
    out
}
