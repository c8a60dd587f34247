//! Reductions, scans and softmax on the device (kernels/reduce.cu).

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::kernels::{
    Source, Strided, THREADS, blocks, dtype_code, grid, launched, merged, suffix,
};
use crate::error::Result;
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::{ReduceOp, ScanOp};

/// The kernels' code for an op, and its parameter (p of a norm, the
/// correction of var/std).
fn code(op: ReduceOp) -> (i32, f64, f64) {
    use ReduceOp::*;
    match op {
        // The device sums in its own order either way.
        Sum | SumInOrder => (0, 0.0, 0.0),
        Prod => (1, 0.0, 0.0),
        Mean => (2, 0.0, 0.0),
        Max => (3, 0.0, 0.0),
        Min => (4, 0.0, 0.0),
        ArgMax => (5, 0.0, 0.0),
        ArgMin => (6, 0.0, 0.0),
        Var(c) => (7, 0.0, c),
        Std(c) => (8, 0.0, c),
        All => (9, 0.0, 0.0),
        Any => (10, 0.0, 0.0),
        Norm(p) => (11, p, 0.0),
        LogSumExp => (12, 0.0, 0.0),
        CountNonzero => (13, 0.0, 0.0),
    }
}

/// The sub-layout of `l` over `dims` (in order), at offset `offset`.
fn sub(l: &Layout, dims: &[usize], offset: usize) -> Layout {
    Layout {
        shape: dims.iter().map(|&d| l.shape[d]).collect(),
        strides: dims.iter().map(|&d| l.strides[d]).collect(),
        offset,
    }
}

pub fn reduce(s: &CudaStorage, l: &Layout, op: ReduceOp, dims: &[usize]) -> Result<CudaStorage> {
    let out_dtype = op.output_dtype(s.dtype)?;
    let kept_dims: Vec<usize> = (0..l.ndim()).filter(|d| !dims.contains(d)).collect();
    let kept = sub(l, &kept_dims, l.offset);
    let red = sub(l, dims, 0);
    let (nout, nred) = (kept.numel(), red.numel());
    let out = CudaStorage::empty(s.gpu(), nout, out_dtype)?;
    if nout == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let name = format!("reduce_{}", suffix(s.dtype));
    let f = gpu.function(Source::Reduce, &name)?;
    let (kl, rl) = (merged(&[&kept])?.remove(0), merged(&[&red])?.remove(0));
    let (opc, p, corr) = code(op);
    let (nout64, nred64, inp, outp, dt) = (
        nout as i64,
        nred as i64,
        s.ptr(),
        out.ptr(),
        dtype_code(out_dtype),
    );
    // A block per output for few large groups, a thread per output otherwise.
    let team: i32 = if nred >= 2048 && nout < 4096 {
        THREADS as i32
    } else {
        1
    };
    let cfg = if team == 1 {
        grid(nout)
    } else {
        blocks(nout, THREADS)
    };
    let mut b = gpu.stream.launch_builder(&f);
    b.arg(&nout64)
        .arg(&nred64)
        .arg(&opc)
        .arg(&p)
        .arg(&corr)
        .arg(&kl)
        .arg(&rl)
        .arg(&inp)
        .arg(&outp)
        .arg(&dt)
        .arg(&team);
    // SAFETY: arguments as reduce_T.
    launched(&name, unsafe { b.launch(cfg) })?;
    Ok(out)
}

/// The lines along `dim`: their count and length, where each starts in the
/// input and in the contiguous output, and the step along each.
struct Lines {
    count: usize,
    len: usize,
    in_kept: Strided,
    in_step: i64,
    out_kept: Strided,
    out_step: i64,
}

fn lines(l: &Layout, dim: usize) -> Result<Lines> {
    let others: Vec<usize> = (0..l.ndim()).filter(|&d| d != dim).collect();
    let out = Layout::contiguous(&l.shape);
    let (ik, ok) = (sub(l, &others, l.offset), sub(&out, &others, 0));
    let ms = merged(&[&ik, &ok])?;
    Ok(Lines {
        count: ik.numel(),
        len: l.shape[dim],
        in_kept: ms[0],
        in_step: l.strides[dim] as i64,
        out_kept: ms[1],
        out_step: out.strides[dim] as i64,
    })
}

pub fn scan(s: &CudaStorage, l: &Layout, op: ScanOp, dim: usize) -> Result<CudaStorage> {
    let out_dtype = op.output_dtype(s.dtype);
    let out = CudaStorage::empty(s.gpu(), l.numel(), out_dtype)?;
    let ln = lines(l, dim)?;
    if l.numel() == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let name = format!("scan_{}", suffix(s.dtype));
    let (count, len, opc, inp, outp, dt) = (
        ln.count as i64,
        ln.len as i64,
        op as i32,
        s.ptr(),
        out.ptr(),
        dtype_code(out_dtype),
    );
    launch!(gpu, Source::Reduce, &name, ln.count;
        count, len, opc, ln.in_kept, ln.in_step, ln.out_kept, ln.out_step, inp, outp, dt)?;
    Ok(out)
}

/// cummax (`max`) or cummin along `dim`: values and int64 positions.
pub fn cum_extreme(
    s: &CudaStorage,
    l: &Layout,
    dim: usize,
    max: bool,
) -> Result<(CudaStorage, CudaStorage)> {
    let vals = CudaStorage::empty(s.gpu(), l.numel(), s.dtype)?;
    let pos = CudaStorage::empty(s.gpu(), l.numel(), DType::I64)?;
    let ln = lines(l, dim)?;
    if l.numel() == 0 {
        return Ok((vals, pos));
    }
    let gpu = s.gpu();
    let name = format!("cum_extreme_{}", suffix(s.dtype));
    let (count, len, mx, inp, vp, pp) = (
        ln.count as i64,
        ln.len as i64,
        max as i32,
        s.ptr(),
        vals.ptr(),
        pos.ptr(),
    );
    launch!(gpu, Source::Reduce, &name, ln.count;
        count, len, mx, ln.in_kept, ln.in_step, ln.out_kept, ln.out_step, inp, vp, pp)?;
    Ok((vals, pos))
}

pub fn softmax(s: &CudaStorage, l: &Layout, dim: usize, log: bool) -> Result<CudaStorage> {
    let out = CudaStorage::empty(s.gpu(), l.numel(), s.dtype)?;
    let ln = lines(l, dim)?;
    if l.numel() == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let name = format!("softmax_{}", suffix(s.dtype));
    let (count, len, lg, inp, outp) = (
        ln.count as i64,
        ln.len as i64,
        log as i32,
        s.ptr(),
        out.ptr(),
    );
    launch!(gpu, Source::Reduce, &name, ln.count;
        count, len, lg, ln.in_kept, ln.in_step, ln.out_kept, ln.out_step, inp, outp)?;
    Ok(out)
}
