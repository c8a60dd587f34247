//! torch.nn.functional on tensors. Most functions are compositions of recorded
//! ops (so autograd comes for free) whose last node is renamed to PyTorch's
//! grad_fn name; activations with a closed-form derivative record one node.

use crate::autograd::composite::composite;
use crate::autograd::rules::elementwise::record_map;
use crate::autograd::rules::rule;
use crate::autograd::rules::shape::record_gather;
use crate::autograd::{Saved, record, relabel};
use crate::backend::cpu::binary::BinaryOp;
use crate::backend::cpu::map::take;
use crate::backend::cpu::reduce::ReduceOp;
use crate::backend::cpu::unary::{UnaryOp, erf};
use crate::error::{Result, dtype_err, index_err, shape_err, value_err};
use crate::tensor::ops::creation::{full, rand};
use crate::tensor::ops::elementwise::{binary, map_float, unary};
use crate::tensor::ops::index::{Idx, index};
use crate::tensor::ops::join::cat;
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{log_softmax, max_min_dim, reduce};
use crate::tensor::ops::view::{permute, reshape, squeeze, unsqueeze};
use crate::tensor::shape::fmt_shape;
use crate::tensor::{DType, Tensor};

fn num(v: f64) -> Tensor {
    crate::autograd::rules::num(v)
}

fn require_float(t: &Tensor, what: &str) -> Result<()> {
    if !t.dtype().is_float() {
        return Err(dtype_err(format!(
            "{what} needs a floating point input, but it is {}",
            t.dtype()
        ))
        .hint("convert first with .float()"));
    }
    Ok(())
}

/// 'mean', 'sum' or 'none'.
pub fn reduce_loss(l: Tensor, reduction: &str) -> Result<Tensor> {
    match reduction {
        "mean" => reduce(&l, ReduceOp::Mean, None, false),
        "sum" => reduce(&l, ReduceOp::Sum, None, false),
        "none" => Ok(l),
        other => Err(value_err(format!(
            "reduction must be 'mean', 'sum' or 'none', not '{other}'"
        ))),
    }
}

// ---- activations ----

pub fn leaky_relu(x: &Tensor, slope: f64) -> Result<Tensor> {
    require_float(x, "leaky_relu")?;
    let out = map_float(x, move |v| if v > 0.0 { v } else { v * slope });
    Ok(record_map("LeakyReluBackward0", x, out, move |v| {
        if v > 0.0 { 1.0 } else { slope }
    }))
}

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;

