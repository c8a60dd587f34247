//! Statistics and counting built from other ops: nan-aware reductions,
//! std_mean/var_mean, aminmax, cummax/cummin, logcumsumexp, quantile,
//! searchsorted/bucketize, histc, bincount, heaviside, signbit, and the
//! fused multiply-adds (addmm, addmv, addbmm, baddbmm, addr, addcmul, addcdiv).

use crate::autograd::composite::composite;
use crate::autograd::{no_grad, relabel};
use crate::error::{Result, dtype_err, shape_err, value_err};
use crate::tensor::core::Tensor;
use crate::tensor::dtype::DType;
use crate::tensor::op::{BinaryOp, PredicateOp, ReduceOp, ScanOp, UnaryOp};
use crate::tensor::ops::arith::{add, bin, cmp, div, int, mul, num, sub, un, where_};
use crate::tensor::ops::creation::zeros_on;
use crate::tensor::ops::elementwise::{fused_multiply_add, predicate};
use crate::tensor::ops::index::{Idx, index, index_put_raw};
use crate::tensor::ops::matmul::matmul;
use crate::tensor::ops::reduce::{reduce, scan};
use crate::tensor::ops::view::{reshape, unsqueeze};
use crate::tensor::shape::normalize_dim;

fn dims_or_all(dims: Option<&[i64]>) -> Option<&[i64]> {
    dims.filter(|d| !d.is_empty())
}

/// x with NaNs as zeros (and whether each was one).
fn nan_to_zero(x: &Tensor) -> Result<(Tensor, Tensor)> {
    let nan = predicate(PredicateOp::IsNan, x)?;
    Ok((where_(&nan, &num(0.0), x)?, nan))
}

/// torch.nansum: the sum, NaNs counted as zero.
pub fn nansum(x: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    composite("NansumBackward0", &[x], |t| {
        reduce(
            &nan_to_zero(&t[0])?.0,
            ReduceOp::Sum,
            dims_or_all(dims),
            keepdim,
        )
    })
}

/// torch.nanmean: the mean of the elements that are not NaN.
pub fn nanmean(x: &Tensor, dims: Option<&[i64]>, keepdim: bool) -> Result<Tensor> {
    let (zeroed, nan) = nan_to_zero(x)?;
    let kept = predicate(PredicateOp::LogicalNot, &nan)?;
    let count = reduce(&kept, ReduceOp::Sum, dims_or_all(dims), keepdim)?;
    div(
        &reduce(&zeroed, ReduceOp::Sum, dims_or_all(dims), keepdim)?,
        &count,
    )
}

/// std_mean / var_mean: the spread (with Bessel's correction) and the mean.
pub fn spread_mean(
    x: &Tensor,
    dims: Option<&[i64]>,
    correction: f64,
    keepdim: bool,
    std: bool,
) -> Result<(Tensor, Tensor)> {
    let name = if std {
        "StdMeanBackward0"
    } else {
        "VarMeanBackward0"
    };
    let op = if std {
        ReduceOp::Std(correction)
    } else {
        ReduceOp::Var(correction)
    };
    let d = dims_or_all(dims);
    let spread = composite(name, &[x], |t| reduce(&t[0], op, d, keepdim))?;
    let mean = composite(name, &[x], |t| reduce(&t[0], ReduceOp::Mean, d, keepdim))?;
    Ok((spread, mean))
}

