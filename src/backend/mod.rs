//! Compute backends. A backend stores elements on its device and implements the
//! primitives the tensor layer needs, each given the layouts of its operands;
//! `Storage` holds one backend's buffer and forwards every call with one `match`.
//! The tensor layer has already decided dtypes, shapes and devices: a backend
//! sees operands of one dtype (and one device) with layouts of matching shapes.

pub mod cpu;
pub mod cuda;

use crate::error::{Result, device_err};
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, ScanOp, TernaryOp, UnaryOp};
use crate::tensor::{DType, Device};

pub use cpu::{CpuStorage as HostBuffer, Element};

/// Seed every device's random generator (torch.manual_seed).
pub fn manual_seed(seed: u64) {
    cpu::random::manual_seed(seed);
    cuda::random::manual_seed(seed);
}

pub use cpu::random::{GeneratorState, swap_generator};

/// A number to fill with: integers keep all 64 bits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scalar {
    pub f: f64,
    pub i: i64,
}

impl Scalar {
    pub fn float(f: f64) -> Scalar {
        Scalar { f, i: f as i64 }
    }
    pub fn int(i: i64) -> Scalar {
        Scalar { f: i as f64, i }
    }
}

/// A 2-d sliding window over the last two dims of an `[N, C, H, W]` input: the
/// im2col geometry that convolution and pooling share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    /// Padding before (top, left); `pad_total` is before plus after.
    pub pad_before: [usize; 2],
    pub pad_total: [usize; 2],
    pub dilation: [usize; 2],
    /// The output size (computed by the tensor layer with ceil_mode and friends).
    pub out: [usize; 2],
}

/// Average pooling's windows over the last two dims of an `[N, C, H, W]`
/// input, as ATen's kernels lay them out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AvgWindows {
    /// avg_pool2d's: a window geometry (dilation 1). A window's sum over the
    /// input inside it is divided by `divisor` where given, else by its
    /// elements inside the padded box (`include_pad`) or inside the input.
    Fixed {
        win: Window,
        include_pad: bool,
        divisor: Option<i64>,
    },
    /// adaptive_avg_pool2d's: output o along an axis of `size` reads
    /// [floor(o·size/out), ceil((o+1)·size/out)); its sum is divided by its
    /// height, then by its width.
    Adaptive { out: [usize; 2] },
}

/// One output position's window along one axis: the input range `lo..hi` it
/// sums (empty where the window lies in the padding) and its factor of the
/// count the sum is divided by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisWindow {
    pub lo: usize,
    pub hi: usize,
    pub count: usize,
}

impl AvgWindows {
    /// The output size (oh, ow).
    pub fn out(&self) -> [usize; 2] {
        match self {
            AvgWindows::Fixed { win, .. } => win.out,
            AvgWindows::Adaptive { out } => *out,
        }
    }

    /// Each output position's window along axis `d` (0 rows, 1 columns) of an
    /// input `size` long: ATen's `ih0`, `ih1` and pool size, or its adaptive
    /// start and end.
    pub fn axis(&self, d: usize, size: usize) -> Vec<AxisWindow> {
        let out = self.out()[d];
        match self {
            AvgWindows::Fixed {
                win, include_pad, ..
            } => (0..out)
                .map(|o| {
                    let pad_after = (win.pad_total[d] - win.pad_before[d]) as i64;
                    let start = (o * win.stride[d]) as i64 - win.pad_before[d] as i64;
                    let end = (start + win.kernel[d] as i64).min(size as i64 + pad_after);
                    let lo = start.max(0) as usize;
                    let hi = (end.min(size as i64).max(0) as usize).max(lo);
                    let count = if *include_pad {
                        (end - start).max(0) as usize
                    } else {
                        hi - lo
                    };
                    AxisWindow { lo, hi, count }
                })
                .collect(),
            AvgWindows::Adaptive { .. } => (0..out)
                .map(|o| {
                    let (lo, hi) = (o * size / out, ((o + 1) * size).div_ceil(out));
                    AxisWindow {
                        lo,
                        hi,
                        count: hi - lo,
                    }
                })
                .collect(),
        }
    }
}

/// What a random fill draws.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Distribution {
    /// Uniform in [low, high).
    Uniform { low: f64, high: f64 },
    /// Normal with mean and standard deviation.
    Normal { mean: f64, std: f64 },
    /// Integers in [low, high).
    Integers { low: i64, high: i64 },
    /// A permutation of 0..n.
    Permutation,
}

/// A gather or scatter index outside its dim (RuntimeError in PyTorch, not
/// IndexError as for `t[index]`).
pub fn along_bounds_err(x: i64, dim: usize, size: usize) -> crate::error::Error {
    crate::error::index_err(format!(
        "index {x} is out of bounds for dimension {dim} with size {size}"
    ))
    .raised_as("RuntimeError")
}