pub fn gelu(x: &Tensor, approximate: &str) -> Result<Tensor> {
    require_float(x, "gelu")?;
    match approximate {
        "none" => {
            let out = map_float(x, |v| 0.5 * v * (1.0 + erf(v / std::f64::consts::SQRT_2)));
            Ok(record_map("GeluBackward0", x, out, |v| {
                let cdf = 0.5 * (1.0 + erf(v / std::f64::consts::SQRT_2));
                let pdf = (-0.5 * v * v).exp() / (2.0 * std::f64::consts::PI).sqrt();
                cdf + v * pdf
            }))
        }
        "tanh" => {
            let out = map_float(x, |v| {
                0.5 * v * (1.0 + (SQRT_2_OVER_PI * (v + 0.044715 * v * v * v)).tanh())
            });
            Ok(record_map("GeluBackward0", x, out, |v| {
                let u = SQRT_2_OVER_PI * (v + 0.044715 * v * v * v);
                let t = u.tanh();
                0.5 * (1.0 + t)
                    + 0.5 * v * (1.0 - t * t) * SQRT_2_OVER_PI * (1.0 + 3.0 * 0.044715 * v * v)
            }))
        }
        other => Err(value_err(format!(
            "gelu's approximate must be 'none' or 'tanh', not '{other}'"
        ))),
    }
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

pub fn silu(x: &Tensor) -> Result<Tensor> {
    require_float(x, "silu")?;
    let out = map_float(x, |v| v * sigmoid(v));
    Ok(record_map("SiluBackward0", x, out, |v| {
        let s = sigmoid(v);
        s * (1.0 + v * (1.0 - s))
    }))
}

pub fn softplus(x: &Tensor, beta: f64, threshold: f64) -> Result<Tensor> {
    require_float(x, "softplus")?;
    let out = map_float(x, move |v| {
        if v * beta > threshold {
            v
        } else {
            (v * beta).exp().ln_1p() / beta
        }
    });
    Ok(record_map("SoftplusBackward0", x, out, move |v| {
        if v * beta > threshold {
            1.0
        } else {
            sigmoid(v * beta)
        }
    }))
}

pub fn elu(x: &Tensor, alpha: f64) -> Result<Tensor> {
    require_float(x, "elu")?;
    let out = map_float(x, move |v| if v > 0.0 { v } else { alpha * v.exp_m1() });
    Ok(record_map("EluBackward0", x, out, move |v| {
        if v > 0.0 { 1.0 } else { alpha * v.exp() }
    }))
}

pub fn logsigmoid(x: &Tensor) -> Result<Tensor> {
    require_float(x, "logsigmoid")?;
    // log σ(x) = min(x, 0) - log1p(exp(-|x|)), stable for large |x|.
    let out = map_float(x, |v| v.min(0.0) - (-v.abs()).exp().ln_1p());
    Ok(record_map("LogSigmoidBackward0", x, out, |v| {
        1.0 - sigmoid(v)
    }))
}

// ---- layers ----

/// y = x Wᵀ + b, recorded as PyTorch records it: the weight's transpose (TBackward0)
/// into one AddmmBackward0 (or MmBackward0 without a bias), with inputs of other
/// than two dims viewed as a matrix and the result viewed back.
pub fn linear(x: &Tensor, w: &Tensor, b: Option<&Tensor>) -> Result<Tensor> {
    let misfit = |e: crate::error::Error| {
        shape_err(format!(
            "linear: input {} and weight {} do not fit: the weight must be (out_features, {})",
            fmt_shape(x.shape()),
            fmt_shape(w.shape()),
            x.shape().last().copied().unwrap_or(0)
        ))
        .hint(e.message)
    };
    if w.ndim() != 2 || x.ndim() == 0 {
        let y = matmul(x, w).map_err(misfit)?;
        return match b {
            Some(b) => binary(BinaryOp::Add, &y, b),
            None => Ok(y),
        };
    }
    let wt = crate::tensor::ops::view::t2d(w)?;
    let k = *x.shape().last().unwrap_or(&0) as i64;
    let product = |m: &Tensor| -> Result<Tensor> {
        match b {
            Some(b) => composite("AddmmBackward0", &[b, m, &wt], |t| {
                binary(BinaryOp::Add, &matmul(&t[1], &t[2])?, &t[0])
            }),
            None => matmul(m, &wt),
        }
        .map_err(misfit)
    };
    match (x.ndim(), b) {
        (2, _) => product(x),
        (1, None) => {
            let y = product(&unsqueeze(x, 0)?)?;
            Ok(relabel(squeeze(&y, Some(&[0]))?, "SqueezeBackward4"))
        }
        _ => {
            let rows: usize = x.shape()[..x.ndim() - 1].iter().product();
            let y = product(&reshape(x, &[rows as i64, k])?)?;
            let mut shape: Vec<i64> = x.shape()[..x.ndim() - 1]
                .iter()
                .map(|&d| d as i64)
                .collect();
            shape.push(w.shape()[0] as i64);
            Ok(relabel(reshape(&y, &shape)?, "UnsafeViewBackward0"))
        }
    }
}

pub fn dropout(x: &Tensor, p: f64, training: bool) -> Result<Tensor> {
    if !(0.0..=1.0).contains(&p) {
        return Err(value_err(format!(
            "dropout probability has to be between 0 and 1, but got {p}"
        )));
    }
    if !training || p == 0.0 {
        return Ok(x.clone());
    }
    require_float(x, "dropout")?;
    let keep = 1.0 - p;
    let scale = if keep == 0.0 { 0.0 } else { 1.0 / keep };
    let r = rand(x.shape(), DType::F64)?;
    let mask = map_float(&r, move |u| if u < keep { scale } else { 0.0 }).to_dtype(x.dtype());
    binary(BinaryOp::Mul, x, &mask)
}

pub fn one_hot(t: &Tensor, num_classes: i64) -> Result<Tensor> {
    if t.dtype() != DType::I64 {
        return Err(dtype_err(format!(
            "one_hot needs an int64 (Long) tensor of class indices, not {}",
            t.dtype()
        ))
        .hint("convert with .long()"));
    }
    let v = t.to_i64_vec();
    let c = if num_classes < 0 {
        v.iter().copied().max().map(|m| m + 1).unwrap_or(0).max(0)
    } else {
        num_classes
    };
    if let Some(bad) = v.iter().find(|&&x| x < 0 || x >= c) {
        return Err(index_err(format!(
            "one_hot: class {bad} is out of range for {c} classes"
        )));
    }
    let mut shape = t.shape().to_vec();
    shape.push(c as usize);
    crate::tensor::core::check_alloc(&shape, DType::I64)?;
    let mut out = vec![0i64; v.len() * c as usize];
    for (i, &x) in v.iter().enumerate() {
        out[i * c as usize + x as usize] = 1;
    }
    Ok(Tensor::from_vec(out, &shape))
}

// ---- losses ----

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
        let d = binary(BinaryOp::Sub, &t[0], &t[1])?;
        reduce_loss(binary(BinaryOp::Pow, &d, &num(2.0))?, reduction)
    })
}

