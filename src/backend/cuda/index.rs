//! Advanced indexing and nonzero on the device (kernels/index.cu); sort and
//! unique go through the host (the CPU backend's stable sort, then back).

use cudarc::driver::DeviceRepr;

use cudarc::driver::PushKernelArg;

use super::kernels::{Source, Strided, blocks, launched, merged, suffix};
use super::{CudaStorage, host_from_device};
use crate::backend::BackendStorage;
use crate::error::{Result, device_err, index_err, value_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;

const MAXI: usize = 8;

/// struct Indices in kernels/index.cu.
#[repr(C)]
#[derive(Clone, Copy)]
struct Indices {
    count: i64,
    ptr: [i64; MAXI],
    size: [i64; MAXI],
    stride: [i64; MAXI],
}

// SAFETY: plain integers, laid out as the C struct.
unsafe impl DeviceRepr for Indices {}

/// What the gather and put kernels need: the layouts around the indexed dims,
/// the index buffers (contiguous int64 of the broadcast shape, kept alive
/// here), and the sizes of the three parts.
struct Plan {
    before: Strided,
    after: Strided,
    ix: Indices,
    dims: Vec<usize>,
    _buffers: Vec<CudaStorage>,
    nb: usize,
    na: usize,
    total: usize,
}

fn plan(
    s: &CudaStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CudaStorage, &Layout)],
    insert_at: usize,
) -> Result<Plan> {
    if dims.len() > MAXI {
        return Err(device_err(format!(
            "CUDA indexing takes at most {MAXI} index tensors at once, but got {}",
            dims.len()
        )));
    }
    let mut buffers = Vec::with_capacity(indices.len());
    let mut ix = Indices {
        count: dims.len() as i64,
        ptr: [0; MAXI],
        size: [0; MAXI],
        stride: [0; MAXI],
    };
    for (k, ((idx, il), &d)) in indices.iter().zip(dims).enumerate() {
        let b = idx.cast(il, DType::I64)?;
        ix.ptr[k] = b.ptr() as i64;
        ix.size[k] = l.shape[d] as i64;
        ix.stride[k] = l.strides[d] as i64;
        buffers.push(b);
    }
    let nb = indices.first().map_or(1, |(_, il)| il.numel());
    let rest: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
    let (before, after) = rest.split_at(insert_at.min(rest.len()));
    let sub = |ds: &[usize], offset: usize| Layout {
        shape: ds.iter().map(|&d| l.shape[d]).collect(),
        strides: ds.iter().map(|&d| l.strides[d]).collect(),
        offset,
    };
    let (lb, la) = (sub(before, l.offset), sub(after, 0));
    let total = lb.numel() * nb * la.numel();
    let p = Plan {
        before: merged(&[&lb])?.remove(0),
        after: merged(&[&la])?.remove(0),
        ix,
        dims: dims.to_vec(),
        _buffers: buffers,
        nb,
        na: la.numel(),
        total,
    };
    check(s, &p)?;
    Ok(p)
}

/// Every index in range, or the CPU's error for the first one that is not.
fn check(s: &CudaStorage, p: &Plan) -> Result<()> {
    let n = p.nb * p.ix.count as usize;
    if n == 0 {
        return Ok(());
    }
    let gpu = s.gpu();
    let err = CudaStorage::from_host(crate::backend::HostBuffer::I64(vec![-1]), gpu.index)?;
    let (nb, errp) = (p.nb as i64, err.ptr());
    launch!(gpu, Source::Index, "index_check", n; nb, p.ix, errp)?;
    let first = host_from_device(gpu, &err, 0, 1)?.get_i64(0);
    if first == -1 {
        return Ok(());
    }
    let (k, at) = (first as usize / p.nb, first as usize % p.nb);
    let x = host_from_device(gpu, &p._buffers[k], at, 1)?.get_i64(0);
    Err(index_err(format!(
        "index {x} is out of bounds for dimension {} with size {}",
        index_dim(p, k),
        p.ix.size[k]
    )))
}

/// The dim the k-th index tensor indexes (kept beside its stride for messages).
fn index_dim(p: &Plan, k: usize) -> usize {
    p.dims[k]
}