/// The primitives of a device. Every method gets the layouts of its operands
/// (views need no copies) and returns a fresh contiguous buffer, except the
/// `_into` writers, which change `self` in place.
pub trait BackendStorage: Sized {
    fn dtype(&self) -> DType;
    fn device(&self) -> Device;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The elements `l` describes, contiguous, converted to `dtype` (PyTorch's
    /// casts: float to int truncates, to bool tests for non-zero).
    fn cast(&self, l: &Layout, dtype: DType) -> Result<Self>;
    fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Self>;
    /// An element-wise test, answering in bool.
    fn predicate(&self, l: &Layout, op: PredicateOp) -> Result<Self>;
    /// `self op rhs`; both in one dtype, the layouts of one (broadcast) shape.
    /// Comparisons answer in bool. Integer division by zero is a `value` error.
    fn binary(&self, l: &Layout, rhs: &Self, rl: &Layout, op: BinaryOp) -> Result<Self>;
    /// where (self is the bool condition), clamp (self, lo, hi) or lerp (self,
    /// end, weight); the layouts have one shape.
    fn ternary(
        &self,
        l: &Layout,
        b: (&Self, &Layout),
        c: (&Self, &Layout),
        op: TernaryOp,
    ) -> Result<Self>;
    /// Reduce over `dims` (sorted, distinct): the result holds the kept dims in
    /// order, in the dtype `op.output_dtype` gives.
    fn reduce(&self, l: &Layout, op: ReduceOp, dims: &[usize]) -> Result<Self>;
    /// Running sum/product/max/min along `dim`, in the shape of `l`.
    fn scan(&self, l: &Layout, op: ScanOp, dim: usize) -> Result<Self>;
    /// cummax (`max`) or cummin along `dim`: the running extremes in the
    /// input's dtype and their int64 positions, contiguous. A NaN takes over
    /// (a later NaN takes its place); a tie moves to the later position.
    fn cum_extreme(&self, l: &Layout, dim: usize, max: bool) -> Result<(Self, Self)>;
    /// softmax or log_softmax along `dim` of a float input, in the shape of `l`.
    fn softmax(&self, l: &Layout, dim: usize, log: bool) -> Result<Self>;
    /// `[..., m, k] @ [..., k, n]` with equal batch dims: `[..., m, n]`.
    fn matmul(&self, l: &Layout, rhs: &Self, rl: &Layout) -> Result<Self>;
    /// Advanced indexing: `dims` of `l` are indexed by int64 tensors (negative
    /// counts from the end) whose layouts all have one broadcast shape B. The
    /// result holds `l`'s other dims in order with B inserted at position
    /// `insert_at` among them. Out of range is an `index` error.
    fn index(
        &self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Self, &Layout)],
        insert_at: usize,
    ) -> Result<Self>;
    /// torch.gather: for every position of the int64 `index` (layout `il`, of
    /// `l`'s rank), the element of `l` at that index along `dim` and at the
    /// same position along every other dim; the result has `il`'s shape.
    /// Out of range (negative included, as in PyTorch) is an `index` error.
    fn gather(&self, l: &Layout, dim: usize, index: &Self, il: &Layout) -> Result<Self>;
    /// The converse: write (or add, with `accumulate`) `src`, whose layout has the
    /// shape `index` would give, at those elements of `self` seen through `l`.
    fn index_put_into(
        &mut self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Self, &Layout)],
        insert_at: usize,
        src: (&Self, &Layout),
        accumulate: bool,
    ) -> Result<()>;
    /// torch.scatter(_add) into `self` seen through `l`: `src` (of self's dtype,
    /// laid out in the index's shape) written, or added with `accumulate`, at
    /// each index position with its step along `dim` replaced by the index value.
    fn scatter_into(
        &mut self,
        l: &Layout,
        dim: usize,
        index: (&Self, &Layout),
        src: (&Self, &Layout),
        accumulate: bool,
    ) -> Result<()>;
    /// Copy `src` (of `self`'s dtype) into the elements `l` describes.
    fn copy_into(&mut self, l: &Layout, src: &Self, sl: &Layout) -> Result<()>;
    /// The elements of `l`, contiguous, in reverse order along each of `dims`.
    fn flip(&self, l: &Layout, dims: &[usize]) -> Result<Self>;
    /// nan_to_num of a float dtype: NaN, +inf and -inf become `with`'s three
    /// numbers (each rounded to the dtype), the other elements stay.
    fn nan_to_num(&self, l: &Layout, with: [f64; 3]) -> Result<Self>;
    /// The positions of the non-zero elements: int64 `[n, ndim]`.
    fn nonzero(&self, l: &Layout) -> Result<Self>;
    /// Stable sort along `dim` (NaN last ascending, first descending): values and
    /// int64 indices of the first `k` of each line (k = the dim's size for a
    /// whole sort, fewer for topk), in the shape of `l` with that dim `k` long.
    fn sort(&self, l: &Layout, dim: usize, descending: bool, k: usize) -> Result<(Self, Self)>;
    /// The element at 0-based position `k` of each line along `dim` in stable
    /// ascending order (NaN last), and its position in the line: values and
    /// int64 indices, in the shape of `l` with that dim 1 long.
    fn kth(&self, l: &Layout, dim: usize, k: usize) -> Result<(Self, Self)>;
    /// The sorted distinct elements, the index of each input element among them
    /// (int64, in `l`'s shape), and how often each occurs (int64).
    fn unique(&self, l: &Layout) -> Result<(Self, Self, Self)>;
    /// im2col of an `[N, C, H, W]` input: `[N, C * kh * kw, oh * ow]`, with `pad`
    /// outside the input.
    fn unfold(&self, l: &Layout, w: &Window, pad: f64) -> Result<Self>;
    /// The adjoint of `unfold`: columns `[N, C * kh * kw, oh * ow]` summed back
    /// into an `[N, C, H, W]` image of size `hw`.
    fn fold(&self, l: &Layout, w: &Window, channels: usize, hw: [usize; 2]) -> Result<Self>;
    /// Max pooling of an `[N, C, H, W]` layout: each window's maximum and its
    /// flat position in its H×W plane (int64).
    fn max_pool(&self, l: &Layout, w: &Window) -> Result<(Self, Self)>;
    /// Average pooling of an `[N, C, H, W]` float layout: each window's sum
    /// in ATen's order (row by row, left to right, from 0, in float32 or in
    /// float64 for float64), divided as ATen divides it; 0 for a window with
    /// nothing inside the input.
    fn avg_pool(&self, l: &Layout, a: &AvgWindows) -> Result<Self>;
    /// avg_pool's gradient: each of the `[N, C, oh, ow]` gradients divided as
    /// its window's sum was, added to every element of its window in an
    /// `[N, C, H, W]` zero image of size `hw`, output by output (ATen's order).
    fn avg_pool_backward(&self, l: &Layout, a: &AvgWindows, hw: [usize; 2]) -> Result<Self>;
    /// max_pool's gradient: `[N, C, oh, ow]` gradients added into an
    /// `[N, C, H, W]` zero image of size `hw` at the recorded positions.
    fn max_pool_backward(
        &self,
        l: &Layout,
        idx: &Self,
        il: &Layout,
        w: &Window,
        hw: [usize; 2],
    ) -> Result<Self>;
    /// Layer normalisation of each row of a `[rows, n]` float layout: y =
    /// (x - mean) / sqrt(var + eps) * w + b (var biased; w and b `[n]` layouts
    /// of x's dtype, when given), with each row's mean and 1 / sqrt(var + eps)
    /// as contiguous float64 `[rows]`.
    fn layer_norm(
        &self,
        l: &Layout,
        w: Option<(&Self, &Layout)>,
        b: Option<(&Self, &Layout)>,
        eps: f64,
    ) -> Result<(Self, Self, Self)>;
    /// Its gradient from `self`, the gradient of y (`[rows, n]`), given x and
    /// the forward's statistics: dx, and the sums over rows of g·x̂ (the
    /// weight's gradient) and of g (the bias's), `[n]` each, in x's dtype.
    fn layer_norm_backward(
        &self,
        l: &Layout,
        x: (&Self, &Layout),
        stats: (&Self, &Self),
        w: Option<(&Self, &Layout)>,
    ) -> Result<(Self, Self, Self)>;
    /// Batch normalisation of an `[N, C, S]` float layout by channel: with
    /// `stats` None, each channel's mean and biased variance over N and S
    /// (float64 `[C]`, returned), else the given ones (returned as given);
    /// then y = x·α + β, α = w / sqrt(var + eps) and β = b - mean·α computed
    /// in float64 (w and b float64 `[C]` when given), applied in x's dtype.
    fn batch_norm(
        &self,
        l: &Layout,
        stats: Option<(&Self, &Self)>,
        w: Option<&Self>,
        b: Option<&Self>,
        eps: f64,
    ) -> Result<(Self, Self, Self)>;
    /// Its gradient from `self` (g, `[N, C, S]`), given x, the mean and
    /// variance `batch_norm` returned, w (float64 `[C]`), eps, and whether the
    /// statistics were the batch's (then dx flows through them too): dx, and
    /// the bias's and weight's gradients Σ g and Σ (x - mean)·g / σ (float64 `[C]`).
    fn batch_norm_backward(
        &self,
        l: &Layout,
        x: (&Self, &Layout),
        stats: (&Self, &Self),
        w: Option<&Self>,
        eps_training: (f64, bool),
    ) -> Result<(Self, Self, Self)>;
    /// One step of an LSTM cell from its gates `[B, 4H]` (the input's and the
    /// hidden state's parts summed: i, f, g, o) and the cell state cx `[B, H]`,
    /// float32 or float64: `[2, B, H]` holding hy = σ(o)·tanh(cy) and then cy =
    /// σ(f)·cx + σ(i)·tanh(g), and the activated gates σ(i), σ(f), tanh(g),
    /// σ(o) `[B, 4H]`, both contiguous.
    fn lstm_cell(&self, l: &Layout, cx: (&Self, &Layout)) -> Result<(Self, Self)>;
    /// Its gradient from `self`, the gradient of `[2, B, H]` (hy's, then
    /// cy's), given cx and the forward's two results: the gates' gradient
    /// `[B, 4H]` and cx's `[B, H]`, contiguous.
    fn lstm_cell_backward(
        &self,
        l: &Layout,
        cx: (&Self, &Layout),
        out: &Self,
        work: &Self,
    ) -> Result<(Self, Self)>;
    /// A contiguous copy in host memory.
    fn to_host(&self, l: &Layout) -> Result<HostBuffer>;
}

