//! Element-wise composites of number theory and float representation:
//! gcd/lcm (Euclid, all elements at once), fmax/fmin, ldexp, frexp.

use crate::autograd::relabel;
use crate::error::Result;
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, int, mul, num, un, where_};
use crate::tensor::ops::elementwise::predicate;
use crate::tensor::ops::reduce::reduce;
use crate::tensor::promote::to_float;

/// torch.gcd: Euclid's algorithm, all elements at once (integers only).
pub fn gcd(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    if a.dtype().is_float() || b.dtype().is_float() {
        return Err(crate::error::dtype_err(
            "\"gcd_cpu\" not implemented for 'Float'",
        ));
    }
    // Both broadcast to the common shape and dtype first.
    let mut x = un(UnaryOp::Abs, &add(a, &mul(b, &int(0))?)?)?;
    let mut y = un(UnaryOp::Abs, &add(b, &mul(a, &int(0))?)?)?;
    loop {
        let nonzero = cmp(BinaryOp::Ne, &y, &int(0))?;
        let any = reduce(&nonzero, ReduceOp::Any, None, false)?;
        if !crate::tensor::ops::scalar::item_bool(&any)? {
            return Ok(x);
        }
        let safe = where_(&nonzero, &y, &int(1))?;
        let r = bin(BinaryOp::Rem, &x, &safe)?;
        x = where_(&nonzero, &y, &x)?;
        y = where_(&nonzero, &r, &y)?;
    }
}

/// torch.lcm: |a·b| / gcd(a, b), and 0 where either is 0.
pub fn lcm(a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let g = gcd(a, b)?;
    let zero = cmp(BinaryOp::Eq, &g, &int(0))?;
    let safe = where_(&zero, &int(1), &g)?;
    let l = un(UnaryOp::Abs, &mul(&bin(BinaryOp::FloorDiv, a, &safe)?, b)?)?;
    where_(&zero, &int(0), &l)
}

/// torch.fmax / fmin: maximum / minimum that takes the number over a NaN.
pub fn fmax_fmin(a: &Tensor, b: &Tensor, max: bool) -> Result<Tensor> {
    let (op, name) = if max {
        (BinaryOp::Maximum, "FmaxBackward0")
    } else {
        (BinaryOp::Minimum, "FminBackward0")
    };
    let m = where_(&predicate(PredicateOp::IsNan, a)?, b, &bin(op, a, b)?)?;
    Ok(relabel(
        where_(&predicate(PredicateOp::IsNan, b)?, a, &m)?,
        name,
    ))
}

/// torch.ldexp: x · 2^e, in a float dtype.
pub fn ldexp(x: &Tensor, e: &Tensor) -> Result<Tensor> {
    let x = x.to_dtype(to_float(x.dtype()))?;
    mul(&x, &bin(BinaryOp::Pow, &num(2.0), &e.to_dtype(x.dtype())?)?)
}

/// torch.frexp: mantissa in [0.5, 1) and integer exponent, x = m · 2^e
/// (0 gives (0, 0)); computed on the host, exactly.
pub fn frexp(x: &Tensor) -> Result<(Tensor, Tensor)> {
    if !x.dtype().is_float() {
        return Err(crate::error::dtype_err(
            "torch.frexp() only supports floating-point dtypes",
        ));
    }
    let vals = x.to_host_f64()?;
    let (mut m, mut e) = (
        Vec::with_capacity(vals.len()),
        Vec::with_capacity(vals.len()),
    );
    for v in vals {
        let (mv, ev) = frexp_f64(v);
        m.push(mv);
        e.push(ev as i64);
    }
    let shape = x.shape().to_vec();
    let m = Tensor::from_vec(m, &shape)
        .to_dtype(x.dtype())?
        .to_device(x.device())?;
    let e = Tensor::from_vec(e, &shape)
        .to_dtype(DType::I32)?
        .to_device(x.device())?;
    Ok((m, e))
}

/// C's frexp, from the bits: exact for every finite double (subnormals are
/// scaled into the normal range first).
fn frexp_f64(v: f64) -> (f64, i32) {
    if v == 0.0 || !v.is_finite() {
        return (v, 0);
    }
    let (v, bias) = if v.abs() < f64::MIN_POSITIVE {
        (v * 2f64.powi(54), -54)
    } else {
        (v, 0)
    };
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mantissa = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (mantissa, exp - 1022 + bias)
}

/// nextafter in float16 or bfloat16: the kernels compute half types in f32,
/// whose neighbour rounds back to x, so the step is taken on the 16-bit
/// pattern itself, on the host.
pub fn nextafter_half(a: &Tensor, b: &Tensor, shape: &[usize]) -> Result<Tensor> {
    use crate::tensor::ops::view::expand;
    let dtype = a.dtype();
    let sizes: Vec<i64> = shape.iter().map(|&s| s as i64).collect();
    let xs = expand(a, &sizes)?.to_host_f64()?;
    let ys = expand(b, &sizes)?.to_host_f64()?;
    // A 16-bit float's pattern, and back, for the dtype at hand.
    type Bits = (fn(f64) -> u16, fn(u16) -> f64);
    let (to_bits, from_bits): Bits = if dtype == DType::F16 {
        (
            |v| half::f16::from_f64(v).to_bits(),
            |b| half::f16::from_bits(b).to_f64(),
        )
    } else {
        (
            |v| half::bf16::from_f64(v).to_bits(),
            |b| half::bf16::from_bits(b).to_f64(),
        )
    };
    let out: Vec<f64> = xs
        .iter()
        .zip(&ys)
        .map(|(&x, &y)| {
            if x.is_nan() || y.is_nan() {
                return f64::NAN;
            }
            if x == y {
                return y;
            }
            if x == 0.0 {
                // The smallest subnormal, towards y.
                return from_bits(1).copysign(y - x);
            }
            let bits = to_bits(x);
            // Away from zero is one more in magnitude; towards it, one less.
            let away = (y > x) == (x > 0.0);
            from_bits(if away { bits + 1 } else { bits - 1 })
        })
        .collect();
    Tensor::from_vec(out, shape)
        .to_dtype(dtype)?
        .to_device(a.device())
}
