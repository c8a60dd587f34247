//! NumPy's `.npz`: a zip archive of `.npy` files, one per named array
//! (`np.savez` stores them, `np.savez_compressed` deflates them).

use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::npy;
use crate::error::{Result, io_err};
use crate::tensor::Tensor;

fn zip_err(e: impl std::fmt::Display) -> crate::error::Error {
    io_err(format!("bad .npz file: {e}"))
}

pub fn write(entries: &[(String, Tensor)], compressed: bool) -> Result<Vec<u8>> {
    let mut zw = ZipWriter::new(Cursor::new(Vec::new()));
    let method = if compressed {
        CompressionMethod::Deflated
    } else {
        CompressionMethod::Stored
    };
    let options = SimpleFileOptions::default()
        .compression_method(method)
        .large_file(true);
    for (name, t) in entries {
        let data = npy::encode(t)?;
        zw.start_file(format!("{name}.npy"), options)
            .map_err(zip_err)?;
        zw.write_all(&data).map_err(zip_err)?;
    }
    Ok(zw.finish().map_err(zip_err)?.into_inner())
}

/// Every array in the archive, in archive order, named without `.npy`.
pub fn read(bytes: &[u8]) -> Result<Vec<(String, Tensor)>> {
    let mut archive = ZipArchive::new(Cursor::new(bytes)).map_err(zip_err)?;
    let limit = crate::tensor::core::memory_limit();
    let mut out = Vec::with_capacity(archive.len());
    for i in 0..archive.len() {
        let mut f = archive.by_index(i).map_err(zip_err)?;
        let name = f
            .name()
            .map_err(zip_err)?
            .trim_end_matches(".npy")
            .to_string();
        // A deflated entry can claim any size: refuse before inflating it.
        if f.size() > limit {
            return Err(io_err(format!(
                "bad .npz file: {name} would inflate to {} bytes, more than memory allows",
                f.size()
            )));
        }
        let mut data = Vec::with_capacity(f.size() as usize);
        f.read_to_end(&mut data).map_err(zip_err)?;
        let t = npy::decode(&data).map_err(|e| io_err(format!("in {name}.npy: {}", e.message)))?;
        out.push((name, t));
    }
    Ok(out)
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn round_trip_stored_and_deflated() {
            let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &[3]);
            let b = Tensor::from_vec(vec![1i64, 2, 3, 4], &[2, 2]);
            for compressed in [false, true] {
                let bytes = write(
                    &[("a".into(), a.clone()), ("b".into(), b.clone())],
                    compressed,
                )
                .unwrap();
                let back = read(&bytes).unwrap();
                assert_eq!(back[0].0, "a");
                assert_eq!(back[1].1.shape(), &[2, 2]);
                assert_eq!(back[1].1.to_host_f64().unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
            }
            let bytes = write(&[("a".into(), a)], false).unwrap();
            assert_eq!(
                read(&bytes[..bytes.len() / 2]).unwrap_err().kind,
                crate::error::ErrorKind::Io
            );
        }
    }
}
