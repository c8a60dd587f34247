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
        ("torch.utils", "data") => "torch.utils.data",
        ("torch.backends", "mps") => "torch.backends.mps",
        _ => return None,
    })
}

fn cuda_present() -> bool {
    Device::Cuda(0).check_available().is_ok()
}

fn device(_: &mut Interp, mut a: Args) -> Result<Value> {
    let (v, s) = a
        .take("type")
        .ok_or_else(|| crate::error::type_err("device() missing required argument 'type'"))?;
    let index = a.opt_int("index")?;
    a.finish()?;
    let d = convert::to_device(&v).map_err(|e| e.at(s))?;
    Ok(Value::Device(match (d, index) {
        (Device::Cuda(_), Some(i)) if i >= 0 => Device::Cuda(i as usize),
        (d, _) => d,
    }))
}

fn cuda_is_available(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Bool(cuda_present()))
}

fn cuda_device_count(_: &mut Interp, a: Args) -> Result<Value> {
    a.finish()?;
    Ok(Value::Int(cuda_present() as i64))
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
