//! The one place that decides result dtypes: PyTorch's type promotion.
//!
//! Operands fall into three priority groups: tensors with dimensions, 0-d tensors,
//! and Python scalars. A lower group changes the result only when it is of a
//! higher category (bool < integer < float < complex), as c10's `result_type` does.

use super::dtype::DType;

/// One operand as promotion sees it.
#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Tensor {
        dtype: DType,
        zero_dim: bool,
    },
    /// A Python scalar: bool, int or float (a float counts as the default float dtype).
    Scalar(DType),
}

/// `promoteTypes` for two dtypes.
pub fn promote_types(a: DType, b: DType) -> DType {
    use DType::*;
    if a == b {
        return a;
    }
    if a.is_bool() {
        return b;
    }
    if b.is_bool() {
        return a;
    }
    if a.is_complex() || b.is_complex() {
        // The parts take the wider float precision of the two.
        let part = |d: DType| if d.is_int() { F32 } else { d.real_part() };
        return promote_types(part(a), part(b)).to_complex();
    }
    match (a.is_float(), b.is_float()) {
        (true, false) => a,
        (false, true) => b,
        (true, true) => match (a, b) {
            (F16, BF16) | (BF16, F16) => F32,
            _ => a.max(b),
        },
        (false, false) => match (a, b) {
            // uint8 with a signed type needs the next wider signed type.
            (U8, I8) | (I8, U8) => I16,
            (U8, x) | (x, U8) => x,
            _ => a.max(b),
        },
    }
}

fn combine_categories(higher: Option<DType>, lower: Option<DType>) -> Option<DType> {
    match (higher, lower) {
        (None, l) => l,
        (Some(h), None) => Some(h),
        (Some(h), Some(l)) => {
            if h.is_complex() {
                Some(h)
            } else if l.is_complex() {
                // A float keeps its precision in the complex result.
                Some(if h.is_float() { h.to_complex() } else { l })
            } else if h.is_float() {
                Some(h)
            } else if h.is_bool() || l.is_float() {
                Some(promote_types(h, l))
            } else {
                Some(h)
            }
        }
    }
}

fn fold(acc: Option<DType>, d: DType) -> Option<DType> {
    Some(match acc {
        None => d,
        Some(a) => promote_types(a, d),
    })
}

/// The dtype an op over these operands computes in and returns.
pub fn result_type(operands: &[Operand]) -> DType {
    let (mut dim, mut zero, mut scalar) = (None, None, None);
    for op in operands {
        match *op {
            Operand::Tensor {
                dtype,
                zero_dim: false,
            } => dim = fold(dim, dtype),
            Operand::Tensor {
                dtype,
                zero_dim: true,
            } => zero = fold(zero, dtype),
            Operand::Scalar(d) => {
                let d = if d.is_float() {
                    super::dtype::default_float()
                } else if d.is_complex() {
                    super::dtype::default_float().to_complex()
                } else {
                    d
                };
                scalar = fold(scalar, d)
            }
        }
    }
    combine_categories(dim, combine_categories(zero, scalar))
        .unwrap_or(super::dtype::default_float())
}

/// True division and other float-only ops turn integer results into the default float.
pub fn to_float(d: DType) -> DType {
    if d.is_float() || d.is_complex() {
        d
    } else {
        super::dtype::default_float()
    }
}

/// PyTorch's `canCast`: may a result of `from` be written into a tensor of `to`?
pub fn can_cast(from: DType, to: DType) -> bool {
    from.category() <= to.category()
}