pub fn l1_loss(input: &Tensor, target: &Tensor, reduction: &str) -> Result<Tensor> {
    warn_target_size(input, target);
    let d = binary(BinaryOp::Sub, input, target)?;
    reduce_loss(unary(UnaryOp::Abs, &d)?, reduction)
}

/// Input with the class dim moved last and the rest flattened: (M, C), and the
/// targets as M class indices.
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
            (reshape(&moved, &[-1, c])?, expect)
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

/// Per-row class weights (0 for ignore_index) and the row indices to pick.
fn class_picks(
    target: &Tensor,
    classes: usize,
    weight: Option<&Tensor>,
    ignore_index: i64,
) -> Result<(Vec<i64>, Vec<f64>)> {
    check_class_target(target)?;
    let w = match weight {
        Some(w) => {
            if w.shape() != [classes] {
                return Err(shape_err(format!(
                    "weight must hold one value per class ({classes}), but its shape is {}",
                    fmt_shape(w.shape())
                )));
            }
            Some(w.to_f64_vec())
        }
        None => None,
    };
    let mut picks = vec![];
    let mut wts = vec![];
    for t in target.to_i64_vec() {
        if t == ignore_index {
            picks.push(0);
            wts.push(0.0);
            continue;
        }
        if t < 0 || t as usize >= classes {
            return Err(index_err(format!(
                "target {t} is out of bounds: there are {classes} classes (0 to {})",
                classes as i64 - 1
            )));
        }
        picks.push(t);
        wts.push(w.as_ref().map_or(1.0, |w| w[t as usize]));
    }
    Ok((picks, wts))
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
    let classes = input.shape()[if input.ndim() >= 2 { 1 } else { 0 }];
    let (picks, wts) = class_picks(target, classes, weight, ignore_index)?;
    let inputs: Vec<&Tensor> = std::iter::once(input).chain(weight).collect();
    composite("NllLossBackward0", &inputs, |t| {
        let (rows, _) = rows_by_class(&t[0], target)?;
        nll_picked(&rows, picks, wts, input.dtype(), &target_shape, reduction)
    })
}

