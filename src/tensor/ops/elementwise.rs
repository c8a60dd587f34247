//! Element-wise ops: the rows' dtype rules, type promotion and broadcasting are
//! applied here, once; the backend receives operands in one compute dtype with
//! layouts broadcast to the result's shape.

use std::borrow::Cow;

use crate::autograd::rules::elementwise as rules;
use crate::backend::Storage;
use crate::error::{Result, dtype_err, value_err};
use crate::tensor::core::{Tensor, check_alloc};
use crate::tensor::device::Device;
use crate::tensor::dtype::DType;
use crate::tensor::layout::Layout;
use crate::tensor::op::{BinaryOp, BinaryRule, DtypeRule, PredicateOp, TernaryOp, UnaryOp};
use crate::tensor::ops::memory_order::{memory_order, row_major};
use crate::tensor::promote::{result_type, to_float};
use crate::tensor::shape::broadcast_shapes;

/// Both operands on one device (a Python number, a wrapped 0-d tensor, goes
/// wherever the other operand is).
pub fn check_same_device(a: &Tensor, b: &Tensor, what: &str) -> Result<Device> {
    if a.device() != b.device() && !goes_anywhere(a) && !goes_anywhere(b) {
        return Err(mixed_devices(a.device(), b.device(), what));
    }
    Ok(if goes_anywhere(a) {
        b.device()
    } else {
        a.device()
    })
}

/// A Python number, or a 0-d tensor on the CPU: PyTorch lets either take part
/// in an op on another device (it is read as a scalar).
pub fn goes_anywhere(t: &Tensor) -> bool {
    t.is_wrapped_number() || (t.ndim() == 0 && t.device() == Device::Cpu)
}

/// PyTorch's words for operands on two devices, with the fix.
pub fn mixed_devices(a: Device, b: Device, what: &str) -> crate::error::Error {
    crate::error::device_err(format!(
        "Expected all tensors to be on the same device, but found at least two devices, {a} and {b}!"
    ))
    .hint(move_one(a, b, what))
}

/// PyTorch's words where a kernel with named arguments (mm, bmm, addmm, dot)
/// finds `arg` on another device than the arguments before it.
pub fn mixed_arguments(
    first: Device,
    arg: &str,
    on: Device,
    method: &str,
    what: &str,
) -> crate::error::Error {
    let key = if first == Device::Cpu && on == Device::Cpu {
        "CPU"
    } else {
        "CUDA"
    };
    crate::error::device_err(format!(
        "Expected all tensors to be on the same device, but got {arg} is on {on}, \
         different from other tensors on {first} (when checking argument in method \
         wrapper_{key}_{method})"
    ))
    .hint(move_one(first, on, what))
}

fn move_one(a: Device, b: Device, what: &str) -> String {
    let (gpu, cpu) = if a == Device::Cpu { (b, a) } else { (a, b) };
    if cpu == Device::Cpu {
        format!(
            "{what} got one tensor on {gpu} and one on the cpu: move one, e.g. x.cuda() or y.cpu() (tsh never copies between devices silently)"
        )
    } else {
        format!("{what} got tensors on {a} and {b}: move one with .to(\"{a}\")")
    }
}

fn refuse(op: BinaryOp, a: &Tensor, b: &Tensor, what: &str, hint: &str) -> crate::error::Error {
    dtype_err(format!(
        "`{}` {what}, but got {} and {}",
        op.symbol(),
        a.dtype(),
        b.dtype()
    ))
    .hint(hint.to_string())
}

/// The dtype `op` computes in for these operands, by its row's rule (its result
/// is bool for comparisons).
pub fn compute_dtype(op: BinaryOp, a: &Tensor, b: &Tensor) -> Result<DType> {
    let d = result_type(&[a.operand(), b.operand()]);
    match op.row().rule {
        BinaryRule::Promote => Ok(d),
        BinaryRule::NoBoolOperand if a.dtype().is_bool() || b.dtype().is_bool() => Err(refuse(
            op,
            a,
            b,
            "is not supported on bool tensors",
            "to flip a mask use `~t` or t.logical_not(); for arithmetic convert first with .int()",
        )),
        BinaryRule::NoBoolOperand => Ok(d),
        BinaryRule::NoBoolResult if d.is_bool() => Err(refuse(
            op,
            a,
            b,
            "is not defined for bool tensors",
            "convert first, e.g. a.int()",
        )),
        BinaryRule::NoBoolResult => Ok(d),
        BinaryRule::ToFloat => Ok(to_float(d)),
        BinaryRule::Integral if d.is_float() => Err(refuse(
            op,
            a,
            b,
            "works on bool and integer tensors",
            "compare first to get bool tensors (e.g. (a > 0) & (b > 0)), or convert with .long()",
        )),
        BinaryRule::Integral => Ok(d),
        BinaryRule::IntegerOnly if d.is_float() || d.is_bool() => Err(refuse(
            op,
            a,
            b,
            "works on integer tensors",
            "convert with .long()",
        )),
        BinaryRule::IntegerOnly => Ok(d),
        BinaryRule::FloatOnly if !d.is_float() => Err(refuse(
            op,
            a,
            b,
            "needs floating point tensors",
            "convert first, e.g. a.float()",
        )),
        BinaryRule::FloatOnly => Ok(d),
    }
}

