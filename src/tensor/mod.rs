//! The tensor engine: dtypes, layouts, promotion, broadcasting, the op rows and
//! the ops, which check and decide everything, then hand the loops to a backend.

pub mod complex;
pub mod core;
pub mod device;
pub mod dtype;
pub mod layout;
pub mod op;
pub mod ops;
pub mod promote;
pub mod quantized;
pub mod shape;
pub mod sparse;

pub use self::core::Tensor;
pub use device::Device;
pub use dtype::DType;
