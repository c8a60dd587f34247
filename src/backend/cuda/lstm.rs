//! The fused LSTM cell on the device (kernels/elementwise.cu `lstm_cell_*`,
//! which take their activations from the element-wise ops' own functions,
//! as backend/cpu/lstm.rs does on the host).

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::kernels::{Source, Strided, suffix};
use crate::error::{Result, dtype_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;

fn float_pair(a: &CudaStorage, b: &CudaStorage) -> Result<()> {
    match (a.dtype, b.dtype) {
        (DType::F32, DType::F32) | (DType::F64, DType::F64) => Ok(()),
        _ => Err(dtype_err(
            "the fused LSTM cell takes float32 or float64 operands of one dtype",
        )),
    }
}

pub fn lstm_cell(
    g: &CudaStorage,
    l: &Layout,
    (c, cl): (&CudaStorage, &Layout),
) -> Result<(CudaStorage, CudaStorage)> {
    float_pair(g, c)?;
    let (b, h) = (l.shape[0], l.shape[1] / 4);
    let gpu = g.gpu();
    let out = CudaStorage::empty(gpu, 2 * b * h, g.dtype)?;
    let work = CudaStorage::empty(gpu, 4 * b * h, g.dtype)?;
    let (b64, h64, gl, cs) = (b as i64, h as i64, Strided::exact(l)?, Strided::exact(cl)?);
    let (gp, cp, op, wp) = (g.ptr(), c.ptr(), out.ptr(), work.ptr());
    let name = format!("lstm_cell_{}", suffix(g.dtype));
    launch!(gpu, Source::Elementwise, &name, b * h; b64, h64, gl, gp, cs, cp, op, wp)?;
    Ok((out, work))
}

pub fn lstm_cell_backward(
    d: &CudaStorage,
    l: &Layout,
    (c, cl): (&CudaStorage, &Layout),
    out: &CudaStorage,
    work: &CudaStorage,
) -> Result<(CudaStorage, CudaStorage)> {
    float_pair(d, c)?;
    float_pair(d, out)?;
    float_pair(d, work)?;
    let (b, h) = (l.shape[1], l.shape[2]);
    let gpu = d.gpu();
    let dg = CudaStorage::empty(gpu, 4 * b * h, d.dtype)?;
    let dc = CudaStorage::empty(gpu, b * h, d.dtype)?;
    let (b64, h64, dl, cs) = (b as i64, h as i64, Strided::exact(l)?, Strided::exact(cl)?);
    let (dp, cp, op, wp, gp, dcp) = (d.ptr(), c.ptr(), out.ptr(), work.ptr(), dg.ptr(), dc.ptr());
    let name = format!("lstm_cell_grad_{}", suffix(d.dtype));
    launch!(gpu, Source::Elementwise, &name, b * h;
        b64, h64, dl, dp, cs, cp, op, wp, gp, dcp)?;
    Ok((dg, dc))
}
