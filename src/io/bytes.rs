//! Tensor storage to and from little-endian bytes (the layout .npy and
//! .safetensors share), for every dtype.

use half::{bf16, f16};

use crate::backend::{Element, HostBuffer};
use crate::tensor::dtype::DType;

/// One element's bytes, little-endian.
pub trait LeBytes: Copy {
    const N: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! le_bytes {
    ($($t:ty),*) => {$(
        impl LeBytes for $t {
            const N: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(&b[..Self::N]);
                <$t>::from_le_bytes(a)
            }
        }
    )*};
}
le_bytes!(u8, i8, i16, i32, i64, f32, f64, f16, bf16);

impl LeBytes for bool {
    const N: usize = 1;
    fn put(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
    fn get(b: &[u8]) -> Self {
        b[0] != 0
    }
}

pub fn to_le_bytes(s: &HostBuffer) -> Vec<u8> {
    crate::with_storage!(s, v => {
        let mut out = Vec::with_capacity(std::mem::size_of_val(&v[..]));
        for &x in v.iter() {
            x.put(&mut out);
        }
        out
    })
}

/// Elements of `dtype` from `bytes` (whose length the caller checked), swapping
/// byte order first when the file is big-endian.
pub fn from_bytes(dtype: DType, bytes: &[u8], big_endian: bool) -> HostBuffer {
    crate::with_dtype!(dtype, T => {
        let n = <T as LeBytes>::N;
        let v: Vec<T> = bytes
            .chunks_exact(n)
            .map(|c| {
                if big_endian {
                    let mut r = [0u8; 8];
                    r[..n].copy_from_slice(c);
                    r[..n].reverse();
                    <T as LeBytes>::get(&r[..n])
                } else {
                    <T as LeBytes>::get(c)
                }
            })
            .collect();
        <T as Element>::wrap(v)
    })
}

#[doc(hidden)]
pub mod tests {
    use super::*;

    crate::unit_tests! {
        fn round_trip_every_dtype() {
            for d in crate::tensor::dtype::ALL_DTYPES {
                let t = crate::tensor::Tensor::from_vec(vec![1.0f64, 0.0, 2.0, 3.0, 0.0], &[5])
                    .to_dtype(d)
                    .unwrap();
                let s = t.to_host().unwrap();
                let b = to_le_bytes(&s);
                assert_eq!(b.len(), 5 * d.size(), "{d}");
                let back = from_bytes(d, &b, false);
                assert_eq!(to_le_bytes(&back), b, "{d}");
            }
            let be = [0u8, 0, 0, 1];
            assert_eq!(
                to_le_bytes(&from_bytes(DType::I32, &be, true)),
                vec![1, 0, 0, 0]
            );
        }
    }
}