/// One backend's buffer.
#[derive(Debug)]
pub enum Storage {
    Cpu(cpu::CpuStorage),
    Cuda(cuda::CudaStorage),
}

/// One operand of `Storage::run_program`: its storage and where its run of
/// elements starts.
pub enum Access<'a> {
    Read(&'a Storage, usize),
    Write(&'a mut Storage, usize),
}

/// Forward a call to the backend that holds the operands; operands on different
/// devices never reach here (the tensor layer refuses them).
macro_rules! forward {
    ($self:expr, $s:ident => $cpu:expr, $cuda:ident => $gpu:expr) => {
        match $self {
            Storage::Cpu($s) => $cpu.map(Storage::Cpu),
            Storage::Cuda($cuda) => $gpu.map(Storage::Cuda),
        }
    };
}

fn cpu_operands<'a>(
    ops: &[(&'a Storage, &'a Layout)],
) -> Result<Vec<(&'a cpu::CpuStorage, &'a Layout)>> {
    ops.iter()
        .map(|(s, l)| match s {
            Storage::Cpu(c) => Ok((c, *l)),
            _ => Err(mixed()),
        })
        .collect()
}

fn cuda_operands<'a>(
    ops: &[(&'a Storage, &'a Layout)],
) -> Result<Vec<(&'a cuda::CudaStorage, &'a Layout)>> {
    ops.iter()
        .map(|(s, l)| match s {
            Storage::Cuda(c) => Ok((c, *l)),
            _ => Err(mixed()),
        })
        .collect()
}

