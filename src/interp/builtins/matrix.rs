//! Matrices, grids and number theory built from other ops: block_diag,
//! diagflat, vander, cov, corrcoef, trapezoid, unravel_index,
//! broadcast_tensors/shapes, fliplr/flipud, swapdims, chain_matmul, inner,
//! gcd/lcm, fmax/fmin, ldexp, frexp, msort, positive, range (the math is
//! tensor/ops/matrix.rs).

use super::Builtin;
use crate::error::Result;
use crate::interp::call::named;
use crate::interp::convert;
use crate::interp::value::Value;
use crate::op;
use crate::tensor::Tensor;
use crate::tensor::ops::matrix as m;
use crate::tensor::ops::numeric as n;

pub const ROWS: &[Builtin] = &[
    op!(
        Function,
        "block_diag(Tensor *tensors) -> Tensor",
        "The tensors on the diagonal of a zero matrix.",
        "block_diag(ones(1, 2), tensor([[3]]))",
        |tensors: Value| m::block_diag(&tensor_list(&tensors, "block_diag")?)
    ),
    op!(
        Both,
        "diagflat(Tensor input, int offset=0) -> Tensor",
        "The flattened input on a diagonal of a square matrix.",
        "diagflat(tensor([[1, 2], [3, 4]]))",
        |input: Tensor, offset: i64| m::diagflat(&input, offset)
    ),
    op!(
        Function,
        "vander(Tensor x, int? N=None, bool increasing=False) -> Tensor",
        "The Vandermonde matrix: columns of powers of x.",
        "vander(tensor([1, 2, 3]), N=3)",
        |x: Tensor, n: Option<i64>, increasing: bool| m::vander(&x, n, increasing)
    ),
    op!(
        Both,
        "cov(Tensor input, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor",
        "The covariance matrix of the rows (variables) over the columns (observations).",
        "cov(tensor([[0., 1., 2.], [2., 1., 0.]]))",
        |input: Tensor, correction: i64, fweights: Option<Tensor>, aweights: Option<Tensor>| {
            m::cov(&input, correction, fweights.as_ref(), aweights.as_ref())
        }
    ),
    op!(
        Both,
        "corrcoef(Tensor input) -> Tensor",
        "Pearson's correlation coefficients of the rows.",
        "corrcoef(tensor([[0., 1., 2.], [2., 1., 0.]]))",
        |input: Tensor| m::corrcoef(&input)
    ),
    op!(
        Function,
        "trapezoid(Tensor y, Tensor? x=None, *, float? dx=None, int dim=-1) -> Tensor",
        "The trapezoid rule's integral of y along dim (at points x, or spacing dx).",
        "trapezoid(tensor([1., 5., 10.]))",
        |y: Tensor, x: Option<Tensor>, dx: Option<f64>, dim: i64| m::trapezoid(
            &y,
            x.as_ref(),
            dx,
            dim
        )
    ),
    op!(
        Function,
        "trapz(Tensor y, Tensor? x=None, *, float? dx=None, int dim=-1) -> Tensor",
        "Alias of trapezoid.",
        "trapz(tensor([1., 5., 10.]))",
        |y: Tensor, x: Option<Tensor>, dx: Option<f64>, dim: i64| m::trapezoid(
            &y,
            x.as_ref(),
            dx,
            dim
        )
    ),
    op!(
        Function,
        "cumulative_trapezoid(Tensor y, Tensor? x=None, *, float? dx=None, int dim=-1) -> Tensor",
        "The running trapezoid rule along dim.",
        "cumulative_trapezoid(tensor([1., 5., 10.]))",
        |y: Tensor, x: Option<Tensor>, dx: Option<f64>, dim: i64| m::cumulative_trapezoid(
            &y,
            x.as_ref(),
            dx,
            dim
        )
    ),
    op!(
        Function,
        "unravel_index(Tensor indices, int[] shape) -> Tensor[]",
        "Flat indices as coordinates in shape, one tensor per dim.",
        "unravel_index(tensor([4, 1]), (2, 3))",
        |indices: Tensor, shape: Vec<i64>| Ok::<Value, crate::error::Error>(Value::tuple(
            m::unravel_index(&indices, &shape)?
                .into_iter()
                .map(Value::Tensor)
                .collect()
        ))
    ),
    op!(
        Function,
        "broadcast_tensors(Tensor *tensors) -> Tensor[]",
        "The tensors expanded to their common shape (views).",
        "broadcast_tensors(tensor([1, 2]), tensor([[0], [1]]))[0]",
        |tensors: Value| Ok::<Value, crate::error::Error>(Value::tuple(
            m::broadcast_tensors(&tensor_list(&tensors, "broadcast_tensors")?)?
                .into_iter()
                .map(Value::Tensor)
                .collect()
        ))
    ),
    op!(
        Function,
        "broadcast_shapes(Any *shapes) -> Any",
        "The shape that tensors of these shapes broadcast to.",
        "broadcast_shapes((2,), (3, 1))",
        |shapes: Value| broadcast_shapes(&shapes)
    ),
    op!(
        Both,
        "fliplr(Tensor input) -> Tensor",
        "Columns in reverse order (dim 1).",
        "fliplr(tensor([[1, 2], [3, 4]]))",
        |input: Tensor| m::fliplr(&input)
    ),
    op!(
        Both,
        "flipud(Tensor input) -> Tensor",
        "Rows in reverse order (dim 0).",
        "flipud(tensor([[1, 2], [3, 4]]))",
        |input: Tensor| m::flipud(&input)
    ),
    op!(
        Both,
        "swapdims(Tensor input, int dim0, int dim1) -> Tensor",
        "Alias of transpose.",
        "swapdims(zeros(2, 3), 0, 1).shape",
        |input: Tensor, dim0: i64, dim1: i64| crate::tensor::ops::view::transpose(
            &input, dim0, dim1
        )
    ),
    op!(
        Function,
        "chain_matmul(Tensor *matrices) -> Tensor",
        "The product of the matrices, in order (torch.linalg.multi_dot).",
        "chain_matmul(ones(2, 3), ones(3, 4), ones(4, 1))",
        |matrices: Value| m::multi_dot(&tensor_list(&matrices, "chain_matmul")?)
    ),
    op!(
        Both,
        "inner(Tensor input, Tensor other) -> Tensor",
        "Sums of products over the last dims of both (the dot product for vectors).",
        "inner(tensor([1., 2.]), tensor([3., 4.]))",
        |input: Tensor, other: Tensor| m::inner(&input, &other)
    ),
    op!(
        Both,
        "gcd(Tensor input, Tensor other) -> Tensor",
        "The greatest common divisor, element-wise (integers).",
        "gcd(tensor([5, 10, 15]), tensor([3, 4, 5]))",
        |input: Tensor, other: Tensor| n::gcd(&input, &other)
    ),
    op!(
        Both,
        "lcm(Tensor input, Tensor other) -> Tensor",
        "The least common multiple, element-wise (integers).",
        "lcm(tensor([5, 10, 15]), tensor([3, 4, 5]))",
        |input: Tensor, other: Tensor| n::lcm(&input, &other)
    ),
    op!(
        Both,
        "fmax(Tensor input, Tensor other) -> Tensor",
        "The larger of each pair, taking the number where one is NaN.",
        "fmax(tensor([1., float('nan')]), tensor([2., 3.]))",
        |input: Tensor, other: Tensor| n::fmax_fmin(&input, &other, true)
    ),
    op!(
        Both,
        "fmin(Tensor input, Tensor other) -> Tensor",
        "The smaller of each pair, taking the number where one is NaN.",
        "fmin(tensor([1., float('nan')]), tensor([2., 3.]))",
        |input: Tensor, other: Tensor| n::fmax_fmin(&input, &other, false)
    ),
    op!(
        Both,
        "ldexp(Tensor input, Tensor other) -> Tensor",
        "input * 2 ** other.",
        "ldexp(tensor([1.]), tensor([3]))",
        |input: Tensor, other: Tensor| n::ldexp(&input, &other)
    ),
    op!(
        Both,
        "frexp(Tensor input) -> Tensor",
        "Mantissas in [0.5, 1) and integer exponents: input = mantissa * 2 ** exponent.",
        "frexp(tensor([8., 0.75]))",
        |input: Tensor| {
            let (mantissa, exponent) = n::frexp(&input)?;
            Ok::<Value, crate::error::Error>(named(
                "frexp",
                vec![
                    ("mantissa", Value::Tensor(mantissa)),
                    ("exponent", Value::Tensor(exponent)),
                ],
            ))
        }
    ),
    op!(
        Both,
        "msort(Tensor input) -> Tensor",
        "Sorted along dim 0.",
        "msort(tensor([[3, 1], [2, 4]]))",
        |input: Tensor| Ok::<Tensor, crate::error::Error>(
            crate::tensor::ops::sort::sort(&input, 0, false)?.0
        )
    ),
    op!(Method inplace, "fill_diagonal(Tensor input, Scalar fill_value, bool wrap=False) -> Tensor",
        "fill_value on the main diagonal (wrap: a tall matrix's diagonal restarts).",
        "zeros(3, 3).fill_diagonal_(5.)",
        |input: Tensor, fill_value: Tensor, wrap: bool| m::fill_diagonal(&input, &fill_value, wrap)),
    op!(
        Method,
        "unfold(Tensor input, int dimension, int size, int step) -> Tensor",
        "Windows of size along dimension, step apart, as a new last dim.",
        "arange(7.).unfold(0, 2, 2)",
        |input: Tensor, dimension: i64, size: i64, step: i64| crate::tensor::ops::view::unfold(
            &input, dimension, size, step
        )
    ),
    op!(
        Both,
        "narrow_copy(Tensor input, int dim, int start, int length) -> Tensor",
        "A copy of narrow(input, dim, start, length) (of a sparse COO tensor too).",
        "narrow_copy(arange(5), 0, 1, 2)",
        |input: super::sparse::AnyTensor, dim: i64, start: i64, length: i64| {
            super::sparse_methods::narrow_copy(input, dim, start, length)
        }
    ),
    op!(
        Function,
        "range(Scalar start=0, Scalar end, Scalar step=1, *, ScalarType? dtype=None) -> Tensor",
        "start to end inclusive, step apart (deprecated in PyTorch: arange excludes end).",
        "range(1, 4)",
        |start: f64, end: f64, step: f64, dtype: Option<crate::tensor::DType>| {
            crate::warnings::warn(
                crate::warnings::WarningKind::User,
                "torch.range is deprecated and will be removed in a future release because its behavior is inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in [start, end).",
            );
            m::range(
                start,
                end,
                step,
                dtype.unwrap_or_else(crate::tensor::dtype::default_float),
            )
        }
    ),
    op!(
        Function,
        "typename(Any obj) -> str",
        "The type's name: 'torch.FloatTensor' for a float32 tensor.",
        "typename(2.5)",
        |obj: Value| Ok::<Value, crate::error::Error>(Value::str(&typename(&obj)))
    ),
    op!(
        Function,
        "Size(Any sizes=()) -> Any",
        "A shape: torch.Size([2, 3]).",
        "Size([2, 3])",
        |sizes: Value| {
            let dims = convert::to_int_list(&sizes, "Size", "sizes")?;
            Ok::<Value, crate::error::Error>(Value::Shape(std::rc::Rc::new(convert::to_shape(
                &dims,
            )?)))
        }
    ),
    op!(
        Both,
        "select_scatter(Tensor input, Tensor src, int dim, int index) -> Tensor",
        "A copy of input with src in place of input.select(dim, index).",
        "select_scatter(zeros(2, 2), ones(2), 0, 0)",
        |input: Tensor, src: Tensor, dim: i64, index: i64| m::select_scatter(
            &input, &src, dim, index
        )
    ),
    op!(
        Both,
        "diagonal_scatter(Tensor input, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
        "A copy of input with src on its diagonal offset of dims dim1 and dim2.",
        "diagonal_scatter(zeros(2, 2), ones(2))",
        |input: Tensor, src: Tensor, offset: i64, dim1: i64, dim2: i64| {
            crate::tensor::ops::strided::diagonal_scatter(&input, &src, offset, dim1, dim2)
        }
    ),
    op!(
        Both,
        "as_strided_scatter(Tensor input, Tensor src, int[] size, int[] stride, int? storage_offset=None) -> Tensor",
        "A copy of input with src written through the view input.as_strided(size, stride, storage_offset).",
        "as_strided_scatter(zeros(3), ones(2), (2,), (2,))",
        |input: Tensor,
         src: Tensor,
         size: Vec<i64>,
         stride: Vec<i64>,
         storage_offset: Option<i64>| {
            crate::tensor::ops::strided::as_strided_scatter(
                &input,
                &src,
                &size,
                &stride,
                storage_offset,
            )
        }
    ),
    op!(
        Both,
        "as_strided(Tensor input, int[] size, int[] stride, int? storage_offset=None) -> Tensor",
        "A view of input's storage with these sizes and strides, from storage_offset (input's own by default).",
        "as_strided(arange(6), (2, 2), (1, 2))",
        |input: Tensor, size: Vec<i64>, stride: Vec<i64>, storage_offset: Option<i64>| {
            crate::tensor::ops::strided::as_strided(&input, &size, &stride, storage_offset)
        }
    ),
    op!(
        Both,
        "slice_scatter(Tensor input, Tensor src, int dim=0, int? start=None, int? end=None, int step=1) -> Tensor",
        "A copy of input with src in place of the slice start:end:step along dim.",
        "slice_scatter(zeros(4), ones(2), start=2)",
        |input: Tensor, src: Tensor, dim: i64, start: Option<i64>, end: Option<i64>, step: i64| {
            m::slice_scatter(&input, &src, dim, start, end, step)
        }
    ),
    op!(Method inplace, "masked_scatter(Tensor input, Tensor mask, Tensor source) -> Tensor",
        "source's elements, in order, where mask is true.",
        "zeros(4).masked_scatter(tensor([True, False, True, False]), tensor([1., 2.]))",
        |input: Tensor, mask: Tensor, source: Tensor| m::masked_scatter(&input, &mask, &source)),
    op!(
        Both,
        "positive(Tensor input) -> Tensor",
        "The input itself (unary plus); refused for bool.",
        "positive(tensor([-1, 2]))",
        |input: Tensor| positive(input)
    ),
];

