//! Compute backends. Only the CPU exists so far; CUDA tensors are refused with a
//! `device` error by the tensor layer until the CUDA backend lands.

pub mod cpu;