/// -w[t] * x[t] per row, reduced: the body of nll_loss.
fn nll_picked(
    rows: &Tensor,
    picks: Vec<i64>,
    wts: Vec<f64>,
    dtype: DType,
    target_shape: &[usize],
    reduction: &str,
) -> Result<Tensor> {
    let m = picks.len();
    let picked = index(
        rows,
        &[
            Idx::Tensor(Tensor::from_vec((0..m as i64).collect::<Vec<_>>(), &[m])),
            Idx::Tensor(Tensor::from_vec(picks, &[m])),
        ],
    )?;
    let total_w: f64 = wts.iter().sum();
    let w = Tensor::from_vec(wts, &[m]).to_dtype(dtype);
    let losses = binary(BinaryOp::Mul, &picked, &w)?;
    let losses = unary(UnaryOp::Neg, &losses)?;
    let out = match reduction {
        "none" => {
            let shape: Vec<i64> = target_shape.iter().map(|&d| d as i64).collect();
            reshape(&losses, &shape)?
        }
        "sum" => reduce(&losses, ReduceOp::Sum, None, false)?,
        "mean" => binary(
            BinaryOp::Div,
            &reduce(&losses, ReduceOp::Sum, None, false)?,
            &num(total_w),
        )?,
        other => {
            return Err(value_err(format!(
                "reduction must be 'mean', 'sum' or 'none', not '{other}'"
            )));
        }
    };
    Ok(out)
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
    let class_dim: i64 = if input.ndim() >= 2 { 1 } else { 0 };
    let classes = input.shape().get(class_dim as usize).copied().unwrap_or(0);
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
            binary(
                BinaryOp::Add,
                &binary(BinaryOp::Mul, target, &num(1.0 - eps))?,
                &num(eps / classes as f64),
            )?
        } else {
            target.clone()
        };
        let mut prod = binary(BinaryOp::Mul, &lsm, &t)?;
        if let Some(w) = &weight_b {
            prod = binary(BinaryOp::Mul, &prod, w)?;
        }
        return match o.reduction {
            "none" => unary(
                UnaryOp::Neg,
                &reduce(&prod, ReduceOp::Sum, Some(&[class_dim]), false)?,
            ),
            "sum" => unary(UnaryOp::Neg, &reduce(&prod, ReduceOp::Sum, None, false)?),
            "mean" => {
                let total = unary(UnaryOp::Neg, &reduce(&prod, ReduceOp::Sum, None, false)?)?;
                let rows = input.numel() as f64 / classes.max(1) as f64;
                Ok(relabel(
                    binary(BinaryOp::Div, &total, &num(rows))?,
                    "DivBackward1",
                ))
            }
            other => Err(value_err(format!(
                "reduction must be 'mean', 'sum' or 'none', not '{other}'"
            ))),
        };
    }
    let nll = nll_loss(&lsm, target, o.weight, o.ignore_index, o.reduction)?;
    if eps == 0.0 {
        return Ok(nll);
    }
    // Label smoothing: mix in the mean of -log p over classes (weighted).
    let mut all = lsm.clone();
    if let Some(w) = &weight_b {
        all = binary(BinaryOp::Mul, &all, w)?;
    }
    let smooth = unary(
        UnaryOp::Neg,
        &reduce(&all, ReduceOp::Sum, Some(&[class_dim]), false)?,
    )?;
    let (_, wts) = class_picks(target, classes, o.weight, o.ignore_index)?;
    let ignored = crate::tensor::ops::elementwise::binary(
        BinaryOp::Eq,
        target,
        &crate::autograd::rules::num(o.ignore_index as f64),
    )?;
    let smooth = relabel(
        crate::tensor::ops::elementwise::where_(&ignored, &num(0.0), &smooth)?,
        "MaskedFillBackward0",
    );
    let smooth = match o.reduction {
        "mean" => {
            let denom: f64 = if o.weight.is_some() {
                wts.iter().sum()
            } else {
                wts.iter().filter(|&&w| w != 0.0).count() as f64
            };
            binary(
                BinaryOp::Div,
                &reduce(&smooth, ReduceOp::Sum, None, false)?,
                &Tensor::scalar_f64(denom, input.dtype()),
            )?
        }
        r => reduce_loss(smooth, r)?,
    };
    binary(
        BinaryOp::Add,
        &relabel(
            binary(BinaryOp::Mul, &nll, &num(1.0 - eps))?,
            "MulBackward1",
        ),
        &relabel(
            binary(BinaryOp::Mul, &smooth, &num(eps / classes as f64))?,
            "MulBackward1",
        ),
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
    if input
        .to_f64_vec()
        .iter()
        .any(|&p| !(0.0..=1.0).contains(&p))
    {
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
        crate::tensor::ops::elementwise::clamp(&unary(UnaryOp::Log, t)?, Some(&num(-100.0)), None)
    };
    let one_minus = |t: &Tensor| binary(BinaryOp::Sub, &num(1.0), t);
    let a = binary(BinaryOp::Mul, target, &clamped_log(input)?)?;
    let b = binary(
        BinaryOp::Mul,
        &one_minus(target)?,
        &clamped_log(&one_minus(input)?)?,
    )?;
    let mut l = unary(UnaryOp::Neg, &binary(BinaryOp::Add, &a, &b)?)?;
    if let Some(w) = weight {
        l = binary(BinaryOp::Mul, &l, w)?;
    }
    reduce_loss(l, reduction)
}

