//! Complex math over the real parts (see `tensor::complex`): each op is a
//! composite of real tensor ops on the (re, im) parts, so it runs on every
//! device. What is not written here is refused with PyTorch's message rather
//! than computed on the wrong data.

use crate::error::{Error, Result, dtype_err};
use crate::tensor::complex::from_parts;
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, mul, neg, num, sub, un, where_};
use crate::tensor::promote::result_type;

/// PyTorch's refusal of an op without a complex kernel.
pub fn not_implemented(what: &str, d: DType) -> Error {
    dtype_err(format!(
        "\"{what}\" not implemented for '{}'",
        d.torch_scalar_name()
    ))
}

/// A complex tensor's parts; a real tensor is its own real part.
fn parts(t: &Tensor, d: DType) -> Result<(Tensor, Tensor)> {
    t.to_dtype(d)?.parts()
}

/// Both operands on one device: a Python number (which goes anywhere) moves to
/// the other's device, since its parts are no longer numbers.
fn together(a: &Tensor, b: &Tensor) -> Result<(Tensor, Tensor)> {
    let device = crate::tensor::ops::elementwise::check_same_device(a, b, "complex op")?;
    Ok((a.to_device(device)?, b.to_device(device)?))
}

/// `a op b` where either side is complex.
pub fn binary(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let d = result_type(&[a.operand(), b.operand()]);
    let d = if d.is_complex() { d } else { d.to_complex() };
    let scalar_exponent = (op == BinaryOp::Pow && b.is_wrapped_number()).then(|| b.clone());
    let (a, b) = &together(a, b)?;
    let both = |f: fn(&Tensor, &Tensor) -> Result<Tensor>| -> Result<Tensor> {
        let (x, y) = (
            a.to_dtype(d)?.view_as_real()?,
            b.to_dtype(d)?.view_as_real()?,
        );
        f(&x, &y)?.contiguous()?.view_as_complex()
    };
    match op {
        BinaryOp::Add => both(add),
        BinaryOp::Sub => both(sub),
        BinaryOp::Mul => multiply(&parts(a, d)?, &parts(b, d)?),
        BinaryOp::Div => divide(&parts(a, d)?, &parts(b, d)?),
        BinaryOp::Pow => power(a, b, scalar_exponent.as_ref(), d),
        BinaryOp::Eq | BinaryOp::Ne => {
            let ((ar, ai), (br, bi)) = (parts(a, d)?, parts(b, d)?);
            let re = cmp(op, &ar, &br)?;
            let im = cmp(op, &ai, &bi)?;
            let join = if op == BinaryOp::Eq {
                BinaryOp::LogicalAnd
            } else {
                BinaryOp::LogicalOr
            };
            bin(join, &re, &im)
        }
        _ => Err(not_implemented(op.row().name, d)),
    }
}

fn multiply(a: &(Tensor, Tensor), b: &(Tensor, Tensor)) -> Result<Tensor> {
    let re = sub(&mul(&a.0, &b.0)?, &mul(&a.1, &b.1)?)?;
    let im = add(&mul(&a.0, &b.1)?, &mul(&a.1, &b.0)?)?;
    from_parts(&re, &im)
}

/// c10::complex's division: scaled by the divisor's larger part (as NumPy), so
/// it neither overflows nor loses the small part; x / 0 is inf or nan.
fn divide(a: &(Tensor, Tensor), b: &(Tensor, Tensor)) -> Result<Tensor> {
    let ((x, y), (c, d)) = (a, b);
    let (abs_c, abs_d) = (un(UnaryOp::Abs, c)?, un(UnaryOp::Abs, d)?);
    // |c| >= |d|: rat = d / c, scale = 1 / (c + d rat).
    let rat1 = div(d, c)?;
    let scl1 = div(&num(1.0), &add(c, &mul(d, &rat1)?)?)?;
    let re1 = mul(&add(x, &mul(y, &rat1)?)?, &scl1)?;
    let im1 = mul(&sub(y, &mul(x, &rat1)?)?, &scl1)?;
    // |c| < |d|: rat = c / d, scale = 1 / (d + c rat).
    let rat2 = div(c, d)?;
    let scl2 = div(&num(1.0), &add(d, &mul(c, &rat2)?)?)?;
    let re2 = mul(&add(&mul(x, &rat2)?, y)?, &scl2)?;
    let im2 = mul(&sub(&mul(y, &rat2)?, x)?, &scl2)?;
    // Both parts zero: each part of x divided by zero.
    let zero = bin(
        BinaryOp::LogicalAnd,
        &cmp(BinaryOp::Eq, &abs_c, &num(0.0))?,
        &cmp(BinaryOp::Eq, &abs_d, &num(0.0))?,
    )?;
    let first = cmp(BinaryOp::Ge, &abs_c, &abs_d)?;
    let re = where_(&first, &re1, &re2)?;
    let im = where_(&first, &im1, &im2)?;
    let re = where_(&zero, &div(x, &abs_c)?, &re)?;
    let im = where_(&zero, &div(y, &abs_d)?, &im)?;
    from_parts(&re, &im)
}

