//! `torch.device`, `torch.cuda`, `torch.accelerator` and `torch.backends.mps`:
//! what tutorials ask before choosing where tensors go.

use super::Builtin;
use crate::error::Result;
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::row;
use crate::tensor::Device;

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "device",
        "device(type, index=None)",
        "A device: 'cpu', 'cuda', 'cuda:1', or a type and an index.",
        "torch.device('cpu')",
        device
    ),
    row!(
        Module,
        "cuda.is_available",
        "torch.cuda.is_available()",
        "Whether a CUDA GPU can be used.",
        "torch.cuda.is_available()",
        cuda_is_available
    ),
    row!(
        Module,
        "cuda.device_count",
        "torch.cuda.device_count()",
        "How many CUDA GPUs can be used.",
        "torch.cuda.device_count()",
        cuda_device_count
    ),
    row!(
        Module,
        "cuda.get_device_name",
        "torch.cuda.get_device_name(device=None)",
        "The name the driver gives a CUDA device.",
        "torch.cuda.get_device_name(0) if torch.cuda.is_available() else None",
        cuda_device_name
    ),
    row!(
        Module,
        "cuda.current_device",
        "torch.cuda.current_device()",
        "The index of the CUDA device tensors go to by default (0).",
        "torch.cuda.current_device() if torch.cuda.is_available() else None",
        cuda_current_device
    ),
    row!(
        Module,
        "cuda.synchronize",
        "torch.cuda.synchronize(device=None)",
        "Wait until every queued kernel and copy on the device is done (for honest timings).",
        "torch.cuda.synchronize() if torch.cuda.is_available() else None",
        cuda_synchronize
    ),
    row!(
        Module,
        "cuda.memory_allocated",
        "torch.cuda.memory_allocated(device=None)",
        "Bytes of device memory held by tensors now (tsh's caching allocator rounds each up to its size class).",
        "torch.cuda.memory_allocated() if torch.cuda.is_available() else 0",
        cuda_memory_allocated
    ),
    row!(
        Module,
        "cuda.memory_reserved",
        "torch.cuda.memory_reserved(device=None)",
        "Bytes of device memory taken from the driver: tensors' and the cache of freed buffers.",
        "torch.cuda.memory_reserved() if torch.cuda.is_available() else 0",
        cuda_memory_reserved
    ),
    row!(
        Module,
        "cuda.max_memory_allocated",
        "torch.cuda.max_memory_allocated(device=None)",
        "The most bytes tensors held at once.",
        "torch.cuda.max_memory_allocated() if torch.cuda.is_available() else 0",
        cuda_max_memory_allocated
    ),
    row!(
        Module,
        "cuda.empty_cache",
        "torch.cuda.empty_cache()",
        "Give the cached freed buffers back to the driver.",
        "torch.cuda.empty_cache()",
        cuda_empty_cache
    ),
    row!(
        Module,
        "cuda.manual_seed",
        "torch.cuda.manual_seed(seed)",
        "Seed the CUDA generator (Philox; torch.manual_seed seeds it too).",
        "torch.cuda.manual_seed(0)",
        cuda_manual_seed
    ),
    row!(
        Module,
        "cuda.manual_seed_all",
        "torch.cuda.manual_seed_all(seed)",
        "Seed every CUDA device's generator.",
        "torch.cuda.manual_seed_all(0)",
        cuda_manual_seed
    ),
    row!(
        Module,
        "accelerator.is_available",
        "torch.accelerator.is_available()",
        "Whether an accelerator (a CUDA GPU for tsh) can be used.",
        "torch.accelerator.is_available()",
        cuda_is_available
    ),
    row!(
        Module,
        "accelerator.current_accelerator",
        "torch.accelerator.current_accelerator()",
        "The accelerator's device, or None when there is none.",
        "torch.accelerator.current_accelerator()",
        current_accelerator
    ),
    row!(
        Module,
        "mps.is_available",
        "torch.backends.mps.is_available()",
        "Whether Apple's Metal GPU can be used (never, in tsh).",
        "torch.backends.mps.is_available()",
        mps_is_available
    ),
];

