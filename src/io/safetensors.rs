//! `.safetensors` (the format model weights ship in): a little-endian u64 header
//! length, a JSON header of names, dtypes, shapes and offsets, then the data.

use safetensors::tensor::{Dtype, SafeTensors, TensorView};

use super::bytes::{from_bytes, to_le_bytes};
use crate::error::{Result, io_err};
use crate::tensor::Tensor;
use crate::tensor::dtype::DType;

fn to_st(d: DType) -> Dtype {
    match d {
        // Refused by `write`: safetensors has no complex dtype.
        DType::C64 => Dtype::F32,
        DType::C128 => Dtype::F64,
        DType::Bool => Dtype::BOOL,
        DType::U8 => Dtype::U8,
        DType::I8 => Dtype::I8,
        DType::I16 => Dtype::I16,
        DType::I32 => Dtype::I32,
        DType::I64 => Dtype::I64,
        DType::F16 => Dtype::F16,
        DType::BF16 => Dtype::BF16,
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
    }
}

fn from_st(d: Dtype, name: &str) -> Result<DType> {
    Ok(match d {
        Dtype::BOOL => DType::Bool,
        Dtype::U8 => DType::U8,
        Dtype::I8 => DType::I8,
        Dtype::I16 => DType::I16,
        Dtype::I32 => DType::I32,
        Dtype::I64 => DType::I64,
        Dtype::F16 => DType::F16,
        Dtype::BF16 => DType::BF16,
        Dtype::F32 => DType::F32,
        Dtype::F64 => DType::F64,
        other => {
            return Err(io_err(format!(
                "tensor {name:?} has dtype {other:?}, which tsh does not have"
            ))
            .hint("tsh reads bool, uint8, int8/16/32/64, float16, bfloat16, float32 and float64"));
        }
    })
}

pub fn write(entries: &[(String, Tensor)]) -> Result<Vec<u8>> {
    let data: Vec<(String, DType, Vec<usize>, Vec<u8>)> = entries
        .iter()
        .map(|(n, t)| {
            if t.dtype().is_complex() {
                return Err(io_err(format!(
                    "tensor {n:?} is complex, and safetensors has no complex dtype"
                ))
                .hint("save torch.view_as_real(t) instead"));
            }
            Ok((
                n.clone(),
                t.dtype(),
                t.shape().to_vec(),
                to_le_bytes(&t.to_host()?),
            ))
        })
        .collect::<Result<_>>()?;
    let views = data
        .iter()
        .map(|(n, d, s, b)| {
            TensorView::new(to_st(*d), s.clone(), b)
                .map(|v| (n.as_str(), v))
                .map_err(|e| io_err(format!("cannot write tensor {n:?}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    safetensors::tensor::serialize(views, None)
        .map_err(|e| io_err(format!("cannot write .safetensors: {e}")))
}

/// Every tensor in the file, sorted by name.
pub fn read(bytes: &[u8]) -> Result<Vec<(String, Tensor)>> {
    let st = SafeTensors::deserialize(bytes)
        .map_err(|e| io_err(format!("bad .safetensors file: {e}")))?;
    let mut out = st
        .tensors()
        .into_iter()
        .map(|(name, view)| {
            let d = from_st(view.dtype(), &name)?;
            let storage = from_bytes(d, view.data(), false);
            Ok((
                name,
                Tensor::from_host(storage, view.shape(), crate::tensor::Device::Cpu)?,
            ))
        })
        .collect::<Result<Vec<_>>>()?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn round_trip_keeps_bfloat16() {
            let w = Tensor::from_vec(vec![1.5f32, -2.0, 3.25, 0.0], &[2, 2])
                .to_dtype(DType::BF16)
                .unwrap();
            let b = Tensor::from_vec(vec![true, false], &[2]);
            let bytes = write(&[("w".into(), w.clone()), ("b".into(), b)]).unwrap();
            let back = read(&bytes).unwrap();
            assert_eq!(back[0].0, "b");
            assert_eq!(back[1].1.dtype(), DType::BF16);
            assert_eq!(back[1].1.to_host_f64().unwrap(), w.to_host_f64().unwrap());
            let e = read(&bytes[..bytes.len() - 3]).unwrap_err();
            assert_eq!(e.kind, crate::error::ErrorKind::Io, "{e}");
            assert_eq!(
                read(b"garbage").unwrap_err().kind,
                crate::error::ErrorKind::Io
            );
        }
    }
}
