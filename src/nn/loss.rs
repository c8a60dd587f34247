//! Losses, in tensor ops: those PyTorch differentiates as one node are
//! composites with its grad_fn name; cross_entropy is composed op for op as
//! PyTorch composes it, so its graph is PyTorch's.

use super::activation::{require_float, softplus_neg};
use crate::autograd::composite::composite;
use crate::autograd::relabel;
use crate::error::{Result, dtype_err, index_err, shape_err, value_err};
use crate::tensor::op::{BinaryOp, ReduceOp, UnaryOp};
use crate::tensor::ops::arith::{add, cmp, div, mask, mul, neg, num, scale, sub, un, where_};
use crate::tensor::ops::index::{Idx, index};
use crate::tensor::ops::reduce::{log_softmax, reduce};
use crate::tensor::ops::scalar::{item_bool, item_i64};
use crate::tensor::ops::select::gather;
use crate::tensor::ops::view::{permute, reshape, unsqueeze};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

/// 'mean', 'sum' or 'none'.
pub fn reduce_loss(l: Tensor, reduction: &str) -> Result<Tensor> {
    match reduction {
        "mean" => reduce(&l, ReduceOp::Mean, None, false),
        "sum" => reduce(&l, ReduceOp::Sum, None, false),
        "none" => Ok(l),
        other => Err(bad_reduction(other)),
    }
}

fn bad_reduction(r: &str) -> crate::error::Error {
    value_err(format!(
        "reduction must be 'mean', 'sum' or 'none', not '{r}'"
    ))
}

/// PyTorch's warning when a regression loss's target has another shape than
/// its input: broadcasting then pairs every input with every target.
fn warn_target_size(input: &Tensor, target: &Tensor) {
    if input.shape() != target.shape() {
        crate::warnings::warn(
            crate::warnings::WarningKind::Broadcast,
            format!(
                "Using a target size (torch.Size({})) that is different to the input size (torch.Size({})). This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.",
                fmt_shape(target.shape()),
                fmt_shape(input.shape())
            ),
        );
    }
}

pub fn mse_loss(input: &Tensor, target: &Tensor, reduction: &str) -> Result<Tensor> {
    let dtype = crate::tensor::promote::promote_types(input.dtype(), target.dtype());
    if !dtype.is_float() {
        return Err(dtype_err(format!(
            "mse_loss needs floating point tensors, but got {} and {}",
            input.dtype(),
            target.dtype()
        ))
        .hint("convert with .float(), e.g. F.mse_loss(pred.float(), y.float())"));
    }
    warn_target_size(input, target);
    composite("MseLossBackward0", &[input, target], |t| {
        let d = sub(&t[0], &t[1])?;
        reduce_loss(un(UnaryOp::Square, &d)?, reduction)
    })
}

pub fn l1_loss(input: &Tensor, target: &Tensor, reduction: &str) -> Result<Tensor> {
    warn_target_size(input, target);
    let d = sub(input, target)?;
    reduce_loss(un(UnaryOp::Abs, &d)?, reduction)
}

/// Input with the class dim moved last and the rest flattened: (M, C), and the
/// shape the targets must have.
fn rows_by_class(input: &Tensor, target: &Tensor) -> Result<(Tensor, Vec<usize>)> {
    let (rows, expect): (Tensor, Vec<usize>) = match input.ndim() {
        0 => {
            return Err(shape_err(
                "the input to a classification loss needs a class dimension",
            ));
        }
        1 => (unsqueeze(input, 0)?, vec![]),
        2 => (input.clone(), vec![input.shape()[0]]),
        n => {
            let mut dims: Vec<i64> = vec![0];
            dims.extend(2..n as i64);
            dims.push(1);
            let moved = permute(input, &dims)?;
            let c = input.shape()[1] as i64;
            let mut expect = vec![input.shape()[0]];
            expect.extend(&input.shape()[2..]);
            let m: usize = expect.iter().product();
            (reshape(&moved, &[m as i64, c])?, expect)
        }
    };
    if target.shape() != expect.as_slice() {
        return Err(shape_err(format!(
            "the target's shape {} does not fit the input's shape {}: expected {}",
            fmt_shape(target.shape()),
            fmt_shape(input.shape()),
            fmt_shape(&expect)
        ))
        .hint("class indices have the input's shape without the class dim (dim 1)"));
    }
    Ok((rows, expect))
}

/// Class indices are int64 (or uint8), as PyTorch's losses require.
fn check_class_target(target: &Tensor) -> Result<()> {
    if matches!(target.dtype(), DType::I64 | DType::U8) {
        return Ok(());
    }
    Err(dtype_err(format!(
        "expected the target's dtype to be int64 (Long) or uint8 (Byte), but got {}",
        target.dtype()
    ))
    .hint("class indices are int64: convert with .long(); class probabilities are floats with the input's shape"))
}