/// The submodules these rows live in, under their parent.
pub fn submodule(module: &str, name: &str) -> Option<&'static str> {
    Some(match (module, name) {
        ("torch", "cuda") => "torch.cuda",
        ("torch", "accelerator") => "torch.accelerator",
        ("torch", "backends") => "torch.backends",
        ("torch", "distributions") => "torch.distributions",
        ("torch", "utils") => "torch.utils",
        ("torch", "jit") => "torch.jit",
        ("torch.backends", "mkldnn") => "torch.backends.mkldnn",
        ("torch.backends", "cpu") => "torch.backends.cpu",
        ("torch.utils", "data") => "torch.utils.data",
        ("torch.utils", "benchmark") => "torch.utils.benchmark",
        ("torch.backends", "mps") => "torch.backends.mps",
        _ => return None,
    })
}

fn cuda_present() -> bool {
    Device::Cuda(0).check_available().is_ok()
}

/// The device index a `device=` argument names (None: cuda:0).
fn cuda_index(a: &mut Args) -> Result<usize> {
    match a.take("device") {
        None | Some((Value::None, _)) => Ok(0),
        Some((Value::Int(i), _)) if i >= 0 => Ok(i as usize),
        Some((v, s)) => match convert::to_device(&v).map_err(|e| e.at(s))? {
            Device::Cuda(i) => Ok(i),
            Device::Cpu => {
                Err(crate::error::value_err("Expected a cuda device, but got: cpu").at(s))
            }
        },
    }
}

/// The opened device `index`, or the error that says why there is none.
fn opened(index: usize) -> Result<std::sync::Arc<crate::backend::cuda::device::Gpu>> {
    Device::Cuda(index).check_available()?;
    crate::backend::cuda::gpu(index)
}

fn cuda_device_name(_: &mut Interp, mut a: Args) -> Result<Value> {
    let i = cuda_index(&mut a)?;
    a.finish()?;
    Ok(Value::str(&opened(i)?.name))
}

fn cuda_current_device(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    opened(0)?;
    Ok(Value::Int(0))
}

fn cuda_synchronize(_: &mut Interp, mut a: Args) -> Result<Value> {
    let i = cuda_index(&mut a)?;
    a.finish()?;
    opened(i)?;
    crate::backend::cuda::synchronize(i)?;
    Ok(Value::None)
}

/// (allocated, reserved, peak) bytes of a device, all 0 where CUDA never started.
fn memory(a: &mut Args) -> Result<(usize, usize, usize)> {
    let i = cuda_index(a)?;
    Ok(if cuda_present() {
        crate::backend::cuda::memory_stats(&*opened(i)?)
    } else {
        (0, 0, 0)
    })
}

fn cuda_memory_allocated(_: &mut Interp, mut a: Args) -> Result<Value> {
    let m = memory(&mut a)?;
    a.finish()?;
    Ok(Value::Int(m.0 as i64))
}

fn cuda_memory_reserved(_: &mut Interp, mut a: Args) -> Result<Value> {
    let m = memory(&mut a)?;
    a.finish()?;
    Ok(Value::Int(m.1 as i64))
}

fn cuda_max_memory_allocated(_: &mut Interp, mut a: Args) -> Result<Value> {
    let m = memory(&mut a)?;
    a.finish()?;
    Ok(Value::Int(m.2 as i64))
}

fn cuda_empty_cache(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    if cuda_present() {
        for i in 0..crate::backend::cuda::device_count() {
            crate::backend::cuda::empty_cache(&*opened(i)?)?;
        }
    }
    Ok(Value::None)
}

fn cuda_manual_seed(_: &mut Interp, mut a: Args) -> Result<Value> {
    let seed = a.int("seed")?;
    a.finish()?;
    crate::backend::cuda::random::manual_seed(seed as u64);
    Ok(Value::None)
}

fn device(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (v, s) = a
        .take("type")
        .ok_or_else(|| crate::error::type_err("device() missing required argument 'type'"))?;
    let index = a.opt_int("index")?;
    a.finish()?;
    let d = convert::to_device(&v).map_err(|e| e.at(s))?;
    let type_only = matches!(&v, Value::Str(t) if &**t == "cuda") && index.is_none();
    Ok(match (d, index) {
        (Device::Cuda(_), _) if type_only => Value::DeviceType(d),
        (Device::Cuda(_), Some(i)) if i >= 0 => Value::Device(Device::Cuda(i as usize)),
        (d, _) => Value::Device(d),
    })
}

fn cuda_is_available(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(cuda_present()))
}

fn cuda_device_count(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(crate::backend::cuda::device_count() as i64))
}

fn current_accelerator(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(if cuda_present() {
        Value::Device(Device::Cuda(0))
    } else {
        Value::None
    })
}

fn mps_is_available(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(false))
}
