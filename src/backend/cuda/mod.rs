//! The CUDA backend: buffers in device memory (cached by size class), the
//! kernels of kernels/*.cu compiled by NVRTC, cuBLAS for float matrix products.
//! All work is queued on one stream per device; the host waits only when it
//! needs a value (a copy to the host, an error flag a kernel raised).
//!
//! Without a driver nothing here is reached: `device::check` answers with a
//! `device` error before a buffer is ever made.

/// Launch `$name` of `$source` with one thread per element of `$n` (nothing
/// for none), the arguments pushed in order (places or locals: the launch
/// borrows them, so a computed value is bound to a local first). The arguments
/// are the kernel's C parameters, in order and with their types: that is what
/// makes it safe.
macro_rules! launch {
    ($gpu:expr, $source:expr, $name:expr, $n:expr; $($arg:expr),+ $(,)?) => {{
        let (name, n): (&str, usize) = ($name, $n);
        if n == 0 {
            Ok(())
        } else {
            let f = $gpu.function($source, name)?;
            let mut b = $gpu.stream.launch_builder(&f);
            $(b.arg(&$arg);)+
            // SAFETY: the caller lists the kernel's parameters (see above).
            $crate::backend::cuda::kernels::launched(name, unsafe {
                b.launch($crate::backend::cuda::kernels::grid(n))
            })
        }
    }};
}

mod alloc;
pub mod device;
mod elementwise;
mod index;
pub mod kernels;
mod lstm;
mod matmul;
mod norm;
pub mod random;
mod reduce;

use std::sync::Arc;

use cudarc::driver::PushKernelArg;

use super::{AvgWindows, BackendStorage, Distribution, HostBuffer, Scalar, Window};
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, ScanOp, TernaryOp, UnaryOp};
use crate::tensor::{DType, Device};
use alloc::DeviceBuffer;
use device::{Gpu, driver_err};
use kernels::{Source, suffix};

pub use alloc::{empty_cache, stats as memory_stats};
pub use device::{check, device_count, gpu, list, synchronize, synchronize_open};

/// `len` elements of `dtype` in device memory.
#[derive(Debug)]
pub struct CudaStorage {
    buf: DeviceBuffer,
    dtype: DType,
    len: usize,
}

/// Why `cuda:index` cannot be used (the error every CUDA request gives then).
pub fn unavailable(index: usize) -> crate::error::Error {
    match check(index) {
        Err(e) => e,
        Ok(()) => crate::error::device_err(format!("cuda:{index} is available")),
    }
}

impl CudaStorage {
    /// Uninitialised room for `len` elements (every caller writes them all).
    pub(crate) fn empty(gpu: &Arc<Gpu>, len: usize, dtype: DType) -> Result<CudaStorage> {
        Ok(CudaStorage {
            buf: DeviceBuffer::new(gpu, len * dtype.size())?,
            dtype,
            len,
        })
    }

    pub(crate) fn gpu(&self) -> &Arc<Gpu> {
        &self.buf.gpu
    }

    /// The device address of the first element.
    pub(crate) fn ptr(&self) -> u64 {
        self.buf.ptr()
    }

    pub fn from_host(h: HostBuffer, index: usize) -> Result<CudaStorage> {
        let gpu = device::gpu(index)?;
        let dtype = h.dtype();
        let len = h.len();
        let mut out = CudaStorage::empty(&gpu, len, dtype)?;
        out.write_bytes(host_bytes(&h))?;
        Ok(out)
    }