/// The targets as one row of class indices, which rows count (not ignored), and
/// the indices with ignored ones replaced by class 0; out-of-range classes are
/// an `index` error.
struct Picks {
    /// Ignored rows hold class 0 (their weight is 0).
    safe: Tensor,
    /// 1 where the row counts, 0 where it is ignored, in the input's dtype.
    valid: Tensor,
}

fn picks(target: &Tensor, classes: usize, ignore_index: i64, dtype: DType) -> Result<Picks> {
    crate::autograd::no_grad(|| {
        let flat = reshape(&target.to_dtype(DType::I64)?, &[target.numel() as i64])?;
        let keep = cmp(BinaryOp::Ne, &flat, &num(ignore_index as f64))?;
        let safe = where_(&keep, &flat, &Tensor::scalar_i64(0, DType::I64))?;
        let bad = cmp(
            BinaryOp::LogicalOr,
            &cmp(BinaryOp::Lt, &safe, &num(0.0))?,
            &cmp(BinaryOp::Ge, &safe, &num(classes as f64))?,
        )?;
        if safe.numel() > 0 && item_bool(&reduce(&bad, ReduceOp::Any, None, false)?)? {
            // Name one offender, as PyTorch's message does.
            let at = item_i64(&reduce(
                &bad.to_dtype(DType::I64)?,
                ReduceOp::ArgMax,
                None,
                false,
            )?)?;
            let t = item_i64(&index(&safe, &[Idx::Int(at)])?)?;
            return Err(index_err(format!(
                "target {t} is out of bounds: there are {classes} classes (0 to {})",
                classes as i64 - 1
            )));
        }
        Ok(Picks {
            safe,
            valid: keep.to_dtype(dtype)?,
        })
    })
}

/// Per-row weights: the class weight of each target (1 without weights), 0 where ignored.
fn row_weights(p: &Picks, weight: Option<&Tensor>) -> Result<Tensor> {
    match weight {
        Some(w) => mul(&index(w, &[Idx::Tensor(p.safe.clone())])?, &p.valid),
        None => Ok(p.valid.clone()),
    }
}

fn check_weight(weight: Option<&Tensor>, classes: usize) -> Result<()> {
    if let Some(w) = weight
        && w.shape() != [classes]
    {
        return Err(shape_err(format!(
            "weight must hold one value per class ({classes}), but its shape is {}",
            fmt_shape(w.shape())
        )));
    }
    Ok(())
}

/// The autograd node: ATen runs its 2-d kernel (nll_loss2d) for inputs of
/// more dims.
fn nll_node(input: &Tensor) -> &'static str {
    if input.ndim() <= 2 {
        "NllLossBackward0"
    } else {
        "NllLoss2DBackward0"
    }
}

/// Per-row losses reduced as `reduction` says; a mean divides by
/// `weight_sum`. ATen's (N, C) kernel adds the losses one by one (in
/// levels); its kernel for more dims is another, which tsh does not replay.
fn reduce_nll(
    input: &Tensor,
    losses: &Tensor,
    target_shape: &[usize],
    reduction: &str,
    weight_sum: impl FnOnce(ReduceOp) -> Result<Tensor>,
) -> Result<Tensor> {
    let total = if input.ndim() <= 2 {
        ReduceOp::SumInOrder
    } else {
        ReduceOp::Sum
    };
    match reduction {
        "none" => {
            let shape: Vec<i64> = target_shape.iter().map(|&d| d as i64).collect();
            reshape(losses, &shape)
        }
        "sum" => reduce(losses, total, None, false),
        _ => div(&reduce(losses, total, None, false)?, &weight_sum(total)?),
    }
}

/// nll_loss without weights where no target is ignored: one gather picks
/// each row's log-probability (a handful of ops, where the general path
/// takes about twenty). The gather refuses a target outside the classes,
/// such as an ignored one; the general path then drops ignored rows or
/// words the error.
fn every_row_nll(input: &Tensor, target: &Tensor, reduction: &str) -> Result<Tensor> {
    composite(nll_node(input), &[input], |t| {
        let (rows, target_shape) = rows_by_class(&t[0], target)?;
        let m = rows.shape()[0];
        let column = reshape(&target.to_dtype(DType::I64)?, &[m as i64, 1])?;
        let picked = gather(&rows, 1, &column)?;
        let losses = neg(&reshape(&picked, &[m as i64])?)?;
        // Every row counts with weight 1: the total weight is m.
        reduce_nll(&t[0], &losses, &target_shape, reduction, |_| {
            Ok(num(m as f64))
        })
    })
}

