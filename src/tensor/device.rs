//! Devices a tensor can live on.

use crate::error::{Result, device_err};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Device {
    Cpu,
    Cuda(usize),
}

impl Device {
    /// PyTorch's `device.type`: "cpu" or "cuda".
    pub fn kind(&self) -> &'static str {
        match self {
            Device::Cpu => "cpu",
            Device::Cuda(_) => "cuda",
        }
    }

    pub fn parse(s: &str) -> Result<Device> {
        let s = s.trim();
        if s == "cpu" {
            return Ok(Device::Cpu);
        }
        if s == "cuda" {
            return Ok(Device::Cuda(0));
        }
        if let Some(n) = s.strip_prefix("cuda:")
            && let Ok(i) = n.parse::<usize>()
        {
            return Ok(Device::Cuda(i));
        }
        Err(device_err(format!("unknown device '{s}'"))
            .hint("devices are written \"cpu\", \"cuda\" or \"cuda:N\""))
    }

    /// Can tensors be put on this device? (CUDA needs the driver, NVRTC and
    /// cuBLAS libraries and a GPU; without them this is a clear `device` error.)
    pub fn check_available(self) -> Result<()> {
        match self {
            Device::Cpu => Ok(()),
            Device::Cuda(i) => crate::backend::cuda::check(i),
        }
    }
}

thread_local! {
    /// Where creation functions put tensors when no device= is given
    /// (torch.set_default_device); one per interpreter thread.
    static DEFAULT: std::cell::Cell<Device> = const { std::cell::Cell::new(Device::Cpu) };
}

pub fn default_device() -> Device {
    DEFAULT.with(|d| d.get())
}

pub fn set_default_device(d: Device) {
    DEFAULT.with(|c| c.set(d));
}

impl std::fmt::Display for Device {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Device::Cpu => f.write_str("cpu"),
            Device::Cuda(i) => write!(f, "cuda:{i}"),
        }
    }
}