pub fn index(
    s: &CudaStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CudaStorage, &Layout)],
    insert_at: usize,
) -> Result<CudaStorage> {
    let p = plan(s, l, dims, indices, insert_at)?;
    let out = CudaStorage::empty(s.gpu(), p.total, s.dtype)?;
    if p.total == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let (n, nb, na, src, outp) = (p.total as i64, p.nb as i64, p.na as i64, s.ptr(), out.ptr());
    let name = format!("index_{}", suffix(s.dtype));
    launch!(gpu, Source::Index, &name, p.total; n, nb, na, p.before, p.after, p.ix, src, outp)?;
    Ok(out)
}

pub fn index_put_into(
    dst: &mut CudaStorage,
    l: &Layout,
    dims: &[usize],
    indices: &[(&CudaStorage, &Layout)],
    insert_at: usize,
    src: (&CudaStorage, &Layout),
    accumulate: bool,
) -> Result<()> {
    if dst.dtype != src.0.dtype {
        return Err(value_err(
            "internal: index_put between dtypes reached the backend",
        ));
    }
    let p = plan(dst, l, dims, indices, insert_at)?;
    if p.total == 0 {
        return Ok(());
    }
    let gpu = dst.gpu().clone();
    let sl = merged(&[src.1])?.remove(0);
    let name = format!("index_put_{}", suffix(dst.dtype));
    let (n, nb, na, d, sp, acc) = (
        p.total as i64,
        p.nb as i64,
        p.na as i64,
        dst.ptr(),
        src.0.ptr(),
        accumulate as i32,
    );
    launch!(gpu, Source::Index, &name, p.total; n, nb, na, p.before, p.after, p.ix, d, sl, sp, acc)
}

pub fn nonzero(s: &CudaStorage, l: &Layout) -> Result<CudaStorage> {
    let gpu = s.gpu();
    let n = l.numel();
    let nd = l.ndim();
    let flags = s.cast(l, DType::Bool)?;
    let count_buf = CudaStorage::empty(gpu, 1, DType::I64)?;
    let (n64, fp, cp) = (n as i64, flags.ptr(), count_buf.ptr());
    let count = if n == 0 {
        0
    } else {
        let f = gpu.function(Source::Index, "nonzero_count")?;
        let mut b = gpu.stream.launch_builder(&f);
        b.arg(&n64).arg(&fp).arg(&cp);
        // SAFETY: arguments as nonzero_count.
        launched("nonzero_count", unsafe { b.launch(blocks(1, 256)) })?;
        host_from_device(gpu, &count_buf, 0, 1)?.get_i64(0) as usize
    };
    let out = CudaStorage::empty(gpu, count * nd, DType::I64)?;
    if count == 0 || nd == 0 {
        // A 0-d input gives [count, 0]: no coordinates to write.
        return Ok(out);
    }
    let shape = Strided::contiguous(&l.shape)?;
    let f = gpu.function(Source::Index, "nonzero_write")?;
    let op = out.ptr();
    let mut b = gpu.stream.launch_builder(&f);
    b.arg(&n64).arg(&fp).arg(&shape).arg(&op);
    // SAFETY: arguments as nonzero_write.
    launched("nonzero_write", unsafe { b.launch(blocks(1, 256)) })?;
    Ok(out)
}

/// torch.gather as advanced indexing on the device: every other dim is
/// indexed by an arange broadcast along it (each a few bytes to upload).
pub fn gather(
    s: &CudaStorage,
    l: &Layout,
    dim: usize,
    index: &CudaStorage,
    il: &Layout,
) -> Result<CudaStorage> {
    check_bounds(l, dim, index, il)?;
    let aranges = aranges(s, dim, il)?;
    let (dims, picks) = along(&aranges, dim, index, il);
    self::index(s, l, &dims, &picks, 0)
}

/// torch.scatter(_add) as an advanced-index write, gather's way.
pub fn scatter_into(
    dst: &mut CudaStorage,
    l: &Layout,
    dim: usize,
    index: (&CudaStorage, &Layout),
    src: (&CudaStorage, &Layout),
    accumulate: bool,
) -> Result<()> {
    check_bounds(l, dim, index.0, index.1)?;
    let aranges = aranges(dst, dim, index.1)?;
    let (dims, picks) = along(&aranges, dim, index.0, index.1);
    index_put_into(dst, l, &dims, &picks, 0, src, accumulate)
}