/// ℓ = (1 - t) x + (1 + (pw - 1) t) softplus(-x), computed stably; its own node so
/// that the gradient σ(x) - t is exact (also at x = 0).
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
        let w = has_w.then(|| &t[2]);
        let pw = has_pw.then(|| &t[2 + has_w as usize]);
        bce_logits_body(&t[0], &t[1], w, pw, reduction)
    })
}

fn bce_logits_body(
    input: &Tensor,
    target: &Tensor,
    weight: Option<&Tensor>,
    pos_weight: Option<&Tensor>,
    reduction: &str,
) -> Result<Tensor> {
    let pw = match pos_weight {
        Some(p) => p.clone(),
        None => num(1.0),
    };
    let elementwise = crate::autograd::no_grad(|| -> Result<Tensor> {
        let softplus_neg = map_float(input, |v| (-v).max(0.0) + (-v.abs()).exp().ln_1p());
        let coef = binary(
            BinaryOp::Add,
            &num(1.0),
            &binary(
                BinaryOp::Mul,
                &binary(BinaryOp::Sub, &pw, &num(1.0))?,
                target,
            )?,
        )?;
        binary(
            BinaryOp::Add,
            &binary(
                BinaryOp::Mul,
                &binary(BinaryOp::Sub, &num(1.0), target)?,
                input,
            )?,
            &binary(BinaryOp::Mul, &coef, &softplus_neg.to_dtype(input.dtype()))?,
        )
    })?;
    let (sx, st, spw) = (Saved::new(input), Saved::new(target), Saved::new(&pw));
    let l = record(
        elementwise,
        "BinaryCrossEntropyWithLogitsBackward0",
        &[input, target],
        true,
        move || {
            rule(move |g| {
                let (x, t, pw) = (sx.get()?, st.get()?, spw.get()?);
                let sig = map_float(&x, sigmoid).to_dtype(x.dtype());
                let coef = binary(
                    BinaryOp::Add,
                    &num(1.0),
                    &binary(BinaryOp::Mul, &binary(BinaryOp::Sub, &pw, &num(1.0))?, &t)?,
                )?;
                // dℓ/dx = (1 + (pw-1) t) σ(x) - pw t.
                let dx = binary(
                    BinaryOp::Sub,
                    &binary(BinaryOp::Mul, &coef, &sig)?,
                    &binary(BinaryOp::Mul, &pw, &t)?,
                )?;
                // dℓ/dt = -x + (pw - 1) softplus(-x).
                let sp =
                    map_float(&x, |v| (-v).max(0.0) + (-v.abs()).exp().ln_1p()).to_dtype(x.dtype());
                let dt = binary(
                    BinaryOp::Sub,
                    &binary(BinaryOp::Mul, &binary(BinaryOp::Sub, &pw, &num(1.0))?, &sp)?,
                    &x,
                )?;
                Ok(vec![
                    Some(binary(BinaryOp::Mul, g, &dx)?),
                    Some(binary(BinaryOp::Mul, g, &dt)?),
                ])
            })
        },
    );
    let l = match weight {
        Some(w) => binary(BinaryOp::Mul, &l, w)?,
        None => l,
    };
    reduce_loss(l, reduction)
}

// ---- convolution and pooling ----

/// A 2-d sliding window: kernel, stride, padding before and in total, dilation.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub pad_before: [usize; 2],
    pub pad_total: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

impl Window {
    fn out_size(&self, input: [usize; 2]) -> Result<[usize; 2]> {
        let mut out = [0usize; 2];
        for d in 0..2 {
            let span = self.dilation[d] * (self.kernel[d] - 1) + 1;
            let padded = input[d] + self.pad_total[d];
            if padded < span {
                return Err(shape_err(format!(
                    "the input's spatial size {}x{} (padded {}) is smaller than the kernel's reach {}",
                    input[0],
                    input[1],
                    padded,
                    span
                ))
                .hint("use a smaller kernel or more padding, or check the input's shape (N, C, H, W)"));
            }
            let room = padded - span;
            let s = self.stride[d];
            let mut n = if self.ceil_mode {
                room.div_ceil(s)
            } else {
                room / s
            } + 1;
            // A window must start inside the input or its leading padding.
            if self.ceil_mode && (n - 1) * s >= input[d] + self.pad_before[d] {
                n -= 1;
            }
            out[d] = n;
        }
        Ok(out)
    }
}