/// An optional operand with its layout, on the CPU (or the mixed-devices error).
fn on_cpu<'a>(
    p: Option<(&'a Storage, &'a Layout)>,
) -> Result<Option<(&'a cpu::CpuStorage, &'a Layout)>> {
    p.map(|(s, l)| Ok((s.cpu()?, l))).transpose()
}

/// An optional operand with its layout, on a CUDA device.
fn on_cuda<'a>(
    p: Option<(&'a Storage, &'a Layout)>,
) -> Result<Option<(&'a cuda::CudaStorage, &'a Layout)>> {
    p.map(|(s, l)| Ok((s.gpu()?, l))).transpose()
}

type Triple = (Storage, Storage, Storage);

fn mixed() -> crate::error::Error {
    device_err("operands on different devices reached the backend")
        .hint("move them to one device with .to(...)")
}

impl Storage {
    pub fn dtype(&self) -> DType {
        match self {
            Storage::Cpu(s) => s.dtype(),
            Storage::Cuda(s) => s.dtype(),
        }
    }
    pub fn device(&self) -> Device {
        match self {
            Storage::Cpu(s) => s.device(),
            Storage::Cuda(s) => s.device(),
        }
    }
    pub fn len(&self) -> usize {
        match self {
            Storage::Cpu(s) => s.len(),
            Storage::Cuda(s) => s.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Host data moved to `device`.
    pub fn from_host(h: HostBuffer, device: Device) -> Result<Storage> {
        match device {
            Device::Cpu => Ok(Storage::Cpu(h)),
            Device::Cuda(i) => cuda::CudaStorage::from_host(h, i).map(Storage::Cuda),
        }
    }

    /// `n` copies of `value` in `dtype` on `device`.
    pub fn full(device: Device, n: usize, dtype: DType, value: Scalar) -> Result<Storage> {
        match device {
            Device::Cpu => Ok(Storage::Cpu(cpu::CpuStorage::full(n, dtype, value))),
            Device::Cuda(i) => cuda::CudaStorage::full(i, n, dtype, value).map(Storage::Cuda),
        }
    }

    /// `n` values `start + i * step` in `dtype`.
    pub fn arange(
        device: Device,
        start: Scalar,
        step: Scalar,
        n: usize,
        dtype: DType,
    ) -> Result<Storage> {
        match device {
            Device::Cpu => Ok(Storage::Cpu(cpu::CpuStorage::arange(start, step, n, dtype))),
            Device::Cuda(i) => {
                cuda::CudaStorage::arange(i, start, step, n, dtype).map(Storage::Cuda)
            }
        }
    }

    /// `n` values evenly spaced from `start` to `end`, as PyTorch's linspace.
    pub fn linspace(
        device: Device,
        start: f64,
        end: f64,
        n: usize,
        dtype: DType,
    ) -> Result<Storage> {
        match device {
            Device::Cpu => Ok(Storage::Cpu(cpu::CpuStorage::linspace(
                start, end, n, dtype,
            ))),
            Device::Cuda(i) => {
                cuda::CudaStorage::linspace(i, start, end, n, dtype).map(Storage::Cuda)
            }
        }
    }

    /// `n` random values (PyTorch's generator of that device).
    pub fn random(device: Device, dist: Distribution, n: usize, dtype: DType) -> Result<Storage> {
        match device {
            Device::Cpu => cpu::random::fill(dist, n, dtype).map(Storage::Cpu),
            Device::Cuda(i) => cuda::CudaStorage::random(i, dist, n, dtype).map(Storage::Cuda),
        }
    }

    pub fn cast(&self, l: &Layout, dtype: DType) -> Result<Storage> {
        forward!(self, s => s.cast(l, dtype), c => c.cast(l, dtype))
    }
    pub fn unary(&self, l: &Layout, op: UnaryOp) -> Result<Storage> {
        forward!(self, s => s.unary(l, op), c => c.unary(l, op))
    }
    pub fn predicate(&self, l: &Layout, op: PredicateOp) -> Result<Storage> {
        forward!(self, s => s.predicate(l, op), c => c.predicate(l, op))
    }
    /// `self = self op rhs` in place over the contiguous layout `l`, where the
    /// backend writes in place (the CPU); Ok(false) where it does not, and
    /// the caller computes out of place.
    pub fn binary_assign(
        &mut self,
        l: &Layout,
        rhs: &Storage,
        rl: &Layout,
        op: BinaryOp,
    ) -> Result<bool> {
        match (self, rhs) {
            (Storage::Cpu(a), Storage::Cpu(b)) => a.binary_assign(l, b, rl, op).map(|_| true),
            _ => Ok(false),
        }
    }
    /// Runs an element-wise program over `n` elements of each operand in one
    /// pass where the backend has it (the CPU, float32 or float64 operands):
    /// false elsewhere, nothing written.
    pub fn run_program(
        program: &crate::tensor::op::program::Program,
        operands: Vec<Access<'_>>,
        n: usize,
    ) -> bool {
        let mut host = Vec::with_capacity(operands.len());
        for a in operands {
            host.push(match a {
                Access::Read(Storage::Cpu(s), at) => cpu::program::Access::Read(s, at),
                Access::Write(Storage::Cpu(s), at) => cpu::program::Access::Write(s, at),
                _ => return false,
            });
        }
        cpu::program::run(program, host, n)
    }
    /// Runs an element-wise program whose one output is a fresh storage of
    /// `n` elements (operand `inputs.len()`), the inputs read only, in one
    /// pass where the backend has it (the CPU, float32 or float64): None
    /// elsewhere.
    pub fn run_program_fresh(
        program: &crate::tensor::op::program::Program,
        inputs: Vec<(&Storage, usize)>,
        n: usize,
    ) -> Option<Storage> {
        let mut host = Vec::with_capacity(inputs.len());
        for (s, at) in inputs {
            match s {
                Storage::Cpu(s) => host.push((s, at)),
                _ => return None,
            }
        }
        cpu::program::run_fresh(program, host, n).map(Storage::Cpu)
    }
    pub fn binary(&self, l: &Layout, rhs: &Storage, rl: &Layout, op: BinaryOp) -> Result<Storage> {
        match (self, rhs) {
            (Storage::Cpu(a), Storage::Cpu(b)) => a.binary(l, b, rl, op).map(Storage::Cpu),
            (Storage::Cuda(a), Storage::Cuda(b)) => a.binary(l, b, rl, op).map(Storage::Cuda),
            _ => Err(mixed()),
        }
    }
    pub fn ternary(
        &self,
        l: &Layout,
        b: (&Storage, &Layout),
        c: (&Storage, &Layout),
        op: TernaryOp,
    ) -> Result<Storage> {
        match (self, b.0, c.0) {
            (Storage::Cpu(x), Storage::Cpu(y), Storage::Cpu(z)) => {
                x.ternary(l, (y, b.1), (z, c.1), op).map(Storage::Cpu)
            }
            (Storage::Cuda(x), Storage::Cuda(y), Storage::Cuda(z)) => {
                x.ternary(l, (y, b.1), (z, c.1), op).map(Storage::Cuda)
            }
            _ => Err(mixed()),
        }
    }
    pub fn reduce(&self, l: &Layout, op: ReduceOp, dims: &[usize]) -> Result<Storage> {
        forward!(self, s => s.reduce(l, op, dims), c => c.reduce(l, op, dims))
    }
    pub fn cum_extreme(&self, l: &Layout, dim: usize, max: bool) -> Result<(Storage, Storage)> {
        match self {
            Storage::Cpu(s) => s
                .cum_extreme(l, dim, max)
                .map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
            Storage::Cuda(c) => c
                .cum_extreme(l, dim, max)
                .map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
        }
    }
    pub fn scan(&self, l: &Layout, op: ScanOp, dim: usize) -> Result<Storage> {
        forward!(self, s => s.scan(l, op, dim), c => c.scan(l, op, dim))
    }
    pub fn softmax(&self, l: &Layout, dim: usize, log: bool) -> Result<Storage> {
        forward!(self, s => s.softmax(l, dim, log), c => c.softmax(l, dim, log))
    }
    pub fn matmul(&self, l: &Layout, rhs: &Storage, rl: &Layout) -> Result<Storage> {
        match (self, rhs) {
            (Storage::Cpu(a), Storage::Cpu(b)) => a.matmul(l, b, rl).map(Storage::Cpu),
            (Storage::Cuda(a), Storage::Cuda(b)) => a.matmul(l, b, rl).map(Storage::Cuda),
            _ => Err(mixed()),
        }
    }
    pub fn index(
        &self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Storage, &Layout)],
        insert_at: usize,
    ) -> Result<Storage> {
        match self {
            Storage::Cpu(s) => {
                let idx = cpu_operands(indices)?;
                s.index(l, dims, &idx, insert_at).map(Storage::Cpu)
            }
            Storage::Cuda(s) => {
                let idx = cuda_operands(indices)?;
                s.index(l, dims, &idx, insert_at).map(Storage::Cuda)
            }
        }
    }
    /// torch.cat's result: parts of `dtype` (each a buffer, the offset of its
    /// first element and the distance between its runs) side by side, `outer`
    /// runs of `runs[p]` contiguous elements from each part in turn.
    pub fn concat(
        parts: &[(&Storage, usize, usize)],
        runs: &[usize],
        outer: usize,
        dtype: DType,
    ) -> Result<Storage> {
        if let Some((Storage::Cuda(_), _, _)) = parts.first() {
            let cuda = parts
                .iter()
                .map(|&(s, offset, stride)| match s {
                    Storage::Cuda(c) => Ok((c, offset, stride)),
                    _ => Err(mixed()),
                })
                .collect::<Result<Vec<_>>>()?;
            return cuda::CudaStorage::concat(&cuda, runs, outer, dtype).map(Storage::Cuda);
        }
        let cpu = parts
            .iter()
            .map(|&(s, offset, stride)| match s {
                Storage::Cpu(c) => Ok((c, offset, stride)),
                _ => Err(mixed()),
            })
            .collect::<Result<Vec<_>>>()?;
        cpu::concat(&cpu, runs, outer).map(Storage::Cpu)
    }
    pub fn gather(&self, l: &Layout, dim: usize, index: &Storage, il: &Layout) -> Result<Storage> {
        match (self, index) {
            (Storage::Cpu(s), Storage::Cpu(i)) => {
                BackendStorage::gather(s, l, dim, i, il).map(Storage::Cpu)
            }
            (Storage::Cuda(s), Storage::Cuda(i)) => {
                BackendStorage::gather(s, l, dim, i, il).map(Storage::Cuda)
            }
            _ => Err(mixed()),
        }
    }
    #[allow(clippy::too_many_arguments)]
    pub fn index_put_into(
        &mut self,
        l: &Layout,
        dims: &[usize],
        indices: &[(&Storage, &Layout)],
        insert_at: usize,
        src: (&Storage, &Layout),
        accumulate: bool,
    ) -> Result<()> {
        match (self, src.0) {
            (Storage::Cpu(s), Storage::Cpu(v)) => {
                let idx = cpu_operands(indices)?;
                s.index_put_into(l, dims, &idx, insert_at, (v, src.1), accumulate)
            }
            (Storage::Cuda(s), Storage::Cuda(v)) => {
                let idx = cuda_operands(indices)?;
                s.index_put_into(l, dims, &idx, insert_at, (v, src.1), accumulate)
            }
            _ => Err(mixed()),
        }
    }
    pub fn scatter_into(
        &mut self,
        l: &Layout,
        dim: usize,
        index: (&Storage, &Layout),
        src: (&Storage, &Layout),
        accumulate: bool,
    ) -> Result<()> {
        match (self, index.0, src.0) {
            (Storage::Cpu(s), Storage::Cpu(i), Storage::Cpu(v)) => {
                s.scatter_into(l, dim, (i, index.1), (v, src.1), accumulate)
            }
            (Storage::Cuda(s), Storage::Cuda(i), Storage::Cuda(v)) => {
                s.scatter_into(l, dim, (i, index.1), (v, src.1), accumulate)
            }
            _ => Err(mixed()),
        }
    }
    pub fn copy_into(&mut self, l: &Layout, src: &Storage, sl: &Layout) -> Result<()> {
        match (self, src) {
            (Storage::Cpu(a), Storage::Cpu(s)) => a.copy_into(l, s, sl),
            (Storage::Cuda(a), Storage::Cuda(s)) => a.copy_into(l, s, sl),
            _ => Err(mixed()),
        }
    }
    pub fn flip(&self, l: &Layout, dims: &[usize]) -> Result<Storage> {
        forward!(self, s => s.flip(l, dims), c => c.flip(l, dims))
    }
    pub fn nan_to_num(&self, l: &Layout, with: [f64; 3]) -> Result<Storage> {
        forward!(self, s => s.nan_to_num(l, with), c => c.nan_to_num(l, with))
    }
    pub fn nonzero(&self, l: &Layout) -> Result<Storage> {
        forward!(self, s => s.nonzero(l), c => c.nonzero(l))
    }
    pub fn sort(
        &self,
        l: &Layout,
        dim: usize,
        descending: bool,
        k: usize,
    ) -> Result<(Storage, Storage)> {
        match self {
            Storage::Cpu(s) => s
                .sort(l, dim, descending, k)
                .map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
            Storage::Cuda(s) => s
                .sort(l, dim, descending, k)
                .map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
        }
    }
    pub fn kth(&self, l: &Layout, dim: usize, k: usize) -> Result<(Storage, Storage)> {
        match self {
            Storage::Cpu(s) => s
                .kth(l, dim, k)
                .map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
            Storage::Cuda(s) => s
                .kth(l, dim, k)
                .map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
        }
    }
    pub fn unique(&self, l: &Layout) -> Result<(Storage, Storage, Storage)> {
        match self {
            Storage::Cpu(s) => s
                .unique(l)
                .map(|(a, b, c)| (Storage::Cpu(a), Storage::Cpu(b), Storage::Cpu(c))),
            Storage::Cuda(s) => s
                .unique(l)
                .map(|(a, b, c)| (Storage::Cuda(a), Storage::Cuda(b), Storage::Cuda(c))),
        }
    }
    pub fn unfold(&self, l: &Layout, w: &Window, pad: f64) -> Result<Storage> {
        forward!(self, s => s.unfold(l, w, pad), c => c.unfold(l, w, pad))
    }
    /// conv2d's forward (groups of 1, no bias) where the backend has it as
    /// one op (the CPU, float32 and float64); None elsewhere, and the caller
    /// unfolds and multiplies.
    pub fn conv2d(&self, l: &Layout, w: &Storage, lw: &Layout, win: &Window) -> Option<Storage> {
        match (self, w) {
            (Storage::Cpu(x), Storage::Cpu(k)) => {
                cpu::conv::conv2d(x, l, k, lw, win).map(Storage::Cpu)
            }
            _ => None,
        }
    }
    pub fn fold(&self, l: &Layout, w: &Window, channels: usize, hw: [usize; 2]) -> Result<Storage> {
        forward!(self, s => s.fold(l, w, channels, hw), c => c.fold(l, w, channels, hw))
    }
    pub fn max_pool(&self, l: &Layout, w: &Window) -> Result<(Storage, Storage)> {
        match self {
            Storage::Cpu(s) => s
                .max_pool(l, w)
                .map(|(v, i)| (Storage::Cpu(v), Storage::Cpu(i))),
            Storage::Cuda(s) => s
                .max_pool(l, w)
                .map(|(v, i)| (Storage::Cuda(v), Storage::Cuda(i))),
        }
    }
    pub fn avg_pool(&self, l: &Layout, a: &AvgWindows) -> Result<Storage> {
        forward!(self, s => s.avg_pool(l, a), c => c.avg_pool(l, a))
    }
    pub fn avg_pool_backward(&self, l: &Layout, a: &AvgWindows, hw: [usize; 2]) -> Result<Storage> {
        forward!(self, s => s.avg_pool_backward(l, a, hw), c => c.avg_pool_backward(l, a, hw))
    }
    pub fn max_pool_backward(
        &self,
        l: &Layout,
        idx: &Storage,
        il: &Layout,
        w: &Window,
        hw: [usize; 2],
    ) -> Result<Storage> {
        match (self, idx) {
            (Storage::Cpu(g), Storage::Cpu(i)) => {
                g.max_pool_backward(l, i, il, w, hw).map(Storage::Cpu)
            }
            (Storage::Cuda(g), Storage::Cuda(i)) => {
                g.max_pool_backward(l, i, il, w, hw).map(Storage::Cuda)
            }
            _ => Err(mixed()),
        }
    }
    pub fn layer_norm(
        &self,
        l: &Layout,
        w: Option<(&Storage, &Layout)>,
        b: Option<(&Storage, &Layout)>,
        eps: f64,
    ) -> Result<Triple> {
        match self {
            Storage::Cpu(s) => {
                let (y, m, r) = s.layer_norm(l, on_cpu(w)?, on_cpu(b)?, eps)?;
                Ok((Storage::Cpu(y), Storage::Cpu(m), Storage::Cpu(r)))
            }
            Storage::Cuda(s) => {
                let (y, m, r) = s.layer_norm(l, on_cuda(w)?, on_cuda(b)?, eps)?;
                Ok((Storage::Cuda(y), Storage::Cuda(m), Storage::Cuda(r)))
            }
        }
    }
    pub fn layer_norm_backward(
        &self,
        l: &Layout,
        x: (&Storage, &Layout),
        stats: (&Storage, &Storage),
        w: Option<(&Storage, &Layout)>,
    ) -> Result<Triple> {
        let (m, r) = stats;
        match self {
            Storage::Cpu(g) => {
                let st = (m.cpu()?, r.cpu()?);
                let (dx, dw, db) = g.layer_norm_backward(l, (x.0.cpu()?, x.1), st, on_cpu(w)?)?;
                Ok((Storage::Cpu(dx), Storage::Cpu(dw), Storage::Cpu(db)))
            }
            Storage::Cuda(g) => {
                let st = (m.gpu()?, r.gpu()?);
                let (dx, dw, db) = g.layer_norm_backward(l, (x.0.gpu()?, x.1), st, on_cuda(w)?)?;
                Ok((Storage::Cuda(dx), Storage::Cuda(dw), Storage::Cuda(db)))
            }
        }
    }
    pub fn batch_norm(
        &self,
        l: &Layout,
        stats: Option<(&Storage, &Storage)>,
        w: Option<&Storage>,
        b: Option<&Storage>,
        eps: f64,
    ) -> Result<Triple> {
        match self {
            Storage::Cpu(s) => {
                let st = match stats {
                    Some((m, v)) => Some((m.cpu()?, v.cpu()?)),
                    None => None,
                };
                let (w, b) = (
                    w.map(Storage::cpu).transpose()?,
                    b.map(Storage::cpu).transpose()?,
                );
                let (y, m, v) = s.batch_norm(l, st, w, b, eps)?;
                Ok((Storage::Cpu(y), Storage::Cpu(m), Storage::Cpu(v)))
            }
            Storage::Cuda(s) => {
                let st = match stats {
                    Some((m, v)) => Some((m.gpu()?, v.gpu()?)),
                    None => None,
                };
                let (w, b) = (
                    w.map(Storage::gpu).transpose()?,
                    b.map(Storage::gpu).transpose()?,
                );
                let (y, m, v) = s.batch_norm(l, st, w, b, eps)?;
                Ok((Storage::Cuda(y), Storage::Cuda(m), Storage::Cuda(v)))
            }
        }
    }
    pub fn batch_norm_backward(
        &self,
        l: &Layout,
        x: (&Storage, &Layout),
        (mean, var): (&Storage, &Storage),
        w: Option<&Storage>,
        eps_training: (f64, bool),
    ) -> Result<Triple> {
        match self {
            Storage::Cpu(g) => {
                let (x0, st) = (x.0.cpu()?, (mean.cpu()?, var.cpu()?));
                let w = w.map(Storage::cpu).transpose()?;
                let (dx, a, b) = g.batch_norm_backward(l, (x0, x.1), st, w, eps_training)?;
                Ok((Storage::Cpu(dx), Storage::Cpu(a), Storage::Cpu(b)))
            }
            Storage::Cuda(g) => {
                let (x0, st) = (x.0.gpu()?, (mean.gpu()?, var.gpu()?));
                let w = w.map(Storage::gpu).transpose()?;
                let (dx, a, b) = g.batch_norm_backward(l, (x0, x.1), st, w, eps_training)?;
                Ok((Storage::Cuda(dx), Storage::Cuda(a), Storage::Cuda(b)))
            }
        }
    }
    pub fn lstm_cell(&self, l: &Layout, cx: (&Storage, &Layout)) -> Result<(Storage, Storage)> {
        match (self, cx.0) {
            (Storage::Cpu(g), Storage::Cpu(c)) => {
                let (out, work) = g.lstm_cell(l, (c, cx.1))?;
                Ok((Storage::Cpu(out), Storage::Cpu(work)))
            }
            (Storage::Cuda(g), Storage::Cuda(c)) => {
                let (out, work) = g.lstm_cell(l, (c, cx.1))?;
                Ok((Storage::Cuda(out), Storage::Cuda(work)))
            }
            _ => Err(mixed()),
        }
    }
    pub fn lstm_cell_backward(
        &self,
        l: &Layout,
        cx: (&Storage, &Layout),
        out: &Storage,
        work: &Storage,
    ) -> Result<(Storage, Storage)> {
        match self {
            Storage::Cpu(g) => {
                let (c, o, w) = (cx.0.cpu()?, out.cpu()?, work.cpu()?);
                let (dg, dc) = g.lstm_cell_backward(l, (c, cx.1), o, w)?;
                Ok((Storage::Cpu(dg), Storage::Cpu(dc)))
            }
            Storage::Cuda(g) => {
                let (c, o, w) = (cx.0.gpu()?, out.gpu()?, work.gpu()?);
                let (dg, dc) = g.lstm_cell_backward(l, (c, cx.1), o, w)?;
                Ok((Storage::Cuda(dg), Storage::Cuda(dc)))
            }
        }
    }
    /// The CPU buffer, or the mixed-devices error.
    fn cpu(&self) -> Result<&cpu::CpuStorage> {
        match self {
            Storage::Cpu(c) => Ok(c),
            _ => Err(mixed()),
        }
    }
    /// The CUDA buffer, or the mixed-devices error.
    fn gpu(&self) -> Result<&cuda::CudaStorage> {
        match self {
            Storage::Cuda(c) => Ok(c),
            _ => Err(mixed()),
        }
    }
    pub fn to_host(&self, l: &Layout) -> Result<HostBuffer> {
        match self {
            Storage::Cpu(s) => s.to_host(l),
            Storage::Cuda(s) => s.to_host(l),
        }
    }
}