/// Advanced indexing counts negative indices from the end and raises
/// IndexError; gather and scatter refuse them, with RuntimeError.
fn check_bounds(l: &Layout, dim: usize, index: &CudaStorage, il: &Layout) -> Result<()> {
    if il.numel() == 0 {
        return Ok(());
    }
    let all: Vec<usize> = (0..il.ndim()).collect();
    let size = l.shape[dim];
    for op in [
        crate::tensor::op::ReduceOp::Min,
        crate::tensor::op::ReduceOp::Max,
    ] {
        let end = index.reduce(il, op, &all)?;
        if let crate::backend::HostBuffer::I64(m) = end.to_host(&Layout::contiguous(&[]))?
            && let Some(&x) = m.first()
            && (x < 0 || x >= size as i64)
        {
            return Err(crate::backend::along_bounds_err(x, dim, size));
        }
    }
    Ok(())
}

/// An arange along each dim but `dim`, laid out in the index's shape.
fn aranges(on: &CudaStorage, dim: usize, il: &Layout) -> Result<Vec<(CudaStorage, Layout)>> {
    let nd = il.ndim();
    let mut out = Vec::with_capacity(nd);
    for d in (0..nd).filter(|&d| d != dim) {
        let n = il.shape[d] as i64;
        let a = CudaStorage::from_host(
            crate::backend::HostBuffer::I64((0..n).collect()),
            on.gpu().index,
        )?;
        let mut strides = vec![0; nd];
        strides[d] = 1;
        let lay = Layout {
            shape: il.shape.clone(),
            strides: strides.into(),
            offset: 0,
        };
        out.push((a, lay));
    }
    Ok(out)
}

/// The advanced index of every dim: `index` at `dim`, the aranges elsewhere.
fn along<'a>(
    aranges: &'a [(CudaStorage, Layout)],
    dim: usize,
    index: &'a CudaStorage,
    il: &'a Layout,
) -> (Vec<usize>, Vec<(&'a CudaStorage, &'a Layout)>) {
    let mut others = aranges.iter();
    let mut picks = Vec::with_capacity(il.ndim());
    for d in 0..il.ndim() {
        if d == dim {
            picks.push((index, il));
        } else if let Some((a, lay)) = others.next() {
            picks.push((a, lay));
        }
    }
    ((0..il.ndim()).collect(), picks)
}

/// Through the host: the CPU backend's stable sort, the results sent back.
pub fn sort(
    s: &CudaStorage,
    l: &Layout,
    dim: usize,
    descending: bool,
    k: usize,
) -> Result<(CudaStorage, CudaStorage)> {
    let host = s.to_host(l)?;
    let (v, i) = host.sort(&Layout::contiguous(&l.shape), dim, descending, k)?;
    let index = s.gpu().index;
    Ok((
        CudaStorage::from_host(v, index)?,
        CudaStorage::from_host(i, index)?,
    ))
}

/// Through the host, as sort.
pub fn kth(
    s: &CudaStorage,
    l: &Layout,
    dim: usize,
    k: usize,
) -> Result<(CudaStorage, CudaStorage)> {
    let host = s.to_host(l)?;
    let (v, i) = host.kth(&Layout::contiguous(&l.shape), dim, k)?;
    let index = s.gpu().index;
    Ok((
        CudaStorage::from_host(v, index)?,
        CudaStorage::from_host(i, index)?,
    ))
}

pub fn unique(s: &CudaStorage, l: &Layout) -> Result<(CudaStorage, CudaStorage, CudaStorage)> {
    let host = s.to_host(l)?;
    let (a, b, c) = host.unique(&Layout::contiguous(&l.shape))?;
    let index = s.gpu().index;
    Ok((
        CudaStorage::from_host(a, index)?,
        CudaStorage::from_host(b, index)?,
        CudaStorage::from_host(c, index)?,
    ))
}