/// PyTorch refuses an integer tensor to a negative Python int (`t ** -1`), but
/// not to a negative exponent tensor (there 2 ** -1 is 0, as C's integer pow).
fn refuse_negative_int_power(op: BinaryOp, dtype: DType, b: &Tensor) -> Result<()> {
    if op == BinaryOp::Pow
        && !dtype.is_float()
        && b.is_wrapped_number()
        && crate::tensor::ops::scalar::item_i64(b)? < 0
    {
        return Err(
            value_err("integers to negative integer powers are not allowed")
                .hint("use a float base or exponent, e.g. a.float() ** -1"),
        );
    }
    Ok(())
}

/// An operand in the op's compute dtype on its device, outside the graph (the
/// op records its own node). Already so, it is the same tensor, borrowed,
/// without the no-grad guard and the two conversions: most operands of most ops.
fn operand(t: &Tensor, dtype: DType, device: Device) -> Result<Cow<'_, Tensor>> {
    if t.dtype() == dtype && t.device() == device {
        return Ok(Cow::Borrowed(t));
    }
    if t.is_wrapped_number() && device == Device::Cpu {
        // A Python number (`x * 2.0`), never in a graph: its one element cast
        // by the backend, without a tensor copy's bookkeeping.
        let storage = t.read().cast(t.layout(), dtype)?;
        return Ok(Cow::Owned(Tensor::from_contiguous(storage, &[])));
    }
    crate::autograd::no_grad(|| Ok(Cow::Owned(t.to_dtype(dtype)?.to_device(device)?)))
}

/// `t`'s layout broadcast to `shape`: its own where the shapes agree (most
/// ops), without a copy.
fn broadcast_to<'a>(t: &'a Tensor, shape: &[usize]) -> Cow<'a, Layout> {
    if crate::tensor::shape::same_shape(t.shape(), shape) {
        Cow::Borrowed(t.layout())
    } else {
        Cow::Owned(t.layout().expand(shape))
    }
}

/// `a op b` with PyTorch's promotion and broadcasting.
pub fn binary(op: BinaryOp, a0: &Tensor, b0: &Tensor) -> Result<Tensor> {
    let device = check_same_device(a0, b0, op.symbol())?;
    if a0.dtype().is_complex() || b0.dtype().is_complex() {
        return super::complex::binary(op, a0, b0);
    }
    let dtype = compute_dtype(op, a0, b0)?;
    let shape = broadcast_shapes(a0.shape(), b0.shape())?;
    refuse_negative_int_power(op, dtype, b0)?;
    let out_dtype = if op.is_comparison() {
        DType::Bool
    } else {
        dtype
    };
    check_alloc(&shape, out_dtype)?;
    let (a, b) = (operand(a0, dtype, device)?, operand(b0, dtype, device)?);
    if op == BinaryOp::NextAfter && matches!(dtype, DType::F16 | DType::BF16) {
        return crate::tensor::ops::numeric::nextafter_half(&a, &b, &shape);
    }
    let (la, lb) = (broadcast_to(&a, &shape), broadcast_to(&b, &shape));
    // The result's memory order, from the operands as given (before a
    // dtype conversion).
    let order = if row_major(a0.layout(), &shape) {
        None
    } else {
        memory_order(&[&broadcast_to(a0, &shape), &broadcast_to(b0, &shape)])
    };
    let permuted = order.as_ref().map(|o| (o.permute(&la), o.permute(&lb)));
    let (la, lb) = match &permuted {
        Some((pa, pb)) => (pa, pb),
        None => (&*la, &*lb),
    };
    let out = match power_by_number(op, b0, dtype)? {
        Some(steps) => power_steps(&a, la, steps)?,
        None if number_kept_in_float(op, dtype, a0, b0) => {
            let (a, b) = (
                operand(a0, DType::F32, device)?,
                operand(b0, DType::F32, device)?,
            );
            let (la, lb) = (a.layout().expand(&shape), b.layout().expand(&shape));
            let (la, lb) = match &order {
                Some(o) => (o.permute(&la), o.permute(&lb)),
                None => (la, lb),
            };
            let product = a.read().binary(&la, &b.read(), &lb, op)?;
            product.cast(&Layout::contiguous(&la.shape), dtype)?
        }
        None => a.read().binary(la, &b.read(), lb, op)?,
    };
    let out = match order {
        Some(o) => Tensor::from_storage(out, o.result),
        None => Tensor::from_contiguous(out, &shape),
    };
    Ok(rules::record_binary(op, a0, b0, out))
}

