//! Element-wise primitives on the device: casts and copies (kernels/copy.cu),
//! unary, predicate, binary and ternary ops (kernels/elementwise.cu).

use cudarc::driver::PushKernelArg;

use super::CudaStorage;
use super::kernels::{Source, dtype_code, merged, suffix};
use crate::error::{Result, value_err};
use crate::tensor::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, PredicateOp, TernaryOp, UnaryOp};

/// A fresh contiguous buffer of `n` elements of `dtype` on `like`'s device.
fn output(like: &CudaStorage, n: usize, dtype: DType) -> Result<CudaStorage> {
    CudaStorage::empty(like.gpu(), n, dtype)
}

pub fn cast(s: &CudaStorage, l: &Layout, to: DType) -> Result<CudaStorage> {
    let n = l.numel();
    let out = output(s, n, to)?;
    if n == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let (n64, ls) = (n as i64, merged(&[l])?);
    let (inp, outp) = (s.ptr(), out.ptr());
    if s.dtype == to {
        // A gather: copy_T(n, dst layout, dst, src layout, src).
        let dl = super::kernels::Strided::contiguous(&[n])?;
        let name = format!("copy_{}", suffix(to));
        launch!(gpu, Source::Copy, &name, n; n64, dl, outp, ls[0], inp)?;
    } else {
        let to_code = dtype_code(to);
        let name = format!("cast_{}", suffix(s.dtype));
        launch!(gpu, Source::Copy, &name, n; n64, to_code, ls[0], inp, outp)?;
    }
    Ok(out)
}

pub fn copy_into(dst: &mut CudaStorage, l: &Layout, src: &CudaStorage, sl: &Layout) -> Result<()> {
    if dst.dtype != src.dtype {
        return Err(value_err(
            "internal: a copy between dtypes reached the backend",
        ));
    }
    let n = l.numel();
    if n == 0 {
        return Ok(());
    }
    let gpu = dst.gpu().clone();
    let ls = merged(&[l, sl])?;
    let (n64, d, s) = (n as i64, dst.ptr(), src.ptr());
    let name = format!("copy_{}", suffix(dst.dtype));
    launch!(gpu, Source::Copy, &name, n; n64, ls[0], d, ls[1], s)
}

/// torch.flip: the copy kernel reading a layout whose flipped dims start at
/// their far end and step backwards (kernel strides are signed).
pub fn flip(s: &CudaStorage, l: &Layout, dims: &[usize]) -> Result<CudaStorage> {
    let n = l.numel();
    let out = output(s, n, s.dtype)?;
    if n == 0 {
        return Ok(out);
    }
    let mut sl = super::kernels::Strided::exact(l)?;
    for &d in dims {
        sl.offset += (sl.shape[d] - 1) * sl.stride[d];
        sl.stride[d] = -sl.stride[d];
    }
    let dl = super::kernels::Strided::contiguous(&l.shape)?;
    let (n64, gpu, inp, outp) = (n as i64, s.gpu(), s.ptr(), out.ptr());
    let name = format!("copy_{}", suffix(s.dtype));
    launch!(gpu, Source::Copy, &name, n; n64, dl, outp, sl, inp)?;
    Ok(out)
}

/// nan_to_num: NaN, +inf and -inf replaced by `with` (the kernel rounds each
/// to the dtype).
pub fn nan_to_num(s: &CudaStorage, l: &Layout, with: [f64; 3]) -> Result<CudaStorage> {
    if !s.dtype.is_float() {
        return Err(value_err("internal: nan_to_num of a dtype without NaN"));
    }
    let n = l.numel();
    let out = output(s, n, s.dtype)?;
    if n == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let (n64, ls, inp, outp) = (n as i64, merged(&[l])?, s.ptr(), out.ptr());
    let [nan, pos, neg] = with;
    let name = format!("nan_to_num_{}", suffix(s.dtype));
    launch!(gpu, Source::Elementwise, &name, n; n64, ls[0], inp, outp, nan, pos, neg)?;
    Ok(out)
}