/// Where each window element comes from: for input (N, C, H, W), an index per
/// (n, c, kernel position, output position) into the flattened input, or the
/// sentinel N*C*H*W for padding. Also, per output position, how many window
/// elements fall in the input and how many in the padded box.
struct Windows {
    out: [usize; 2],
    index: Vec<i64>,
    in_input: Vec<usize>,
    in_box: Vec<usize>,
}

fn windows(shape: &[usize], w: &Window) -> Result<Windows> {
    let (n, c, h, wd) = (shape[0], shape[1], shape[2], shape[3]);
    let out = w.out_size([h, wd])?;
    let (kk, l) = (w.kernel[0] * w.kernel[1], out[0] * out[1]);
    let total = n * c * kk * l;
    crate::tensor::core::check_alloc(&[total], DType::I64)?;
    let sentinel = (n * c * h * wd) as i64;
    // Offsets within one (n, c) plane, or -1 for padding.
    let mut plane = vec![-1i64; kk * l];
    let mut in_input = vec![0usize; l];
    let mut in_box = vec![0usize; l];
    for oy in 0..out[0] {
        for ox in 0..out[1] {
            let o = oy * out[1] + ox;
            for ky in 0..w.kernel[0] {
                for kx in 0..w.kernel[1] {
                    let y = (oy * w.stride[0] + ky * w.dilation[0]) as i64 - w.pad_before[0] as i64;
                    let x = (ox * w.stride[1] + kx * w.dilation[1]) as i64 - w.pad_before[1] as i64;
                    let inside_box = y < (h + w.pad_total[0] - w.pad_before[0]) as i64
                        && x < (wd + w.pad_total[1] - w.pad_before[1]) as i64;
                    if inside_box {
                        in_box[o] += 1;
                    }
                    if y >= 0 && x >= 0 && (y as usize) < h && (x as usize) < wd {
                        plane[(ky * w.kernel[1] + kx) * l + o] = y * wd as i64 + x;
                        in_input[o] += 1;
                    }
                }
            }
        }
    }
    let mut index = Vec::with_capacity(total);
    for p in 0..n * c {
        let base = (p * h * wd) as i64;
        index.extend(
            plane
                .iter()
                .map(|&o| if o < 0 { sentinel } else { base + o }),
        );
    }
    Ok(Windows {
        out,
        index,
        in_input,
        in_box,
    })
}

/// The input's window elements as (N, C, kh*kw, L), padding filled with `pad`
/// (im2col). One gather from the flattened input with a padding element appended;
/// its gradient sums back into the input.
fn unfold(x: &Tensor, win: &Windows, pad: f64) -> Result<Tensor> {
    let flat = reshape(x, &[-1])?;
    let filler = full(&[1], pad, 0, x.dtype())?;
    let padded = cat(&[flat, filler], 0)?.contiguous();
    let (n, c) = (x.shape()[0], x.shape()[1]);
    let l = win.out[0] * win.out[1];
    let kk = win.index.len() / (n * c * l).max(1);
    let offsets: std::sync::Arc<Vec<usize>> =
        std::sync::Arc::new(win.index.iter().map(|&i| i as usize).collect());
    let shape = [n, c, kk, l];
    let cols = Tensor::from_contiguous(take(&padded.read(), &offsets), &shape);
    Ok(record_gather(
        "Im2ColBackward0",
        &padded,
        cols,
        move |positions| {
            Ok(Tensor::from_contiguous(
                take(&positions.read(), &offsets),
                &shape,
            ))
        },
    ))
}

/// Accept (C, H, W) as a batch of one, as PyTorch does.
fn batched(x: &Tensor, what: &str) -> Result<(Tensor, bool)> {
    match x.ndim() {
        4 => Ok((x.clone(), false)),
        3 => Ok((unsqueeze(x, 0)?, true)),
        _ => Err(shape_err(format!(
            "{what} expects a 4-d (N, C, H, W) or 3-d (C, H, W) input, but its shape is {}",
            fmt_shape(x.shape())
        ))
        .hint("add a batch dim with x.unsqueeze(0), or a channel dim with x.unsqueeze(1)")),
    }
}