/// PyTorch multiplies a float16 or bfloat16 tensor by a Python number, or
/// divides it by one, in float32 with the number unrounded (ATen's opmath
/// scalar), rounding the result once; add and sub round the number to the
/// tensor's dtype first, as every op here does.
pub(super) fn number_kept_in_float(op: BinaryOp, dtype: DType, a0: &Tensor, b0: &Tensor) -> bool {
    let (na, nb) = (a0.is_wrapped_number(), b0.is_wrapped_number());
    matches!(dtype, DType::F16 | DType::BF16)
        && match op {
            BinaryOp::Mul => na != nb,
            // ATen's activations take their coefficients in float32 too.
            BinaryOp::Div | BinaryOp::Elu | BinaryOp::LeakyRelu | BinaryOp::Softplus => nb && !na,
            _ => false,
        }
}

/// How PyTorch raises a float tensor to these Python numbers: by multiplying
/// (2: x*x, 3: x*x*x, -2: 1/(x*x)) or by rsqrt (-0.5) and reciprocal (-1), not
/// by pow, which is slower and rounds differently. (0.5 is pow's: PyTorch's
/// x ** 0.5 differs from sqrt in the last bit.)
enum PowerSteps {
    Square,
    Cube,
    InverseSquare,
    Unary(UnaryOp),
}

fn power_by_number(op: BinaryOp, b: &Tensor, dtype: DType) -> Result<Option<PowerSteps>> {
    if op != BinaryOp::Pow || !b.is_wrapped_number() || !dtype.is_float() {
        return Ok(None);
    }
    let e = crate::tensor::ops::scalar::item_f64(b)?;
    Ok(Some(match e {
        2.0 => PowerSteps::Square,
        3.0 => PowerSteps::Cube,
        -2.0 => PowerSteps::InverseSquare,
        -0.5 => PowerSteps::Unary(UnaryOp::Rsqrt),
        -1.0 => PowerSteps::Unary(UnaryOp::Reciprocal),
        _ => return Ok(None),
    }))
}

fn power_steps(a: &Tensor, la: &Layout, steps: PowerSteps) -> Result<Storage> {
    let x = a.read();
    let square = || x.unary(la, UnaryOp::Square);
    let flat = Layout::contiguous(&la.shape);
    match steps {
        PowerSteps::Square => square(),
        PowerSteps::Cube => square()?.binary(&flat, &x, la, BinaryOp::Mul),
        PowerSteps::InverseSquare => square()?.unary(&flat, UnaryOp::Reciprocal),
        PowerSteps::Unary(op) => x.unary(la, op),
    }
}

/// The dtype a unary op computes in, by its row's rule.
fn unary_dtype(op: UnaryOp, d: DType) -> Result<DType> {
    let refuse = |what: &str, hint: &str| {
        Err(
            dtype_err(format!("{}() {what}, but this tensor is {d}", op.name()))
                .hint(hint.to_string()),
        )
    };
    match op.row().rule {
        DtypeRule::KeepAll => Ok(d),
        DtypeRule::KeepNoBool if d.is_bool() => {
            if op == UnaryOp::Neg {
                return refuse(
                    "(the `-` operator) is not supported on bool tensors",
                    "use `~t` or t.logical_not() to flip bools",
                );
            }
            refuse(
                "is not defined for bool tensors",
                "convert first, e.g. t.int()",
            )
        }
        DtypeRule::KeepNoBool => Ok(d),
        DtypeRule::BoolToLong if d.is_bool() => Ok(DType::I64),
        DtypeRule::BoolToLong => Ok(d),
        DtypeRule::FloatPromote => Ok(to_float(d)),
        DtypeRule::FloatOnly if !d.is_float() => refuse(
            "needs a floating point tensor",
            "convert first with .float()",
        ),
        DtypeRule::FloatOnly => Ok(d),
        DtypeRule::Integral if d.is_float() => refuse(
            "(the `~` operator) works on bool and integer tensors",
            "for a float mask use `t == 0`; `~` flips bool masks",
        ),
        DtypeRule::Integral => Ok(d),
    }
}

