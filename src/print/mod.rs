//! Everything the user sees printed: tensors, plain values, errors.

pub mod error;
pub mod number;
pub mod suggest;
pub mod tensor;
pub mod value;