/// z ** w: small integer powers by products (as PyTorch's pow special-cases
/// them, exactly), the rest as exp(w log z).
fn power(a: &Tensor, b: &Tensor, number: Option<&Tensor>, d: DType) -> Result<Tensor> {
    let z = a.to_dtype(d)?;
    if let Some(n) = number.filter(|n| !n.dtype().is_complex()) {
        let e = crate::tensor::ops::scalar::item_f64(n)?;
        let zp = z.parts()?;
        if e == 2.0 {
            return multiply(&zp, &zp);
        }
        if e == 3.0 {
            let sq = multiply(&zp, &zp)?;
            return multiply(&sq.parts()?, &zp);
        }
        if e == 1.0 {
            return z.deep_clone();
        }
        if e == -1.0 {
            return unary(UnaryOp::Reciprocal, &z);
        }
        if e == 0.5 {
            return unary(UnaryOp::Sqrt, &z);
        }
    }
    let logz = unary(UnaryOp::Log, &z)?;
    let w = b.to_dtype(d)?;
    unary(UnaryOp::Exp, &binary(BinaryOp::Mul, &w, &logz)?)
}

/// The unary ops complex numbers have. abs gives the real magnitude.
pub fn unary(op: UnaryOp, z: &Tensor) -> Result<Tensor> {
    use UnaryOp as U;
    let (a, b) = z.parts()?;
    let f = |op: UnaryOp, x: &Tensor| un(op, x);
    let (re, im) = match op {
        U::Neg => (neg(&a)?, neg(&b)?),
        U::Abs => return bin(BinaryOp::Hypot, &a, &b),
        U::Square => return multiply(&(a.clone(), b.clone()), &(a, b)),
        U::Reciprocal => {
            let full = |v: i64| {
                crate::tensor::ops::creation::full_on(
                    &[],
                    crate::backend::Scalar::int(v),
                    a.dtype(),
                    a.device(),
                )
            };
            let (one, zero) = (full(1)?, full(0)?);
            return divide(&(one, zero), &(a, b));
        }
        U::Exp => {
            let r = f(U::Exp, &a)?;
            (mul(&r, &f(U::Cos, &b)?)?, mul(&r, &f(U::Sin, &b)?)?)
        }
        U::Log => (
            f(U::Log, &bin(BinaryOp::Hypot, &a, &b)?)?,
            bin(BinaryOp::Atan2, &b, &a)?,
        ),
        U::Sqrt => {
            // The principal root: re = sqrt((|z| + a) / 2), im = ±sqrt((|z| - a) / 2)
            // with the sign of b.
            let r = bin(BinaryOp::Hypot, &a, &b)?;
            let half = |x: Tensor| -> Result<Tensor> { f(U::Sqrt, &mul(&x, &num(0.5))?) };
            let re = half(add(&r, &a)?)?;
            let im = half(sub(&r, &a)?)?;
            (re, bin(BinaryOp::Copysign, &im, &b)?)
        }
        U::Sin => (
            mul(&f(U::Sin, &a)?, &f(U::Cosh, &b)?)?,
            mul(&f(U::Cos, &a)?, &f(U::Sinh, &b)?)?,
        ),
        U::Cos => (
            mul(&f(U::Cos, &a)?, &f(U::Cosh, &b)?)?,
            neg(&mul(&f(U::Sin, &a)?, &f(U::Sinh, &b)?)?)?,
        ),
        U::Sinh => (
            mul(&f(U::Sinh, &a)?, &f(U::Cos, &b)?)?,
            mul(&f(U::Cosh, &a)?, &f(U::Sin, &b)?)?,
        ),
        U::Cosh => (
            mul(&f(U::Cosh, &a)?, &f(U::Cos, &b)?)?,
            mul(&f(U::Sinh, &a)?, &f(U::Sin, &b)?)?,
        ),
        U::Tanh => {
            let s = unary(U::Sinh, z)?;
            let c = unary(U::Cosh, z)?;
            return divide(&s.parts()?, &c.parts()?);
        }
        _ => return Err(not_implemented(op.name(), z.dtype())),
    };
    from_parts(&re, &im)
}

/// sum, mean and prod over dims of a complex tensor (sum and mean part by part).
pub fn reduce(t: &Tensor, op: ReduceOp, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    if !matches!(op, ReduceOp::Sum | ReduceOp::Mean) {
        return Err(not_implemented(op.name(), t.dtype()));
    }
    let nd = t.ndim();
    // The real view has one more dim (the pair) that is never reduced.
    let dims: Vec<i64> = match dims {
        Some(ds) if !ds.is_empty() => ds
            .iter()
            .map(|&d| crate::tensor::shape::normalize_dim(d, nd).map(|d| d as i64))
            .collect::<Result<_>>()?,
        _ => (0..nd as i64).collect(),
    };
    if dims.is_empty() {
        return t.deep_clone();
    }
    let r = crate::tensor::ops::reduce::reduce(&t.view_as_real()?, op, Some(&dims), keepdim)?;
    r.contiguous()?.view_as_complex()
}

