//! The device's random numbers: Philox 4x32-10 keyed by the seed, each fill
//! taking the next counters (kernels/random.cu), so a seed gives the same
//! numbers run to run. `torch.manual_seed` seeds it with the CPU generator.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::device::Gpu;
use super::kernels::{Source, suffix};
use crate::backend::{Distribution, HostBuffer};
use crate::error::Result;
use crate::tensor::DType;

/// (seed, counters used so far). PyTorch's default CUDA seed is its CPU one's.
static STATE: Mutex<(u64, u64)> = Mutex::new((67_280_421_310_721, 0));

/// Draw from the CPU's generator instead (and send the numbers over): the
/// device test suites compare with transcripts that PyTorch printed on the
/// CPU, whose random numbers only the CPU generator reproduces.
static FROM_HOST: AtomicBool = AtomicBool::new(false);

pub fn manual_seed(seed: u64) {
    *STATE.lock().unwrap_or_else(|p| p.into_inner()) = (seed, 0);
}

pub fn draw_on_host(on: bool) {
    FROM_HOST.store(on, Ordering::Relaxed);
}

/// The counters for `n` more elements.
fn take(n: usize) -> (u64, u64) {
    let mut s = STATE.lock().unwrap_or_else(|p| p.into_inner());
    let at = *s;
    s.1 = s.1.wrapping_add(n as u64);
    at
}

pub fn fill(
    gpu: &std::sync::Arc<Gpu>,
    dist: Distribution,
    n: usize,
    dtype: DType,
) -> Result<CudaStorage> {
    if FROM_HOST.load(Ordering::Relaxed) || dist == Distribution::Permutation {
        // A permutation is a sort of random keys: the host's (sort goes there too).
        let host: HostBuffer = crate::backend::cpu::random::fill(dist, n, dtype)?;
        return CudaStorage::from_host(host, gpu.index);
    }
    let out = CudaStorage::empty(gpu, n, dtype)?;
    if n == 0 {
        return Ok(out);
    }
    let (kind, a, b, lo, hi) = match dist {
        Distribution::Uniform { low, high } => (0i32, low, high, 0i64, 0i64),
        Distribution::Normal { mean, std } => (1, mean, std, 0, 0),
        Distribution::Integers { low, high } => (2, 0.0, 0.0, low, high),
        Distribution::Permutation => (2, 0.0, 0.0, 0, 1),
    };
    let (seed, offset) = take(n);
    let (n64, wide, op) = (n as i64, (dtype == DType::F64) as i32, out.ptr());
    let name = format!("random_{}", suffix(dtype));
    launch!(gpu, Source::Random, &name, n; n64, seed, offset, kind, a, b, lo, hi, wide, op)?;
    Ok(out)
}
