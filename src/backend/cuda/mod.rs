//! The CUDA backend's place in the engine. This build has no CUDA kernels yet:
//! `CudaStorage` cannot be made (it has no values), so every constructor answers
//! with a `device` error and no method can ever run. The CUDA issue fills it in.

use super::{BackendStorage, Distribution, HostBuffer, Scalar, Window};
use crate::error::{Error, Result, device_err};
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, ScanOp, TernaryOp, UnaryOp};
use crate::tensor::{DType, Device};

/// A type with no values: a CUDA buffer cannot exist in this build.
#[derive(Clone, Copy, Debug)]
enum Never {}

#[derive(Clone, Debug)]
pub struct CudaStorage {
    never: Never,
}

/// Why no CUDA buffer can be made.
pub fn unavailable(index: usize) -> Error {
    device_err(format!(
        "cannot use cuda:{index}: this tsh has no CUDA device available (CUDA tensors need an NVIDIA GPU and the CUDA backend)"
    ))
    .hint("keep the tensor on the cpu, or check :devices for what this machine has")
}

impl CudaStorage {
    pub fn from_host(_: HostBuffer, index: usize) -> Result<CudaStorage> {
        Err(unavailable(index))
    }
    pub fn full(index: usize, _: usize, _: DType, _: Scalar) -> Result<CudaStorage> {
        Err(unavailable(index))
    }
    pub fn arange(index: usize, _: Scalar, _: Scalar, _: usize, _: DType) -> Result<CudaStorage> {
        Err(unavailable(index))
    }
    pub fn linspace(index: usize, _: f64, _: f64, _: usize, _: DType) -> Result<CudaStorage> {
        Err(unavailable(index))
    }
    pub fn random(index: usize, _: Distribution, _: usize, _: DType) -> Result<CudaStorage> {
        Err(unavailable(index))
    }
}

impl BackendStorage for CudaStorage {
    fn dtype(&self) -> DType {
        match self.never {}
    }
    fn device(&self) -> Device {
        match self.never {}
    }
    fn len(&self) -> usize {
        match self.never {}
    }
    fn cast(&self, _: &Layout, _: DType) -> Result<Self> {
        match self.never {}
    }
    fn unary(&self, _: &Layout, _: UnaryOp) -> Result<Self> {
        match self.never {}
    }
    fn predicate(&self, _: &Layout, _: PredicateOp) -> Result<Self> {
        match self.never {}
    }
    fn binary(&self, _: &Layout, _: &Self, _: &Layout, _: BinaryOp) -> Result<Self> {
        match self.never {}
    }
    fn ternary(
        &self,
        _: &Layout,
        _: (&Self, &Layout),
        _: (&Self, &Layout),
        _: TernaryOp,
    ) -> Result<Self> {
        match self.never {}
    }
    fn reduce(&self, _: &Layout, _: ReduceOp, _: &[usize]) -> Result<Self> {
        match self.never {}
    }
    fn scan(&self, _: &Layout, _: ScanOp, _: usize) -> Result<Self> {
        match self.never {}
    }
    fn softmax(&self, _: &Layout, _: usize, _: bool) -> Result<Self> {
        match self.never {}
    }
    fn matmul(&self, _: &Layout, _: &Self, _: &Layout) -> Result<Self> {
        match self.never {}
    }
    fn index(&self, _: &Layout, _: &[usize], _: &[(&Self, &Layout)], _: usize) -> Result<Self> {
        match self.never {}
    }
    fn index_put_into(
        &mut self,
        _: &Layout,
        _: &[usize],
        _: &[(&Self, &Layout)],
        _: usize,
        _: (&Self, &Layout),
        _: bool,
    ) -> Result<()> {
        match self.never {}
    }
    fn copy_into(&mut self, _: &Layout, _: &Self, _: &Layout) -> Result<()> {
        match self.never {}
    }
    fn nonzero(&self, _: &Layout) -> Result<Self> {
        match self.never {}
    }
    fn sort(&self, _: &Layout, _: usize, _: bool) -> Result<(Self, Self)> {
        match self.never {}
    }
    fn unique(&self, _: &Layout) -> Result<(Self, Self, Self)> {
        match self.never {}
    }
    fn unfold(&self, _: &Layout, _: &Window, _: f64) -> Result<Self> {
        match self.never {}
    }
    fn fold(&self, _: &Layout, _: &Window, _: usize, _: [usize; 2]) -> Result<Self> {
        match self.never {}
    }
    fn to_host(&self, _: &Layout) -> Result<HostBuffer> {
        match self.never {}
    }
}