/// A unary op by its row's rule (exp of an integer tensor gives floats, abs
/// keeps integers, neg refuses bool).
pub fn unary(op: UnaryOp, a0: &Tensor) -> Result<Tensor> {
    if a0.dtype().is_complex() {
        return super::complex::unary(op, a0);
    }
    let dtype = unary_dtype(op, a0.dtype())?;
    check_alloc(a0.shape(), dtype)?;
    let a = crate::autograd::no_grad(|| a0.to_dtype(dtype))?;
    let out = in_memory_order(a0.layout(), a.layout(), |l| a.read().unary(l, op))?;
    Ok(rules::record_unary(op, a0, &a, out))
}

/// isnan, isinf, isfinite, logical_not: bool answers, no gradient.
pub fn predicate(op: PredicateOp, a: &Tensor) -> Result<Tensor> {
    if a.dtype().is_complex() {
        return Err(super::complex::not_implemented(
            &format!("{op:?}"),
            a.dtype(),
        ));
    }
    check_alloc(a.shape(), DType::Bool)?;
    in_memory_order(a.layout(), a.layout(), |l| a.read().predicate(l, op))
}

/// A one-operand op's result: `compute` on the input's layout (`l`, its
/// order from `original`, before any dtype conversion), permuted to the
/// input's memory order where that is not row-major (memory_order.rs).
fn in_memory_order(
    original: &Layout,
    l: &Layout,
    compute: impl FnOnce(&Layout) -> Result<Storage>,
) -> Result<Tensor> {
    let order = if row_major(original, &l.shape) {
        None
    } else {
        memory_order(&[original])
    };
    Ok(match order {
        Some(o) => Tensor::from_storage(compute(&o.permute(l))?, o.result),
        None => Tensor::from_contiguous(compute(l)?, &l.shape),
    })
}

/// Operands of a ternary op in one dtype on one device, with layouts broadcast
/// to one shape.
fn aligned(
    parts: [&Tensor; 3],
    dtypes: [DType; 3],
    what: &str,
) -> Result<(Vec<Tensor>, Vec<usize>)> {
    let mut shape: Vec<usize> = vec![];
    for p in parts {
        shape = broadcast_shapes(&shape, p.shape())?.to_vec();
    }
    let device = parts
        .iter()
        .find(|t| !goes_anywhere(t))
        .map_or(Device::Cpu, |t| t.device());
    for p in parts {
        if !goes_anywhere(p) && p.device() != device {
            return check_same_device(parts[0], p, what).map(|_| (vec![], vec![]));
        }
    }
    let ts = parts
        .iter()
        .zip(dtypes)
        .map(|(t, d)| operand(t, d, device).map(Cow::into_owned))
        .collect::<Result<Vec<_>>>()?;
    Ok((ts, shape))
}

fn ternary(
    op: TernaryOp,
    parts: [&Tensor; 3],
    dtypes: [DType; 3],
    out_dtype: DType,
    what: &str,
) -> Result<Tensor> {
    if let Some(d) = dtypes.iter().find(|d| d.is_complex()) {
        return Err(super::complex::not_implemented(what, *d));
    }
    let (ts, shape) = aligned(parts, dtypes, what)?;
    check_alloc(&shape, out_dtype)?;
    let order = if row_major(parts[0].layout(), &shape) {
        None
    } else {
        let given: Vec<Layout> = parts.iter().map(|t| t.layout().expand(&shape)).collect();
        memory_order(&[&given[0], &given[1], &given[2]])
    };
    let ls: Vec<_> = ts
        .iter()
        .map(|t| {
            let l = t.layout().expand(&shape);
            match &order {
                Some(o) => o.permute(&l),
                None => l,
            }
        })
        .collect();
    let out = ts[0]
        .read()
        .ternary(&ls[0], (&ts[1].read(), &ls[1]), (&ts[2].read(), &ls[2]), op)?;
    Ok(match order {
        Some(o) => Tensor::from_storage(out, o.result),
        None => Tensor::from_contiguous(out, &shape),
    })
}