pub fn nll_loss(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    ignore_index: i64,
    reduction: &str,
) -> Result<Tensor> {
    require_float(input, "nll_loss")?;
    let (_, target_shape) = rows_by_class(input, target)?;
    check_class_target(target)?;
    if !matches!(reduction, "mean" | "sum" | "none") {
        return Err(bad_reduction(reduction));
    }
    let classes = input.shape()[if input.ndim() >= 2 { 1 } else { 0 }];
    check_weight(weight, classes)?;
    if weight.is_none()
        && !(0..classes as i64).contains(&ignore_index)
        && let Ok(loss) = every_row_nll(input, target, reduction)
    {
        return Ok(loss);
    }
    let p = picks(target, classes, ignore_index, input.dtype())?;
    let inputs: Vec<&Tensor> = std::iter::once(input).chain(weight).collect();
    composite(nll_node(input), &inputs, |t| {
        let (rows, _) = rows_by_class(&t[0], target)?;
        let m = rows.shape()[0];
        let all = crate::tensor::ops::creation::arange_on(m, rows.device())?;
        let picked = index(&rows, &[Idx::Tensor(all), Idx::Tensor(p.safe.clone())])?;
        let w = row_weights(&p, t.get(1))?;
        let losses = neg(&mul(&picked, &w)?)?;
        reduce_nll(&t[0], &losses, &target_shape, reduction, |total| {
            reduce(&w, total, None, false)
        })
    })
}

pub struct CrossEntropy<'a> {
    pub weight: Option<&'a Tensor>,
    pub ignore_index: i64,
    pub reduction: &'a str,
    pub label_smoothing: f64,
}

/// PyTorch's composition, op for op, so the graph is PyTorch's: log_softmax, then
/// nll_loss for class indices or -(lsm * target * weight).sum(...) for class
/// probabilities, and label smoothing mixed in as in `cross_entropy_loss_label_smoothing`.
pub fn cross_entropy(input: &Tensor, target: &Tensor, o: &CrossEntropy) -> Result<Tensor> {
    require_float(input, "cross_entropy")?;
    if !(0.0..=1.0).contains(&o.label_smoothing) {
        return Err(value_err("label_smoothing must be between 0 and 1"));
    }
    if !matches!(o.reduction, "mean" | "sum" | "none") {
        return Err(bad_reduction(o.reduction));
    }
    let class_dim: i64 = if input.ndim() >= 2 { 1 } else { 0 };
    let classes = input.shape().get(class_dim as usize).copied().unwrap_or(0);
    check_weight(o.weight, classes)?;
    let lsm = log_softmax(input, class_dim)?;
    let eps = o.label_smoothing;
    // Weights broadcast along the class dim: (C, 1, 1, ...).
    let weight_b = match o.weight {
        Some(w) => {
            let mut s = vec![classes as i64];
            s.extend(std::iter::repeat_n(
                1,
                input.ndim().saturating_sub(class_dim as usize + 1),
            ));
            Some(reshape(w, &s)?)
        }
        None => None,
    };
    // A float target of the input's shape holds class probabilities; any other
    // target holds class indices (PyTorch decides the same way).
    if target.dtype().is_float() && target.shape() == input.shape() {
        let t = if eps > 0.0 {
            add(&scale(target, 1.0 - eps)?, &num(eps / classes as f64))?
        } else {
            target.clone()
        };
        let mut prod = mul(&lsm, &t)?;
        if let Some(w) = &weight_b {
            prod = mul(&prod, w)?;
        }
        return match o.reduction {
            "none" => neg(&reduce(&prod, ReduceOp::Sum, Some(&[class_dim]), false)?),
            "sum" => neg(&reduce(&prod, ReduceOp::Sum, None, false)?),
            _ => {
                let total = neg(&reduce(&prod, ReduceOp::Sum, None, false)?)?;
                let rows = input.numel() as f64 / classes.max(1) as f64;
                Ok(relabel(div(&total, &num(rows))?, "DivBackward1"))
            }
        };
    }
    let nll = nll_loss(&lsm, target, o.weight, o.ignore_index, o.reduction)?;
    if eps == 0.0 {
        return Ok(nll);
    }
    // Label smoothing: mix in the mean of -log p over classes (weighted).
    let mut all = lsm.clone();
    if let Some(w) = &weight_b {
        all = mul(&all, w)?;
    }
    let smooth = neg(&reduce(&all, ReduceOp::Sum, Some(&[class_dim]), false)?)?;
    let p = picks(target, classes, o.ignore_index, input.dtype())?;
    let target_shape: Vec<i64> = target.shape().iter().map(|&d| d as i64).collect();
    let ignored = reshape(&cmp(BinaryOp::Eq, &p.valid, &num(0.0))?, &target_shape)?;
    let smooth = relabel(where_(&ignored, &num(0.0), &smooth)?, "MaskedFillBackward0");
    let smooth = match o.reduction {
        "mean" => {
            // Normalised as nll_loss is: by the weights of the rows that count.
            let denom = crate::autograd::no_grad(|| {
                reduce(&row_weights(&p, o.weight)?, ReduceOp::Sum, None, false)
            })?;
            div(&reduce(&smooth, ReduceOp::Sum, None, false)?, &denom)?
        }
        r => reduce_loss(smooth, r)?,
    };
    add(
        &relabel(scale(&nll, 1.0 - eps)?, "MulBackward1"),
        &relabel(scale(&smooth, eps / classes as f64)?, "MulBackward1"),
    )
}