/// torch.aminmax: the smallest and largest elements (along dim).
pub fn aminmax(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<(Tensor, Tensor)> {
    let dims = dim.map(|d| vec![d]);
    let pick = |op| {
        composite("AminmaxBackward0", &[x], |t| {
            reduce(&t[0], op, dims.as_deref(), keepdim)
        })
    };
    Ok((pick(ReduceOp::Min)?, pick(ReduceOp::Max)?))
}

/// cummax/cummin: running extremes and where each was (the latest on ties),
/// in one backend pass.
pub fn cumulative_extreme(x: &Tensor, dim: i64, max: bool) -> Result<(Tensor, Tensor)> {
    let d = normalize_dim(dim, x.ndim().max(1))?;
    if x.ndim() == 0 {
        let (v, i) = cumulative_extreme(&reshape(x, &[1])?, 0, max)?;
        return Ok((reshape(&v, &[])?, reshape(&i, &[])?));
    }
    let (values, indices) = x.read().cum_extreme(x.layout(), d, max)?;
    let values = Tensor::from_contiguous(values, x.shape());
    let indices = Tensor::from_contiguous(indices, x.shape());
    let name = if max {
        "CummaxBackward0"
    } else {
        "CumminBackward0"
    };
    let values = crate::autograd::rules::shape::record_take_along(name, x, d, &indices, values);
    Ok((values, indices))
}

/// torch.logcumsumexp: log of the running sum of exp, shifted by the max for range.
pub fn logcumsumexp(x: &Tensor, dim: i64) -> Result<Tensor> {
    composite("LogcumsumexpBackward0", &[x], |t| {
        let m = no_grad(|| reduce(&t[0], ReduceOp::Max, Some(&[dim]), true))?;
        let m = where_(&predicate(PredicateOp::IsInf, &m)?, &num(0.0), &m)?;
        let s = scan(&un(UnaryOp::Exp, &sub(&t[0], &m)?)?, ScanOp::Sum, dim)?;
        add(&un(UnaryOp::Log, &s)?, &m)
    })
}

/// torch.quantile (nanquantile with `ignore_nan`): the q-th quantiles along dim
/// (of all elements without one), between sorted neighbours by `interpolation`.
pub fn quantile(
    x: &Tensor,
    q: &Tensor,
    dim: Option<i64>,
    keepdim: bool,
    interpolation: &str,
    ignore_nan: bool,
) -> Result<Tensor> {
    if !x.dtype().is_float() {
        return Err(crate::error::dtype_err(
            "quantile() input tensor must be either float or double dtype",
        ));
    }
    if q.to_host_f64()?.iter().any(|q| !(0.0..=1.0).contains(q)) {
        return Err(value_err("quantile() q values must be in the range [0, 1]"));
    }
    if !["linear", "lower", "higher", "midpoint", "nearest"].contains(&interpolation) {
        return Err(value_err(format!(
            "quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got {interpolation}"
        )));
    }
    let (flat, d) = match dim {
        None => (reshape(x, &[-1])?, 0),
        Some(dim) => (x.clone(), normalize_dim(dim, x.ndim().max(1))?),
    };
    let flat = if flat.ndim() == 0 {
        reshape(&flat, &[1])?
    } else {
        flat
    };
    let n = flat.shape()[d];
    let qs = q.to_host_f64()?;
    // One or two quantiles of whole slices need two order statistics each:
    // selections, not a sort of every slice (2x PyTorch's time).
    if !ignore_nan && qs.len() <= 2 && n > 0 {
        let has_nan = reduce(
            &predicate(PredicateOp::IsNan, &flat)?,
            ReduceOp::Any,
            Some(&[d as i64]),
            true,
        )?;
        let mut parts = vec![];
        for &qv in &qs {
            let v = selected_quantile(&flat, d, qv, interpolation)?;
            let v = where_(&has_nan, &num(f64::NAN), &v)?;
            parts.push(quantile_shape(v, x, dim, d, keepdim)?);
        }
        if q.ndim() == 0 {
            return Ok(parts.remove(0));
        }
        return crate::tensor::ops::join::stack(&parts, 0);
    }
    let (sorted, _) = crate::tensor::ops::sort::sort(&flat, d as i64, false)?;
    // How many values each slice ranks: NaNs sort last and, for nanquantile, do not count.
    let count = if ignore_nan {
        let valid = predicate(
            PredicateOp::LogicalNot,
            &predicate(PredicateOp::IsNan, &flat)?,
        )?;
        reduce(&valid, ReduceOp::Sum, Some(&[d as i64]), true)?.to_dtype(DType::F64)?
    } else {
        let mut shape = flat.shape().to_vec();
        shape[d] = 1;
        crate::tensor::ops::creation::full(&shape, n as f64, n as i64, DType::F64, x.device())?
    };
    let last = bin(BinaryOp::Maximum, &sub(&count, &num(1.0))?, &num(0.0))?;
    // quantile (not nanquantile) of a slice holding a NaN is NaN: NaNs sort
    // last, so the slice's last sorted value tells.
    let has_nan = match (ignore_nan, n) {
        (false, 1..) => Some(predicate(
            PredicateOp::IsNan,
            &crate::tensor::ops::view::narrow(&sorted, d as i64, n as i64 - 1, 1)?,
        )?),
        _ => None,
    };
    let mut parts = vec![];
    for qv in qs {
        let pos = mul(&last, &num(qv))?;
        let rank = |op: UnaryOp| -> Result<Tensor> { un(op, &pos)?.to_dtype(DType::I64) };
        let at = |i: &Tensor| crate::tensor::ops::select::gather(&sorted, d as i64, i);
        let (lo, hi) = (rank(UnaryOp::Floor)?, rank(UnaryOp::Ceil)?);
        let v = match interpolation {
            "lower" => at(&lo)?,
            "higher" => at(&hi)?,
            "nearest" => at(&rank(UnaryOp::Round)?)?,
            "midpoint" => {
                let (a, b) = (at(&lo)?, at(&hi)?);
                add(&a, &mul(&sub(&b, &a)?, &num(0.5))?)?
            }
            _ => {
                let frac = sub(&pos, &un(UnaryOp::Floor, &pos)?)?.to_dtype(x.dtype())?;
                crate::tensor::ops::elementwise::lerp(&at(&lo)?, &at(&hi)?, &frac)?
            }
        };
        let v = match &has_nan {
            Some(m) => where_(m, &num(f64::NAN), &v)?,
            None => v,
        };
        parts.push(quantile_shape(v, x, dim, d, keepdim)?);
    }
    if q.ndim() == 0 {
        return Ok(parts.remove(0));
    }
    crate::tensor::ops::join::stack(&parts, 0)
}

/// A quantile's values (`d` kept) in the shape the call asked for.
fn quantile_shape(
    v: Tensor,
    x: &Tensor,
    dim: Option<i64>,
    d: usize,
    keepdim: bool,
) -> Result<Tensor> {
    match (keepdim, dim) {
        (true, Some(_)) => Ok(v),
        (true, None) => reshape(&v, &vec![1; x.ndim()]),
        (false, _) => crate::tensor::ops::view::squeeze(&v, Some(&[d as i64])),
    }
}

/// The `qv` quantile of each slice along `d` (kept), from the order
/// statistics at its ranks' floor and ceiling, found by selection.
fn selected_quantile(flat: &Tensor, d: usize, qv: f64, interpolation: &str) -> Result<Tensor> {
    let n = flat.shape()[d];
    let pos = (n - 1) as f64 * qv;
    let at = |rank: f64| -> Result<Tensor> {
        Ok(crate::tensor::ops::sort::kthvalue(flat, rank as i64 + 1, d as i64, true)?.0)
    };
    // Both neighbours, one selection when they are the same rank.
    let both = || -> Result<(Tensor, Tensor)> {
        let a = at(pos.floor())?;
        let b = if pos.ceil() == pos.floor() {
            a.clone()
        } else {
            at(pos.ceil())?
        };
        Ok((a, b))
    };
    Ok(match interpolation {
        "lower" => at(pos.floor())?,
        "higher" => at(pos.ceil())?,
        "nearest" => at(pos.round_ties_even())?,
        "midpoint" => {
            let (a, b) = both()?;
            add(&a, &mul(&sub(&b, &a)?, &num(0.5))?)?
        }
        _ => {
            let frac =
                Tensor::scalar_f64(pos - pos.floor(), flat.dtype()).to_device(flat.device())?;
            let (a, b) = both()?;
            crate::tensor::ops::elementwise::lerp(&a, &b, &frac)?
        }
    })
}

/// torch.searchsorted: for each value, how many of the sorted sequence's
/// elements (its last dim) are below it (at or below with `right`).
pub fn searchsorted(seq: &Tensor, values: &Tensor, right: bool, int32: bool) -> Result<Tensor> {
    if seq.ndim() > 1
        && (values.ndim() != seq.ndim()
            || values.shape()[..values.ndim() - 1] != seq.shape()[..seq.ndim() - 1])
    {
        return Err(shape_err(
            "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor and input value tensor must match",
        ));
    }
    let n = seq.shape().last().copied().unwrap_or(1);
    let flat = if seq.ndim() <= 1 {
        Some(reshape(seq, &[-1])?)
    } else {
        None
    };
    // ATen's bounds: left stops at the first element not below the value
    // (`!(s >= v)` moves right), right at the first above it (`!(s > v)`),
    // so a NaN value lands at the end as in PyTorch.
    let stop = if right { BinaryOp::Gt } else { BinaryOp::Ge };
    let found = no_grad(|| {
        // A binary search per value, all values in step: `lo` counts the
        // elements known to be passed; each round tries to pass `step` more.
        // log2(n) rounds of a pick and a compare (it was a compare of every
        // value with every element: 10^5 values in 10^6 boundaries wanted
        // 93 GiB).
        let mut lo = zeros_on(values.shape(), DType::I64, values.device())?;
        let mut step = if n == 0 { 0 } else { 1usize << n.ilog2() };
        while step > 0 {
            let probe = add(&lo, &int(step as i64))?;
            let last = bin(BinaryOp::Minimum, &probe, &int(n as i64))?;
            let at_idx = sub(&last, &int(1))?;
            let at = match &flat {
                Some(f) => index(f, &[Idx::Tensor(at_idx)])?,
                None => crate::tensor::ops::select::gather(seq, -1, &at_idx)?,
            };
            let past_end = cmp(BinaryOp::Gt, &probe, &int(n as i64))?;
            let stays = cmp(BinaryOp::LogicalOr, &cmp(stop, &at, values)?, &past_end)?;
            lo = where_(&stays, &lo, &probe)?;
            step /= 2;
        }
        Ok(lo)
    })?;
    if int32 {
        found.to_dtype(DType::I32)
    } else {
        Ok(found)
    }
}

/// torch.bincount: how often each non-negative int occurs (or its weights' sum).
pub fn bincount(x: &Tensor, weights: Option<&Tensor>, minlength: i64) -> Result<Tensor> {
    if x.ndim() != 1 || x.dtype().is_float() || x.dtype() == DType::Bool {
        return Err(value_err(
            "bincount only supports 1-d non-negative integral inputs.",
        ));
    }
    let ints = x.to_dtype(DType::I64)?;
    let extreme = |op| crate::tensor::ops::scalar::item_i64(&reduce(&ints, op, None, false)?);
    let top = if x.numel() == 0 {
        -1
    } else {
        if extreme(ReduceOp::Min)? < 0 {
            return Err(value_err(
                "bincount only supports 1-d non-negative integral inputs.",
            ));
        }
        extreme(ReduceOp::Max)?
    };
    if let Some(w) = weights
        && w.shape() != x.shape()
    {
        return Err(value_err(
            "weights should be 1-d and have the same length as input",
        ));
    }
    let len = (top + 1).max(minlength.max(0)) as usize;
    let dtype = weights.map_or(DType::I64, |w| {
        if w.dtype() == DType::F32 {
            DType::F32
        } else {
            DType::F64
        }
    });
    let out = zeros_on(&[len], dtype, x.device())?;
    let add_in = match weights {
        Some(w) => w.to_dtype(dtype)?,
        None => Tensor::scalar_i64(1, DType::I64),
    };
    // Each count a scatter-add into its bin (an accumulating index_put took
    // 10^6 values into 100 bins 11 ms, PyTorch's bincount 2).
    no_grad(|| crate::tensor::ops::select::scatter(&out, 0, &ints, &add_in, true))
}

/// torch.histc: counts in `bins` equal bins over [min, max] (the data's range
/// when both are 0); elements outside are not counted.
pub fn histc(x: &Tensor, bins: i64, min: f64, max: f64) -> Result<Tensor> {
    if bins <= 0 {
        return Err(value_err("torch.histc: bins must be > 0"));
    }
    let (mut lo, mut hi) = (min, max);
    if lo == hi && x.numel() > 0 {
        lo = crate::tensor::ops::scalar::item_f64(&reduce(x, ReduceOp::Min, None, false)?)?;
        hi = crate::tensor::ops::scalar::item_f64(&reduce(x, ReduceOp::Max, None, false)?)?;
    }
    if lo == hi {
        lo -= 1.0;
        hi += 1.0;
    }
    if lo > hi {
        return Err(value_err("torch.histc: max must be larger than min"));
    }
    let flat = reshape(x, &[-1])?.to_dtype(DType::F64)?;
    let inside = bin(
        BinaryOp::LogicalAnd,
        &cmp(BinaryOp::Ge, &flat, &num(lo))?,
        &cmp(BinaryOp::Le, &flat, &num(hi))?,
    )?;
    let kept = index(&flat, &[Idx::Tensor(inside)])?;
    let scaled = un(
        UnaryOp::Floor,
        &mul(&sub(&kept, &num(lo))?, &num(bins as f64 / (hi - lo)))?,
    )?;
    let bin_of = bin(BinaryOp::Minimum, &scaled, &num((bins - 1) as f64))?.to_dtype(DType::I64)?;
    let out = zeros_on(&[bins as usize], x.dtype(), x.device())?;
    index_put_raw(
        &out,
        &[Idx::Tensor(bin_of)],
        &Tensor::scalar_f64(1.0, x.dtype()),
        true,
    )?;
    Ok(out)
}

/// torch.heaviside: 0 below zero, 1 above, `values` at zero.
pub fn heaviside(x: &Tensor, values: &Tensor) -> Result<Tensor> {
    let dtype = crate::tensor::promote::result_type(&[x.operand(), values.operand()]);
    let x = x.to_dtype(dtype)?;
    let step = cmp(BinaryOp::Gt, &x, &num(0.0))?.to_dtype(dtype)?;
    where_(
        &cmp(BinaryOp::Eq, &x, &num(0.0))?,
        &values.to_dtype(dtype)?,
        &step,
    )
}

/// torch.signbit: whether the sign bit is set (true for -0.0).
pub fn signbit(x: &Tensor) -> Result<Tensor> {
    if !x.dtype().is_float() {
        return cmp(BinaryOp::Lt, x, &num(0.0));
    }
    cmp(
        BinaryOp::Lt,
        &bin(BinaryOp::Copysign, &num(1.0), x)?,
        &num(0.0),
    )
}

/// `beta * input + alpha * product`, where beta 0 ignores input (NaNs included).
fn scaled_sum(input: &Tensor, product: &Tensor, beta: f64, alpha: f64) -> Result<Tensor> {
    let p = if alpha == 1.0 {
        product.clone()
    } else {
        mul(product, &num(alpha))?
    };
    match beta {
        0.0 => add(&crate::tensor::ops::arith::zeros_like(input)?, &p),
        1.0 => add(input, &p),
        b => add(&mul(input, &num(b))?, &p),
    }
}

/// addmm, addmv, baddbmm, addbmm, addr: `beta * input + alpha * (a ⊗ b)` as one node.
pub fn add_product(
    name: &'static str,
    input: &Tensor,
    a: &Tensor,
    b: &Tensor,
    beta: f64,
    alpha: f64,
) -> Result<Tensor> {
    let check = |want_a: usize, want_b: usize| -> Result<()> {
        if a.ndim() != want_a || b.ndim() != want_b {
            return Err(shape_err(format!(
                "{}: expected {want_a}-D and {want_b}-D operands, got {}-D and {}-D",
                name.trim_end_matches("Backward0").to_lowercase(),
                a.ndim(),
                b.ndim()
            )));
        }
        Ok(())
    };
    match name {
        "AddmmBackward0" => check(2, 2)?,
        "AddmvBackward0" => check(2, 1)?,
        "BaddbmmBackward0" | "AddbmmBackward0" => check(3, 3)?,
        _ => check(1, 1)?,
    }
    composite(name, &[input, a, b], |t| {
        let product = match name {
            "AddrBackward0" => mul(&unsqueeze(&t[1], 1)?, &unsqueeze(&t[2], 0)?)?,
            "AddbmmBackward0" => reduce(&matmul(&t[1], &t[2])?, ReduceOp::Sum, Some(&[0]), false)?,
            _ => matmul(&t[1], &t[2])?,
        };
        scaled_sum(&t[0], &product, beta, alpha)
    })
}

/// addcmul / addcdiv: `input + value * t1 * t2` (or `/ t2`), as PyTorch's kernel orders it.
pub fn addc(
    input: &Tensor,
    t1: &Tensor,
    t2: &Tensor,
    value: &Tensor,
    divide: bool,
) -> Result<Tensor> {
    let name = if divide {
        "AddcdivBackward0"
    } else {
        "AddcmulBackward0"
    };
    let dtype = crate::tensor::promote::result_type(&[input.operand(), t1.operand(), t2.operand()]);
    let integral = |t: &Tensor| !t.dtype().is_float() && !t.dtype().is_complex();
    if divide && integral(t1) && integral(t2) {
        return Err(dtype_err(
            "integer division with addcdiv is no longer supported (PyTorch refuses it too)",
        )
        .hint("for the old behaviour: (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype); for true division, convert tensor1 to float"));
    }
    // An integer result takes the value as an integer, truncated, as ATen
    // reads the Scalar in the tensors' dtype.
    let truncated;
    let value = if !dtype.is_float() && !dtype.is_complex() && value.dtype().is_float() {
        truncated = int(crate::tensor::ops::scalar::item_f64(value)?.trunc() as i64);
        &truncated
    } else {
        value
    };
    if let Some(out) = addc_one_pass(input, t1, t2, value, divide)? {
        return Ok(out);
    }
    let out = composite(name, &[input, t1, t2], |t| {
        // addcmul of float32 and float64 as ATen's compiled loop rounds it:
        // (value * t1) * t2 + input as one fused multiply-add. (addcdiv's
        // division comes last, so nothing fuses: input + (value * t1) / t2.)
        if !divide && matches!(dtype, DType::F32 | DType::F64) {
            return fused_multiply_add(name, &t[0], &mul(value, &t[1])?, &t[2]);
        }
        let scaled = mul(value, &t[1])?;
        let term = if divide {
            div(&scaled, &t[2])?
        } else {
            mul(&scaled, &t[2])?
        };
        add(&t[0], &term)
    })?;
    Ok(relabel(out, name))
}

/// addc into a fresh tensor as one update program (one pass over the
/// operands on the CPU, with the op's roundings) where nothing records and
/// the three tensors have one float32 or float64 dtype and one shape: op by
/// op, `value * t1` was a pass of its own. None: the caller computes it.
fn addc_one_pass(
    input: &Tensor,
    t1: &Tensor,
    t2: &Tensor,
    value: &Tensor,
    divide: bool,
) -> Result<Option<Tensor>> {
    let same = [t1, t2]
        .iter()
        .all(|t| t.dtype() == input.dtype() && t.shape() == input.shape());
    let float = matches!(input.dtype(), DType::F32 | DType::F64);
    let devices = [t1, t2].iter().all(|t| t.device() == input.device());
    if !same || !float || !devices || crate::autograd::needs_grad(&[input, t1, t2]) {
        return Ok(None);
    }
    let k = crate::tensor::ops::scalar::item_f64(value)?;
    let (u, next) = addc_update(input, t1, t2, k, divide);
    if let Some(out) = u.run_fresh(next)? {
        return Ok(Some(out));
    }
    // Elsewhere (the GPU, strided operands) into zeros, op by op.
    let out = zeros_on(input.shape(), input.dtype(), input.device())?;
    let (mut u, next) = addc_update(input, t1, t2, k, divide);
    let o = u.operand(&out);
    u.set(o, next);
    u.run()?;
    Ok(Some(out))
}

/// The update that computes `input + k * t1 * t2` (`/ t2` when `divide`),
/// and the value it makes.
fn addc_update(
    input: &Tensor,
    t1: &Tensor,
    t2: &Tensor,
    k: f64,
    divide: bool,
) -> (super::update::Update, super::update::Var) {
    let mut u = super::update::Update::new(input.dtype());
    let (x, a, b) = (u.operand(input), u.operand(t1), u.operand(t2));
    let next = if divide {
        u.addcdiv(x, a, b, k)
    } else {
        u.addcmul(x, a, b, k)
    };
    (u, next)
}

/// `input.addcmul_(t1, t2, value=k)` (addcdiv_ when `divide`) in one pass
/// over input, with addc's roundings, where t1 and t2 have input's shape and
/// its float32 or float64 dtype and nothing records the update. Ok(false):
/// nothing written.
pub fn addc_in_place(
    input: &Tensor,
    t1: &Tensor,
    t2: &Tensor,
    value: f64,
    divide: bool,
) -> Result<bool> {
    if !super::update::fits_in_place(input, &[t1, t2]) {
        return Ok(false);
    }
    let (mut u, next) = addc_update(input, t1, t2, value, divide);
    let x = u.operand(input);
    u.set(x, next);
    u.run()?;
    Ok(true)
}

/// median's NaN rule: a slice holding a NaN has median NaN, at its first NaN.
pub fn median_nan(
    x: &Tensor,
    dim: Option<i64>,
    keepdim: bool,
    values: Tensor,
    indices: Option<Tensor>,
) -> Result<(Tensor, Option<Tensor>)> {
    if !x.dtype().is_float() {
        return Ok((values, indices));
    }
    let isnan = predicate(PredicateOp::IsNan, x)?;
    let d = dim.map(|d| [d]);
    let dims = d.as_ref().map(|d| &d[..]);
    let any = reduce(&isnan, ReduceOp::Any, dims, keepdim)?;
    let values = where_(&any, &num(f64::NAN), &values)?;
    let indices = match indices {
        Some(i) => {
            let first = reduce(
                &isnan.to_dtype(DType::I64)?,
                ReduceOp::ArgMax,
                dims,
                keepdim,
            )?;
            Some(where_(&any, &first, &i)?)
        }
        None => None,
    };
    Ok((values, indices))
}

/// torch.nanmedian: the lower median of each slice's non-NaN values (NaN
/// where all are NaN), with its index when a dim is given.
pub fn nanmedian(x: &Tensor, dim: Option<i64>, keepdim: bool) -> Result<(Tensor, Tensor)> {
    let (t, d) = match dim {
        None => (reshape(x, &[-1])?, 0),
        Some(d) if x.ndim() == 0 => (reshape(x, &[1])?, normalize_dim(d, 1)? as i64),
        Some(d) => (x.clone(), normalize_dim(d, x.ndim())? as i64),
    };
    if t.shape()[d as usize] == 0 {
        return Err(value_err("nanmedian() input tensor cannot be empty"));
    }
    let (sorted, order) = crate::tensor::ops::sort::sort(&t, d, false)?;
    let valid = predicate(PredicateOp::LogicalNot, &predicate(PredicateOp::IsNan, &t)?)?;
    let count = reduce(
        &valid.to_dtype(DType::I64)?,
        ReduceOp::Sum,
        Some(&[d]),
        true,
    )?;
    // (count - 1) // 2, and 0 for an all-NaN slice.
    let k = bin(BinaryOp::FloorDiv, &sub(&count, &int(1))?, &int(2))?;
    let k = bin(BinaryOp::Maximum, &k, &int(0))?;
    let values = crate::tensor::ops::select::gather(&sorted, d, &k)?;
    let indices = crate::tensor::ops::select::gather(&order, d, &k)?;
    let squeeze = |v: Tensor| -> Result<Tensor> {
        match (dim, keepdim) {
            (None, _) => reshape(&v, &[]),
            (Some(_), true) if x.ndim() > 0 => Ok(v),
            _ => crate::tensor::ops::view::squeeze(&v, Some(&[d])),
        }
    };
    Ok((squeeze(values)?, squeeze(indices)?))
}