/// `where(cond, a, b)`: a where cond holds, else b; a and b promote together.
pub fn where_(cond: &Tensor, a0: &Tensor, b0: &Tensor) -> Result<Tensor> {
    let dtype = result_type(&[a0.operand(), b0.operand()]);
    if dtype.is_complex() {
        // Pick whole (re, im) pairs: the condition gets a pair dim to broadcast over.
        let device = [cond, a0, b0]
            .iter()
            .find(|t| !goes_anywhere(t))
            .map_or(Device::Cpu, |t| t.device());
        let pairs = |t: &Tensor| t.to_dtype(dtype)?.to_device(device)?.view_as_real();
        let c = crate::tensor::ops::view::unsqueeze(&cond.to_device(device)?, -1)?;
        return where_(&c, &pairs(a0)?, &pairs(b0)?)?
            .contiguous()?
            .view_as_complex();
    }
    let out = ternary(
        TernaryOp::Where,
        [cond, a0, b0],
        [DType::Bool, dtype, dtype],
        dtype,
        "where",
    )?;
    Ok(rules::record_where(cond, a0, b0, out))
}

/// `clamp(x, min, max)`: bounds promote with x (a float bound on an integer
/// tensor gives floats, as in PyTorch); NaN stays NaN.
pub fn clamp(a: &Tensor, min: Option<&Tensor>, max: Option<&Tensor>) -> Result<Tensor> {
    if min.is_none() && max.is_none() {
        return Err(crate::error::value_err(
            "clamp needs at least one of min and max",
        ));
    }
    let mut ops = vec![a.operand()];
    ops.extend(min.iter().map(|t| t.operand()));
    ops.extend(max.iter().map(|t| t.operand()));
    let dtype = result_type(&ops);
    if dtype.is_bool() {
        return Err(dtype_err("clamp is not supported for bool tensors")
            .hint("convert first, e.g. t.int()"));
    }
    // A missing bound is the dtype's extreme (infinity for floats).
    let edge = |low: bool| {
        if dtype.is_float() {
            Tensor::scalar_f64(
                if low {
                    f64::NEG_INFINITY
                } else {
                    f64::INFINITY
                },
                dtype,
            )
        } else {
            let (lo, hi) = dtype.int_range();
            Tensor::scalar_i64(if low { lo } else { hi }, dtype)
        }
    };
    let lo = match min {
        Some(m) => int_bound(m, dtype, true)?.unwrap_or_else(|| m.clone()),
        None => edge(true),
    };
    let hi = match max {
        Some(m) => int_bound(m, dtype, false)?.unwrap_or_else(|| m.clone()),
        None => edge(false),
    };
    let out = ternary(TernaryOp::Clamp, [a, &lo, &hi], [dtype; 3], dtype, "clamp")?;
    Ok(rules::record_clamp(a, min, max, out))
}

/// A Python-number bound of an integer clamp, compared as a number (not wrapped
/// into the dtype): beyond the range on the open side it bounds nothing, on the
/// other side it is refused, as PyTorch does. None: use the bound as it is.
fn int_bound(bound: &Tensor, dtype: DType, is_min: bool) -> Result<Option<Tensor>> {
    if dtype.is_float() || !bound.is_wrapped_number() || bound.dtype().is_float() {
        return Ok(None);
    }
    let v = crate::tensor::ops::scalar::item_i64(bound)?;
    let (lo, hi) = dtype.int_range();
    let (open, refused) = if is_min {
        (v < lo, v > hi)
    } else {
        (v > hi, v < lo)
    };
    if refused {
        let which = if is_min { "min" } else { "max" };
        return Err(value_err(format!(
            "clamp {which} value {v} is outside the range of {dtype} ({lo} to {hi})"
        ))
        .hint("convert the tensor to a wider dtype first, e.g. t.long()"));
    }
    Ok(open.then(|| Tensor::scalar_i64(if is_min { lo } else { hi }, dtype)))
}

/// `a + alpha * b` (`sub`: `a - alpha * b`), PyTorch's add and sub with a
/// Python-number alpha: one fused multiply-add for float32 and float64, as
/// ATen computes them; other dtypes multiply, then add.
pub fn add_scaled(a: &Tensor, b: &Tensor, alpha: &Tensor, subtract: bool) -> Result<Tensor> {
    let op = if subtract {
        BinaryOp::Sub
    } else {
        BinaryOp::Add
    };
    let dtype = result_type(&[a.operand(), b.operand(), alpha.operand()]);
    if !alpha.is_wrapped_number() || !matches!(dtype, DType::F32 | DType::F64) {
        return binary(op, a, &binary(BinaryOp::Mul, b, alpha)?);
    }
    let alpha = if subtract {
        crate::autograd::no_grad(|| unary(UnaryOp::Neg, alpha))?
    } else {
        alpha.clone()
    };
    fused_multiply_add(op.grad_fn(false, false), a, b, &alpha)
}