pub(super) fn tensor_list(v: &Value, what: &str) -> Result<Vec<Tensor>> {
    let items = v.iter_items()?;
    let items = match &items[..] {
        [one @ (Value::List(_) | Value::Tuple(_))] => one.iter_items()?,
        _ => items,
    };
    items
        .iter()
        .map(|v| convert::to_tensor_arg(v, what, "tensors"))
        .collect()
}

fn broadcast_shapes(shapes: &Value) -> Result<Value> {
    let mut out: Vec<usize> = vec![];
    for s in shapes.iter_items()? {
        let dims = match s {
            Value::Int(n) => vec![n],
            other => convert::to_int_list(&other, "broadcast_shapes", "shapes")?,
        };
        let dims = convert::to_shape(&dims)?;
        out = crate::tensor::shape::broadcast_shapes(&out, &dims)?.to_vec();
    }
    Ok(Value::Shape(std::rc::Rc::new(out)))
}

fn positive(t: Tensor) -> Result<Tensor> {
    if t.dtype().is_bool() {
        return Err(crate::error::type_err(
            "The `+` operator, on a bool tensor is not supported.",
        ));
    }
    Ok(t)
}

/// torch.typename: a tensor's legacy type name; otherwise the dotted path of
/// a class, or of an object's class (Python's builtins bare).
fn typename(obj: &Value) -> String {
    let class = |c: &crate::interp::classes::Class| format!("{}.{}", c.path.borrow(), c.name);
    match obj {
        Value::Tensor(t) => super::convert_methods::legacy_type_name(t),
        Value::Class(c) => class(c),
        Value::Object(o) => class(&o.class),
        Value::Type(name) => name.rsplit('.').next().unwrap_or(name).to_string(),
        Value::Builtin(b) if b.name == "nn.Parameter" => "torch.nn.parameter.Parameter".into(),
        Value::Builtin(b) if b.name == "Tensor" => "torch.Tensor".into(),
        // Python's own types, which tsh calls as builtins.
        Value::Builtin(b)
            if matches!(
                b.name,
                "int" | "float" | "bool" | "str" | "list" | "tuple" | "dict" | "range" | "type"
            ) =>
        {
            b.name.to_string()
        }
        other => super::class_of(other).to_string(),
    }
}
