//! The tensor engine: dtypes, storage, layouts, promotion, broadcasting and ops.

pub mod core;
pub mod device;
pub mod dtype;
pub mod layout;
pub mod ops;
pub mod promote;
pub mod random;
pub mod shape;
pub mod storage;

pub use self::core::Tensor;
pub use device::Device;
pub use dtype::DType;