fn unbatched(t: Tensor, was: bool) -> Result<Tensor> {
    if was { squeeze(&t, Some(&[0])) } else { Ok(t) }
}

pub enum Padding {
    Same,
    Explicit([usize; 2]),
}

pub fn conv2d(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    stride: [usize; 2],
    padding: Padding,
    dilation: [usize; 2],
    groups: usize,
) -> Result<Tensor> {
    let (x, was3) = batched(x, "conv2d")?;
    if w.ndim() != 4 {
        return Err(shape_err(format!(
            "conv2d's weight must be 4-d (out_channels, in_channels/groups, kH, kW), but its shape is {}",
            fmt_shape(w.shape())
        )));
    }
    if x.dtype() != w.dtype() {
        return Err(dtype_err(format!(
            "conv2d needs the input and weight in one dtype, but they are {} and {}",
            x.dtype(),
            w.dtype()
        ))
        .hint(format!("convert one, e.g. x{}", w.dtype().conversion())));
    }
    require_float(&x, "conv2d")?;
    let (cin, cout) = (x.shape()[1], w.shape()[0]);
    if groups == 0 || cin % groups != 0 || cout % groups != 0 || w.shape()[1] * groups != cin {
        return Err(shape_err(format!(
            "conv2d: the input has {cin} channels and the weight {} {} with groups={groups}; \
             the weight's dim 1 must be in_channels / groups = {}",
            fmt_shape(w.shape()),
            if groups == 1 { "" } else { "(grouped)" },
            cin.checked_div(groups).unwrap_or(0)
        ))
        .hint("weight shape is (out_channels, in_channels / groups, kH, kW)"));
    }
    let kernel = [w.shape()[2], w.shape()[3]];
    let (pad_before, pad_total) = match padding {
        Padding::Explicit(p) => (p, [2 * p[0], 2 * p[1]]),
        Padding::Same => {
            if stride != [1, 1] {
                return Err(value_err(
                    "padding='same' is not supported for strided convolutions",
                ));
            }
            let t = [dilation[0] * (kernel[0] - 1), dilation[1] * (kernel[1] - 1)];
            ([t[0] / 2, t[1] / 2], t)
        }
    };
    let win = Window {
        kernel,
        stride,
        pad_before,
        pad_total,
        dilation,
        ceil_mode: false,
    };
    let ws = windows(x.shape(), &win)?;
    if let Some(b) = b
        && b.shape() != [cout]
    {
        return Err(shape_err(format!(
            "conv2d's bias must have one value per output channel ({cout}), but its shape is {}",
            fmt_shape(b.shape())
        )));
    }
    let inputs: Vec<&Tensor> = [&x, w].into_iter().chain(b).collect();
    let y = composite("ConvolutionBackward0", &inputs, |t| {
        convolve(&t[0], &t[1], t.get(2), &ws, groups)
    })?;
    unbatched(y, was3)
}

/// The convolution itself: im2col windows times the weight as a batched matmul.
fn convolve(
    x: &Tensor,
    w: &Tensor,
    b: Option<&Tensor>,
    ws: &Windows,
    groups: usize,
) -> Result<Tensor> {
    let (cin, cout) = (x.shape()[1], w.shape()[0]);
    let kernel = [w.shape()[2], w.shape()[3]];
    let n = x.shape()[0];
    let (oh, ow) = (ws.out[0], ws.out[1]);
    let l = (oh * ow) as i64;
    let g = groups as i64;
    let per_group = (cin / groups * kernel[0] * kernel[1]) as i64;
    let cols = reshape(&unfold(x, ws, 0.0)?, &[n as i64, g, per_group, l])?;
    let wm = reshape(w, &[g, cout as i64 / g, per_group])?;
    let y = matmul(&wm, &cols)?;
    let y = reshape(&y, &[n as i64, cout as i64, oh as i64, ow as i64])?;
    match b {
        Some(b) => binary(BinaryOp::Add, &y, &reshape(b, &[1, cout as i64, 1, 1])?),
        None => Ok(y),
    }
}

pub struct Pool {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub padding: [usize; 2],
    pub dilation: [usize; 2],
    pub ceil_mode: bool,
}