/// `t ± alpha * b` written into t (add_ and sub_ with alpha) in one pass
/// (an update program, tensor/ops/update.rs) where nothing records it and b
/// is a tensor of t's float32 or float64 dtype and shape: the same fused
/// multiply-add, the same bits. Ok(false): nothing written, compute out of
/// place.
pub fn add_scaled_in_place(t: &Tensor, b: &Tensor, alpha: &Tensor, subtract: bool) -> Result<bool> {
    let dtype = result_type(&[t.operand(), b.operand(), alpha.operand()]);
    if !alpha.is_wrapped_number() || dtype != t.dtype() || !super::update::fits_in_place(t, &[b]) {
        return Ok(false);
    }
    // Negating and rounding to t's dtype commute.
    let k = crate::tensor::ops::scalar::item_f64(alpha)?;
    let mut u = super::update::Update::new(dtype);
    let (x, y) = (u.operand(t), u.operand(b));
    let next = u.add_scaled(x, y, if subtract { -k } else { k });
    u.set(x, next);
    u.run()?;
    Ok(true)
}

/// `a + b * c` rounded once (a fused multiply-add) in float32 or float64,
/// their result type; recorded as `name`.
pub fn fused_multiply_add(
    name: &'static str,
    a: &Tensor,
    b: &Tensor,
    c: &Tensor,
) -> Result<Tensor> {
    let dtype = result_type(&[a.operand(), b.operand(), c.operand()]);
    if !matches!(dtype, DType::F32 | DType::F64) {
        return Err(dtype_err(format!(
            "internal: a fused multiply-add in {dtype}, which has none"
        )));
    }
    let out = crate::autograd::no_grad(|| {
        ternary(TernaryOp::AddScaled, [a, b, c], [dtype; 3], dtype, "add")
    })?;
    Ok(rules::record_fused_multiply_add(name, a, b, c, out))
}

/// `lerp(start, end, weight)` as PyTorch computes it (floats only).
pub fn lerp(start: &Tensor, end: &Tensor, weight: &Tensor) -> Result<Tensor> {
    // The weight takes the dtype of start and end, which must be floats.
    let dtype = result_type(&[start.operand(), end.operand()]);
    if !dtype.is_float() {
        return Err(
            dtype_err(format!("lerp needs floating point tensors, not {dtype}"))
                .hint("convert first with .float()"),
        );
    }
    let out = ternary(
        TernaryOp::Lerp,
        [start, end, weight],
        [dtype; 3],
        dtype,
        "lerp",
    )?;
    Ok(rules::record_lerp(start, end, weight, out))
}

/// `nan_to_num`: NaN, +inf and -inf replaced (by 0 and the dtype's largest finite
/// values unless given), in one backend pass. One node, as in PyTorch;
/// gradients flow to the kept elements.
pub fn nan_to_num(
    t: &Tensor,
    nan: f64,
    posinf: Option<f64>,
    neginf: Option<f64>,
) -> Result<Tensor> {
    if t.dtype().is_complex() {
        // Each part on its own, as ATen does.
        let (re, im) = t.parts()?;
        let part = |p: &Tensor| nan_to_num(p, nan, posinf, neginf);
        return crate::tensor::complex::from_parts(&part(&re)?, &part(&im)?);
    }
    let Some(big) = t.dtype().max_finite() else {
        // Integers and bools hold no nan or inf: a copy, as in PyTorch.
        return t.deep_clone();
    };
    let with = [nan, posinf.unwrap_or(big), neginf.unwrap_or(-big)];
    let out = in_memory_order(t.layout(), t.layout(), |l| t.read().nan_to_num(l, with))?;
    // derivatives.yaml: grad * isfinite(self).
    let x = crate::autograd::Saved::new(t);
    Ok(crate::autograd::record(
        out,
        "NanToNumBackward0",
        &[t],
        true,
        move || {
            crate::autograd::rules::rule(move |g| {
                let kept = predicate(PredicateOp::IsFinite, &x.get()?)?;
                Ok(vec![Some(crate::tensor::ops::arith::mul(g, &kept)?)])
            })
        },
    ))
}
