//! Element-wise ops: type promotion and broadcasting are decided here, once, and
//! the backend receives operands in one compute dtype with broadcast layouts.

use crate::autograd::rules::elementwise as rules;
use crate::backend::cpu::binary::{self as kbin, BinaryOp};
use crate::backend::cpu::unary::{self as kun, UnaryOp};
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::device::Device;
use crate::tensor::dtype::DType;
use crate::tensor::promote::{result_type, to_float};
use crate::tensor::shape::broadcast_shapes;
use crate::tensor::storage::Storage;

pub fn check_same_device(a: &Tensor, b: &Tensor, what: &str) -> Result<Device> {
    if a.device() != b.device() {
        return Err(crate::error::device_err(format!(
            "{what} needs both tensors on one device, but they are on {} and {}",
            a.device(),
            b.device()
        ))
        .hint(format!(
            "move one with .to(\"{}\") (tsh never copies between devices silently)",
            a.device()
        )));
    }
    Ok(a.device())
}

fn op_name(op: BinaryOp) -> &'static str {
    use BinaryOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        FloorDiv => "//",
        Rem => "%",
        Pow => "**",
        Maximum => "maximum",
        Minimum => "minimum",
        Atan2 => "atan2",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        Shl => "<<",
        Shr => ">>",
        Eq => "==",
        Ne => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        LogicalAnd => "logical_and",
        LogicalOr => "logical_or",
        LogicalXor => "logical_xor",
    }
}