fn pool_window(p: &Pool, what: &str) -> Result<Window> {
    for d in 0..2 {
        if p.kernel[d] == 0 || p.stride[d] == 0 || p.dilation[d] == 0 {
            return Err(value_err(format!(
                "{what}: kernel size, stride and dilation must be positive"
            )));
        }
        if p.padding[d] * 2 > p.kernel[d] {
            return Err(value_err(format!(
                "{what}: padding {} should be at most half the kernel size {}",
                p.padding[d], p.kernel[d]
            )));
        }
    }
    Ok(Window {
        kernel: p.kernel,
        stride: p.stride,
        pad_before: p.padding,
        pad_total: [2 * p.padding[0], 2 * p.padding[1]],
        dilation: p.dilation,
        ceil_mode: p.ceil_mode,
    })
}

/// max_pool2d; with `return_indices`, also each maximum's flat index in its H*W plane.
pub fn max_pool2d(
    input: &Tensor,
    p: &Pool,
    return_indices: bool,
) -> Result<(Tensor, Option<Tensor>)> {
    let (x, was3) = batched(input, "max_pool2d")?;
    let win = pool_window(p, "max_pool2d")?;
    let ws = windows(x.shape(), &win)?;
    let (n, c) = (x.shape()[0] as i64, x.shape()[1] as i64);
    let shape = [n, c, ws.out[0] as i64, ws.out[1] as i64];
    let mut arg = None;
    let values = composite("MaxPool2DWithIndicesBackward0", &[input], |t| {
        let (x, _) = batched(&t[0], "max_pool2d")?;
        let cols = unfold(&x, &ws, f64::NEG_INFINITY)?;
        let (values, a) = max_min_dim(&cols, 2, false, true)?;
        arg = Some(a);
        unbatched(reshape(&values, &shape)?, was3)
    })?;
    // Unreachable: the composition above ran and set it, or returned its error.
    let arg = arg.expect("max_pool2d's composition ran");
    let indices = if return_indices {
        let hw = (x.shape()[2] * x.shape()[3]) as i64;
        let l = ws.out[0] * ws.out[1];
        let kk = ws.index.len() / (n as usize * c as usize * l).max(1);
        let a = arg.to_i64_vec();
        let picked: Vec<i64> = a
            .iter()
            .enumerate()
            .map(|(i, &k)| {
                let (plane, o) = (i / l, i % l);
                ws.index[(plane * kk + k as usize) * l + o] % hw.max(1)
            })
            .collect();
        Some(unbatched(
            reshape(&Tensor::from_vec(picked, &[a.len()]), &shape)?,
            was3,
        )?)
    } else {
        None
    };
    Ok((values, indices))
}

pub fn avg_pool2d(
    x: &Tensor,
    p: &Pool,
    count_include_pad: bool,
    divisor_override: Option<i64>,
) -> Result<Tensor> {
    let (xb, was3) = batched(x, "avg_pool2d")?;
    require_float(&xb, "avg_pool2d")?;
    let win = pool_window(p, "avg_pool2d")?;
    let ws = windows(xb.shape(), &win)?;
    composite("AvgPool2DBackward0", &[x], |t| {
        let (x, _) = batched(&t[0], "avg_pool2d")?;
        average(&x, &ws, count_include_pad, divisor_override, was3)
    })
}

fn average(
    x: &Tensor,
    ws: &Windows,
    count_include_pad: bool,
    divisor_override: Option<i64>,
    was3: bool,
) -> Result<Tensor> {
    let cols = unfold(x, ws, 0.0)?;
    let sums = reduce(&cols, ReduceOp::Sum, Some(&[2]), false)?;
    let divisors: Vec<f64> = match divisor_override {
        Some(d) if d != 0 => vec![d as f64; ws.in_box.len()],
        Some(_) => return Err(value_err("avg_pool2d: divisor_override must not be zero")),
        None if count_include_pad => ws.in_box.iter().map(|&k| k as f64).collect(),
        None => ws.in_input.iter().map(|&k| k as f64).collect(),
    };
    let l = divisors.len();
    let div = Tensor::from_vec(divisors, &[l]).to_dtype(x.dtype());
    let avg = binary(BinaryOp::Div, &sums, &div)?;
    let shape = [
        x.shape()[0] as i64,
        x.shape()[1] as i64,
        ws.out[0] as i64,
        ws.out[1] as i64,
    ];
    unbatched(reshape(&avg, &shape)?, was3)
}
