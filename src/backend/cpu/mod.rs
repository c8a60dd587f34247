//! The CPU backend: typed buffers in host memory, kernels over layouts, the
//! kernel threads (`crate::threads`) for large loops and `gemm` for matrix
//! products. It knows nothing of the
//! language; the tensor layer has already checked shapes, dtypes and devices.

mod assign;
pub(crate) mod avg_pool;
mod batch_norm;
#[cfg(target_arch = "x86_64")]
pub(crate) mod bf16_amx;
pub(crate) mod bf16_gemm;
mod bf16_rate;
pub(crate) mod cascade;
mod cast;
mod column_folds;
pub mod conv;
pub(crate) mod conv_direct;
mod elem;
pub(crate) mod elementwise;
pub(crate) mod exp_f64;
mod extrema;
mod flip;
mod float_folds;
pub(crate) mod gemv;
pub(crate) mod half_blocks;
mod index;
mod int_folds;
mod join;
pub mod kernels;
mod lines;
pub(crate) mod ln_avx512;
mod lstm;
pub(crate) mod mathfun;
pub(crate) mod matmul;
mod norm;
mod pool;
pub mod program;
pub mod random;
mod ranges;
mod reduce;
pub(crate) mod row_copy;
pub(crate) mod rows;
mod scatter;
mod scratch;
pub mod simd;
mod softmax;
pub(crate) mod sort;
pub(crate) mod split;
pub(crate) mod strided;
mod transpose;
pub(crate) mod window;

pub use elem::{CpuStorage, Element};
pub use join::concat;

use super::{AvgWindows, BackendStorage, HostBuffer, Scalar, Window};
use crate::error::Result;
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, ScanOp, TernaryOp, UnaryOp};
use crate::tensor::{DType, Device};

impl CpuStorage {
    /// `self = self op rhs` over the contiguous layout `l` (rhs laid out in
    /// its shape, in self's dtype), in place.
    pub fn binary_assign(
        &mut self,
        l: &Layout,
        rhs: &Self,
        rl: &Layout,
        op: BinaryOp,
    ) -> Result<()> {
        elementwise::check_integer_op(op, self, rhs, rl)?;
        assign::binary_assign(self, l, rhs, rl, &kernels::binary_kernels(op))
    }

    pub fn full(n: usize, dtype: DType, value: Scalar) -> CpuStorage {
        crate::with_dtype!(dtype, T => {
            // `<T as Element>`: half's own inherent from_f64 would shadow the trait's.
            let x = if dtype.is_float() {
                <T as Element>::from_f64(value.f)
            } else {
                <T as Element>::from_i64(value.i)
            };
            // Block by block, on every core when long (a 4 MB zeros was
            // one memset on one core, half PyTorch's speed).
            T::wrap(strided::fill_blocks(n, &|_, dst| {
                for o in dst {
                    o.write(x);
                }
            }))
        })
    }

    /// `start + i * step` for i in 0..n, computed in f64 for floats and i64 for
    /// integers (as PyTorch's arange).
    pub fn arange(start: Scalar, step: Scalar, n: usize, dtype: DType) -> CpuStorage {
        // Written in the dtype, block by block (in parallel when long).
        crate::with_dtype!(dtype, T => T::wrap(if dtype.is_float() {
            strided::fill_blocks(n, &|first, dst| {
                for (i, o) in (first..).zip(dst.iter_mut()) {
                    o.write(<T as Element>::from_f64(start.f + i as f64 * step.f));
                }
            })
        } else {
            strided::fill_blocks(n, &|first, dst| {
                for (i, o) in (first as i64..).zip(dst.iter_mut()) {
                    o.write(<T as Element>::from_i64(start.i.wrapping_add(i.wrapping_mul(step.i))));
                }
            })
        }))
    }

    /// PyTorch's linspace, digit for digit: from both ends, `start + step * i`
    /// for the first half and `end - step * (n - 1 - i)` for the rest, each one
    /// fused multiply-add (PyTorch's compiled kernel contracts them). Float64
    /// computes in f64; the other floats in f32 from ends rounded to their dtype;
    /// integers in f64 from integer ends, truncated.
    pub fn linspace(start: f64, end: f64, n: usize, dtype: DType) -> CpuStorage {
        let last = n.saturating_sub(1).max(1);
        if dtype == DType::F64 {
            let step = (end - start) / last as f64;
            return CpuStorage::F64(ranges::linspace(start, end, step, n));
        }
        if dtype.is_float() {
            let round = |x: f64| CpuStorage::from_f64s(&[x], dtype).get_f64(0) as f32;
            let (s, e) = (round(start), round(end));
            let v = CpuStorage::F32(ranges::linspace(s, e, (e - s) / last as f32, n));
            if dtype == DType::F32 {
                return v;
            }
            // float16 and bfloat16 round once from the float32 values.
            return cast::cast(&v, &Layout::contiguous(&[n]), dtype);
        }
        let (s, e) = (start.trunc(), end.trunc());
        let v: Vec<i64> = ranges::linspace(s, e, (e - s) / last as f64, n)
            .into_iter()
            .map(|x| x as i64)
            .collect();
        CpuStorage::from_i64s(&v, dtype)
    }
}

