//! Ops that pick, place or mask elements: gather/scatter, the index_* family,
//! masks, diagonals and triangles, roll, take (the math is tensor/ops/select.rs).

use super::Builtin;
use crate::interp::value::Value;
use crate::op;
use crate::tensor::ops::select as s;
use crate::tensor::{DType, Device, Tensor};

pub const ROWS: &[Builtin] = &[
    op!(Both inplace, "masked_fill(Tensor input, Tensor mask, Scalar value) -> Tensor",
        "value where mask is True, input elsewhere (mask broadcasts).",
        "tensor([1., 2., 3.]).masked_fill(tensor([True, False, True]), 0)",
        |input: Tensor, mask: Tensor, value: Tensor| s::masked_fill(&input, &mask, &value)),
    op!(
        Both,
        "masked_select(Tensor input, Tensor mask) -> Tensor",
        "The elements where mask (broadcast) is True, as a 1-d tensor.",
        "masked_select(arange(4).reshape(2, 2), tensor([True, False]))",
        |input: Tensor, mask: Tensor| s::masked_select(&input, &mask)
    ),
    op!(Both inplace, "tril(Tensor input, int diagonal=0) -> Tensor",
        "The lower triangle (on and below the diagonal), zeros above.", "tril(ones(3, 3))",
        |input: Tensor, diagonal: i64| s::triangle(&input, diagonal, true)),
    op!(Both inplace, "triu(Tensor input, int diagonal=0) -> Tensor",
        "The upper triangle (on and above the diagonal), zeros below.", "triu(ones(3, 3), diagonal=1)",
        |input: Tensor, diagonal: i64| s::triangle(&input, diagonal, false)),
    op!(
        Function,
        "tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
        "The (row, col) indices of a row×col matrix's lower triangle, as a 2×N tensor.",
        "tril_indices(3, 3)",
        |row: i64, col: i64, offset: i64, dtype: Option<DType>, device: Option<Device>| {
            s::triangle_indices(
                row,
                col,
                offset,
                true,
                dtype.unwrap_or(DType::I64),
                device.unwrap_or_else(crate::tensor::device::default_device),
            )
        }
    ),
    op!(
        Function,
        "triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
        "The (row, col) indices of a row×col matrix's upper triangle, as a 2×N tensor.",
        "triu_indices(3, 3, 1)",
        |row: i64, col: i64, offset: i64, dtype: Option<DType>, device: Option<Device>| {
            s::triangle_indices(
                row,
                col,
                offset,
                false,
                dtype.unwrap_or(DType::I64),
                device.unwrap_or_else(crate::tensor::device::default_device),
            )
        }
    ),
    op!(
        Both,
        "diag(Tensor input, int diagonal=0) -> Tensor",
        "A 1-D input as a diagonal matrix; a 2-D input's diagonal.",
        "diag(tensor([1, 2, 3]))",
        |input: Tensor, diagonal: i64| s::diag(&input, diagonal)
    ),
    op!(
        Both,
        "diagonal(Tensor input, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        "A view of the diagonal of dims dim1 and dim2 (as the last dim).",
        "diagonal(arange(9).reshape(3, 3), 1)",
        |input: Tensor, offset: i64, dim1: i64, dim2: i64| s::diagonal(&input, offset, dim1, dim2)
    ),
    op!(
        Both,
        "diag_embed(Tensor input, int offset=0, int dim1=-2, int dim2=-1) -> Tensor",
        "The last dim placed on a diagonal of two new dims (zeros elsewhere).",
        "diag_embed(tensor([[1, 2], [3, 4]]))",
        |input: Tensor, offset: i64, dim1: i64, dim2: i64| s::diag_embed(
            &input, offset, dim1, dim2
        )
    ),
    op!(
        Both,
        "trace(Tensor input) -> Tensor",
        "Sum of the main diagonal of a matrix.",
        "trace(tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor| s::trace(&input)
    ),
    op!(
        Both,
        "index_select(Tensor input, int dim, Tensor index) -> Tensor",
        "The entries at index (1-D int64) along dim.",
        "arange(6).reshape(2, 3).index_select(1, tensor([0, 2]))",
        |input: Tensor, dim: i64, index: Tensor| s::index_select(&input, dim, &index)
    ),
    op!(
        Both,
        "gather(Tensor input, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
        "out[i][j] = input[index[i][j]][j] (dim=0), and so on for each dim.",
        "tensor([[1, 2], [3, 4]]).gather(1, tensor([[0, 0], [1, 0]]))",
        |input: Tensor, dim: i64, index: Tensor, _sparse_grad: bool| s::gather(&input, dim, &index)
    ),
    op!(
        Both,
        "take(Tensor input, Tensor index) -> Tensor",
        "Elements of the flattened input at index, in index's shape.",
        "take(tensor([[4, 3, 5], [6, 7, 8]]), tensor([0, 2, 5]))",
        |input: Tensor, index: Tensor| s::take(&input, &index)
    ),
    op!(
        Both,
        "take_along_dim(Tensor input, Tensor indices, int? dim=None) -> Tensor",
        "gather with indices broadcast against input (flattened when dim is None).",
        "take_along_dim(tensor([[10, 30, 20], [60, 40, 50]]), tensor([[0], [1]]), dim=1)",
        |input: Tensor, indices: Tensor, dim: Option<i64>| s::take_along_dim(&input, &indices, dim)
    ),
    op!(Both inplace, "scatter(Tensor input, int dim, Tensor index, Tensor? src=None, *, Scalar? value=None, str? reduce=None) -> Tensor",
    "A copy of input with src (or value) written at index along dim.",
    "zeros(3, 4).scatter(0, tensor([[0, 1, 2, 0]]), 1.0)",
    |input: Tensor, dim: i64, index: Tensor, src: Option<Tensor>, value: Option<Tensor>, reduce: Option<String>| {
        scatter(&input, dim, &index, src.or(value), reduce.as_deref())
    }),
    op!(Both inplace, "scatter_reduce(Tensor input, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor",
    "src reduced into input at index along dim: sum, prod, mean, amax or amin.",
    "tensor([1., 2., 3., 4.]).scatter_reduce(0, tensor([0, 1, 0, 1, 2, 1]), tensor([1., 2., 3., 4., 5., 6.]), 'sum')",
    |input: Tensor, dim: i64, index: Tensor, src: Tensor, reduce: String, include_self: bool| {
        crate::tensor::ops::grouped::scatter_reduce(&input, dim, &index, &src, &reduce, include_self)
    }),
    op!(
        Both,
        "mode(Tensor input, int dim=-1, bool keepdim=False) -> Tensor",
        "The most frequent value of each slice along dim (the smallest of a tie), and where it last occurs.",
        "mode(tensor([[1, 2, 2], [3, 3, 1]]))",
        |input: Tensor, dim: i64, keepdim: bool| {
            let (values, indices) = crate::tensor::ops::grouped::mode(&input, dim, keepdim)?;
            Ok::<Value, crate::error::Error>(crate::interp::call::named(
                "mode",
                vec![
                    ("values", Value::Tensor(values)),
                    ("indices", Value::Tensor(indices)),
                ],
            ))
        }
    ),
    op!(Both inplace, "scatter_add(Tensor input, int dim, Tensor index, Tensor src) -> Tensor",
        "A copy of input with src added at index along dim (repeats add up).",
        "zeros(3).scatter_add(0, tensor([0, 1, 0]), tensor([1., 2., 3.]))",
        |input: Tensor, dim: i64, index: Tensor, src: Tensor| s::scatter(&input, dim, &index, &src, true)),
    op!(Both inplace, "index_add(Tensor input, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    "A copy of input with alpha * source added at index (1-D) along dim.",
    "zeros(3, 2).index_add(0, tensor([0, 2]), ones(2, 2))",
    |input: Tensor, dim: i64, index: Tensor, source: Tensor, alpha: f64| {
        s::index_place(&input, dim, &index, &s::times(&source, alpha)?, true)
    }),
    op!(Both inplace, "put(Tensor input, Tensor index, Tensor source, bool accumulate=False) -> Tensor",
    "A copy of input, seen flat, with source written (or added, with accumulate) at index.",
    "tensor([[4, 3, 5], [6, 7, 8]]).put(tensor([1, -1]), tensor([9, 10]))",
    |input: Tensor, index: Tensor, source: Tensor, accumulate: bool| {
        crate::tensor::ops::grouped::put(&input, &index, &source, accumulate)
    }),
    op!(Both inplace, "index_reduce(Tensor input, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor",
    "source's slices along dim reduced into input at index (1-D): prod, mean, amax or amin.",
    "ones(3).index_reduce(0, tensor([0, 0, 2]), tensor([2., 3., 4.]), 'prod')",
    |input: Tensor, dim: i64, index: Tensor, source: Tensor, reduce: String, include_self: bool| {
        crate::tensor::ops::grouped::index_reduce(&input, dim, &index, &source, &reduce, include_self)
    }),
    op!(Both inplace, "index_copy(Tensor input, int dim, Tensor index, Tensor source) -> Tensor",
        "A copy of input with source's slices written at index (1-D) along dim.",
        "zeros(3, 2).index_copy(0, tensor([2, 0]), tensor([[1., 2.], [3., 4.]]))",
        |input: Tensor, dim: i64, index: Tensor, source: Tensor| s::index_place(&input, dim, &index, &source, false)),
    op!(Both inplace, "index_fill(Tensor input, int dim, Tensor index, Scalar value) -> Tensor",
        "A copy of input with value written at index (1-D) along dim.",
        "zeros(2, 3).index_fill(1, tensor([0, 2]), -1)",
        |input: Tensor, dim: i64, index: Tensor, value: Tensor| s::index_fill(&input, dim, &index, &value)),
    op!(
        Both,
        "roll(Tensor input, int[1] shifts, int[1]? dims=None) -> Tensor",
        "Elements shifted along dims, wrapping around (flattened when dims is None).",
        "roll(arange(5), 2)",
        |input: Tensor, shifts: Vec<i64>, dims: Option<Vec<i64>>| s::roll(
            &input,
            &shifts,
            &dims.unwrap_or_default()
        )
    ),
    op!(
        Both,
        "argwhere(Tensor input) -> Tensor",
        "The indices of the non-zero elements, one row each.",
        "argwhere(tensor([[1, 0], [0, 3]]))",
        |input: Tensor| crate::tensor::ops::sort::nonzero(&input)
    ),
    op!(
        Both,
        "isin(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
        "Whether each element is among test_elements.",
        "isin(tensor([[1, 2], [3, 4]]), tensor([2, 3]))",
        |elements: Tensor, test_elements: Tensor, _assume_unique: bool, invert: bool| s::isin(
            &elements,
            &test_elements,
            invert
        )
    ),
];

fn scatter(
    t: &Tensor,
    dim: i64,
    index: &Tensor,
    src: Option<Tensor>,
    reduce: Option<&str>,
) -> crate::error::Result<Tensor> {
    let src = src.ok_or_else(|| {
        crate::error::type_err("scatter() missing 1 required positional arguments: \"src\"")
    })?;
    match reduce {
        None => s::scatter(t, dim, index, &src, false),
        Some("add") => s::scatter(t, dim, index, &src, true),
        Some("multiply") => {
            let sizes = crate::tensor::shape::sizes(index.shape());
            let src = match src.ndim() {
                0 => crate::tensor::ops::view::expand(&src.to_dtype(t.dtype())?, &sizes)?,
                _ => src,
            };
            crate::tensor::ops::grouped::scatter_reduce(t, dim, index, &src, "prod", true)
        }
        Some(r) => Err(crate::error::value_err(format!(
            "reduce argument must be either add or multiply, got {r}"
        ))),
    }
}
