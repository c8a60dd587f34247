//! torch.fft's functions (the transforms are tensor/ops/fft.rs).

use super::Builtin;
use crate::error::Result;
use crate::op;
use crate::tensor::ops::fft::{self as f, Norm};
use crate::tensor::{DType, Device, Tensor};

pub const ROWS: &[Builtin] = &[
    op!(
        Module,
        "fft.fft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The discrete Fourier transform along dim (of length n: cut or zero-padded).",
        "torch.fft.fft(arange(4))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::fft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.ifft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The inverse discrete Fourier transform along dim.",
        "torch.fft.ifft(tensor([6.+0j, -2+2j, -2, -2-2j]))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::ifft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.rfft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The Fourier transform of a real signal: its n/2 + 1 non-negative frequencies.",
        "torch.fft.rfft(arange(4))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::rfft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.irfft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The real signal (of length n, default 2(m-1)) whose rfft is the input.",
        "torch.fft.irfft(tensor([6.+0j, -2+2j, -2]))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::irfft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.hfft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The real transform of a Hermitian signal given by its first half.",
        "torch.fft.hfft(tensor([1.+0j, 2, 3]))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::hfft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.ihfft(Tensor input, int? n=None, int dim=-1, str? norm=None) -> Tensor",
        "The first half of the inverse transform of a real signal.",
        "torch.fft.ihfft(arange(5))",
        |input: Tensor, n: Option<i64>, dim: i64, norm: Option<String>| f::ihfft(
            &input,
            n,
            dim,
            Norm::parse(norm.as_deref())?
        )
    ),
    op!(
        Module,
        "fft.fftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The n-dimensional discrete Fourier transform over dim (default all dims).",
        "torch.fft.fftn(ones(2, 2))",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::fftn(&input, s.as_deref(), dim.as_deref(), norm, false)
        }
    ),
    op!(
        Module,
        "fft.ifftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The n-dimensional inverse discrete Fourier transform.",
        "torch.fft.ifftn(ones(2, 2))",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::fftn(&input, s.as_deref(), dim.as_deref(), norm, true)
        }
    ),
    op!(
        Module,
        "fft.fft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The 2-dimensional discrete Fourier transform over the last two dims.",
        "torch.fft.fft2(ones(2, 2))",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::fftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
                false,
            )
        }
    ),
    op!(
        Module,
        "fft.ifft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The 2-dimensional inverse discrete Fourier transform.",
        "torch.fft.ifft2(ones(2, 2))",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::fftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
                true,
            )
        }
    ),
    op!(
        Module,
        "fft.rfftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The n-dimensional transform of a real signal (rfft over the last dim).",
        "torch.fft.rfftn(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::rfftn(&input, s.as_deref(), dim.as_deref(), norm)
        }
    ),
    op!(
        Module,
        "fft.irfftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The inverse of rfftn: a real signal.",
        "torch.fft.irfftn(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::irfftn(&input, s.as_deref(), dim.as_deref(), norm)
        }
    ),
    op!(
        Module,
        "fft.hfftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The n-dimensional transform of a Hermitian signal (real result).",
        "torch.fft.hfftn(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::hfftn(&input, s.as_deref(), dim.as_deref(), norm)
        }
    ),
    op!(
        Module,
        "fft.ihfftn(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "The inverse of hfftn: the half spectrum of a real signal.",
        "torch.fft.ihfftn(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::ihfftn(&input, s.as_deref(), dim.as_deref(), norm)
        }
    ),
    op!(
        Module,
        "fft.rfft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "rfftn over the last two dims.",
        "torch.fft.rfft2(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::rfftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
            )
        }
    ),
    op!(
        Module,
        "fft.irfft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "irfftn over the last two dims.",
        "torch.fft.irfft2(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::irfftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
            )
        }
    ),
    op!(
        Module,
        "fft.hfft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "hfftn over the last two dims.",
        "torch.fft.hfft2(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::hfftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
            )
        }
    ),
    op!(
        Module,
        "fft.ihfft2(Tensor input, int[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor",
        "ihfftn over the last two dims.",
        "torch.fft.ihfft2(ones(2, 2)).shape",
        |input: Tensor, s: Option<Vec<i64>>, dim: Option<Vec<i64>>, norm: Option<String>| {
            let norm = Norm::parse(norm.as_deref())?;
            f::ihfftn(
                &input,
                s.as_deref(),
                Some(&dim.unwrap_or(vec![-2, -1])),
                norm,
            )
        }
    ),
    op!(
        Module,
        "fft.fftfreq(int n, float d=1.0, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
        "The sample frequencies of an n-point transform with spacing d: [0, 1, ..., -2, -1] / (d n).",
        "torch.fft.fftfreq(5)",
        |n: i64, d: f64, dtype: Option<DType>, device: Option<Device>| freq(
            f::fftfreq,
            n,
            d,
            dtype,
            device
        )
    ),
    op!(
        Module,
        "fft.rfftfreq(int n, float d=1.0, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
        "The non-negative sample frequencies of an n-point rfft: [0, ..., n/2] / (d n).",
        "torch.fft.rfftfreq(5)",
        |n: i64, d: f64, dtype: Option<DType>, device: Option<Device>| freq(
            f::rfftfreq,
            n,
            d,
            dtype,
            device
        )
    ),
    op!(
        Module,
        "fft.fftshift(Tensor input, int[1]? dim=None) -> Tensor",
        "The zero frequency moved to the centre: each dim rolled by half its length.",
        "torch.fft.fftshift(torch.fft.fftfreq(5))",
        |input: Tensor, dim: Option<Vec<i64>>| f::fftshift(&input, dim.as_deref(), false)
    ),
    op!(
        Module,
        "fft.ifftshift(Tensor input, int[1]? dim=None) -> Tensor",
        "The inverse of fftshift.",
        "torch.fft.ifftshift(torch.fft.fftshift(torch.fft.fftfreq(5)))",
        |input: Tensor, dim: Option<Vec<i64>>| f::fftshift(&input, dim.as_deref(), true)
    ),
];

type Freq = fn(i64, f64, DType, Device) -> Result<Tensor>;

/// fftfreq and rfftfreq with PyTorch's defaults: the default float dtype, the CPU.
fn freq(f: Freq, n: i64, d: f64, dtype: Option<DType>, device: Option<Device>) -> Result<Tensor> {
    f(
        n,
        d,
        dtype.unwrap_or(crate::tensor::dtype::default_float()),
        device.unwrap_or(Device::Cpu),
    )
}
