//! Complex tensors (complex64, complex128) over real storage. A complex tensor's
//! buffer holds (re, im) pairs of its part dtype, and its layout counts complex
//! elements; `view_as_real` shows the same buffer as a real tensor with a last
//! dim of 2 (PyTorch's view), and `view_as_complex` goes back. Complex math is
//! written over those real views, so it runs on every device and the backends
//! never see a complex dtype.

use crate::backend::HostBuffer;
use crate::error::{Result, dtype_err, shape_err};
use crate::tensor::core::Tensor;
use crate::tensor::device::Device;
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::warnings::{WarningKind, warn};

impl Tensor {
    /// torch.view_as_real: the (re, im) pairs as a real view, shape `[..., 2]`.
    pub fn view_as_real(&self) -> Result<Tensor> {
        if !self.dtype().is_complex() {
            return Err(dtype_err(
                "view_as_real is only supported for complex tensors",
            ));
        }
        let l = self.layout();
        let mut shape = l.shape.clone();
        shape.push(2);
        let mut strides: Vec<usize> = l.strides.iter().map(|s| s * 2).collect();
        strides.push(1);
        let layout = Layout {
            shape,
            strides: strides.into(),
            offset: l.offset * 2,
        };
        Ok(self.reinterpret(self.dtype().real_part(), layout))
    }

    /// torch.view_as_complex: a float32/float64 tensor whose last dim holds
    /// (re, im) pairs, seen as complex.
    pub fn view_as_complex(&self) -> Result<Tensor> {
        let d = self.dtype();
        if !matches!(d, DType::F32 | DType::F64) {
            return Err(dtype_err(format!(
                "view_as_complex is only supported for float and double tensors, but got a tensor of scalar type: {}",
                d.torch_scalar_name()
            )));
        }
        let l = self.layout();
        if l.shape.last() != Some(&2) {
            return Err(shape_err("Tensor must have a last dimension of size 2"));
        }
        let n = l.ndim() - 1;
        if l.strides[n] != 1 {
            return Err(shape_err("Tensor must have a last dimension with stride 1"));
        }
        if l.strides[..n].iter().any(|s| !s.is_multiple_of(2)) {
            return Err(shape_err(
                "Tensor must have a stride divisible by 2 for all but last dimension",
            ));
        }
        if !l.offset.is_multiple_of(2) {
            return Err(shape_err(
                "Tensor must have a storage_offset divisible by 2",
            ));
        }
        let layout = Layout {
            shape: crate::tensor::layout::Dims::from_slice(&l.shape[..n]),
            strides: l.strides[..n].iter().map(|s| s / 2).collect(),
            offset: l.offset / 2,
        };
        Ok(self.reinterpret(d.to_complex(), layout))
    }

    /// A complex tensor of `shape` from host data holding its (re, im) pairs.
    pub fn complex_from_host(
        h: HostBuffer,
        shape: &[usize],
        device: Device,
        dtype: DType,
    ) -> Result<Tensor> {
        let mut pairs = shape.to_vec();
        pairs.push(2);
        let real = Tensor::from_host(h, &pairs, device)?.to_dtype(dtype.real_part())?;
        real.view_as_complex()
    }

    /// The real and imaginary parts as views (real tensors of the part dtype).
    pub fn parts(&self) -> Result<(Tensor, Tensor)> {
        let r = self.view_as_real()?;
        Ok((
            crate::tensor::ops::view::select(&r, self.ndim(), 0)?,
            crate::tensor::ops::view::select(&r, self.ndim(), 1)?,
        ))
    }
}

/// A complex number from real and imaginary parts of one float dtype
/// (broadcast together): torch.complex.
pub fn from_parts(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    let joined = crate::tensor::ops::join::stack(&[re.clone(), im.clone()], -1)?;
    joined.contiguous()?.view_as_complex()
}

/// A copy of `t` in `dtype` when either side is complex: complex to complex
/// converts the parts; real to complex has a zero imaginary part; complex to
/// real keeps the real part (and warns, as PyTorch does).
pub fn cast(t: &Tensor, dtype: DType) -> Result<Tensor> {
    if t.requires_grad() && crate::autograd::is_enabled() {
        // Complex math is built over real views that record no history: a
        // gradient would be silently lost, so say so instead.
        return Err(dtype_err(format!(
            "tsh cannot differentiate through complex numbers yet (a {} tensor that requires grad became {dtype})",
            t.dtype()
        ))
        .hint("compute on t.detach(), or keep the math real"));
    }
    let part = dtype.real_part();
    // Always a fresh buffer: the result must not share the input's storage.
    let fresh = |x: Tensor, d: DType| {
        if x.dtype() == d {
            x.deep_clone()
        } else {
            x.to_dtype(d)
        }
    };
    crate::autograd::no_grad(|| match (t.dtype().is_complex(), dtype.is_complex()) {
        (true, true) => fresh(t.view_as_real()?, part)?.view_as_complex(),
        (true, false) => {
            warn(
                WarningKind::User,
                "Casting complex values to real discards the imaginary part",
            );
            fresh(t.parts()?.0, dtype)
        }
        (false, _) => {
            let re = t.to_dtype(part)?;
            let im = crate::tensor::ops::creation::zeros_on(t.shape(), part, t.device())?;
            from_parts(&re, &im)
        }
    })
}