    /// Copy `bytes` to the start of the buffer.
    pub(crate) fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        if bytes.is_empty() {
            return Ok(());
        }
        let stream = self.gpu().stream.clone();
        let mut view = self.buf.slice_mut().slice_mut(0..bytes.len());
        stream
            .memcpy_htod(bytes, &mut view)
            .map_err(|e| driver_err("a copy to the device", e))
    }

    pub fn full(index: usize, n: usize, dtype: DType, value: Scalar) -> Result<CudaStorage> {
        let gpu = device::gpu(index)?;
        let out = CudaStorage::empty(&gpu, n, dtype)?;
        let (n64, op) = (n as i64, out.ptr());
        let name = format!("fill_{}", suffix(dtype));
        launch!(gpu, Source::Copy, &name, n; n64, value.f, value.i, op)?;
        Ok(out)
    }

    /// torch.cat's result (see Storage::concat): each part copied once into
    /// its columns of an uninitialised buffer, which the parts fill.
    pub fn concat(
        parts: &[(&CudaStorage, usize, usize)],
        runs: &[usize],
        outer: usize,
        dtype: DType,
    ) -> Result<CudaStorage> {
        let Some(&(first, _, _)) = parts.first() else {
            return Err(crate::error::value_err(
                "internal: cat of no parts reached the backend",
            ));
        };
        let width: usize = runs.iter().sum();
        let mut out = CudaStorage::empty(first.gpu(), outer * width, dtype)?;
        let mut at = 0;
        for (&(s, offset, stride), &run) in parts.iter().zip(runs) {
            let dst = Layout {
                shape: smallvec::smallvec![outer, run],
                strides: smallvec::smallvec![width, 1],
                offset: at,
            };
            let src = Layout {
                shape: smallvec::smallvec![outer, run],
                strides: smallvec::smallvec![stride, 1],
                offset,
            };
            out.copy_into(&dst, s, &src)?;
            at += run;
        }
        Ok(out)
    }

    pub fn arange(
        index: usize,
        start: Scalar,
        step: Scalar,
        n: usize,
        dtype: DType,
    ) -> Result<CudaStorage> {
        let gpu = device::gpu(index)?;
        let out = CudaStorage::empty(&gpu, n, dtype)?;
        let (n64, op) = (n as i64, out.ptr());
        let name = format!("arange_{}", suffix(dtype));
        launch!(gpu, Source::Copy, &name, n; n64, start.f, step.f, start.i, step.i, op)?;
        Ok(out)
    }

    pub fn linspace(
        index: usize,
        start: f64,
        end: f64,
        n: usize,
        dtype: DType,
    ) -> Result<CudaStorage> {
        let gpu = device::gpu(index)?;
        let out = CudaStorage::empty(&gpu, n, dtype)?;
        let (n64, f64_math, op) = (n as i64, (dtype == DType::F64) as i32, out.ptr());
        let name = format!("linspace_{}", suffix(dtype));
        launch!(gpu, Source::Copy, &name, n; n64, start, end, f64_math, op)?;
        Ok(out)
    }

    pub fn random(index: usize, dist: Distribution, n: usize, dtype: DType) -> Result<CudaStorage> {
        random::fill(&device::gpu(index)?, dist, n, dtype)
    }

    /// The elements `l` describes, copied to a fresh contiguous buffer.
    pub(crate) fn gather(&self, l: &Layout) -> Result<CudaStorage> {
        elementwise::cast(self, l, self.dtype)
    }
}

/// A host buffer's elements as bytes.
fn host_bytes(h: &HostBuffer) -> &[u8] {
    crate::with_storage!(h, v => {
        // SAFETY: plain-old-data elements, viewed as the bytes they occupy.
        unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(&v[..])) }
    })
}

/// `len` elements of `dtype` read from device memory at `src`.
fn host_from_device(gpu: &Gpu, src: &CudaStorage, offset: usize, len: usize) -> Result<HostBuffer> {
    let dtype = src.dtype;
    crate::with_dtype!(dtype, T => {
        let mut v: Vec<T> = Vec::with_capacity(len);
        if len > 0 {
            let size = dtype.size();
            let view = src.buf.slice().slice(offset * size..(offset + len) * size);
            // SAFETY: the copy below writes all len * size bytes before set_len,
            // and the device holds valid values of T (kernels write only those).
            let bytes = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), len * size) };
            gpu.stream
                .memcpy_dtoh(&view, bytes)
                .map_err(|e| driver_err("a copy to the host", e))?;
            gpu.stream.synchronize().map_err(|e| driver_err("a copy to the host", e))?;
            unsafe { v.set_len(len) };
        }
        Ok(<T as crate::backend::Element>::wrap(v))
    })
}

