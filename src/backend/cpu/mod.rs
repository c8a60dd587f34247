//! The CPU backend: kernels over typed buffers and layouts. It knows nothing of
//! the language; the tensor layer has already checked shapes, dtypes and devices.

pub mod binary;
pub mod map;
pub mod matmul;
pub mod reduce;
pub mod unary;
