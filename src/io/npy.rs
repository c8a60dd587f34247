//! NumPy's `.npy` format (versions 1.0–3.0): a magic string, a header that is a
//! Python dict literal (`descr`, `fortran_order`, `shape`), then the raw data.

use super::bytes::{from_bytes, to_le_bytes};
use crate::error::{Result, io_err};
use crate::tensor::Tensor;
use crate::tensor::dtype::DType;

const MAGIC: &[u8] = b"\x93NUMPY";

fn descr(d: DType) -> Result<&'static str> {
    Ok(match d {
        DType::Bool => "|b1",
        DType::U8 => "|u1",
        DType::I8 => "|i1",
        DType::I16 => "<i2",
        DType::I32 => "<i4",
        DType::I64 => "<i8",
        DType::F16 => "<f2",
        DType::F32 => "<f4",
        DType::F64 => "<f8",
        DType::C64 | DType::C128 => {
            return Err(io_err("tsh cannot save complex tensors as .npy yet")
                .hint("save torch.view_as_real(t) instead"));
        }
        DType::BF16 => {
            return Err(io_err(
                "NumPy has no bfloat16, so a bfloat16 tensor cannot be saved as .npy",
            )
            .hint("save t.float() instead, or use .safetensors, which keeps bfloat16"));
        }
    })
}

/// The dtype and byte order a `descr` string names.
fn parse_descr(s: &str) -> Result<(DType, bool)> {
    let (order, code) = match s.chars().next() {
        Some(c @ ('<' | '>' | '|' | '=')) => (c, &s[1..]),
        _ => ('|', s),
    };
    let d = match code {
        "b1" | "?" => DType::Bool,
        "u1" => DType::U8,
        "i1" => DType::I8,
        "i2" => DType::I16,
        "i4" => DType::I32,
        "i8" => DType::I64,
        "f2" => DType::F16,
        "f4" => DType::F32,
        "f8" => DType::F64,
        other => {
            return Err(io_err(format!(
                "unsupported .npy dtype {s:?}{}",
                match other {
                    "u2" | "u4" | "u8" => " (tsh has no uint16/32/64, as PyTorch's classic dtypes)",
                    "c8" | "c16" => " (tsh has no complex numbers)",
                    _ => "",
                }
            ))
            .hint("convert it in NumPy first, e.g. a.astype(np.int64) or a.astype(np.float32)"));
        }
    };
    Ok((d, order == '>'))
}

pub fn encode(t: &Tensor) -> Result<Vec<u8>> {
    let shape: Vec<String> = t.shape().iter().map(|d| d.to_string()).collect();
    let shape = match shape.len() {
        1 => format!("({},)", shape[0]),
        _ => format!("({})", shape.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
        descr(t.dtype())?
    );
    // The data starts at a multiple of 64 bytes; the header ends with a newline.
    let unpadded = MAGIC.len() + 2 + 2 + header.len() + 1;
    header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(MAGIC.len() + 4 + header.len() + t.numel() * t.dtype().size());
    out.extend_from_slice(MAGIC);
    let (major, len_bytes) = if header.len() <= u16::MAX as usize {
        (1u8, 2)
    } else {
        (2u8, 4)
    };
    out.extend_from_slice(&[major, 0]);
    if len_bytes == 2 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&to_le_bytes(&t.to_host()?));
    Ok(out)
}

fn value_after<'a>(header: &'a str, key: &str) -> Result<&'a str> {
    let at = header
        .find(&format!("'{key}'"))
        .or_else(|| header.find(&format!("\"{key}\"")))
        .ok_or_else(|| io_err(format!("bad .npy header: no {key:?} in {header:?}")))?;
    let rest = &header[at + key.len() + 2..];
    let rest = rest.trim_start();
    rest.strip_prefix(':')
        .map(str::trim_start)
        .ok_or_else(|| io_err(format!("bad .npy header near {key:?}")))
}

fn parse_header(header: &str) -> Result<(DType, bool, bool, Vec<usize>)> {
    let d = value_after(header, "descr")?;
    let quote = d
        .chars()
        .next()
        .filter(|c| *c == '\'' || *c == '"')
        .ok_or_else(|| {
            io_err("structured .npy arrays (records) are not supported")
                .hint("save one plain array per field")
        })?;
    let end = d[1..]
        .find(quote)
        .ok_or_else(|| io_err("bad .npy header: unterminated descr"))?;
    let (dtype, big) = parse_descr(&d[1..1 + end])?;
    let f = value_after(header, "fortran_order")?;
    let fortran = if f.starts_with("True") {
        true
    } else if f.starts_with("False") {
        false
    } else {
        return Err(io_err(
            "bad .npy header: fortran_order is neither True nor False",
        ));
    };
    let s = value_after(header, "shape")?;
    let close = s
        .find(')')
        .filter(|_| s.starts_with('('))
        .ok_or_else(|| io_err("bad .npy header: shape is not a tuple"))?;
    let shape = s[1..close]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.trim_end_matches('L')
                .parse::<usize>()
                .map_err(|_| io_err(format!("bad .npy header: {p:?} is not a dimension")))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((dtype, big, fortran, shape))
}