impl BackendStorage for CpuStorage {
    fn dtype(&self) -> DType {
        CpuStorage::dtype(self)
    }
    fn device(&self) -> Device {
        Device::Cpu
    }
    fn len(&self) -> usize {
        CpuStorage::len(self)
    }
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self> {
        Ok(cast::cast(self, l, dtype))
    }
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self> {
        // bitwise_not of bools is logical not (the i64 kernel would flip every bit).
        if op == UnaryOp::BitwiseNot && self.dtype() == DType::Bool {
            return self.predicate(l, PredicateOp::LogicalNot);
        }
        Ok(elementwise::unary(self, l, &kernels::unary_kernels(op)))
    }
    fn predicate(&self, l: &Layout, op: PredicateOp) -> Result<Self> {
        Ok(elementwise::predicate(
            self,
            l,
            &kernels::predicate_kernels(op),
        ))
    }
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self> {
        elementwise::check_integer_op(op, self, rhs, rl)?;
        Ok(elementwise::binary(
            self,
            l,
            rhs,
            rl,
            op.is_comparison(),
            &kernels::binary_kernels(op),
        ))
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
        lines::cum_extreme(self, l, dim, max)
    }
    fn scan(&self, l: &Layout, op: ScanOp, dim: usize) -> Result<Self> {
        lines::scan(self, l, op, dim)
    }
    fn softmax(&self, l: &Layout, dim: usize, log: bool) -> Result<Self> {
        softmax::softmax(self, l, dim, log)
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
        scatter::scatter_into(self, l, dim, index.0, index.1, src.0, src.1, accumulate)
    }
    fn copy_into(&mut self, l: &Layout, src: &Self, sl: &Layout) -> Result<()> {
        cast::copy_into(self, l, src, sl)
    }
    fn flip(&self, l: &Layout, dims: &[usize]) -> Result<Self> {
        Ok(flip::flip(self, l, dims))
    }
    fn nan_to_num(&self, l: &Layout, with: [f64; 3]) -> Result<Self> {
        elementwise::nan_to_num(self, l, with)
    }
    fn nonzero(&self, l: &Layout) -> Result<Self> {
        Ok(index::nonzero(self, l))
    }
    fn sort(&self, l: &Layout, dim: usize, descending: bool, k: usize) -> Result<(Self, Self)> {
        sort::sort(self, l, dim, descending, k)
    }
    fn kth(&self, l: &Layout, dim: usize, k: usize) -> Result<(Self, Self)> {
        sort::kth(self, l, dim, k)
    }
    fn unique(&self, l: &Layout) -> Result<(Self, Self, Self)> {
        sort::unique(self, l)
    }
    fn unfold(&self, l: &Layout, w: &Window, pad: f64) -> Result<Self> {
        window::unfold(self, l, w, pad)
    }
    fn fold(&self, l: &Layout, w: &Window, channels: usize, hw: [usize; 2]) -> Result<Self> {
        window::fold(self, l, w, channels, hw)
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
        batch_norm::batch_norm(self, l, stats, w, b, eps)
    }
    fn batch_norm_backward(
        &self,
        l: &Layout,
        x: (&Self, &Layout),
        stats: (&Self, &Self),
        w: Option<&Self>,
        eps_training: (f64, bool),
    ) -> Result<(Self, Self, Self)> {
        batch_norm::batch_norm_backward(self, l, x, stats, w, eps_training)
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
        pool::max_pool(self, l, w)
    }
    fn avg_pool(&self, l: &Layout, a: &AvgWindows) -> Result<Self> {
        avg_pool::avg_pool(self, l, a)
    }
    fn avg_pool_backward(&self, l: &Layout, a: &AvgWindows, hw: [usize; 2]) -> Result<Self> {
        avg_pool::avg_pool_backward(self, l, a, hw)
    }
    fn max_pool_backward(
        &self,
        l: &Layout,
        idx: &Self,
        il: &Layout,
        w: &Window,
        hw: [usize; 2],
    ) -> Result<Self> {
        let _ = w; // the CPU scatters by index; it needs no geometry
        pool::max_unpool(self, l, idx, il, hw)
    }
    fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        Ok(cast::cast(self, l, self.dtype()))
    }
}