/// The complex matrix product from four real ones.
pub fn matmul(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let d = result_type(&[a.operand(), b.operand()]).to_complex();
    crate::tensor::ops::elementwise::check_same_device(a, b, "matmul")?;
    let ((ar, ai), (br, bi)) = (parts(a, d)?, parts(b, d)?);
    let mm = crate::tensor::ops::matmul::matmul;
    let re = sub(&mm(&ar, &br)?, &mm(&ai, &bi)?)?;
    let im = add(&mm(&ar, &bi)?, &mm(&ai, &br)?)?;
    from_parts(&re, &im)
}

/// torch.angle: the argument of each element (0 or pi for real numbers).
pub fn angle(t: &Tensor) -> Result<Tensor> {
    if t.dtype().is_complex() {
        let (a, b) = t.parts()?;
        return bin(BinaryOp::Atan2, &b, &a);
    }
    let x = t.to_dtype(crate::tensor::promote::to_float(t.dtype()))?;
    let pi = where_(
        &cmp(BinaryOp::Lt, &x, &num(0.0))?,
        &num(std::f64::consts::PI),
        &num(0.0),
    )?;
    // NaN stays NaN.
    let nan =
        crate::tensor::ops::elementwise::predicate(crate::tensor::op::PredicateOp::IsNan, &x)?;
    where_(&nan, &x, &pi)?.to_dtype(x.dtype())
}

/// torch.conj (materialised: tsh has no lazy conjugate bit).
pub fn conj(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Ok(t.clone());
    }
    let (a, b) = t.parts()?;
    from_parts(&a, &neg(&b)?)
}

/// torch.sgn: z / |z| (0 at 0); the sign for real tensors.
pub fn sgn(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return un(UnaryOp::Sign, t);
    }
    let (a, b) = t.parts()?;
    let r = bin(BinaryOp::Hypot, &a, &b)?;
    let zero = cmp(BinaryOp::Eq, &r, &num(0.0))?;
    let safe = where_(&zero, &num(1.0), &r)?;
    from_parts(&div(&a, &safe)?, &div(&b, &safe)?)
}

/// torch.real: a view of the real parts (the tensor itself when real).
pub fn real(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Ok(t.clone());
    }
    Ok(t.parts()?.0)
}

/// torch.imag: a view of the imaginary parts.
pub fn imag(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return Err(dtype_err(
            "imag is not implemented for tensors with non-complex dtypes.",
        ));
    }
    Ok(t.parts()?.1)
}

/// torch.polar: abs * (cos(angle) + i sin(angle)).
pub fn polar(abs: &Tensor, angle: &Tensor) -> Result<Tensor> {
    check_part_dtypes("polar", abs, angle)?;
    let re = mul(abs, &un(UnaryOp::Cos, angle)?)?;
    let im = mul(abs, &un(UnaryOp::Sin, angle)?)?;
    from_parts(&re, &im)
}

/// torch.complex(real, imag).
pub fn complex(re: &Tensor, im: &Tensor) -> Result<Tensor> {
    check_part_dtypes("complex", re, im)?;
    from_parts(re, im)
}

fn check_part_dtypes(what: &str, a: &Tensor, b: &Tensor) -> Result<()> {
    let ok = |d: DType| matches!(d, DType::F32 | DType::F64);
    if !ok(a.dtype()) || !ok(b.dtype()) || a.dtype() != b.dtype() {
        return Err(dtype_err(format!(
            "{what}: Expected both inputs to be Float or Double tensors but got {} and {}",
            a.dtype().torch_scalar_name(),
            b.dtype().torch_scalar_name()
        )));
    }
    Ok(())
}

/// The conjugate transpose of the last two dims (Tensor.mH, torch.adjoint).
pub fn adjoint(t: &Tensor) -> Result<Tensor> {
    let tr = crate::tensor::ops::view::transpose(t, -2, -1)?;
    if t.dtype().is_complex() {
        conj(&tr)
    } else {
        Ok(tr)
    }
}

/// torch.isreal: true where the imaginary part is zero (everywhere for real tensors).
pub fn isreal(t: &Tensor) -> Result<Tensor> {
    if !t.dtype().is_complex() {
        return crate::tensor::ops::creation::full_on(
            t.shape(),
            crate::backend::Scalar::int(1),
            DType::Bool,
            t.device(),
        );
    }
    cmp(BinaryOp::Eq, &t.parts()?.1, &num(0.0))
}

/// torch.vdot: the dot product of two vectors with the first conjugated.
pub fn vdot(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    crate::tensor::ops::matmul::dot(&conj(a)?, b)
}