impl BackendStorage for CudaStorage {
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn device(&self) -> Device {
        Device::Cuda(self.gpu().index)
    }
    fn len(&self) -> usize {
        self.len
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        elementwise::cast(self, l, dtype)
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        // bitwise_not of bools is logical not (the i64 path would flip every bit).
        if op == UnaryOp::BitwiseNot && self.dtype == DType::Bool {
            return self.predicate(l, PredicateOp::LogicalNot);
        }
        elementwise::unary(self, l, op)
    }
    fn predicate(&self, l: &Layout, op: PredicateOp) -> Result<Self> {
        elementwise::predicate(self, l, op)
    }
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self> {
        elementwise::binary(self, l, rhs, rl, op)
    }
    fn ternary(
        &self,
        l: &Layout,
        b: (&Self, &Layout),
        c: (&Self, &Layout),
        op: TernaryOp,
    ) -> Result<Self> {
        elementwise::ternary(self, l, b, c, op)
    }
    fn reduce(&self, l: &Layout, op: ReduceOp, dims: &[usize]) -> Result<Self> {
        reduce::reduce(self, l, op, dims)
    }
    fn cum_extreme(&self, l: &Layout, dim: usize, max: bool) -> Result<(Self, Self)> {
        reduce::cum_extreme(self, l, dim, max)
    }
    fn scan(&self, l: &Layout, op: ScanOp, dim: usize) -> Result<Self> {
        reduce::scan(self, l, op, dim)
    }
    fn softmax(&self, l: &Layout, dim: usize, log: bool) -> Result<Self> {
        reduce::softmax(self, l, dim, log)
    }
    fn matmul(&self, l: &Layout, rhs: &Self, rl: &Layout) -> Result<Self> {
        matmul::matmul(self, l, rhs, rl)
    }
    fn index(
        &self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Self, &Layout)],
        insert_at: usize,
    ) -> Result<Self> {
        index::index(self, l, dims, indices, insert_at)
    }
    fn gather(&self, l: &Layout, dim: usize, index: &Self, il: &Layout) -> Result<Self> {
        index::gather(self, l, dim, index, il)
    }
    fn index_put_into(
        &mut self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Self, &Layout)],
        insert_at: usize,
        src: (&Self, &Layout),
        accumulate: bool,
    ) -> Result<()> {
        index::index_put_into(self, l, dims, indices, insert_at, src, accumulate)
    }
    fn scatter_into(
        &mut self,
        l: &Layout,
        dim: usize,
        index: (&Self, &Layout),
        src: (&Self, &Layout),
        accumulate: bool,
    ) -> Result<()> {
        index::scatter_into(self, l, dim, index, src, accumulate)
    }
    fn copy_into(&mut self, l: &Layout, src: &Self, sl: &Layout) -> Result<()> {
        elementwise::copy_into(self, l, src, sl)
    }
    fn flip(&self, l: &Layout, dims: &[usize]) -> Result<Self> {
        elementwise::flip(self, l, dims)
    }
    fn nan_to_num(&self, l: &Layout, with: [f64; 3]) -> Result<Self> {
        elementwise::nan_to_num(self, l, with)
    }
    fn nonzero(&self, l: &Layout) -> Result<Self> {
        index::nonzero(self, l)
    }
    fn sort(&self, l: &Layout, dim: usize, descending: bool, k: usize) -> Result<(Self, Self)> {
        index::sort(self, l, dim, descending, k)
    }
    fn kth(&self, l: &Layout, dim: usize, k: usize) -> Result<(Self, Self)> {
        index::kth(self, l, dim, k)
    }
    fn unique(&self, l: &Layout) -> Result<(Self, Self, Self)> {
        index::unique(self, l)
    }
    fn unfold(&self, l: &Layout, w: &Window, pad: f64) -> Result<Self> {
        matmul::unfold(self, l, w, pad)
    }
    fn fold(&self, l: &Layout, w: &Window, channels: usize, hw: [usize; 2]) -> Result<Self> {
        matmul::fold(self, l, w, channels, hw)
    }
    fn layer_norm(
        &self,
        l: &Layout,
        w: Option<(&Self, &Layout)>,
        b: Option<(&Self, &Layout)>,
        eps: f64,
    ) -> Result<(Self, Self, Self)> {
        norm::layer_norm(self, l, w, b, eps)
    }
    fn layer_norm_backward(
        &self,
        l: &Layout,
        x: (&Self, &Layout),
        stats: (&Self, &Self),
        w: Option<(&Self, &Layout)>,
    ) -> Result<(Self, Self, Self)> {
        norm::layer_norm_backward(self, l, x, stats, w)
    }
    fn batch_norm(
        &self,
        l: &Layout,
        stats: Option<(&Self, &Self)>,
        w: Option<&Self>,
        b: Option<&Self>,
        eps: f64,
    ) -> Result<(Self, Self, Self)> {
        norm::batch_norm(self, l, stats, w, b, eps)
    }
    fn batch_norm_backward(
        &self,
        l: &Layout,
        x: (&Self, &Layout),
        stats: (&Self, &Self),
        w: Option<&Self>,
        eps_training: (f64, bool),
    ) -> Result<(Self, Self, Self)> {
        norm::batch_norm_backward(self, l, x, stats, w, eps_training)
    }
    fn lstm_cell(&self, l: &Layout, cx: (&Self, &Layout)) -> Result<(Self, Self)> {
        lstm::lstm_cell(self, l, cx)
    }
    fn lstm_cell_backward(
        &self,
        l: &Layout,
        cx: (&Self, &Layout),
        out: &Self,
        work: &Self,
    ) -> Result<(Self, Self)> {
        lstm::lstm_cell_backward(self, l, cx, out, work)
    }
    fn max_pool(&self, l: &Layout, w: &Window) -> Result<(Self, Self)> {
        matmul::max_pool(self, l, w)
    }
    fn avg_pool(&self, l: &Layout, a: &AvgWindows) -> Result<Self> {
        matmul::avg_pool(self, l, a)
    }
    fn avg_pool_backward(&self, l: &Layout, a: &AvgWindows, hw: [usize; 2]) -> Result<Self> {
        matmul::avg_pool_backward(self, l, a, hw)
    }
    fn max_pool_backward(
        &self,
        l: &Layout,
        idx: &Self,
        il: &Layout,
        w: &Window,
        hw: [usize; 2],
    ) -> Result<Self> {
        matmul::max_pool_backward(self, l, idx, il, w, hw)
    }
    fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        if l.is_contiguous() && l.offset + l.numel() <= self.len {
            return host_from_device(self.gpu(), self, l.offset, l.numel());
        }
        let c = self.gather(l)?;
        host_from_device(self.gpu(), &c, 0, c.len)
    }
}