/// `kernel(n, op, layout, in, out)` of the Elementwise module.
fn one_operand(
    s: &CudaStorage,
    l: &Layout,
    kernel: &str,
    op: i32,
    out_dtype: DType,
) -> Result<CudaStorage> {
    let n = l.numel();
    let out = output(s, n, out_dtype)?;
    if n == 0 {
        return Ok(out);
    }
    let gpu = s.gpu();
    let (n64, ls, inp, outp) = (n as i64, merged(&[l])?, s.ptr(), out.ptr());
    let name = format!("{kernel}_{}", suffix(s.dtype));
    launch!(gpu, Source::Elementwise, &name, n; n64, op, ls[0], inp, outp)?;
    Ok(out)
}

pub fn unary(s: &CudaStorage, l: &Layout, op: UnaryOp) -> Result<CudaStorage> {
    one_operand(s, l, "unary", op as i32, s.dtype)
}

pub fn predicate(s: &CudaStorage, l: &Layout, op: PredicateOp) -> Result<CudaStorage> {
    one_operand(s, l, "predicate", op as i32, DType::Bool)
}

pub fn binary(
    a: &CudaStorage,
    la: &Layout,
    b: &CudaStorage,
    lb: &Layout,
    op: BinaryOp,
) -> Result<CudaStorage> {
    let n = la.numel();
    let compare = op.is_comparison();
    let out = output(a, n, if compare { DType::Bool } else { a.dtype })?;
    if n == 0 {
        return Ok(out);
    }
    let gpu = a.gpu();
    let ls = merged(&[la, lb])?;
    let (n64, code, ap, bp, outp) = (n as i64, op as i32, a.ptr(), b.ptr(), out.ptr());
    let kernel = if compare { "compare" } else { "binary" };
    let name = format!("{kernel}_{}", suffix(a.dtype));
    // Integer division by zero is an error (integers have no inf): the kernel
    // raises a flag the host reads, for the integer divisions only.
    use BinaryOp::*;
    let divides = !a.dtype.is_float() && matches!(op, Div | FloorDiv | Rem | Fmod);
    let flag = if divides {
        let mut f = CudaStorage::empty(gpu, 1, DType::I64)?;
        f.write_bytes(&[0u8; 8])?;
        Some(f)
    } else {
        None
    };
    // Without a division the flag is never written; any valid address will do.
    let errp = flag.as_ref().map_or(outp, |f| f.ptr());
    if compare {
        launch!(gpu, Source::Elementwise, &name, n; n64, code, ls[0], ap, ls[1], bp, outp)?;
    } else {
        launch!(gpu, Source::Elementwise, &name, n; n64, code, ls[0], ap, ls[1], bp, outp, errp)?;
    }
    if let Some(flag) = flag {
        let raised = super::host_from_device(gpu, &flag, 0, 1)?.get_i64(0);
        if raised != 0 {
            return Err(value_err("integer division by zero").hint(
                "integer tensors have no inf or nan; convert to float first (e.g. a.float() / b) to get inf",
            ));
        }
    }
    Ok(out)
}

pub fn ternary(
    a: &CudaStorage,
    la: &Layout,
    b: (&CudaStorage, &Layout),
    c: (&CudaStorage, &Layout),
    op: TernaryOp,
) -> Result<CudaStorage> {
    let n = la.numel();
    // where's first operand is the bool condition; the values are b and c.
    let dtype = b.0.dtype;
    if c.0.dtype != dtype || (op != TernaryOp::Where && a.dtype != dtype) {
        return Err(value_err(
            "internal: the operands of a ternary op differ in dtype",
        ));
    }
    let out = output(a, n, dtype)?;
    if n == 0 {
        return Ok(out);
    }
    let gpu = a.gpu();
    let ls = merged(&[la, b.1, c.1])?;
    let (n64, code) = (n as i64, op as i32);
    let (ap, bp, cp, outp) = (a.ptr(), b.0.ptr(), c.0.ptr(), out.ptr());
    let name = format!("ternary_{}", suffix(dtype));
    launch!(gpu, Source::Elementwise, &name, n; n64, code, ls[0], ap, ls[1], bp, ls[2], cp, outp)?;
    Ok(out)
}
