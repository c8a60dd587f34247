//! PyTorch's own file format (torch.save's zip of data.pkl and storages):
//! tensors to and from the checkpoint data model of `ptfile`.

use super::bytes::{from_bytes, to_le_bytes};
use super::ptfile::{self, DType as PtDType, TensorData};
use crate::error::{Result, io_err};
use crate::tensor::{DType, Device, Tensor};

pub use super::ptfile::{PyObj, is_torch_zip};

fn pt_dtype(d: DType) -> PtDType {
    match d {
        DType::F32 => PtDType::F32,
        DType::F64 => PtDType::F64,
        DType::F16 => PtDType::F16,
        DType::BF16 => PtDType::BF16,
        DType::I64 => PtDType::I64,
        DType::I32 => PtDType::I32,
        DType::I16 => PtDType::I16,
        DType::I8 => PtDType::I8,
        DType::U8 => PtDType::U8,
        DType::Bool => PtDType::Bool,
        DType::C64 => PtDType::C64,
        DType::C128 => PtDType::C128,
    }
}

fn our_dtype(d: PtDType) -> DType {
    match d {
        PtDType::F32 => DType::F32,
        PtDType::F64 => DType::F64,
        PtDType::F16 => DType::F16,
        PtDType::BF16 => DType::BF16,
        PtDType::I64 => DType::I64,
        PtDType::I32 => DType::I32,
        PtDType::I16 => DType::I16,
        PtDType::I8 => DType::I8,
        PtDType::U8 => DType::U8,
        PtDType::Bool => DType::Bool,
        PtDType::C64 => DType::C64,
        PtDType::C128 => DType::C128,
    }
}

/// A tensor as a checkpoint holds it: contiguous little-endian bytes (a
/// tensor on a GPU is saved from host memory, as torch.save copies it).
pub fn tensor_data(t: &Tensor, parameter: bool) -> Result<TensorData> {
    Ok(TensorData {
        dtype: pt_dtype(t.dtype()),
        shape: t.shape().to_vec(),
        data: to_le_bytes(&t.to_host()?),
        requires_grad: t.requires_grad() && t.is_leaf(),
        parameter,
    })
}

/// A checkpoint's tensor, on the CPU (as torch.load's map_location='cpu').
pub fn tensor_of(d: &TensorData) -> Result<Tensor> {
    let dtype = our_dtype(d.dtype);
    let host = from_bytes(dtype, &d.data, false);
    let t = if dtype.is_complex() {
        Tensor::complex_from_host(host, &d.shape, Device::Cpu, dtype)?
    } else {
        Tensor::from_host(host, &d.shape, Device::Cpu)?
    };
    if d.requires_grad {
        t.set_requires_grad(true);
    }
    Ok(t)
}

pub fn write(obj: &PyObj) -> Result<Vec<u8>> {
    ptfile::write(obj).map_err(io_err)
}

pub fn read(bytes: &[u8]) -> Result<PyObj> {
    ptfile::read(bytes).map_err(|e| {
        io_err(e).hint("tsh reads tensors, state_dicts and nested dicts/lists of them (torch.load's weights_only=True)")
    })
}
