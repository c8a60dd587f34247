//! Complex numbers: torch.complex/polar/view_as_real/view_as_complex, the
//! parts and conjugates of complex tensors, and Python's `complex` (the math is
//! tensor/ops/complex.rs and interp/pycomplex.rs).

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::Interp;
use crate::interp::args::Args;
use crate::interp::value::Value;
use crate::tensor::ops::complex as c;
use crate::tensor::{DType, Tensor};
use crate::{op, row};

pub const ROWS: &[Builtin] = &[
    row!(
        Function,
        "complex",
        "complex(real=0, imag=0)",
        "A complex number (Python's complex), or with tensors a complex tensor from real and imaginary parts (torch.complex).",
        "complex(1, 2)",
        complex
    ),
    op!(
        Function,
        "polar(Tensor abs, Tensor angle) -> Tensor",
        "The complex numbers of magnitude abs and argument angle.",
        "polar(tensor([1., 2.]), tensor([0., 1.5708]))",
        |abs: Tensor, angle: Tensor| c::polar(&abs, &angle)
    ),
    op!(
        Function,
        "view_as_real(Tensor input) -> Tensor",
        "A complex tensor's (real, imag) pairs as a real view with a last dim of 2.",
        "view_as_real(tensor([1+2j, 3-4j]))",
        |input: Tensor| input.view_as_real()
    ),
    op!(
        Function,
        "view_as_complex(Tensor input) -> Tensor",
        "A float tensor whose last dim holds (real, imag) pairs, seen as complex.",
        "view_as_complex(tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor| input.view_as_complex()
    ),
    op!(
        Function,
        "real(Tensor input) -> Tensor",
        "The real parts (a view; the tensor itself when it is real).",
        "real(tensor([1+2j, 3-4j]))",
        |input: Tensor| c::real(&input)
    ),
    op!(
        Function,
        "imag(Tensor input) -> Tensor",
        "The imaginary parts of a complex tensor (a view).",
        "imag(tensor([1+2j, 3-4j]))",
        |input: Tensor| c::imag(&input)
    ),
    op!(
        Both,
        "conj(Tensor input) -> Tensor",
        "The complex conjugate (real tensors are returned as they are).",
        "conj(tensor([1+2j, 3-4j]))",
        |input: Tensor| c::conj(&input)
    ),
    op!(
        Both,
        "conj_physical(Tensor input) -> Tensor",
        "The complex conjugate, computed (tsh's conj always is).",
        "conj_physical(tensor([1+2j]))",
        |input: Tensor| c::conj(&input)
    ),
    op!(
        Both,
        "resolve_conj(Tensor input) -> Tensor",
        "The tensor with its conjugation done (tsh conjugates at once, so the tensor itself).",
        "resolve_conj(tensor([1+2j]))",
        |input: Tensor| Ok::<Tensor, crate::error::Error>(input)
    ),
    op!(
        Both,
        "resolve_neg(Tensor input) -> Tensor",
        "The tensor with its negation done (tsh negates at once, so the tensor itself).",
        "resolve_neg(tensor([1+2j]))",
        |input: Tensor| Ok::<Tensor, crate::error::Error>(input)
    ),
    op!(
        Both,
        "is_conj(Tensor input) -> bool",
        "Whether the conjugate bit is set (never in tsh: conj computes).",
        "is_conj(tensor([1+2j]))",
        |input: Tensor| Ok::<bool, crate::error::Error>({
            let _ = input;
            false
        })
    ),
    op!(
        Both,
        "adjoint(Tensor input) -> Tensor",
        "The conjugate transpose of the last two dims.",
        "adjoint(tensor([[1+1j, 2], [3, 4-1j]]))",
        |input: Tensor| c::adjoint(&input)
    ),
    op!(
        Both,
        "vdot(Tensor input, Tensor other) -> Tensor",
        "The dot product of two vectors, the first conjugated.",
        "vdot(tensor([1+2j, 3]), tensor([2+1j, 4]))",
        |input: Tensor, other: Tensor| c::vdot(&input, &other)
    ),
    op!(
        Both,
        "angle(Tensor input) -> Tensor",
        "The argument of each element in radians (0 or pi for real numbers).",
        "angle(tensor([-1+1j, -2+2j, 3-3j]))",
        |input: Tensor| c::angle(&input)
    ),
    op!(
        Both,
        "sgn(Tensor input) -> Tensor",
        "z / |z| for complex numbers (0 at 0); the sign for real ones.",
        "sgn(tensor([3+4j, 0]))",
        |input: Tensor| c::sgn(&input)
    ),
    op!(
        Both,
        "is_complex(Tensor input) -> bool",
        "Whether the dtype is complex64 or complex128.",
        "is_complex(tensor([1+2j]))",
        |input: Tensor| Ok::<bool, crate::error::Error>(input.dtype().is_complex())
    ),
    op!(
        Both,
        "isreal(Tensor input) -> Tensor",
        "True where an element's imaginary part is zero.",
        "isreal(tensor([1, 1+1j, 2+0j]))",
        |input: Tensor| c::isreal(&input)
    ),
    op!(
        Method,
        "cfloat(Tensor self) -> Tensor",
        "Convert to complex64.",
        "tensor([1., 2.]).cfloat()",
        |self_: Tensor| self_.to_dtype(DType::C64)
    ),
    op!(
        Method,
        "cdouble(Tensor self) -> Tensor",
        "Convert to complex128.",
        "tensor([1., 2.]).cdouble()",
        |self_: Tensor| self_.to_dtype(DType::C128)
    ),
];

/// `z.conjugate()` of a Python complex number.
pub const CONJUGATE: Builtin = row!(
    Method,
    "conjugate",
    "complex.conjugate()",
    "The complex conjugate.",
    "(1+2j).conjugate()",
    conjugate
);

fn conjugate(_: &mut Interp, mut a: Args) -> Result<Value> {
    let z = a.value("self")?;
    a.finish()?;
    match z {
        Value::Complex(re, im) => Ok(Value::Complex(re, -im)),
        other => Ok(other),
    }
}

/// Python's complex(real, imag), or torch.complex when given tensors.
fn complex(_: &mut Interp, mut a: Args) -> Result<Value> {
    let re = a.take("real").map_or(Value::Int(0), |(v, _)| v);
    let im = a.take("imag").map_or(Value::Int(0), |(v, _)| v);
    a.finish()?;
    if let (Value::Tensor(r), Value::Tensor(i)) = (&re, &im) {
        return c::complex(r, i).map(Value::Tensor);
    }
    if matches!(re, Value::Tensor(_)) || matches!(im, Value::Tensor(_)) {
        return Err(type_err(
            "complex(): expected both real and imag to be tensors",
        ));
    }
    let part = |v: &Value| {
        crate::interp::pycomplex::as_complex(v).ok_or_else(|| {
            type_err(format!(
                "complex() argument must be a string or a number, not {}",
                v.type_name()
            ))
        })
    };
    let (a_re, a_im) = part(&re)?;
    let (b_re, b_im) = part(&im)?;
    // complex(a, b) is a + b*1j, for complex a and b too.
    Ok(Value::Complex(a_re - b_im, a_im + b_re))
}