fn check_same_shape(input: &Tensor, target: &Tensor, what: &str) -> Result<()> {
    if input.shape() != target.shape() {
        return Err(shape_err(format!(
            "{what}: the target's shape {} differs from the input's shape {}",
            fmt_shape(target.shape()),
            fmt_shape(input.shape())
        ))
        .hint("the target needs one value per input element"));
    }
    Ok(())
}

pub fn binary_cross_entropy(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    reduction: &str,
) -> Result<Tensor> {
    require_float(input, "binary_cross_entropy")?;
    check_same_shape(input, target, "binary_cross_entropy")?;
    if target.dtype() != input.dtype() {
        return Err(dtype_err(format!(
            "binary_cross_entropy needs the target in the input's dtype ({}), but it is {}",
            input.dtype(),
            target.dtype()
        ))
        .hint("convert the target, e.g. target.float()"));
    }
    let outside = crate::autograd::no_grad(|| {
        let bad = cmp(
            BinaryOp::LogicalOr,
            &cmp(BinaryOp::Lt, input, &num(0.0))?,
            &cmp(BinaryOp::Gt, input, &num(1.0))?,
        )?;
        reduce(&bad, ReduceOp::Any, None, false)
    })?;
    if input.numel() > 0 && item_bool(&outside)? {
        return Err(value_err(
            "binary_cross_entropy: every input must be a probability between 0 and 1",
        )
        .hint("apply sigmoid first, or use binary_cross_entropy_with_logits on raw scores"));
    }
    let inputs: Vec<&Tensor> = [input, target].into_iter().chain(weight).collect();
    composite("BinaryCrossEntropyBackward0", &inputs, |t| {
        bce_body(&t[0], &t[1], t.get(2), reduction)
    })
}

fn bce_body(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    reduction: &str,
) -> Result<Tensor> {
    // PyTorch clamps the logs at -100 so that p = 0 or 1 gives a finite loss.
    let clamped_log = |t: &Tensor| -> Result<Tensor> {
        crate::tensor::ops::elementwise::clamp(&un(UnaryOp::Log, t)?, Some(&num(-100.0)), None)
    };
    let one_minus = |t: &Tensor| sub(&num(1.0), t);
    let a = mul(target, &clamped_log(input)?)?;
    let b = mul(&one_minus(target)?, &clamped_log(&one_minus(input)?)?)?;
    let mut l = neg(&add(&a, &b)?)?;
    if let Some(w) = weight {
        l = mul(&l, w)?;
    }
    reduce_loss(l, reduction)
}

/// ℓ = (1 - t) x + (1 + (pw - 1) t) softplus(-x), computed stably.
pub fn binary_cross_entropy_with_logits(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    reduction: &str,
) -> Result<Tensor> {
    require_float(input, "binary_cross_entropy_with_logits")?;
    check_same_shape(input, target, "binary_cross_entropy_with_logits")?;
    if !target.dtype().is_float() {
        return Err(dtype_err(format!(
            "binary_cross_entropy_with_logits needs a floating point target, but it is {}",
            target.dtype()
        ))
        .hint("convert the target, e.g. target.float()"));
    }
    let mut inputs = vec![input, target];
    inputs.extend(weight);
    inputs.extend(pos_weight);
    let (has_w, has_pw) = (weight.is_some(), pos_weight.is_some());
    composite("BinaryCrossEntropyWithLogitsBackward0", &inputs, |t| {
        let (x, tg) = (&t[0], &t[1]);
        let w = has_w.then(|| &t[2]);
        let pw = has_pw.then(|| &t[2 + has_w as usize]);
        let coef = match pw {
            Some(pw) => add(&num(1.0), &mul(&sub(pw, &num(1.0))?, tg)?)?,
            None => num(1.0),
        };
        let mut l = add(
            &mul(&sub(&num(1.0), tg)?, x)?,
            &mul(&coef, &softplus_neg(x)?)?,
        )?;
        if let Some(w) = w {
            l = mul(&l, w)?;
        }
        reduce_loss(l, reduction)
    })
}

/// A bool mask as 0/1 in `like`'s dtype (re-exported for the conv module).
pub fn as_mask(m: &Tensor, like: &Tensor) -> Result<Tensor> {
    mask(m, like)
}