/// The dtype `op` computes in for these operands (its result is bool for comparisons).
pub fn compute_dtype(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<DType> {
    use BinaryOp::*;
    let d = result_type(&[a.operand(), b.operand()]);
    match op {
        Div | Atan2 => Ok(to_float(d)),
        BitAnd | BitOr | BitXor | Shl | Shr if d.is_float() => Err(dtype_err(format!(
            "`{}` works on bool and integer tensors, not {} and {}",
            op_name(op),
            a.dtype(),
            b.dtype()
        ))
        .hint(
            "compare first to get bool tensors (e.g. (a > 0) & (b > 0)), or convert with .long()",
        )),
        Sub if a.dtype().is_bool() && b.dtype().is_bool() => {
            Err(dtype_err("subtracting two bool tensors is not supported")
                .hint("use `a ^ b` or `a.logical_xor(b)` for bools, or convert with .int() first"))
        }
        Shl | Shr if d.is_bool() => Ok(DType::I64),
        _ => Ok(d),
    }
}

/// `a op b` with PyTorch's promotion and broadcasting.
pub fn binary(op: BinaryOp, a0: &Tensor, b0: &Tensor) -> Result<Tensor> {
    let (a, b) = (a0, b0);
    check_same_device(a, b, op_name(op))?;
    let dtype = compute_dtype(op, a, b)?;
    let shape = broadcast_shapes(a.shape(), b.shape())?;
    let out_dtype = if op.is_comparison() {
        DType::Bool
    } else {
        dtype
    };
    check_alloc(&shape, out_dtype)?;
    let (a, b) = (a.to_dtype(dtype), b.to_dtype(dtype));
    if !dtype.is_float() {
        guard_integer_op(op, &a, &b)?;
    }
    let la = a.layout().expand(&shape);
    let lb = b.layout().expand(&shape);
    let out = {
        let (sa, sb) = (a.read(), b.read());
        kbin::binary(op, &sa, &la, &sb, &lb)
    };
    let out = Tensor::from_contiguous(out, &shape);
    Ok(rules::record_binary(op, a0, b0, out))
}

fn guard_integer_op(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<()> {
    match op {
        BinaryOp::FloorDiv | BinaryOp::Rem | BinaryOp::Div
            if kbin::any_zero(&b.read(), b.layout()) =>
        {
            return Err(value_err("integer division by zero").hint(
                    "integer tensors have no inf or nan; convert to float first (e.g. a.float() / b) to get inf",
                ));
        }
        BinaryOp::Pow => {
            let negative = b.to_i64_vec().iter().any(|&e| e < 0);
            if negative {
                return Err(
                    value_err("integers to negative integer powers are not allowed")
                        .hint("use a float base or exponent, e.g. a.float() ** b"),
                );
            }
        }
        _ => {}
    }
    let _ = a;
    Ok(())
}

/// Ops like exp/sin promote integers to the default float; abs/neg keep them.
pub fn unary(op: UnaryOp, a: &Tensor) -> Result<Tensor> {
    let a = if op.keeps_int() || a.dtype().is_float() {
        if a.dtype().is_bool() && op != UnaryOp::BitNot {
            if op == UnaryOp::Neg {
                return Err(dtype_err(
                    "negation, the `-` operator, on a bool tensor is not supported",
                )
                .hint("use `~t` or `t.logical_not()` to flip bools"));
            }
            a.to_dtype(DType::I64)
        } else {
            a.clone()
        }
    } else {
        a.to_dtype(DType::F32)
    };
    if op == UnaryOp::BitNot && a.dtype().is_float() {
        return Err(dtype_err(format!(
            "`~` works on bool and integer tensors, not {}",
            a.dtype()
        ))
        .hint("for a float mask use `t == 0`; `~` flips bool masks"));
    }
    if op == UnaryOp::BitNot && a.dtype().is_bool() {
        let out = kun::test(&a.read(), a.layout(), |x| x == 0.0);
        return Ok(Tensor::from_contiguous(out, a.shape()));
    }
    let out = kun::unary(op, &a.read(), a.layout());
    Ok(rules::record_unary(
        op,
        &a,
        Tensor::from_contiguous(out, a.shape()),
    ))
}

/// A float-valued map applied to a float tensor (integers promote to float32).
pub fn map_float(a: &Tensor, f: impl Fn(f64) -> f64 + Sync + Send) -> Tensor {
    let a = if a.dtype().is_float() {
        a.clone()
    } else {
        a.to_dtype(DType::F32)
    };
    let out = kun::map_float(&a.read(), a.layout(), f);
    Tensor::from_contiguous(out, a.shape())
}

/// A predicate → bool tensor.
pub fn test(a: &Tensor, f: impl Fn(f64) -> bool + Sync + Send) -> Tensor {
    let out = kun::test(&a.read(), a.layout(), f);
    Tensor::from_contiguous(out, a.shape())
}

/// `clamp(min, max)`: bounds given as tensors (scalars are wrapped numbers).
pub fn clamp(a: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return Err(value_err("clamp needs at least one of min and max"));
    }
    let out = crate::autograd::no_grad(|| -> Result<Tensor> {
        let mut out = a.clone();
        if let Some(lo) = min {
            out = binary(BinaryOp::Maximum, &out, lo)?;
        }
        if let Some(hi) = max {
            out = binary(BinaryOp::Minimum, &out, hi)?;
        }
        Ok(out)
    })?;
    if out.same_tensor(a) {
        return Ok(out);
    }
    Ok(rules::record_clamp(a, min, max, out))
}

/// `where(cond, a, b)`: broadcast all three; a and b promote together.
pub fn where_(cond: &Tensor, a0: &Tensor, b0: &Tensor) -> Result<Tensor> {
    let (a, b) = (a0, b0);
    check_same_device(cond, a, "where")?;
    check_same_device(a, b, "where")?;
    let dtype = result_type(&[a.operand(), b.operand()]);
    let shape = broadcast_shapes(&broadcast_shapes(cond.shape(), a.shape())?, b.shape())?;
    check_alloc(&shape, dtype)?;
    let c = cond.to_dtype(DType::Bool);
    let (a, b) = (a.to_dtype(dtype), b.to_dtype(dtype));
    let cv: Vec<bool> =
        match crate::backend::cpu::map::contiguous(&c.read(), &c.layout().expand(&shape)) {
            Storage::Bool(v) => v,
            // Unreachable from input: the condition was cast to bool above.
            _ => unreachable!("a bool tensor holds bool storage"),
        };
    let av = crate::backend::cpu::map::contiguous(&a.read(), &a.layout().expand(&shape));
    let bv = crate::backend::cpu::map::contiguous(&b.read(), &b.layout().expand(&shape));
    let out = select_by_mask(&cv, av, &bv);
    Ok(rules::record_where(
        cond,
        a0,
        b0,
        Tensor::from_contiguous(out, &shape),
    ))
}

fn select_by_mask(mask: &[bool], a: Storage, b: &Storage) -> Storage {
    fn go<T: crate::tensor::storage::Element>(
        mask: &[bool],
        mut a: Vec<T>,
        b: &Storage,
    ) -> Storage {
        // Unreachable from input: both branches were cast to one dtype above.
        let b = T::slice(b).expect("where operands share a dtype");
        for (i, m) in mask.iter().enumerate() {
            if !m {
                a[i] = b[i];
            }
        }
        T::wrap(a)
    }
    crate::with_storage!(a, v => go(mask, v, b))
}

/// `nan_to_num`: NaN, +inf and -inf replaced (by 0 and the dtype's largest finite
/// values unless given). One node, as in PyTorch; gradients flow to the kept elements.
pub fn nan_to_num(
    t: &Tensor,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    let Some(big) = t.dtype().max_finite() else {
        // Integers and bools hold no nan or inf: a copy, as in PyTorch.
        return Ok(t.deep_clone());
    };
    let dt = t.dtype();
    crate::autograd::composite::composite("NanToNumBackward0", &[t], |x| {
        let x = &x[0];
        let swap = |y: &Tensor, hit: fn(f64) -> bool, v: f64| {
            where_(&test(x, hit), &Tensor::scalar_f64(v, dt), y)
        };
        let out = swap(x, f64::is_nan, nan)?;
        let out = swap(&out, |v| v == f64::INFINITY, posinf.unwrap_or(big))?;
        swap(&out, |v| v == f64::NEG_INFINITY, neginf.unwrap_or(-big))
    })
}