pub fn decode(bytes: &[u8]) -> Result<Tensor> {
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err(io_err(
            "not a .npy file (it does not start with \\x93NUMPY)",
        ));
    }
    let (major, header_start, header_len): (u8, usize, usize) = match bytes[6] {
        1 => (1, 10, u16::from_le_bytes([bytes[8], bytes[9]]) as usize),
        2 | 3 if bytes.len() >= 12 => (
            bytes[6],
            12,
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
        ),
        v => return Err(io_err(format!("unsupported .npy version {v}.{}", bytes[7]))),
    };
    let data_start = header_start
        .checked_add(header_len)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| io_err("truncated .npy file: the header runs past the end"))?;
    let header = match major {
        3 => String::from_utf8(bytes[header_start..data_start].to_vec()).ok(),
        _ => Some(
            bytes[header_start..data_start]
                .iter()
                .map(|&b| b as char)
                .collect(),
        ),
    }
    .ok_or_else(|| io_err("bad .npy header: not text"))?;
    let (dtype, big, fortran, shape) = parse_header(&header)?;
    let numel = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| io_err("bad .npy header: the shape's size overflows"))?;
    let want = numel
        .checked_mul(dtype.size())
        .ok_or_else(|| io_err("bad .npy header: the data size overflows"))?;
    let have = bytes.len() - data_start;
    if have < want {
        return Err(io_err(format!(
            "truncated .npy file: shape {} of {} needs {want} bytes of data, the file has {have}",
            crate::tensor::shape::fmt_shape(&shape),
            dtype
        )));
    }
    let storage = from_bytes(dtype, &bytes[data_start..data_start + want], big);
    if fortran && shape.len() > 1 {
        // Column-major data is the row-major data of the reversed shape, transposed back.
        let reversed: Vec<usize> = shape.iter().rev().copied().collect();
        let t = Tensor::from_host(storage, &reversed, crate::tensor::Device::Cpu)?;
        let dims: Vec<i64> = (0..shape.len() as i64).rev().collect();
        return crate::tensor::ops::view::permute(&t, &dims)?.contiguous();
    }
    Tensor::from_host(storage, &shape, crate::tensor::Device::Cpu)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn header_is_padded_and_round_trips() {
            let t = Tensor::from_vec(vec![1.5f32, 2.0, -3.0, 4.0, 5.0, 6.0], &[2, 3]);
            let b = encode(&t).unwrap();
            let header_len = u16::from_le_bytes([b[8], b[9]]) as usize;
            assert_eq!((10 + header_len) % 64, 0);
            assert!(String::from_utf8_lossy(&b[10..10 + header_len]).contains("'shape': (2, 3)"));
            let back = decode(&b).unwrap();
            assert_eq!(back.shape(), &[2, 3]);
            assert_eq!(back.to_host_f64().unwrap(), t.to_host_f64().unwrap());
        }

        fn fortran_order_and_big_endian() {
            // [[1, 2, 3], [4, 5, 6]] stored column-major, big-endian int32.
            let header = "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }";
            let mut b = MAGIC.to_vec();
            b.extend_from_slice(&[1, 0]);
            b.extend_from_slice(&(header.len() as u16).to_le_bytes());
            b.extend_from_slice(header.as_bytes());
            for v in [1i32, 4, 2, 5, 3, 6] {
                b.extend_from_slice(&v.to_be_bytes());
            }
            let t = decode(&b).unwrap();
            assert_eq!(t.dtype(), DType::I32);
            assert_eq!(t.to_host_f64().unwrap(), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        }

        fn bad_files_are_io_errors() {
            let t = Tensor::from_vec(vec![1i64, 2, 3], &[3]);
            let b = encode(&t).unwrap();
            for cut in [0, 5, 20, b.len() - 1] {
                let e = decode(&b[..cut]).unwrap_err();
                assert_eq!(e.kind, crate::error::ErrorKind::Io, "{e}");
            }
            let mut c = b.clone();
            let at = c.windows(3).position(|w| w == b"<i8").unwrap();
            c[at + 1] = b'c';
            let e = decode(&c).unwrap_err();
            assert!(e.message.contains("complex"), "{e}");
        }
    }
}
