//! Tensor operations, one file per family. Each checks shapes, dtypes and devices,
//! decides the result's dtype and shape, and hands the loops to the backend.

pub mod arith;
pub mod arrange;
pub mod assign;
pub mod compare;
pub mod complex;
pub mod creation;
pub mod einsum;
pub mod elementwise;
pub mod fft;
mod getrf;
pub mod grouped;
pub mod histogram;
pub mod index;
pub mod join;
pub mod linalg;
pub mod linalg_composite;
pub mod linalg_solve;
pub mod lu;
mod lu_batch;
pub mod matmul;
pub mod matrix;
pub mod numeric;
mod potrf;
pub mod reduce;
mod row_major;
pub mod sampling;
pub mod scalar;
pub mod select;
pub mod sort;
pub mod special;
pub mod split;
pub mod stats;
pub mod strided;
pub mod update;
pub mod view;
