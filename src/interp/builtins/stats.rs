//! Statistics, counting and fused multiply-adds (the math is tensor/ops/stats.rs).

use super::Builtin;
use crate::error::{Result, type_err};
use crate::interp::value::Value;
use crate::op;
use crate::tensor::ops::stats as st;
use crate::tensor::{DType, Tensor};

/// Bessel's correction from `unbiased` (a bool) or `correction=`.
fn correction(unbiased: &Value, correction: Option<f64>) -> Result<f64> {
    match (unbiased, correction) {
        (_, Some(c)) => Ok(c),
        (Value::None, None) => Ok(1.0),
        (Value::Bool(b), None) => Ok(if *b { 1.0 } else { 0.0 }),
        (other, None) => Err(type_err(format!(
            "unbiased must be a bool, not {}",
            other.type_name()
        ))),
    }
}

fn cast(t: Tensor, dtype: Option<DType>) -> Result<Tensor> {
    match dtype {
        Some(d) => t.to_dtype(d),
        None => Ok(t),
    }
}

pub const ROWS: &[Builtin] = &[
    op!(
        Both,
        "nansum(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "The sum, NaNs counted as zero.",
        "nansum(tensor([1., nan, 2.]))",
        |input: Tensor, dim: Option<Vec<i64>>, keepdim: bool, dtype: Option<DType>| st::nansum(
            &cast(input, dtype)?,
            dim.as_deref(),
            keepdim
        )
    ),
    op!(
        Both,
        "nanmean(Tensor input, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
        "The mean of the elements that are not NaN.",
        "nanmean(tensor([1., nan, 3.]))",
        |input: Tensor, dim: Option<Vec<i64>>, keepdim: bool, dtype: Option<DType>| st::nanmean(
            &cast(input, dtype)?,
            dim.as_deref(),
            keepdim
        )
    ),
    op!(
        Function,
        "std_mean(Tensor input, int[1]? dim=None, Any unbiased=None, bool keepdim=False, *, float? correction=None) -> (Tensor, Tensor)",
        "The standard deviation and the mean, in one call.",
        "std_mean(tensor([1., 2., 4.]))",
        |input: Tensor,
         dim: Option<Vec<i64>>,
         unbiased: Value,
         keepdim: bool,
         correction: Option<f64>| {
            st::spread_mean(
                &input,
                dim.as_deref(),
                self::correction(&unbiased, correction)?,
                keepdim,
                true,
            )
        }
    ),
    op!(
        Function,
        "var_mean(Tensor input, int[1]? dim=None, Any unbiased=None, bool keepdim=False, *, float? correction=None) -> (Tensor, Tensor)",
        "The variance and the mean, in one call.",
        "var_mean(tensor([[1., 2.], [4., 5.]]), dim=1)",
        |input: Tensor,
         dim: Option<Vec<i64>>,
         unbiased: Value,
         keepdim: bool,
         correction: Option<f64>| {
            st::spread_mean(
                &input,
                dim.as_deref(),
                self::correction(&unbiased, correction)?,
                keepdim,
                false,
            )
        }
    ),
    op!(
        Both,
        "aminmax(Tensor input, *, int? dim=None, bool keepdim=False) -> (Tensor min, Tensor max)",
        "The smallest and the largest element (along dim).",
        "aminmax(tensor([[1, 5], [0, 3]]), dim=0)",
        |input: Tensor, dim: Option<i64>, keepdim: bool| st::aminmax(&input, dim, keepdim)
    ),
    op!(
        Both,
        "cummax(Tensor input, int dim) -> (Tensor values, Tensor indices)",
        "The running maximum along dim, and where each was reached.",
        "cummax(tensor([1, 3, 3, 2]), 0)",
        |input: Tensor, dim: i64| st::cumulative_extreme(&input, dim, true)
    ),
    op!(
        Both,
        "cummin(Tensor input, int dim) -> (Tensor values, Tensor indices)",
        "The running minimum along dim, and where each was reached.",
        "cummin(tensor([3, 1, 2, 0]), 0)",
        |input: Tensor, dim: i64| st::cumulative_extreme(&input, dim, false)
    ),
    op!(
        Both,
        "logcumsumexp(Tensor input, int dim) -> Tensor",
        "log(cumsum(exp(input))) along dim, without overflow.",
        "logcumsumexp(tensor([0., 1., 2.]), 0)",
        |input: Tensor, dim: i64| st::logcumsumexp(&input, dim)
    ),
    op!(
        Both,
        "quantile(Tensor input, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        "The q-th quantiles (q in [0, 1]) along dim, of all elements without one.",
        "quantile(tensor([0., 1., 2., 3.]), 0.4)",
        |input: Tensor, q: Tensor, dim: Option<i64>, keepdim: bool, interpolation: String| {
            st::quantile(&input, &q, dim, keepdim, &interpolation, false)
        }
    ),
    op!(
        Both,
        "nanquantile(Tensor input, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation=\"linear\") -> Tensor",
        "quantile, ignoring NaNs.",
        "nanquantile(tensor([0., nan, 2., 3.]), 0.5)",
        |input: Tensor, q: Tensor, dim: Option<i64>, keepdim: bool, interpolation: String| {
            st::quantile(&input, &q, dim, keepdim, &interpolation, true)
        }
    ),
    op!(
        Function,
        "searchsorted(Tensor sorted_sequence, Tensor input, *, bool out_int32=False, bool right=False, str? side=None, Tensor? sorter=None) -> Tensor",
        "Where each value would go in the sorted sequence (its last dim) to keep it sorted.",
        "searchsorted(tensor([1, 3, 5, 7, 9]), tensor([3, 6, 9]))",
        |sorted_sequence: Tensor,
         input: Tensor,
         out_int32: bool,
         right: bool,
         side: Option<String>,
         sorter: Option<Tensor>| {
            let seq = match sorter {
                Some(s) => crate::tensor::ops::select::gather(&sorted_sequence, -1, &s)?,
                None => sorted_sequence,
            };
            st::searchsorted(
                &seq,
                &input,
                right || side.as_deref() == Some("right"),
                out_int32,
            )
        }
    ),
    op!(
        Function,
        "bucketize(Tensor input, Tensor boundaries, *, bool out_int32=False, bool right=False) -> Tensor",
        "The bucket of each value among sorted 1-d boundaries.",
        "bucketize(tensor([3, 6, 9]), tensor([1, 3, 5, 7, 9]))",
        |input: Tensor, boundaries: Tensor, out_int32: bool, right: bool| st::searchsorted(
            &boundaries,
            &input,
            right,
            out_int32
        )
    ),
    op!(
        Both,
        "bincount(Tensor input, Tensor? weights=None, int minlength=0) -> Tensor",
        "How often each non-negative int occurs (or the sum of its weights).",
        "bincount(tensor([0, 1, 1, 3]))",
        |input: Tensor, weights: Option<Tensor>, minlength: i64| st::bincount(
            &input,
            weights.as_ref(),
            minlength
        )
    ),
    op!(
        Both,
        "histc(Tensor input, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
        "A histogram: counts in equal bins over [min, max] (the data's range when both are 0).",
        "histc(tensor([1., 2., 1.]), bins=4, min=0, max=3)",
        |input: Tensor, bins: i64, min: f64, max: f64| st::histc(&input, bins, min, max)
    ),
    op!(
        Both,
        "histogram(Tensor input, Any bins=100, *, Any range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor bin_edges)",
        "Counts (or summed weights) of the elements in bins: a count over range (the data's by default), or edges.",
        "histogram(tensor([1., 2., 1.]), bins=4, range=(0., 3.))",
        |input: Tensor, bins: Value, range: Value, weight: Option<Tensor>, density: bool| {
            let bins = bins_of(&bins, "histogram")?;
            let range = match float_list(&range, "histogram")? {
                Some(r) if r.len() == 2 => Some((r[0], r[1])),
                Some(_) => {
                    return Err(crate::error::value_err(
                        "histogram: range must be (min, max)",
                    ));
                }
                None => None,
            };
            let (hist, edges) = crate::tensor::ops::histogram::histogram(
                &input,
                bins,
                range,
                weight.as_ref(),
                density,
            )?;
            Ok::<Value, crate::error::Error>(crate::interp::call::named(
                "histogram",
                vec![
                    ("hist", Value::Tensor(hist)),
                    ("bin_edges", Value::Tensor(edges)),
                ],
            ))
        }
    ),
    op!(
        Function,
        "histogramdd(Tensor input, Any bins=10, *, Any range=None, Tensor? weight=None, bool density=False) -> (Tensor hist, Tensor[] bin_edges)",
        "A histogram of points (the last dim their coordinates): bins per dim as counts or edges; range [lo0, hi0, lo1, hi1, ...].",
        "histogramdd(tensor([[0., 1.], [1., 0.]]), bins=[2, 2])",
        |input: Tensor, bins: Value, range: Value, weight: Option<Tensor>, density: bool| {
            let d = input.shape().last().copied().unwrap_or(1);
            let bins = match &bins {
                Value::List(_) | Value::Tuple(_) => bins
                    .iter_items()?
                    .iter()
                    .map(|b| bins_of(b, "histogramdd"))
                    .collect::<Result<Vec<_>>>()?,
                one => (0..d)
                    .map(|_| bins_of(one, "histogramdd"))
                    .collect::<Result<Vec<_>>>()?,
            };
            let range = float_list(&range, "histogramdd")?;
            let (hist, edges) = crate::tensor::ops::histogram::histogramdd(
                &input,
                bins,
                range.as_deref(),
                weight.as_ref(),
                density,
            )?;
            Ok::<Value, crate::error::Error>(crate::interp::call::named(
                "histogramdd",
                vec![
                    ("hist", Value::Tensor(hist)),
                    (
                        "bin_edges",
                        Value::tuple(edges.into_iter().map(Value::Tensor).collect()),
                    ),
                ],
            ))
        }
    ),
    op!(
        Both,
        "heaviside(Tensor input, Tensor values) -> Tensor",
        "The step function: 0 below zero, 1 above, values at zero.",
        "heaviside(tensor([-1., 0., 2.]), tensor(0.5))",
        |input: Tensor, values: Tensor| st::heaviside(&input, &values)
    ),
    op!(
        Both,
        "signbit(Tensor input) -> Tensor",
        "Whether each element's sign bit is set (true for -0.).",
        "signbit(tensor([-0., 0., -1., 2.]))",
        |input: Tensor| st::signbit(&input)
    ),
    op!(Both inplace, "addmm(Tensor input, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "beta * input + alpha * (mat1 @ mat2).", "addmm(ones(2, 2), eye(2), eye(2), beta=0.5, alpha=2)",
        |input: Tensor, mat1: Tensor, mat2: Tensor, beta: f64, alpha: f64| st::add_product("AddmmBackward0", &input, &mat1, &mat2, beta, alpha)),
    op!(Both inplace, "addmv(Tensor input, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "beta * input + alpha * (mat @ vec).", "addmv(ones(2), eye(2), tensor([1., 2.]))",
        |input: Tensor, mat: Tensor, vec: Tensor, beta: f64, alpha: f64| st::add_product("AddmvBackward0", &input, &mat, &vec, beta, alpha)),
    op!(Both inplace, "baddbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "beta * input + alpha * (batch1 @ batch2), batch by batch.", "baddbmm(zeros(2, 1, 1), ones(2, 1, 3), ones(2, 3, 1)).shape",
        |input: Tensor, batch1: Tensor, batch2: Tensor, beta: f64, alpha: f64| st::add_product("BaddbmmBackward0", &input, &batch1, &batch2, beta, alpha)),
    op!(Both inplace, "addbmm(Tensor input, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "beta * input + alpha * (sum of the batch products).", "addbmm(zeros(1, 1), ones(2, 1, 3), ones(2, 3, 1))",
        |input: Tensor, batch1: Tensor, batch2: Tensor, beta: f64, alpha: f64| st::add_product("AddbmmBackward0", &input, &batch1, &batch2, beta, alpha)),
    op!(Both inplace, "addr(Tensor input, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        "beta * input + alpha * outer(vec1, vec2).", "addr(zeros(2, 2), tensor([1., 2.]), tensor([1., 3.]))",
        |input: Tensor, vec1: Tensor, vec2: Tensor, beta: f64, alpha: f64| st::add_product("AddrBackward0", &input, &vec1, &vec2, beta, alpha)),
    op!(Both inplace, "addcmul(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
        "input + value * tensor1 * tensor2.", "addcmul(ones(2), tensor([1., 2.]), tensor([3., 4.]), value=0.5)",
        |input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor| st::addc(&input, &tensor1, &tensor2, &value, false)),
    op!(Both inplace, "addcdiv(Tensor input, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor",
        "input + value * tensor1 / tensor2.", "addcdiv(ones(2), tensor([1., 2.]), tensor([4., 4.]))",
        |input: Tensor, tensor1: Tensor, tensor2: Tensor, value: Tensor| st::addc(&input, &tensor1, &tensor2, &value, true)),
];

/// histogram's bins: a count, or a tensor of edges.
fn bins_of(v: &Value, what: &str) -> Result<crate::tensor::ops::histogram::Bins> {
    use crate::tensor::ops::histogram::Bins;
    match v {
        Value::Tensor(t) if t.ndim() > 0 => Ok(Bins::Edges(t.clone())),
        other => crate::interp::convert::to_int(other, what, "bins").map(Bins::Count),
    }
}

/// An optional list of numbers (histogram's range).
fn float_list(v: &Value, what: &str) -> Result<Option<Vec<f64>>> {
    match v {
        Value::None => Ok(None),
        v => v
            .iter_items()?
            .iter()
            .map(|x| crate::interp::convert::to_float(x, what, "range"))
            .collect::<Result<Vec<_>>>()
            .map(Some),
    }
}
